import Foundation
import GeoKit
import MapCamera
import MapImage
import MapTestSupport
import Testing

/// Archives made by other tools, built once per test process by `Oracles/make_tile_archives.py`
/// (GDAL's `gdal_translate -of MBTILES` + `gdaladdo`, `gdal2tiles.py --xyz`, PyPI `mbutil` and
/// `pmtiles-convert`), with the mosaics their tiles make read back by Python.
enum TileArchives {
    struct View: Decodable { let z: Int; let lat: Double; let lon: Double; let path: String }
    struct Region: Decodable { let x0: Double, y0: Double, x1: Double, y1: Double; let width: Int, height: Int }

    static let root = repositoryRoot
    static let venvPython = root.appendingPathComponent(".venv-oracles/bin/python").path

    /// The directory with the archives (made on first use).
    static let directory: Result<URL, Error> = {
        do {
            let dir = try ScratchDirectory.removedAtExit("tile-archives").url
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Oracles/make_tile_archives.py")
            let r = try runProgram("/usr/bin/python3", [script.path, dir.path, venvPython])
            guard r.status == 0 else { throw OracleError("make_tile_archives.py failed: \(r.stderr)") }
            return .success(dir)
        } catch { return .failure(error) }
    }()

    static func views() throws -> [String: View] {
        let dir = try directory.get()
        return try JSONDecoder().decode([String: View].self, from: Data(contentsOf: dir.appendingPathComponent("views.json")))
    }

    static func region() throws -> Region {
        try JSONDecoder().decode(Region.self, from: Data(contentsOf: try directory.get().appendingPathComponent("region.json")))
    }
}

struct OracleError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

@Suite(.serialized) struct TileSourceCLITests {
    let dir: ScratchDirectory
    init() throws { dir = try ScratchDirectory("tile-sources") }

    /// Each archive at its deepest zoom, north up, with a tile corner in the middle of a 512-px
    /// view: the image is the 2×2 mosaic of those tiles, within a mean difference of 2 per channel.
    @Test(arguments: ["gdal.mbtiles", "gdal2tiles", "mbutil.mbtiles", "pmtiles.pmtiles"])
    func anArchiveMadeByAnotherToolDrawsAsItsTiles(_ name: String) throws {
        let view = try #require(try TileArchives.views()[name])
        let out = dir.path("\(name).png")
        // 256-px tiles of zoom z are drawn at camera zoom z − 1 (the world is 512·2^zoom px).
        let r = try runMapwright(["render", "--tiles", view.path, "--center", "\(view.lat),\(view.lon)", "--zoom", "\(view.z - 1)",
                                  "--size", "512x512", "--no-attribution", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "no warnings expected: \(r.stderr)")
        let image = try Bitmap(contentsOfPNGFile: out)
        let mosaic = try Bitmap(contentsOfPNGFile: try TileArchives.directory.get().appendingPathComponent("\(name).mosaic.png").path)
        #expect(image.width == 512 && image.height == 512)
        var sum = 0
        for i in 0 ..< 512 * 512 {
            for c in 0 ..< 3 { sum += abs(Int(image.pixels[i * 4 + c]) - Int(mosaic.pixels[i * 4 + c])) }
        }
        let mad = Double(sum) / Double(512 * 512 * 3)
        #expect(mad <= 2, "\(name): mean absolute difference \(mad)")
    }

    /// Bearing 30, pitch 45: the raster's colours encode position (red west→east, green
    /// north→south), so each pixel must show the colour of the ground point the camera maps it to.
    @Test(arguments: ["gdal.mbtiles", "pmtiles.pmtiles"])
    func pixelsLandWhereTheCameraPutsTheirPositions(_ name: String) throws {
        let view = try #require(try TileArchives.views()[name])
        let region = try TileArchives.region()
        let center = LatLng(lat: 45.74, lon: 14.40)
        let cam = Camera(center: center, zoom: 10.6, bearing: 30, pitch: 45, size: ScreenSize(width: 640, height: 480))
        let out = dir.path("\(name)-pitched.png")
        let r = try runMapwright(["render", "--tiles", view.path, "--center", "45.74,14.40", "--zoom", "10.6", "--bearing", "30",
                                  "--pitch", "45", "--size", "640x480", "--no-attribution", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try Bitmap(contentsOfPNGFile: out)
        let world = 2 * Double.pi * 6378137.0
        var checked = 0, worst = 0, checkerChecked = 0
        for sy in stride(from: 30, to: 470, by: 22) {
            for sx in stride(from: 20, to: 630, by: 25) {
                guard let ll = cam.unproject(ScreenPoint(x: Double(sx) + 0.5, y: Double(sy) + 0.5)) else { continue }
                let m = MapPoint(ll)
                let mx = (m.x - 0.5) * world, my = (0.5 - m.y) * world
                let fi = (mx - region.x0) / (region.x1 - region.x0) * Double(region.width)
                let fj = (region.y1 - my) / (region.y1 - region.y0) * Double(region.height)
                // Away from the raster's edges.
                guard fi > 8, fj > 8, fi < Double(region.width - 8), fj < Double(region.height - 8) else { continue }
                let p = try #require(image.pixel(x: sx, y: sy))
                let er = Int(fi * 256 / Double(region.width)), eg = Int(fj * 256 / Double(region.height))
                let d = max(abs(Int(p.r) - er), abs(Int(p.g) - eg))
                worst = max(worst, d)
                checked += 1
                #expect(d <= 6, "\(name): pixel (\(sx), \(sy)) is \(p), expected red \(er) green \(eg)")
                // Blue is a checker of 23 × 17 source pixels: away from its edges it is 40 or 215.
                let ci = fi.truncatingRemainder(dividingBy: 23), cj = fj.truncatingRemainder(dividingBy: 17)
                if ci > 3, ci < 20, cj > 3, cj < 14 {
                    let eb = (Int(fi / 23) + Int(fj / 17)) % 2 == 1 ? 40 : 215
                    checkerChecked += 1
                    #expect(abs(Int(p.b) - eb) <= 30, "\(name): pixel (\(sx), \(sy)) blue \(p.b), expected \(eb)")
                }
            }
        }
        #expect(checked > 200 && checkerChecked > 50, "only \(checked) points fell on the raster (\(checkerChecked) inside checker cells)")
    }
}

/// A misbehaving XYZ server on 127.0.0.1 (`Oracles/fault_tile_server.py`).
@Suite(.serialized) struct TileFaultCLITests {
    let dir: ScratchDirectory
    init() throws { dir = try ScratchDirectory("tile-faults") }

    /// Starts the server over a copy of the gdal2tiles tree with `faults`; returns its URL template and the process.
    func startServer(faults: [String: String]) throws -> (template: String, process: Process, root: String) {
        let src = try TileArchives.directory.get().appendingPathComponent("gdal2tiles").path
        let root = dir.path("tree")
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.copyItem(atPath: src, toPath: root)
        try JSONSerialization.data(withJSONObject: faults).write(to: URL(fileURLWithPath: root + "/faults.json"))
        let portFile = dir.path("port")
        try? FileManager.default.removeItem(atPath: portFile)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Oracles/fault_tile_server.py").path,
                       root, portFile]
        try p.run()
        for _ in 0 ..< 100 where !FileManager.default.fileExists(atPath: portFile) { usleep(50_000) }
        let port = try String(contentsOfFile: portFile, encoding: .utf8)
        return ("http://127.0.0.1:\(port)/{z}/{x}/{y}.png", p, root)
    }

    func requests(_ root: String) -> [String] {
        ((try? String(contentsOfFile: root + "/requests.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func faultsAreWarningsNamingTheTilesAndParentsStandIn() throws {
        let view = try #require(try TileArchives.views()["gdal2tiles"])
        // The four tiles around the view's centre corner misbehave; a fifth answers after 30 s.
        let n = 1 << view.z
        let tx = Int(((view.lon + 180) / 360 * Double(n)).rounded())
        let ty = Int(((1 - log(tan(.pi / 4 + view.lat * .pi / 360)) / .pi) / 2 * Double(n)).rounded())
        let faults = ["\(view.z)/\(tx - 1)/\(ty - 1)": "404", "\(view.z)/\(tx)/\(ty - 1)": "500",
                      "\(view.z)/\(tx - 1)/\(ty)": "truncated", "\(view.z)/\(tx)/\(ty)": "html",
                      "\(view.z)/\(tx + 1)/\(ty)": "slow"]
        let server = try startServer(faults: faults)
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        let out = dir.path("faults.png")
        let start = Date()
        let r = try runMapwright(["render", "--tiles", server.template, "--center", "\(view.lat),\(view.lon)", "--zoom", "\(view.z - 1)",
                                  "--size", "1024x512", "--no-attribution", "--tiles-timeout", "3", "-o", out])
        let elapsed = Date().timeIntervalSince(start)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(elapsed < 12, "the render waited \(elapsed) s")
        let warnings = r.stderr.split(separator: "\n").map(String.init)
        for (tile, kind) in faults {
            let line = warnings.first { $0.contains("tile \(tile):") }
            #expect(line != nil, "no warning names \(tile) (\(kind)): \(r.stderr)")
            let why = ["404": "HTTP 404", "500": "HTTP 500", "truncated": "PNG", "html": "text/html", "slow": "not loaded within 3 s"][kind]!
            #expect(line?.contains(why) == true, "\(tile) (\(kind)): \(line ?? "")")
        }
        // A 500 is retried (3 attempts); a 404 is not.
        let log = requests(server.root)
        #expect(log.filter { $0.hasPrefix("/\(view.z)/\(tx)/\(ty - 1).png") }.count == 3)
        #expect(log.filter { $0.hasPrefix("/\(view.z)/\(tx - 1)/\(ty - 1).png") }.count == 1)
        #expect(log.allSatisfy { $0.contains("\tMapwright/") }, "User-Agent names Mapwright")
        // Where the faulty tiles are, the parent tile's colours stand in (position-coded: red and
        // green still match the place), not the background.
        let image = try Bitmap(contentsOfPNGFile: out)
        let region = try TileArchives.region()
        let cam = Camera(center: LatLng(lat: view.lat, lon: view.lon), zoom: Double(view.z - 1), size: ScreenSize(width: 1024, height: 512))
        let world = 2 * Double.pi * 6378137.0
        for (sx, sy) in [(384, 128), (640, 128), (384, 384), (640, 384), (896, 384)] {
            let ll = try #require(cam.unproject(ScreenPoint(x: Double(sx) + 0.5, y: Double(sy) + 0.5)))
            let m = MapPoint(ll)
            let fi = ((m.x - 0.5) * world - region.x0) / (region.x1 - region.x0) * Double(region.width)
            let fj = (region.y1 - (0.5 - m.y) * world) / (region.y1 - region.y0) * Double(region.height)
            let p = try #require(image.pixel(x: sx, y: sy))
            let er = Int(fi * 256 / Double(region.width)), eg = Int(fj * 256 / Double(region.height))
            #expect(abs(Int(p.r) - er) <= 8 && abs(Int(p.g) - eg) <= 8, "(\(sx), \(sy)) is \(p), expected about \(er), \(eg)")
        }
    }

    /// `Cache-Control: no-cache` with an ETag: the second render revalidates each cached tile with
    /// `If-None-Match`, is answered 304, and draws the same image from the cache.
    @Test func staleTilesAreRevalidatedWithTheirETags() throws {
        let view = try #require(try TileArchives.views()["gdal2tiles"])
        let server = try startServer(faults: ["*": "no-cache"])
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        let args = ["--tiles", server.template, "--center", "\(view.lat),\(view.lon)", "--zoom", "\(view.z - 1)", "--size", "512x512",
                    "--no-attribution", "--tile-cache", dir.path("cache")]
        let a = try runMapwright(["render", "-o", dir.path("a.png")] + args)
        #expect(a.status == 0 && a.stderr.isEmpty, "\(a.stderr)")
        let first = requests(server.root)
        #expect(first.count == 4 && first.allSatisfy { $0.hasSuffix("\tNone") })
        let b = try runMapwright(["render", "-o", dir.path("b.png")] + args)
        #expect(b.status == 0 && b.stderr.isEmpty, "\(b.stderr)")
        let second = requests(server.root).dropFirst(4)
        #expect(second.count == 4 && second.allSatisfy { $0.contains("\t\"") }, "conditional requests expected: \(second)")
        #expect(try Bitmap(contentsOfPNGFile: dir.path("a.png")).pixels == Bitmap(contentsOfPNGFile: dir.path("b.png")).pixels)
    }

    /// A PMTiles archive read over HTTP with range requests draws as the file does.
    @Test func aPMTilesURLIsReadWithRangeRequests() throws {
        let view = try #require(try TileArchives.views()["pmtiles.pmtiles"])
        let server = try startServer(faults: [:])
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        try FileManager.default.copyItem(atPath: view.path, toPath: server.root + "/archive.pmtiles")
        let url = server.template.replacingOccurrences(of: "{z}/{x}/{y}.png", with: "archive.pmtiles")
        let args = ["--center", "\(view.lat),\(view.lon)", "--zoom", "\(view.z - 1)", "--size", "512x512", "--no-attribution"]
        let r = try runMapwright(["render", "--tiles", url, "-o", dir.path("http.png")] + args)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let f = try runMapwright(["render", "--tiles", view.path, "-o", dir.path("file.png")] + args)
        #expect(f.status == 0)
        #expect(try Bitmap(contentsOfPNGFile: dir.path("http.png")).pixels == Bitmap(contentsOfPNGFile: dir.path("file.png")).pixels)
        #expect(requests(server.root).contains { $0.hasPrefix("/archive.pmtiles") })
    }

    /// A server that answers a range with the whole file (as Python's http.server does) cannot
    /// serve a PMTiles archive piecewise: a clear error naming the URL and what the server needs,
    /// and no image. Nothing listening: the URL and "Connection refused", not NIO's internals.
    @Test func aServerWithoutRangeRequestsOrNoServerIsAClearError() throws {
        let view = try #require(try TileArchives.views()["pmtiles.pmtiles"])
        let server = try startServer(faults: ["archive": "norange"])
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        // Padded past the first read's 16 KiB (trailing bytes lie outside every section).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: view.path))
        bytes.append(Data(count: 100_000))
        try bytes.write(to: URL(fileURLWithPath: server.root + "/archive.pmtiles"))
        let url = server.template.replacingOccurrences(of: "{z}/{x}/{y}.png", with: "archive.pmtiles")
        let args = ["--center", "\(view.lat),\(view.lon)", "--zoom", "\(view.z - 1)", "--size", "256x256"]
        let r = try runMapwright(["render", "--tiles", url, "-o", dir.path("norange.png")] + args)
        #expect(r.status != 0)
        #expect(r.stderr.contains("\(url): the server ignores Range requests") && r.stderr.contains("206 Partial Content"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("norange.png")))
        let refused = "http://127.0.0.1:1/archive.pmtiles"
        let c = try runMapwright(["render", "--tiles", refused, "-o", dir.path("refused.png")] + args)
        #expect(c.status != 0)
        #expect(c.stderr.contains("\(refused): Connection refused") && !c.stderr.contains("errno"), "\(c.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("refused.png")))
        // An XYZ template on a port where nothing listens: each tile (and each ancestor tried as
        // a stand-in) fails after its three quick attempts, not after waiting out the 30-s
        // --tiles-timeout (the HTTP client's own connection retries used to hold every request
        // for its whole 10-s timeout).
        let start = Date()
        let x = try runMapwright(["render", "--tiles", "http://127.0.0.1:1/{z}/{x}/{y}.png", "-o", dir.path("xyz.png")] + args)
        let took = Date().timeIntervalSince(start)
        #expect(x.status == 0 && x.stderr.contains("Connection refused (http://127.0.0.1:1/"), "\(x.stderr)")
        #expect(took < 15, "took \(took) s")
    }

    /// A broken source given with --tiles is named by the flag as typed; one in a scene file by
    /// its JSON path, after the scene's name.
    @Test func aBrokenSourceIsNamedAsTheUserGaveIt() throws {
        let junk = dir.path("junk.mbtiles")
        try Data("SQLite format 3\0not really".utf8).write(to: URL(fileURLWithPath: junk))
        let args = ["--center", "45,7", "--zoom", "5", "--size", "64x64", "-o", dir.path("broken.png")]
        let flag = try runMapwright(["render", "--tiles", "junk.mbtiles"] + args, in: dir.url)
        #expect(flag.status == 1 && flag.stderr.contains("render: --tiles junk.mbtiles: ") && flag.stderr.contains("not an MBTiles archive"),
                "\(flag.stderr)")
        let scene = dir.path("broken.json")
        try Data(#"{"tiles": [{"source": "junk.mbtiles"}]}"#.utf8).write(to: URL(fileURLWithPath: scene))
        let file = try runMapwright(["render", "--scene", scene, "--tiles", "missing.pmtiles"] + args, in: dir.url)
        #expect(file.status == 1 && file.stderr.contains("\(scene): tiles[0].source: "), "\(file.stderr)")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: dir.path("ok.json")))
        let second = try runMapwright(["render", "--scene", dir.path("ok.json"), "--tiles", "missing.pmtiles"] + args, in: dir.url)
        #expect(second.status == 1 && second.stderr.contains("--tiles missing.pmtiles: ") && second.stderr.contains("no such file"),
                "\(second.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("broken.png")))
    }

    @Test func theDiskCacheServesFreshTilesAndOfflineRendersFromIt() throws {
        let view = try #require(try TileArchives.views()["gdal2tiles"])
        let server = try startServer(faults: [:])
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        let cache = dir.path("cache")
        let args = ["--center", "\(view.lat),\(view.lon)", "--zoom", "\(view.z - 1)", "--size", "512x512", "--no-attribution",
                    "--tile-cache", cache]
        let first = try runMapwright(["render", "--tiles", server.template, "-o", dir.path("a.png")] + args)
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        let fetched = requests(server.root).count
        #expect(fetched == 4)
        // Fresh for an hour (Cache-Control: max-age=3600): no request at all the second time.
        let second = try runMapwright(["render", "--tiles", server.template, "-o", dir.path("b.png")] + args)
        #expect(second.status == 0)
        #expect(requests(server.root).count == fetched)
        // Offline: the same image from the cache, with the server gone.
        kill(server.process.processIdentifier, SIGKILL)
        let offline = try runMapwright(["render", "--tiles", server.template, "--offline", "-o", dir.path("c.png")] + args)
        #expect(offline.status == 0 && offline.stderr.isEmpty, "\(offline.stderr)")
        let a = try Bitmap(contentsOfPNGFile: dir.path("a.png")), c = try Bitmap(contentsOfPNGFile: dir.path("c.png"))
        #expect(a.pixels == c.pixels)
        // Offline elsewhere: warnings naming the tiles; with --strict an error and no file.
        let away = ["--center", "45.70,14.50", "--zoom", "\(view.z - 1)", "--size", "256x256", "--tile-cache", cache, "--offline"]
        let miss = try runMapwright(["render", "--tiles", server.template, "-o", dir.path("d.png")] + away)
        #expect(miss.status == 0)
        #expect(miss.stderr.contains("offline, and not in the tile cache"), "\(miss.stderr)")
        let strict = try runMapwright(["render", "--tiles", server.template, "--strict", "-o", dir.path("e.png")] + away)
        #expect(strict.status != 0)
        #expect(strict.stderr.contains("--strict"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("e.png")))
    }

    /// Cache-Control's max-age as RFC 9111 reads it: a value that is not delta-seconds ("inf",
    /// a fraction, a sign) makes the tile stale, so the next render revalidates it; digits too
    /// many for any integer are 2^31 s, fresh. Either way every tile is cached whole: the cache
    /// holds one .tile and one .json per tile and nothing half-written.
    @Test(arguments: [("max-age=inf", false), ("max-age=1.5", false), ("max-age=-60", false),
                      ("max-age=99999999999999999999999999", true), ("public, max-age=\"600\"", true)])
    func malformedAndHugeMaxAgesAreReadAsTheRFCSays(cacheControl: String, fresh: Bool) throws {
        let view = try #require(try TileArchives.views()["gdal2tiles"])
        let server = try startServer(faults: ["*": cacheControl])
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        let cache = dir.path("cache-maxage")
        try? FileManager.default.removeItem(atPath: cache)
        let args = ["--tiles", server.template, "--center", "\(view.lat),\(view.lon)", "--zoom", "\(view.z - 1)",
                    "--size", "512x512", "--no-attribution", "--tile-cache", cache]
        let first = try runMapwright(["render", "-o", dir.path("m1.png")] + args)
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        #expect(requests(server.root).count == 4)
        let files = (FileManager.default.enumerator(atPath: cache)?.allObjects as? [String] ?? []).filter { $0.contains(".") }
        #expect(files.filter { $0.hasSuffix(".tile") }.count == 4 && files.filter { $0.hasSuffix(".json") }.count == 4,
                "\(cacheControl): \(files.sorted())")
        #expect(!files.contains { $0.contains(".tmp") }, "\(cacheControl): half-written files \(files.sorted())")
        let second = try runMapwright(["render", "-o", dir.path("m2.png")] + args)
        #expect(second.status == 0 && second.stderr.isEmpty, "\(second.stderr)")
        let again = requests(server.root).dropFirst(4)
        if fresh {
            #expect(again.isEmpty, "\(cacheControl): fresh tiles asked for again: \(again)")
        } else {
            #expect(again.count == 4 && again.allSatisfy { $0.contains("\t\"") }, "\(cacheControl): conditional requests expected: \(again)")
        }
    }
}

/// Tiles under animations and scripted views.
@Suite(.serialized) struct TileMotionCLITests {
    let dir: ScratchDirectory
    init() throws { dir = try ScratchDirectory("tile-motion") }

    /// Every frame of an animation (numbered PNGs) and of a headless scripted view shows the tiles.
    @Test func animationFramesAndScriptedViewFramesShowTheTiles() throws {
        let view = try #require(try TileArchives.views()["pmtiles.pmtiles"])
        let mosaic = try Bitmap(contentsOfPNGFile: try TileArchives.directory.get().appendingPathComponent("pmtiles.pmtiles.mosaic.png").path)
        let common = ["--tiles", view.path, "--center", "\(view.lat),\(view.lon)", "--zoom", "\(view.z - 1)", "--size", "512x512",
                      "--no-attribution"]
        let frames = dir.path("frames") + "/"
        let a = try runMapwright(["animate", "-o", frames, "--duration", "0.4", "--fps", "5",
                                  "--pulse", "\(view.lat),\(view.lon),300m"] + common)
        #expect(a.status == 0, "\(a.stderr)")
        let script = try dir.write("script.jsonl", """
            {"t": 0.0, "type": "down", "x": 256, "y": 256}
            {"t": 0.1, "type": "move", "x": 300, "y": 256}
            {"t": 0.2, "type": "up", "x": 300, "y": 256}
            """)
        let viewFrames = dir.path("view") + "/"
        let v = try runMapwright(["view", "--headless", "--script", script, "--frames", viewFrames] + common)
        #expect(v.status == 0, "\(v.stderr)")
        for (folder, count) in [(frames, 2), (viewFrames, 1)] {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
            #expect(files.count >= count, "\(folder): \(files)")
            let first = try Bitmap(contentsOfPNGFile: folder + files[0])
            // A corner away from the pulse: the mosaic's pixel, exactly.
            for (x, y) in [(20, 20), (480, 470), (25, 480)] {  // (the window's compass is top right)
                #expect(first.pixel(x: x, y: y) == mosaic.pixel(x: x, y: y), "\(folder)\(files[0]) (\(x), \(y))")
            }
        }
    }
}

/// Raster paint adjustments, over-zoom, image overlays and waypoints.
@Suite(.serialized) struct RasterStyleCLITests {
    let dir: ScratchDirectory
    init() throws { dir = try ScratchDirectory("raster-style") }

    func render(_ args: [String], _ name: String) throws -> Bitmap {
        let out = dir.path(name)
        let r = try runMapwright(["render", "-o", out, "--no-attribution"] + args)
        #expect(r.status == 0, "\(r.stderr)")
        return try Bitmap(contentsOfPNGFile: out)
    }

    @Test func saturationOpacityAndBrightnessFollowMapLibresFormulas() throws {
        let view = try #require(try TileArchives.views()["gdal2tiles"])
        let common = ["--tiles", view.path, "--center", "\(view.lat),\(view.lon)", "--zoom", "\(view.z - 1)", "--size", "256x256"]
        let plain = try render(common, "plain.png")
        let grey = try render(common + ["--tiles-saturation=-1"], "grey.png")
        let half = try render(common + ["--tiles-opacity", "0.5"], "half.png")
        let washed = try render(common + ["--tiles-brightness", "0.5,1"], "washed.png")
        for (x, y) in [(10, 10), (128, 60), (200, 230)] {
            let p = try #require(plain.pixel(x: x, y: y))
            // Saturation −1: every channel moves all the way to the average of the three.
            let avg = (Double(p.r) + Double(p.g) + Double(p.b)) / 3
            let g = try #require(grey.pixel(x: x, y: y))
            for c in [g.r, g.g, g.b] { #expect(abs(Double(c) - avg) <= 1.5, "grey \(g) vs average \(avg) of \(p)") }
            // Opacity 0.5 over the background #F2EFE9.
            let h = try #require(half.pixel(x: x, y: y))
            for (c, bg, v) in [(h.r, 0xF2, p.r), (h.g, 0xEF, p.g), (h.b, 0xE9, p.b)] {
                #expect(abs(Double(c) - (Double(v) + Double(bg)) / 2) <= 1.5, "half \(h) from \(p)")
            }
            // Brightness 0.5…1: black maps to mid-grey, white stays white (mix(0.5, 1, c)).
            let w = try #require(washed.pixel(x: x, y: y))
            for (c, v) in [(w.r, p.r), (w.g, p.g), (w.b, p.b)] {
                #expect(abs(Double(c) - (127.5 + Double(v) / 2)) <= 1.5, "washed \(w) from \(p)")
            }
        }
    }

    /// Past the source's deepest zoom the tiles are over-zoomed (drawn larger), not left out.
    @Test func deeperZoomsOverzoomTheDeepestTiles() throws {
        let view = try #require(try TileArchives.views()["gdal.mbtiles"])
        let mosaic = try Bitmap(contentsOfPNGFile: try TileArchives.directory.get().appendingPathComponent("gdal.mbtiles.mosaic.png").path)
        // Two zooms deeper: the 512 px view shows the middle 128 px of the mosaic, 4× larger.
        let image = try render(["--tiles", view.path, "--center", "\(view.lat),\(view.lon)", "--zoom", "\(view.z + 1)",
                                "--size", "512x512"], "overzoom.png")
        var sum = 0
        for y in stride(from: 2, to: 512, by: 4) {
            for x in stride(from: 2, to: 512, by: 4) {
                let a = try #require(image.pixel(x: x, y: y)), b = try #require(mosaic.pixel(x: 192 + x / 4, y: 192 + y / 4))
                sum += abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b))
            }
        }
        let mad = Double(sum) / Double(128 * 128 * 3)
        #expect(mad <= 3, "mean difference \(mad)")
    }

    /// An image overlay between a tile's bounds lands exactly where that tile is drawn.
    @Test func anImageOverlayLandsOnItsBounds() throws {
        let view = try #require(try TileArchives.views()["gdal2tiles"])
        let n = 1 << view.z
        let tx = Int(((view.lon + 180) / 360 * Double(n)).rounded()), ty = Int(((1 - log(tan(.pi / 4 + view.lat * .pi / 360)) / .pi) / 2 * Double(n)).rounded())
        let tile = try TileID(z: view.z, x: tx, y: ty)  // the tile south-east of the view's centre
        let file = view.path + "/\(tile.z)/\(tile.x)/\(tile.y).png"
        let b = tile.bounds
        let image = try render(["--image", "\(file),\(b.south),\(b.west),\(b.north),\(b.east)", "--basemap", "none",
                                "--center", "\(view.lat),\(view.lon)", "--zoom", "\(view.z - 1)", "--size", "512x512"], "image.png")
        let source = try Bitmap(contentsOfPNGFile: file)
        var sum = 0
        for y in 0 ..< 256 {
            for x in 0 ..< 256 {
                let a = try #require(image.pixel(x: 256 + x, y: 256 + y)), s = try #require(source.pixel(x: x, y: y))
                sum += abs(Int(a.r) - Int(s.r)) + abs(Int(a.g) - Int(s.g)) + abs(Int(a.b) - Int(s.b))
            }
        }
        #expect(Double(sum) / Double(256 * 256 * 3) <= 1, "the overlay is not on its bounds")
        // The other quarters are the white background.
        #expect(colorDistance(image.pixel(x: 100, y: 100), 255, 255, 255) <= 1)
        // A file that cannot be read is an error naming the flag.
        let bad = try runMapwright(["render", "-o", dir.path("bad.png"), "--image", "/nonexistent.png,1,2,3,4", "--center", "0,0", "--zoom", "1"])
        #expect(bad.status != 0 && bad.stderr.contains("--image #1"), "\(bad.stderr)")
    }

    /// A GPX's named waypoints are drawn as pins with labels; --no-waypoints drops them.
    @Test func waypointsAreDrawnUnlessAskedNotTo() throws {
        let gpx = try dir.write("w.gpx", """
            <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
            <wpt lat="45.76" lon="14.39"><name>Otok</name></wpt>
            <trk><trkseg><trkpt lat="45.75" lon="14.35"/><trkpt lat="45.75" lon="14.45"/></trkseg></trk></gpx>
            """)
        let cam = Camera(center: LatLng(lat: 45.75, lon: 14.40), zoom: 12, size: ScreenSize(width: 400, height: 300))
        let args = ["--route", gpx, "--center", "45.75,14.40", "--zoom", "12", "--size", "400x300", "--basemap", "none"]
        let with = try render(args, "with.png"), without = try render(args + ["--no-waypoints"], "without.png")
        let p = try #require(cam.project(LatLng(lat: 45.76, lon: 14.39)))
        // The pin's head (#8250DF) stands above its tip.
        func purple(_ img: Bitmap) -> Int {
            var n = 0
            for y in Int(p.y) - 40 ..< Int(p.y) {
                for x in Int(p.x) - 12 ... Int(p.x) + 12 where colorDistance(img.pixel(x: x, y: y), 0x82, 0x50, 0xDF) <= 30 { n += 1 }
            }
            return n
        }
        #expect(purple(with) > 60, "no pin at \(p)")
        #expect(purple(without) == 0)
        // Its label is dark text right of the pin.
        var dark = 0
        for y in Int(p.y) - 30 ..< Int(p.y) {
            for x in Int(p.x) + 10 ..< Int(p.x) + 60 where (with.pixel(x: x, y: y)?.r ?? 255) < 90 { dark += 1 }
        }
        #expect(dark > 10, "no label beside the pin")
    }
}
