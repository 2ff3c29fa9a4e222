import Foundation
import MapImage
import MapTestSupport
import Testing

struct WindowTestError: Error, CustomStringConvertible {
    var description: String
}

/// A real window under Xvfb driven by xdotool: the map moves by the dragged amount, the compass
/// turns with a right-drag, Ctrl+Q quits. Needs `xvfb`, `xdotool` and `imagemagick` (installed by
/// scripts/install-deps.sh).
@Suite(.serialized) struct WindowCLITests {
    let dir: ScratchDirectory
    init() throws { dir = try ScratchDirectory("window-cli") }

    func x(_ display: String, _ tool: String, _ args: [String]) throws -> ProgramOutput {
        try runProgram("/usr/bin/env", ["DISPLAY=\(display)", tool] + args)
    }

    func screenshot(_ display: String, _ window: String, _ name: String) throws -> Bitmap {
        let path = dir.path(name)
        // `import` waits for the window's events: bounded, so that a window gone astray fails the
        // test instead of hanging it.
        let r = try x(display, "timeout", ["30", "import", "-window", window, "-depth", "8", "png24:" + path])
        #expect(r.status == 0, "\(r.stderr)")
        return try Bitmap(contentsOfPNGFile: path)
    }

    /// Mean absolute RGB difference between b(x, y) and a(x − dx, y − dy) over a central region.
    static func shiftedDifference(_ a: Bitmap, _ b: Bitmap, dx: Int, dy: Int) -> Double {
        var sum = 0, n = 0
        for y in stride(from: 120, to: 400, by: 2) {
            for x in stride(from: 140, to: 520, by: 2) {
                let i = (y * b.width + x) * 4, j = ((y - dy) * a.width + (x - dx)) * 4
                for c in 0..<3 { sum += abs(Int(b.pixels[i + c]) - Int(a.pixels[j + c])) }
                n += 3
            }
        }
        return Double(sum) / Double(n)
    }

    /// A running window: the viewer, its X window id and the file its `--log-camera` lines go to.
    struct Window {
        let viewer: Process
        let id: String
        let log: String
        let errLog: String

        /// Frames drawn so far.
        func frames() throws -> Int { (try String(contentsOfFile: log, encoding: .utf8)).split(separator: "\n").count }

        /// Waits until no new frame has come for 0.3 s (the map is at rest).
        func settle() throws {
            var last = -1
            for _ in 0..<100 {
                let n = try frames()
                if n == last && n > 0 { return }
                last = n
                usleep(300_000)
            }
        }

        func kill() { if viewer.isRunning { Foundation.kill(viewer.processIdentifier, SIGKILL); viewer.waitUntilExit() } }
    }

    /// Starts `mapwright view ARGS --log-camera` on `xvfb`'s display and waits for its window.
    func open(_ xvfb: Xvfb, _ args: [String]) throws -> Window {
        let log = dir.path("camera.log"), errLog = dir.path("viewer.stderr")
        #expect(FileManager.default.createFile(atPath: log, contents: nil))
        #expect(FileManager.default.createFile(atPath: errLog, contents: nil))
        let viewer = Process()
        viewer.executableURL = mapwrightExecutable()
        viewer.arguments = ["view", "--log-camera"] + args
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = xvfb.display
        viewer.environment = env
        viewer.currentDirectoryURL = dir.url
        viewer.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        viewer.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errLog))
        try viewer.run()
        let search = try x(xvfb.display, "timeout", ["20", "xdotool", "search", "--sync", "--onlyvisible", "--name", "Mapwright"])
        guard let id = search.stdout.split(separator: "\n").first.map(String.init) else {
            if viewer.isRunning { kill(viewer.processIdentifier, SIGKILL); viewer.waitUntilExit() }
            throw WindowTestError(description: "no window: \(search.stderr)")
        }
        return Window(viewer: viewer, id: id, log: log, errLog: errLog)
    }

    /// Presses `key` in the window and waits for the PNG that S saves (`mapwright-view-N.png`).
    func save(_ xvfb: Xvfb, _ w: Window, number: Int) throws -> Bitmap {
        _ = try x(xvfb.display, "xdotool", ["windowfocus", "--sync", w.id, "key", "--clearmodifiers", "s"])
        let savedPath = dir.path("mapwright-view-\(number).png")
        let saveDeadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: savedPath) && Date() < saveDeadline { usleep(50_000) }
        usleep(200_000)
        return try Bitmap(contentsOfPNGFile: savedPath)
    }

    @Test func dragPansByTheDraggedAmountAndTheCompassTurns() throws {
        let xvfb = try Xvfb()
        defer { withExtendedLifetime(xvfb) {} }  // the server lives until the window is done
        let w = try open(xvfb, ["--center", "46.05,14.5", "--zoom", "11", "--size", "640x480",
                                "--circle", "46.06,14.45,1500m", "--circle", "46.03,14.55,900m", "--circle", "46.08,14.53,20px",
                                "--marker", "46.04,14.47,A", "--marker", "46.07,14.56,B", "--marker", "46.02,14.50,C"])
        defer { w.kill() }
        let (viewer, window, log, errLog) = (w.viewer, w.id, w.log, w.errLog)
        try w.settle()
        let a = try screenshot(xvfb.display, window, "a.png")
        #expect(a.width == 640 && a.height == 480)
        /// Presses `button` at `from`, moves through the midpoint to `to`, holds still 0.3 s
        /// (so no inertia) and releases.
        func drag(button: Int, from: (Int, Int), to: (Int, Int)) throws {
            let mid = ((from.0 + to.0) / 2, (from.1 + to.1) / 2)
            let r = try x(xvfb.display, "xdotool", ["mousemove", "--window", window, "\(from.0)", "\(from.1)", "mousedown", "\(button)",
                                                    "mousemove", "--window", window, "\(mid.0)", "\(mid.1)",
                                                    "mousemove", "--window", window, "\(to.0)", "\(to.1)", "sleep", "0.3", "mouseup", "\(button)"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        // Drag 100 px right and 50 px down.
        try drag(button: 1, from: (200, 200), to: (300, 250))
        try w.settle()
        let b = try screenshot(xvfb.display, window, "b.png")
        let moved = Self.shiftedDifference(a, b, dx: 100, dy: 50)
        let still = Self.shiftedDifference(a, b, dx: 0, dy: 0)
        #expect(moved < 2, "shifted by the drag the screenshots differ by \(moved)")
        #expect(still > 4 * max(moved, 0.5), "the map did not move: \(still) vs \(moved)")
        for (dx, dy) in [(98, 50), (102, 50), (100, 48), (100, 52)] {
            #expect(Self.shiftedDifference(a, b, dx: dx, dy: dy) > moved, "offset \(dx),\(dy) fits better")
        }
        // Right-drag 50 px to the right: bearing +40° (0.8°/px); the compass needle follows.
        try drag(button: 3, from: (320, 240), to: (370, 240))
        try w.settle()
        let c = try screenshot(xvfb.display, window, "c.png")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix(#"{"frame""#) }
        struct Cam: Decodable { var bearing: Double }
        let bearing = try JSONDecoder().decode(Cam.self, from: Data(try #require(lines.last).utf8)).bearing
        expectNear(bearing, 40, tolerance: 0.01)
        let needle = try #require(compassNeedleAngle(c, center: (640 - 34, 34), radius: 22))
        expectNear(angleDifference(needle, -bearing), 0, tolerance: 3)
        // S saves the current view as a PNG in the working directory.
        let saved = try save(xvfb, w, number: 1)
        #expect(saved.width == 640 && saved.height == 480)
        #expect(Self.shiftedDifference(c, saved, dx: 0, dy: 0) < 1)
        // Ctrl+Q quits.
        _ = try x(xvfb.display, "xdotool", ["windowfocus", "--sync", window, "key", "--clearmodifiers", "ctrl+q"])
        let deadline = Date().addingTimeInterval(10)
        while viewer.isRunning && Date() < deadline { usleep(50_000) }
        #expect(!viewer.isRunning)
        if !viewer.isRunning {
            let said = (try? String(contentsOfFile: errLog, encoding: .utf8)) ?? ""
            #expect(viewer.terminationReason == .exit && viewer.terminationStatus == 0,
                    "viewer ended with \(viewer.terminationReason == .exit ? "exit" : "signal") \(viewer.terminationStatus): \(said)")
        }
    }

    /// Over vector tiles the window builds the tiles' meshes in the background and draws stand-ins
    /// meanwhile; at rest, its frame is the one a headless run of the same input draws, where
    /// every mesh is built before the frame. With pictures of the ground standing in while the
    /// view zooms (`--ground-in-motion picture`), the frame at rest is that one too.
    @Test(arguments: ["auto", "picture"]) func atRestOverVectorTilesTheWindowDrawsWhatAHeadlessRunDraws(_ ground: String) throws {
        let archive = repositoryRoot.appendingPathComponent("Tests/MapTilesTests/Fixtures/vector/vector-fixture.mbtiles").path
        let common = ["--tiles", archive, "--center", "46.026,7.012", "--zoom", "12.4", "--size", "512x384"]
        let xvfb = try Xvfb()
        defer { withExtendedLifetime(xvfb) {} }
        let w = try open(xvfb, common + ["--ground-in-motion", ground])
        defer { w.kill() }
        try w.settle()
        // + (the = key) zooms in to 13: the zoom-13 tiles, at a new zoom bucket.
        _ = try x(xvfb.display, "xdotool", ["windowfocus", "--sync", w.id, "key", "--clearmodifiers", "equal"])
        try w.settle()
        let saved = try save(xvfb, w, number: 1)
        let script = try dir.write("plus.jsonl", """
            {"t": 0.1, "type": "key", "key": "+"}
            {"t": 2.0, "type": "wait"}
            """)
        let frames = dir.path("headless") + "/"
        let r = try runMapwright(["view", "--headless", "--script", script, "--frames", frames, "--log-camera"] + common)
        #expect(r.status == 0, "\(r.stderr)")
        // The same camera at the end.
        func lastCamera(_ text: String) -> String? {
            text.split(separator: "\n").last { $0.hasPrefix(#"{"frame""#) }.map { line in
                String(line[line.range(of: #""lat""#)!.lowerBound...])
            }
        }
        let windowCamera = lastCamera(try String(contentsOfFile: w.log, encoding: .utf8))
        #expect(windowCamera != nil && windowCamera == lastCamera(r.stdout), "window \(windowCamera ?? "-"), headless \(lastCamera(r.stdout) ?? "-")")
        #expect(windowCamera?.contains(#""zoom": 13,"#) == true,
                "\(windowCamera ?? "no camera")")
        let files = try FileManager.default.contentsOfDirectory(atPath: frames).filter { $0.hasSuffix(".png") }.sorted()
        let headless = try Bitmap(contentsOfPNGFile: frames + (try #require(files.last)))
        #expect(saved.width == headless.width && saved.height == headless.height)
        var differing = 0
        for i in stride(from: 0, to: min(saved.pixels.count, headless.pixels.count), by: 4)
            where (0 ..< 3).contains(where: { saved.pixels[i + $0] != headless.pixels[i + $0] }) {
            differing += 1
        }
        #expect(differing == 0, "\(differing) pixels differ from the headless frame")
    }

    /// A scripted drag in a window with pictures of the ground standing in (`picture`): the
    /// summary counts the frames drawn over a picture and the pictures drawn; `exact` draws none.
    @Test func aDragDrawsOverAPictureOfTheGroundUnlessExact() throws {
        let archive = repositoryRoot.appendingPathComponent("Tests/MapTilesTests/Fixtures/vector/vector-fixture.mbtiles").path
        var lines = [#"{"t": 0.3, "type": "down", "x": 200, "y": 200}"#]
        for k in 1 ... 40 { lines.append(#"{"t": \#(0.3 + Double(k) / 40), "type": "move", "x": \#(200 + 3 * k), "y": 200}"#) }
        lines.append(#"{"t": 1.35, "type": "up", "x": 320, "y": 200}"#)
        lines.append(#"{"t": 2.0, "type": "wait"}"#)
        let script = try dir.write("drag.jsonl", lines.joined(separator: "\n") + "\n")
        let xvfb = try Xvfb()
        defer { withExtendedLifetime(xvfb) {} }
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = xvfb.display
        func run(_ ground: String) throws -> (frames: Int, pictured: Int, pictures: Int) {
            let r = try runMapwright(["view", "--script", script, "--ground-in-motion", ground, "--tiles", archive,
                                      "--center", "46.026,7.012", "--zoom", "13", "--size", "512x384"],
                                     environment: env)
            #expect(r.status == 0, "\(r.stderr)")
            let line = try #require(r.stderr.split(separator: "\n").last { $0.hasPrefix("view: ") }, "\(r.stderr)")
            // view: N frames, frame time median … ms, p95 … ms; M with the ground pictured (P pictures)
            func numbers(_ part: Substring) -> [Int] { part.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) } }
            let halves = line.split(separator: ";")
            #expect(halves.count == 2, "\(line)")
            let frames = numbers(line.prefix { $0 != "," }), pictured = numbers(halves.last ?? "")
            #expect(frames.count == 1 && pictured.count == 2, "\(line)")
            guard frames.count == 1, pictured.count == 2 else { return (0, 0, 0) }
            return (frames[0], pictured[0], pictured[1])
        }
        let pictured = try run("picture")
        #expect(pictured.pictured >= 10 && pictured.pictures >= 1 && pictured.pictured < pictured.frames, "\(pictured)")
        let exact = try run("exact")
        #expect(exact.frames >= 10 && exact.pictured == 0 && exact.pictures == 0, "\(exact)")
        let bad = try runMapwright(["view", "--script", script, "--ground-in-motion", "sometimes"], environment: env)
        #expect(bad.status != 0 && bad.stderr.contains("--ground-in-motion 'sometimes': expected auto, picture or exact"), "\(bad.stderr)")
    }
}
