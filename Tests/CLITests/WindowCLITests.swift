import Foundation
import MapImage
import MapTestSupport
import Testing

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

    @Test func dragPansByTheDraggedAmountAndTheCompassTurns() throws {
        let xvfb = try Xvfb()
        defer { withExtendedLifetime(xvfb) {} }  // the server lives until the window is done
        let log = dir.path("camera.log")
        #expect(FileManager.default.createFile(atPath: log, contents: nil))
        let viewer = Process()
        viewer.executableURL = mapwrightExecutable()
        viewer.arguments = ["view", "--center", "46.05,14.5", "--zoom", "11", "--size", "640x480", "--log-camera",
                            "--circle", "46.06,14.45,1500m", "--circle", "46.03,14.55,900m", "--circle", "46.08,14.53,20px",
                            "--marker", "46.04,14.47,A", "--marker", "46.07,14.56,B", "--marker", "46.02,14.50,C"]
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = xvfb.display
        viewer.environment = env
        viewer.currentDirectoryURL = dir.url
        viewer.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        let errLog = dir.path("viewer.stderr")
        #expect(FileManager.default.createFile(atPath: errLog, contents: nil))
        viewer.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errLog))
        try viewer.run()
        defer { if viewer.isRunning { kill(viewer.processIdentifier, SIGKILL); viewer.waitUntilExit() } }
        let search = try x(xvfb.display, "timeout", ["20", "xdotool", "search", "--sync", "--onlyvisible", "--name", "Mapwright"])
        let window = try #require(search.stdout.split(separator: "\n").first.map(String.init), "no window: \(search.stderr)")
        func frames() throws -> Int { (try String(contentsOfFile: log, encoding: .utf8)).split(separator: "\n").count }
        func settle() throws {
            // Wait until no new frame has come for 0.3 s (the map is at rest).
            var last = -1
            for _ in 0..<100 {
                let n = try frames()
                if n == last && n > 0 { return }
                last = n
                usleep(300_000)
            }
        }
        try settle()
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
        try settle()
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
        try settle()
        let c = try screenshot(xvfb.display, window, "c.png")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix(#"{"frame""#) }
        struct Cam: Decodable { var bearing: Double }
        let bearing = try JSONDecoder().decode(Cam.self, from: Data(try #require(lines.last).utf8)).bearing
        expectNear(bearing, 40, tolerance: 0.01)
        let needle = try #require(compassNeedleAngle(c, center: (640 - 34, 34), radius: 22))
        expectNear(angleDifference(needle, -bearing), 0, tolerance: 3)
        // S saves the current view as a PNG in the working directory.
        _ = try x(xvfb.display, "xdotool", ["windowfocus", "--sync", window, "key", "--clearmodifiers", "s"])
        let savedPath = dir.path("mapwright-view-1.png")
        let saveDeadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: savedPath) && Date() < saveDeadline { usleep(50_000) }
        usleep(200_000)
        let saved = try Bitmap(contentsOfPNGFile: savedPath)
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
}
