import Foundation
import MapImage
import MapTestSupport
import Testing

/// A running `mapwright serve` on 127.0.0.1 (port chosen by the system), its output in files.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    let stdoutPath: String, stderrPath: String

    init(_ args: [String], dir: ScratchDirectory, name: String = "serve") throws {
        stdoutPath = dir.path("\(name).out")
        stderrPath = dir.path("\(name).err")
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = mapwrightExecutable()
        process.arguments = ["serve", "--port", "0"] + args
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try process.run()
        var found: Int?
        for _ in 0 ..< 600 where found == nil {
            let text = (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? ""
            if let r = text.range(of: "listening on http://127.0.0.1:") {
                found = Int(text[r.upperBound...].prefix { $0.isNumber })
            } else if !process.isRunning {
                break
            } else {
                usleep(50_000)
            }
        }
        guard let found else {
            process.terminate()
            throw CLIFailure("mapwright serve did not start: \((try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")")
        }
        port = found
    }

    var base: String { "http://127.0.0.1:\(port)" }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// GET with curl: status and body.
    func get(_ path: String, to file: String) throws -> Int {
        let r = try runProgram("/usr/bin/curl", ["-s", "-g", "-o", file, "-w", "%{http_code}", base + path])
        return Int(r.stdout) ?? -1
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}

struct CLIFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// Web Mercator by hand: pixel position in a world of 256·2^gz px (Google's zoom).
private func worldPixel(_ lat: Double, _ lon: Double, _ gz: Double) -> (x: Double, y: Double) {
    let size = 256 * pow(2, gz), phi = lat * .pi / 180
    return ((lon + 180) / 360 * size, (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * size)
}

@Suite(.serialized) struct ServeCLITests {
    let dir: ScratchDirectory
    init() throws { dir = try ScratchDirectory("serve") }

    static let root = repositoryRoot
    static let oracles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Oracles").path

    @Test func urlsBuiltByMotionlessDrawTheirMarkersAndPathsWhereTheCameraPutsThem() throws {
        let venv = Self.root.appendingPathComponent(".venv-oracles/bin/python").path
        let gen = try runProgram(venv, [Self.oracles + "/motionless_urls.py"])
        #expect(gen.status == 0, "\(gen.stderr)")
        let cases = try #require(try JSONSerialization.jsonObject(with: gen.data) as? [[String: Any]])
        #expect(cases.count == 3)
        let server = try ServeProcess(["--workers", "1"], dir: dir)
        defer { server.stop() }
        for (i, c) in cases.enumerated() {
            let name = c["name"] as! String
            let file = dir.path("\(name).png")
            // The URL as motionless built it with only the host changed (Google's path), and on
            // our /static.
            let urlPath = c["urlPath"] as! String
            #expect(urlPath == "/maps/api/staticmap")
            let status = try server.get((i == 1 ? "/static" : urlPath) + "?" + (c["query"] as! String), to: file)
            #expect(status == 200, "\(name): \(status)")
            let img = try Bitmap(contentsOfPNGFile: file)
            let size = c["size"] as! [Int]
            #expect(img.width == size[0] && img.height == size[1])
            let markers = c["markers"] as! [[Any]]
            let path = (c["path"] as! [[Double]])
            // With a centre and zoom, where Web Mercator puts each point (by hand); fitted views are
            // checked by where the pins' and the path's colours are found.
            if let center = c["center"] as? [Double], let zoom = c["zoom"] as? Double {
                let o = worldPixel(center[0], center[1], zoom)
                func px(_ lat: Double, _ lon: Double) -> (Int, Int) {
                    let p = worldPixel(lat, lon, zoom)
                    return (Int(p.x - o.x + Double(size[0]) / 2), Int(p.y - o.y + Double(size[1]) / 2))
                }
                for m in markers {
                    let (x, y) = px(m[0] as! Double, m[1] as! Double)
                    let p = try #require(img.pixel(x: x, y: y - 26), "\(name): marker off the image")
                    let blue = (m[2] as! String) == "0000ff"
                    if blue { #expect(Int(p.b) > Int(p.r) + 100 && Int(p.b) > Int(p.g) + 100, "\(name): \(p) at \(x),\(y - 26) is not the blue pin") }
                    else { #expect(Int(p.g) > Int(p.r) + 80 && Int(p.g) > Int(p.b) + 80, "\(name): \(p) at \(x),\(y - 26) is not the green pin") }
                }
                for k in 1 ..< max(1, path.count) {
                    let a = px(path[k - 1][0], path[k - 1][1]), b = px(path[k][0], path[k][1])
                    let p = try #require(img.pixel(x: (a.0 + b.0) / 2, y: (a.1 + b.1) / 2))
                    #expect(p.r > 200 && p.g < 60 && p.b < 60, "\(name): the path's segment \(k) is not red at its middle: \(p)")
                }
            } else {
                // Fitted: every marker's pin and the red path are on the image, inside the 12-px padding.
                var red = (Int.max, Int.max, Int.min, Int.min), blue = 0, green = 0
                for y in 0 ..< img.height {
                    for x in 0 ..< img.width {
                        let p = img.pixel(x: x, y: y)!
                        if p.r > 220 && p.g < 40 && p.b < 40 { red = (min(red.0, x), min(red.1, y), max(red.2, x), max(red.3, y)) }
                        if Int(p.b) > Int(p.r) + 150 && Int(p.b) > Int(p.g) + 150 {
                            blue += 1
                            #expect(y >= 8 && y < img.height - 8 && x >= 8 && x < img.width - 8, "\(name): blue pin pixel at the edge \(x),\(y)")
                        }
                        if Int(p.g) > Int(p.r) + 120 && Int(p.g) > Int(p.b) + 120 {
                            green += 1
                            #expect(y >= 8 && y < img.height - 8 && x >= 8 && x < img.width - 8, "\(name): green pin pixel at the edge \(x),\(y)")
                        }
                    }
                }
                #expect(blue > 100 && green > 100, "\(name): pins missing (\(blue), \(green))")
                #expect(red.0 >= 8 && red.1 >= 8 && red.2 < img.width - 8 && red.3 < img.height - 8, "\(name): path \(red) touches the edge")
                #expect(red.2 - red.0 > img.width / 2, "\(name): the fit is loose (path \(red))")
            }
        }
    }

    /// A page on another origin (here a file: page, origin "null") fetches the TileJSON and a tile
    /// as MapLibre GL JS does, in Chromium, and reads the tile's ETag; with `--cors none` the
    /// browser refuses the same fetch.
    @Test func aPageOnAnotherOriginFetchesTilesInChromium() throws {
        for cors in ["*", "none"] {
            let server = try ServeProcess(["--workers", "1", "--cors", cors], dir: dir, name: "cors")
            defer { server.stop() }
            let page = dir.path("other-origin.html")
            try """
            <!doctype html><html><body>waiting<script>
            (async () => {
              try {
                const j = await (await fetch("\(server.base)/tiles.json")).json();
                const t = await fetch(j.tiles[0].replace("{z}", "0").replace("{x}", "0").replace("{y}", "0"));
                const b = await t.arrayBuffer();
                document.body.textContent = "tilejson " + j.tilejson + " tile " + t.status + " " + b.byteLength +
                  " etag " + (t.headers.get("ETag") ? "readable" : "hidden");
              } catch (e) { document.body.textContent = "failed " + e; }
            })();
            </script></body></html>
            """.write(toFile: page, atomically: true, encoding: .utf8)
            let c = try runProgram(chromiumPath, ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
                                                          "--dump-dom", "file://" + page])
            #expect(c.status == 0, "\(c.stderr)")
            let dom = String(decoding: c.data, as: UTF8.self)
            if cors == "*" {
                #expect(dom.contains("tilejson 3.0.0 tile 200 ") && dom.contains("etag readable"), "\(dom)")
            } else {
                #expect(dom.contains("failed TypeError"), "\(dom)")
            }
        }
    }

    @Test func theSlippyPageShowsOurTilesInChromium() throws {
        let server = try ServeProcess(["--workers", "2"], dir: dir)
        defer { server.stop() }
        let shot = dir.path("page.png")
        let c = try runProgram(chromiumPath, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                                      "--window-size=512,512", "--virtual-time-budget=8000",
                                                      "--screenshot=\(shot)", server.base + "/"])
        #expect(c.status == 0, "\(c.stderr)")
        let page = try Bitmap(contentsOfPNGFile: shot)
        // Leaflet shows zoom 2 around 20°N 0°: compare with the very tiles it asked for, from our server.
        let tile = dir.path("t.png")
        #expect(try server.get("/tiles/2/1/1.png", to: tile) == 200)
        let t = try Bitmap(contentsOfPNGFile: tile)
        // Landmass colours of our basemap occupy a good share of the page, and the page is not blank.
        var distinct = Set<UInt32>()
        var sea = 0
        for y in stride(from: 0, to: page.height, by: 4) {
            for x in stride(from: 0, to: page.width, by: 4) {
                let p = page.pixel(x: x, y: y)!
                distinct.insert(UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b))
                if t.pixel(x: 2, y: 2).map({ abs(Int($0.b) - Int(p.b)) < 6 && abs(Int($0.g) - Int(p.g)) < 6 }) == true { sea += 1 }
            }
        }
        #expect(distinct.count > 50, "the page looks blank")
        // Leaflet places tile 2/1/1 where Web Mercator says: the centre (20°N, 0°) at zoom 2 is world
        // pixel (512, wy) at the middle of the 512-px page; tile 2/1/1 spans world 256…512 on both axes,
        // so page x 0…256 and y from 256 − wy + 256.
        let wy = worldPixel(20, 0, 2).y
        let top = (512 - wy).rounded()
        var same = 0, total = 0
        for y in stride(from: 80, to: 300, by: 7) {
            for x in stride(from: 10, to: 246, by: 7) {
                let a = page.pixel(x: x, y: y)!, b = t.pixel(x: x, y: min(255, max(0, y - Int(top))))!
                total += 1
                if max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b))) <= 12 { same += 1 }
            }
        }
        #expect(Double(same) / Double(total) > 0.9, "Leaflet's page differs from tile 2/1/1 where it should show it: \(same)/\(total)")
        _ = sea
    }

    @Test func tenThousandHostileRequestsAreAllRefusedAndTheServerStaysUp() throws {
        let server = try ServeProcess(["--workers", "2"], dir: dir)
        defer { server.stop() }
        let r = try runProgram("/usr/bin/python3", [Self.oracles + "/abuse_server.py", "\(server.port)", "\(server.process.processIdentifier)", "10000"])
        #expect(r.status == 0, "\(r.stderr)\nserver: \(server.stderr.suffix(3000))")
        let o = try #require(try JSONSerialization.jsonObject(with: r.data) as? [String: Any], "\(r.stdout)")
        #expect(o["requests"] as? Int == 10000)
        #expect(o["failureCount"] as? Int == 0, "failures: \(o["failures"] ?? "")")
        #expect(o["health"] as? Int == 200)
        let before = o["rssBeforeKB"] as? Int ?? 0, after = o["rssAfterKB"] as? Int ?? Int.max
        // Under a sanitizer (scripts/sanitize.sh) freed memory sits in quarantine and every heap
        // page has shadow memory, so resident size says nothing; LeakSanitizer checks instead.
        if ProcessInfo.processInfo.environment["MAPWRIGHT_SANITIZER"] == nil {
            #expect(after - before < 50 * 1024, "memory grew from \(before) to \(after) kB")
        }
        #expect(server.process.isRunning)
    }

    @Test func sigtermLetsRequestsInFlightFinishAndLogsAreJSONLines() throws {
        let server = try ServeProcess(["--workers", "1", "--log-format", "json"], dir: dir)
        // Three slow renders (2048×2048 at scale 2) queued on one renderer, then SIGTERM.
        let group = DispatchGroup()
        final class Box: @unchecked Sendable { var statuses: [Int] = []; let lock = NSLock() }
        let box = Box()
        for i in 0 ..< 3 {
            group.enter()
            let file = dir.path("slow\(i).png")
            DispatchQueue.global().async {
                let s = (try? server.get("/static?center=\(i),0&zoom=4&size=2048x2048&scale=2&theme=dark", to: file)) ?? -1
                box.lock.withLock { box.statuses.append(s) }
                group.leave()
            }
        }
        // SIGTERM once the server holds all three (one rendering, two queued).
        for _ in 0 ..< 200 {
            let h = try runProgram("/usr/bin/curl", ["-s", server.base + "/healthz"]).stdout
            if h.contains("\"queue\":2") { break }
            usleep(20_000)
        }
        kill(server.process.processIdentifier, SIGTERM)
        #expect(group.wait(timeout: .now() + 120) == .success)
        server.process.waitUntilExit()
        #expect(box.statuses == [200, 200, 200], "\(box.statuses)")
        #expect(server.process.terminationStatus == 0, "\(server.stderr)")
        for i in 0 ..< 3 { #expect((try? Bitmap(contentsOfPNGFile: dir.path("slow\(i).png")))?.width == 4096) }
        // Every log line is one JSON object with a level and a message.
        let lines = server.stderr.split(separator: "\n")
        #expect(lines.count >= 2)
        for line in lines {
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(o?["level"] != nil && o?["message"] != nil, "not a JSON log line: \(line)")
        }
    }

    @Test func aConfigFileSetsWhatFlagsDoAndBadConfigurationIsAClearError() throws {
        let cfg = try dir.write("server.json", #"{"workers": 1, "cache": false, "maxAge": 60, "style": "dark", "limits": {"maxSide": 300}}"#)
        let server = try ServeProcess(["--config", cfg], dir: dir, name: "cfg")
        defer { server.stop() }
        let file = dir.path("c.png")
        #expect(try server.get("/static?center=0,0&zoom=2&size=400x100", to: file) == 400)
        let r = try runProgram("/usr/bin/curl", ["-s", "-D", "-", "-o", "/dev/null", server.base + "/static?center=0,0&zoom=2&size=300x100"])
        #expect(r.stdout.lowercased().contains("cache-control: no-store"), "\(r.stdout)")
        for (args, needle) in [(["serve", "--workers", "0"], "workers"), (["serve", "--data", "x"], "NAME=ARCHIVE"),
                               (["serve", "--data", "a=/nonexistent.mbtiles"], "data"), (["serve", "--style", "pink"], "style"),
                               (["serve", "--config", "/nonexistent.json"], "config"),
                               (["serve", "--config", try dir.write("typo.json", #"{"prot": 8080}"#)], "prot: unknown key (did you mean 'port'?)"),
                               (["serve", "--config", try dir.write("typo2.json", #"{"limits": {"maxSize": 3}}"#)],
                                "limits.maxSize: unknown key (did you mean 'maxSide'?)"),
                               // The port the server above holds.
                               (["serve", "--port", String(server.base.split(separator: ":").last ?? "")],
                                "Address already in use: another program listens there")] {
            let bad = try runMapwright(args)
            #expect(bad.status != 0)
            #expect(bad.stderr.contains(needle), "\(args): \(bad.stderr)")
        }
    }
}

/// `scripts/scale-out.sh`: two replicas behind nginx; one stopped in the middle of a load run.
@Suite(.serialized) struct ScaleOutCLITests {
    @Test func aReplicaStoppedUnderLoadFailsNoRequest() throws {
        let dir = try ScratchDirectory("scale-out")
        let script = ServeCLITests.root.appendingPathComponent("scripts/scale-out.sh").path
        // nginx's port is given, so it is taken below the kernel's ephemeral range (where the
        // replicas' system-picked ports and every client connection's local port come from).
        let range = ((try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? "32768 60999")
            .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) }
        let port = 10_000 + Int.random(in: 0 ..< max(1000, (range.first ?? 32768) - 10_000))
        let out = dir.path("out"), err = dir.path("err")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let p = Process()
        // As from a shell: the test runner's threads block SIGTERM, and a child inherits that mask
        // (bash cannot trap a blocked signal), so the script starts with an empty mask.
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv('/bin/bash', ['bash'] + sys.argv[1:])",
                       script, "--port", "\(port)", "--replicas", "2", "--", "--workers", "1"]
        var env = ProcessInfo.processInfo.environment
        env["MAPWRIGHT"] = mapwrightExecutable().path
        p.environment = env
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        var lines: [[Substring]] = []
        for _ in 0 ..< 600 {
            lines = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").map { $0.split(separator: " ") }
            if lines.contains(where: { $0.first == "nginx" }) || !p.isRunning { break }
            usleep(50_000)
        }
        let replicas = lines.filter { $0.first == "replica" }
        let nginx = try #require(lines.first { $0.first == "nginx" }, "no nginx line: \((try? String(contentsOfFile: err, encoding: .utf8)) ?? "")")
        #expect(replicas.count == 2)
        #expect(nginx.count == 3 && Int(nginx[2]) == port)
        // Each replica answers on the port it printed (ports the system picked, so never in use).
        let replicaPorts = replicas.compactMap { $0.count == 3 ? Int($0[2]) : nil }
        #expect(Set(replicaPorts).count == 2 && !replicaPorts.contains(port))
        for rp in replicaPorts {
            let r = try runProgram("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(rp)/healthz"])
            #expect(r.stdout == "200", "replica on \(rp): \(r.stdout)")
        }
        // Load through nginx for 8 s; the first replica gets SIGTERM after 3 s.
        let load = Process()
        load.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        load.arguments = [ServeCLITests.oracles + "/load_run.py", "http://127.0.0.1:\(port)", "8"]
        let pipe = Pipe()
        load.standardOutput = pipe
        try load.run()
        sleep(3)
        let victim = try #require(Int32(replicas[0][1]))
        kill(victim, SIGTERM)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        load.waitUntilExit()
        let o = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
        #expect((o["requests"] as? Int ?? 0) > 50)
        #expect(o["failureCount"] as? Int == 0, "failures: \(o["failures"] ?? "")")
        #expect(kill(victim, 0) != 0, "the stopped replica is still running")
        // SIGTERM to the script stops nginx and the other replica.
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        for pid in [Int32(replicas[1][1])!, Int32(nginx[1])!] { #expect(kill(pid, 0) != 0, "process \(pid) is still running") }
    }
}
