import Foundation
import GeoKit
import MapCamera
import MapImage
import MapTestSupport
import Testing

/// `mapwright view` scripted and headless: compass frames, picks, errors.
@Suite struct ViewCLITests {
    let dir: ScratchDirectory
    init() throws { dir = try ScratchDirectory("view-cli") }

    static func script(_ lines: [String]) -> String { lines.joined(separator: "\n") + "\n" }

    struct CameraLine: Decodable { var frame: Int; var t: Double; var lat: Double; var lon: Double; var zoom: Double; var bearing: Double; var pitch: Double }

    static func cameraLines(_ stdout: String) throws -> [CameraLine] {
        try stdout.split(separator: "\n").filter { $0.hasPrefix(#"{"frame""#) }.map {
            try JSONDecoder().decode(CameraLine.self, from: Data($0.utf8))
        }
    }

    /// A right-drag rotation released while moving, then its inertia: the bearing changes on
    /// every frame of the gesture and of the coast, and in every frame the compass needle points
    /// where the bearing says (±3°).
    @Test func compassFollowsARotationAndItsCoastOnEveryFrame() throws {
        var lines = [#"{"t": 0, "type": "down", "x": 300, "y": 300, "button": "right"}"#]
        for k in 1...30 { lines.append(#"{"t": \#(Double(k) / 60), "type": "move", "x": \#(300 + 6 * k), "y": 300}"#) }
        lines.append(#"{"t": 0.5, "type": "up", "x": 480, "y": 300, "button": "right"}"#)
        lines.append(#"{"t": 2.5, "type": "wait"}"#)
        let script = try dir.write("rotate.jsonl", Self.script(lines))
        let r = try runMapwright(["view", "--headless", "--script", script, "--frames", dir.path("frames") + "/", "--log-camera",
                                  "--center", "46.05,14.5", "--zoom", "9", "--size", "640x480"])
        #expect(r.status == 0, "\(r.stderr)")
        let cams = try Self.cameraLines(r.stdout)
        #expect(cams.count == 151)
        // 6 px per frame at 0.8°/px: 4.8° per frame during the gesture.
        for k in 1...30 { expectNear(angleDifference(cams[k].bearing, cams[k - 1].bearing), 4.8, tolerance: 1e-6, "frame \(k)") }
        // The coast: changes on every frame until it comes to rest, and lasts a while.
        var coastEnd = 31
        while coastEnd < cams.count, abs(angleDifference(cams[coastEnd].bearing, cams[coastEnd - 1].bearing)) > 1e-9 { coastEnd += 1 }
        // MapLibre's inertia (shared/reference/interaction.md): 288°/s released, speed = 288·0.3 =
        // 86.4°/s, duration = 86.4 / (1000·0.3) = 0.288 s (17 frames), distance = 86.4·0.288/2 = 12.44°.
        #expect(coastEnd - 31 >= 16, "the coast stopped at frame \(coastEnd)")
        #expect(cams[cams.count - 1].bearing == cams[coastEnd - 1].bearing)
        expectNear(angleDifference(cams[coastEnd - 1].bearing, cams[30].bearing), 12.4416, tolerance: 0.01)
        for k in stride(from: 0, to: cams.count, by: 1) {
            let image = try Bitmap(contentsOfPNGFile: dir.path(String(format: "frames/%06d.png", k)))
            let needle = try #require(compassNeedleAngle(image, center: (640 - 34, 34), radius: 22), "frame \(k)")
            // North on screen is at −bearing from screen-up.
            expectNear(angleDifference(needle, -cams[k].bearing), 0, tolerance: 3, "frame \(k) bearing \(cams[k].bearing)")
        }
    }

    /// A click on a route prints the pick: segment, geodesic distance along, time; a click away
    /// from everything prints a null pick.
    @Test func clicksOnARoutePrintPicks() throws {
        let pts = [LatLng(lat: 46.05, lon: 14.45), LatLng(lat: 46.06, lon: 14.50), LatLng(lat: 46.04, lon: 14.55)]
        var csv = "lat,lon,time\n"
        for (i, p) in pts.enumerated() { csv += "\(p.lat),\(p.lon),2024-05-01T10:00:\(String(format: "%02d", i * 10))Z\n" }
        let route = try dir.write("route.csv", csv)
        let cam = Camera(center: LatLng(lat: 46.05, lon: 14.5), zoom: 12, size: ScreenSize(width: 640, height: 480))
        let s = try #require(cam.project(pts[1]))
        let script = try dir.write("click.jsonl", Self.script([
            #"{"t": 0.1, "type": "down", "x": \#(s.x), "y": \#(s.y)}"#,
            #"{"t": 0.15, "type": "up", "x": \#(s.x), "y": \#(s.y)}"#,
            #"{"t": 1.0, "type": "down", "x": 20, "y": 460}"#,
            #"{"t": 1.05, "type": "up", "x": 20, "y": 460}"#,
        ]))
        let r = try runMapwright(["view", "--headless", "--script", script, "--log-camera", "--route", route,
                                  "--center", "46.05,14.5", "--zoom", "12", "--size", "640x480"])
        #expect(r.status == 0, "\(r.stderr)")
        let picks = r.stdout.split(separator: "\n").filter { $0.hasPrefix(#"{"pick""#) }
        #expect(picks.count == 2)
        struct P: Decodable { struct I: Decodable { var kind: String; var overlay: Int; var segment: Int; var distanceAlong: Double; var time: String }; var pick: I }
        let hit = try JSONDecoder().decode(P.self, from: Data(try #require(picks.first).utf8)).pick
        #expect(hit.kind == "route" && hit.overlay == 0)
        let leg = Geodesic.wgs84.inverse(pts[0], pts[1]).distance
        expectNear(hit.distanceAlong, leg, tolerance: 0.5)
        #expect(hit.time == "2024-05-01T10:00:10Z")
        #expect(picks.last == #"{"pick": null}"#)
    }

    @Test func aMalformedScriptLineIsNamedAndNothingRuns() throws {
        let script = try dir.write("bad.jsonl", Self.script([#"{"t": 0, "type": "down", "x": 1, "y": 2}"#, #"{"t": 0.1, "type": "jump"}"#]))
        let r = try runMapwright(["view", "--headless", "--script", script, "--frames", dir.path("out") + "/"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("bad.jsonl:2:") && r.stderr.contains("unknown type \"jump\""), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("out")))
        let back = try dir.write("back.jsonl", Self.script([#"{"t": 1, "type": "wait"}"#, "", #"{"t": 0.5, "type": "wait"}"#]))
        let r2 = try runMapwright(["view", "--headless", "--script", back])
        #expect(r2.status != 0 && r2.stderr.contains("back.jsonl:3:") && r2.stderr.contains("goes back in time"), "\(r2.stderr)")
        let nan = try dir.write("nan.jsonl", #"{"t": 0, "type": "move", "x": 1e999, "y": 0}"# + "\n")
        let r3 = try runMapwright(["view", "--headless", "--script", nan])
        #expect(r3.status != 0 && r3.stderr.contains("nan.jsonl:1:"), "\(r3.stderr)")
    }

    @Test func withoutADisplayTheErrorSuggestsHeadless() throws {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = nil
        env["WAYLAND_DISPLAY"] = nil
        let r = try runMapwright(["view", "--center", "0,0", "--zoom", "2"], environment: env)
        #expect(r.status != 0)
        #expect(r.stderr.contains("--headless"), "\(r.stderr)")
    }

    /// A DISPLAY that names no running server is an error that names it, at once: SDL must not go
    /// on to another driver (KMS/DRM, offscreen) and wait on a window nobody can see.
    @Test func anUnreachableDisplayIsAnErrorNotAnInvisibleWindow() throws {
        var n = 187
        while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") { n += 1 }
        let r = try runProgram("/usr/bin/env", ["-u", "WAYLAND_DISPLAY", "-u", "SDL_VIDEODRIVER", "DISPLAY=:\(n)", "/usr/bin/timeout", "-k", "5", "60",
                                                mapwrightExecutable().path, "view", "--center", "0,0", "--zoom", "2"])
        #expect(r.status == 1, "exit \(r.status) (124: still waiting after 60 s): \(r.stderr)")
        #expect(r.stderr.contains("cannot open a window on DISPLAY ':\(n)'"), "\(r.stderr)")
        #expect(r.stderr.contains("--headless"), "\(r.stderr)")
    }
}
