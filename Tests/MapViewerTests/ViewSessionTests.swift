import Foundation
import GeoKit
import MapCamera
import MapGestures
import MapScene
import MapSnapshot
import MapTestSupport
import Testing
@testable import MapViewer

@Suite struct ViewSessionTests {
    static func session(_ overlays: [Overlay] = [], options: ViewerOptions = ViewerOptions(), bearing: Double = 0) -> ViewSession {
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 8, bearing: bearing, size: ScreenSize(width: 800, height: 600))
        return ViewSession(AnimatedSnapshot(still: Snapshot(camera: cam, overlays: overlays, basemapStyle: nil)), options: options)
    }

    func click(_ s: ViewSession, _ p: ScreenPoint, at t: Double, mods: Modifiers = []) {
        s.handle(TimedEvent(t: t, event: .pointerDown(x: p.x, y: p.y, button: .left, modifiers: mods)))
        s.handle(TimedEvent(t: t + 0.05, event: .pointerUp(x: p.x, y: p.y, button: .left, modifiers: mods)))
    }

    /// Measure mode: clicks drop points; legs are WGS84 geodesics. Along the equator a degree of
    /// longitude is a·π/180 = 111 319.49 m (a = 6 378 137 m), a hand-derived truth.
    @Test func measureLegsAlongTheEquator() throws {
        var o = ViewerOptions()
        o.measure = true
        let s = Self.session(options: o)
        let cam = s.camera
        for (i, lon) in [0.0, 1.0, -0.5].enumerated() {
            click(s, try #require(cam.project(LatLng(lat: 0, lon: lon))), at: Double(i))
        }
        let reports = s.takeReports()
        guard case .measure(let legs, let total)? = reports.last else { Issue.record("no measure report: \(reports)"); return }
        #expect(legs.count == 2)
        expectNear(legs[0], 6_378_137 * .pi / 180, tolerance: 0.5)
        expectNear(legs[1], 1.5 * 6_378_137 * .pi / 180, tolerance: 0.5)
        expectNear(total, 2.5 * 6_378_137 * .pi / 180, tolerance: 1)
        // Dragging the middle point back onto the first makes the first leg zero, live.
        let p1 = try #require(cam.project(LatLng(lat: 0, lon: 1))), p0 = try #require(cam.project(LatLng(lat: 0, lon: 0)))
        s.handle(TimedEvent(t: 5, event: .pointerDown(x: p1.x, y: p1.y, button: .left)))
        s.handle(TimedEvent(t: 5.1, event: .pointerMove(x: (p0.x + p1.x) / 2, y: p0.y)))
        s.handle(TimedEvent(t: 5.2, event: .pointerMove(x: p0.x, y: p0.y)))
        s.handle(TimedEvent(t: 5.3, event: .pointerUp(x: p0.x, y: p0.y, button: .left)))
        guard case .measure(let legs2, _)? = s.takeReports().last else { Issue.record("no report while dragging"); return }
        expectNear(legs2[0], 0, tolerance: 1)
        #expect(s.camera.center == cam.center, "dragging a measure point must not pan")
        // The frame shows the line, the points, the leg labels and a total callout.
        let f = s.frame(at: 6)
        #expect(f.callouts.count == 1 && f.callouts[0].lines[0].hasPrefix("Total"))
    }

    /// In a view wider than the world a marker shows on several copies; its callout stands on
    /// the copy that was clicked and stays there as the map pans (MapLibre's popups "smart-wrap"
    /// so); a copy off the screen more than half a world from the centre gives way to one nearer.
    @Test func aCalloutStaysOnTheCopyOfTheWorldClicked() throws {
        let m = try Marker(position: LatLng(lat: 20, lon: 150), label: "Far")
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 0, size: ScreenSize(width: 1024, height: 600))
        let s = ViewSession(AnimatedSnapshot(still: Snapshot(camera: cam, overlays: [.marker(m)], basemapStyle: nil)))
        // The copy one world west (−210°, x ≈ 213) rather than the one nearest the centre (x ≈ 725).
        let west = try #require(cam.project(MapPoint(LatLng(lat: 20, lon: -210))))
        let near = try #require(cam.project(m.position))
        #expect(abs(near.x - west.x - 512) < 1e-9)
        click(s, west, at: 0)
        #expect(s.selection?.kind == .marker)
        let f0 = s.frame(at: 1)
        let tip0 = try #require(f0.callouts.first?.screenPoint(in: f0.camera))
        expectNear(tip0.x, west.x, tolerance: 1e-6)
        expectNear(tip0.y, west.y, tolerance: 1e-6)
        // Drag the map 150 px west, holding still before letting go (no fling): the callout
        // moves with the copy it is on, though the other copy is now nearer the centre.
        s.handle(TimedEvent(t: 2, event: .pointerDown(x: 500, y: 300, button: .left)))
        for i in 1 ... 10 { s.handle(TimedEvent(t: 2 + 0.02 * Double(i), event: .pointerMove(x: 500 - 15 * Double(i), y: 300))) }
        s.handle(TimedEvent(t: 3, event: .pointerUp(x: 350, y: 300, button: .left)))
        let f1 = s.frame(at: 4)
        let tip1 = try #require(f1.callouts.first?.screenPoint(in: f1.camera))
        let westNow = try #require(f1.camera.project(MapPoint(LatLng(lat: 20, lon: -210 + 360 * ((f1.camera.center.lon + 210) / 360).rounded(.down)))))
        expectNear(tip1.x, west.x - 150, tolerance: 1)
        expectNear(tip1.x, westNow.x, tolerance: 1e-6)
        #expect(abs(tip1.x - (try #require(f1.camera.project(m.position))).x) > 100, "jumped to the copy nearest the centre")
        // Zoomed in on the other copy, the clicked one is a world away and off the screen: the
        // callout comes to the copy in view.
        let zoomed = Camera(center: m.position, zoom: 4, size: cam.size)
        let back = ViewSession.smartWrap(m.position, from: ViewSession.CalloutWrap(lon: -210, screen: tip1), camera: zoomed)
        #expect(back.lon == 150)
        expectNear(try #require(back.screen).x, 512, tolerance: 1e-6)
        // But a copy still on the screen is kept, however far from the centre.
        let wide = Camera(center: LatLng(lat: 0, lon: 100), zoom: 0, size: cam.size)  // −210° at x ≈ 71
        let kept = ViewSession.smartWrap(m.position, from: ViewSession.CalloutWrap(lon: -210, screen: nil), camera: wide)
        #expect(kept.lon == -210)
    }

    @Test func draggableMarkersMoveAndReport() throws {
        let m = try Marker(position: LatLng(lat: 0, lon: 0), label: "Camp")
        var o = ViewerOptions()
        o.draggableMarkers = true
        let s = Self.session([.marker(m)], options: o)
        var heard: [ViewerReport] = []
        s.onReport = { heard.append($0) }
        let cam = s.camera
        let target = LatLng(lat: 0.5, lon: 0.25)
        let to = try #require(cam.project(target))
        s.handle(TimedEvent(t: 0, event: .pointerDown(x: 400, y: 300, button: .left)))
        s.handle(TimedEvent(t: 0.1, event: .pointerMove(x: (400 + to.x) / 2, y: (300 + to.y) / 2)))
        s.handle(TimedEvent(t: 0.2, event: .pointerMove(x: to.x, y: to.y)))
        s.handle(TimedEvent(t: 0.3, event: .pointerUp(x: to.x, y: to.y, button: .left)))
        guard case .markerMoved(0, let p)? = heard.last else { Issue.record("no report: \(heard)"); return }
        expectNear(p, target, tolerance: 1e-9)
        #expect(s.camera.center == cam.center)
        guard case .marker(let moved) = s.frame(at: 1).overlays[0] else { Issue.record("not a marker"); return }
        expectNear(moved.position, target, tolerance: 1e-9)
        // Without the option the same drag pans the map.
        let s2 = Self.session([.marker(m)])
        s2.handle(TimedEvent(t: 0, event: .pointerDown(x: 400, y: 300, button: .left)))
        s2.handle(TimedEvent(t: 0.1, event: .pointerMove(x: to.x, y: to.y)))
        #expect(s2.camera.center != cam.center)
    }

    /// A click on a cluster eases onto it at the zoom where it splits (its expansion zoom):
    /// markers 0.01° apart are 0.01/360 × 512 × 2^z px apart, 29 px at zoom 11 (inside the
    /// 50-px radius: one cluster) and 58 px at zoom 12 (apart), so it opens at 12.
    @Test func aClickOnAClusterOpensIt() throws {
        let markers = try [(0.3, 0.3), (0.3, 0.31), (0.31, 0.3)].map { try Marker(position: LatLng(lat: $0.0, lon: $0.1)) }
        let cluster = try MarkerCluster(markers: markers)
        let s = Self.session([.cluster(cluster)])
        let node = try #require(cluster.level(atZoom: 8).first)
        #expect(node.count == 3)
        let z = try #require(node.expansionZoom)
        #expect(z == 12)
        #expect(cluster.level(atZoom: 12).count == 3 && cluster.level(atZoom: 11).count == 1)
        click(s, try #require(s.camera.project(node.point.latLng)), at: 1)
        let after = s.frame(at: 2).camera
        expectNear(after.zoom, Double(z), tolerance: 1e-9)
        expectNear(after.center.lat, node.point.latLng.lat, tolerance: 1e-9)
        expectNear(after.center.lon, node.point.latLng.lon, tolerance: 1e-9)
        let picks = s.takeReports().compactMap { if case .pick(let p) = $0 { p } else { nil } }
        #expect(picks.first?.kind == .cluster && picks.first?.count == 3)
        #expect(ViewerReport.pick(picks.first).jsonLine.contains(#""kind": "cluster", "overlay": 0"#))
        #expect(ViewerReport.pick(picks.first).jsonLine.hasSuffix(#""label": "3", "count": 3, "expansionZoom": 12}}"#))
        #expect(s.frame(at: 2).callouts.isEmpty)
    }

    /// A click on the compass eases back to north over 1 s (Shift: also flat); a drag on it turns
    /// the map by the angle swept round its centre.
    @Test func compassClickAndDrag() throws {
        let s = Self.session(bearing: 70)
        let c = MapSnapshotter.compassCenter(for: s.camera.size)
        #expect(c == ScreenPoint(x: 800 - 34, y: 34))
        click(s, c, at: 1)
        #expect(s.frame(at: 1.5).camera.bearing != 0)
        expectNear(Camera.normalizedBearing(s.frame(at: 2.06).camera.bearing), 0, tolerance: 1e-9)
        // Sweep a quarter turn clockwise round the centre: from above it to its right.
        let r = 20.0
        s.handle(TimedEvent(t: 3, event: .pointerDown(x: c.x, y: c.y - r, button: .left)))
        for k in 1...9 {
            let a = Double(k) * 10 * .pi / 180
            s.handle(TimedEvent(t: 3 + Double(k) * 0.02, event: .pointerMove(x: c.x + r * sin(a), y: c.y - r * cos(a))))
        }
        s.handle(TimedEvent(t: 3.3, event: .pointerUp(x: c.x + r, y: c.y, button: .left)))
        expectNear(Camera.normalizedBearing(s.frame(at: 3.4).camera.bearing), -90, tolerance: 1e-6)
        #expect(s.takeReports().filter { if case .pick = $0 { true } else { false } }.isEmpty, "compass clicks are not picks")
    }

    @Test func compassAutoHideFadesWhenNorthIsUp() throws {
        var o = ViewerOptions()
        o.compassAutoHide = true
        let s = Self.session(options: o, bearing: 20)
        #expect(s.frame(at: 0).compassOpacity == 1)
        s.handle(TimedEvent(t: 0.1, event: .key("n")))
        _ = s.frame(at: 1.2)
        #expect(s.needsFrame, "the fade is still running")
        expectNear(s.frame(at: 1.3).compassOpacity, 1 - 0.1 / ViewSession.compassFade, tolerance: 1e-9)
        #expect(s.frame(at: 2).compassOpacity == 0)
        #expect(!s.needsFrame)
    }
}

@Suite struct ViewerScriptTests {
    @Test func parsesEveryEventType() throws {
        let text = """
            # a comment
            {"t": 0, "type": "down", "x": 10, "y": 20, "button": "right", "modifiers": ["shift"]}
            {"t": 0.1, "type": "move", "x": 15, "y": 20}
            {"t": 0.2, "type": "up", "x": 15, "y": 20}
            {"t": 0.3, "type": "wheel", "x": 1, "y": 2, "dy": -3}
            {"t": 0.4, "type": "touch", "phase": "down", "id": 7, "x": 3, "y": 4}
            {"t": 0.5, "type": "key", "key": "n", "modifiers": ["control"]}

            {"t": 2, "type": "wait"}
            """
        let e = try ViewerScript.parse(text)
        #expect(e.map(\.input) == [
            .pointerDown(x: 10, y: 20, button: .right, modifiers: .shift), .pointerMove(x: 15, y: 20),
            .pointerUp(x: 15, y: 20, button: .left), .wheel(x: 1, y: 2, dy: -3), .touch(phase: .down, id: 7, x: 3, y: 4),
            .key("n", modifiers: .control), nil,
        ])
        #expect(ScriptRun.lastFrame(of: e) == 120)
    }

    @Test(arguments: [
        (#"{"t": 0, "type": "down", "x": 1}"#, "missing \"y\""),
        (#"{"t": -1, "type": "wait"}"#, "must not be negative"),
        (#"{"t": 1e9, "type": "wait"}"#, "within ±3600"),
        (#"{"t": 0, "type": "down", "x": 1, "y": 1, "button": "thumb"}"#, "unknown button"),
        (#"{"t": 0, "type": "touch", "phase": "hover", "id": 1, "x": 1, "y": 1}"#, "phase"),
        (#"{"t": 0, "type": "key", "modifiers": ["hyper"], "key": "a"}"#, "unknown modifier"),
        (#"{"t": "soon", "type": "wait"}"#, "finite number"),
        (#"[1, 2]"#, "not a JSON object"),
        (#"{"t": 0, "type": "down", "x": true, "y": 1}"#, "finite number"),
    ])
    func badLinesAreNamed(_ line: String, _ why: String) {
        do {
            _ = try ViewerScript.parse("{\"t\": 0, \"type\": \"wait\"}\n" + line, file: "s.jsonl")
            Issue.record("accepted \(line)")
        } catch let e as ScriptError {
            #expect(e.line == 2 && e.description.hasPrefix("s.jsonl:2:") && e.reason.contains(why), "\(e)")
        } catch {
            Issue.record("\(error)")
        }
    }
}

@Suite struct FollowedFileTests {
    @Test func tailsAppendsSurvivesTruncationAndRotation() throws {
        let scratch = try ScratchDirectory("follow"), dir = scratch.url
        let path = dir.appendingPathComponent("track.csv").path
        let f = FollowedFile(path: path)
        #expect(f.poll().points.isEmpty, "a missing file is waited for")
        try "lat,lon\n46.0,14.5\n46.1,14".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(f.poll().points == [LatLng(lat: 46.0, lon: 14.5)], "the unfinished line waits for its newline")
        let h = try #require(FileHandle(forWritingAtPath: path))
        try h.seekToEnd()
        h.write(Data(".6\n$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\n$GPGGA,123519,4807.038,N,01131.000,E,0,08,0.9,545.4,M,46.9,M,,*47\n91,0\n".utf8))
        try h.close()
        let r = f.poll()
        // NMEA 4807.038 N = 48 + 7.038/60 = 48.1173°, 01131.000 E = 11 + 31/60 = 11.516667°; the
        // GGA has fix quality 0 (no fix) and is skipped; 91,0 is not a latitude.
        #expect(r.points.count == 2)
        #expect(r.points.first == LatLng(lat: 46.1, lon: 14.6))
        expectNear(r.points[1], LatLng(lat: 48 + 7.038 / 60, lon: 11 + 31.0 / 60), tolerance: 1e-9)
        #expect(r.warnings.count == 1 && r.warnings[0].contains("track.csv:6:"), "\(r.warnings)")
        // Truncated: read again from the start.
        try "45,13\n".write(toFile: path, atomically: false, encoding: .utf8)
        let t = f.poll()
        #expect(t.points == [LatLng(lat: 45, lon: 13)] && t.warnings.contains { $0.contains("truncated") }, "\(t)")
        // Rotated: a new file under the name (atomic write = a new inode).
        try "44,12\n44.5,12.5\n".write(toFile: path, atomically: true, encoding: .utf8)
        let rot = f.poll()
        #expect(rot.points == [LatLng(lat: 44, lon: 12), LatLng(lat: 44.5, lon: 12.5)], "\(rot)")
    }

    /// What stands in the way is said once when it starts, in words, and again only after it
    /// has cleared: no file yet, a directory, a pipe, a file that cannot be read.
    @Test func obstaclesAreOneClearWarningEachNotOnePerPoll() throws {
        let scratch = try ScratchDirectory("follow-obstacles"), dir = scratch.url
        let path = dir.appendingPathComponent("gps.csv").path
        let f = FollowedFile(path: path)
        #expect(f.poll().warnings == ["\(path): no such file yet; waiting for it to appear"])
        #expect(f.poll().warnings.isEmpty)
        // A directory where the file should be.
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(f.poll().warnings == ["\(path): is a directory; waiting for a file there"])
        #expect(f.poll().warnings.isEmpty && f.poll().warnings.isEmpty)
        try FileManager.default.removeItem(atPath: path)
        // A named pipe: not followed (its size says nothing), and said so once.
        #expect(mkfifo(path, 0o600) == 0)
        let w = f.poll().warnings
        #expect(w.count == 1 && w[0].contains("not a regular file"), "\(w)")
        #expect(f.poll().warnings.isEmpty)
        try FileManager.default.removeItem(atPath: path)
        // A file at last: read, and no warning.
        try "46,14\n".write(toFile: path, atomically: false, encoding: .utf8)
        let r = f.poll()
        #expect(r.points == [LatLng(lat: 46, lon: 14)] && r.warnings.isEmpty, "\(r)")
        // Unreadable (as a user other than root would find it): one warning naming why.
        if getuid() != 0 {
            try "47,15\n".write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0)
            let u = f.poll().warnings
            #expect(u.contains { $0.contains("cannot be opened: Permission denied") }, "\(u)")
            #expect(f.poll().warnings.isEmpty)
        }
    }

    @Test func aSessionDrawsFollowedPointsAsALiveTrack() throws {
        let scratch = try ScratchDirectory("follow"), dir = scratch.url
        let path = dir.appendingPathComponent("live.txt").path
        try "0,0\n0.1,0.1\n".write(toFile: path, atomically: false, encoding: .utf8)
        let s = ViewSessionTests.session()
        s.follow(FollowedFile(path: path))
        #expect(s.pollFollowedFiles())
        let lines = s.frame(at: 0).overlays.compactMap { if case .polyline(let l) = $0 { l } else { nil } }
        #expect(lines.reduce(0) { $0 + $1.path.count } == 2)
        #expect(!s.pollFollowedFiles())
    }
}

/// The window's frames fade labels over the scene's `labelFade` (the stills it starts from do not).
@Suite struct ViewSessionLabelFadeTests {
    @Test func framesCarryTheScenesLabelFade() {
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 8, size: ScreenSize(width: 800, height: 600))
        for fade in [0.3, 0.5, 0] {
            var animated = AnimatedSnapshot(still: Snapshot(camera: cam, basemapStyle: nil))
            animated.labelFade = fade
            #expect(ViewSession(animated).frame(at: 1).labelFade == fade)
        }
        #expect(AnimatedSnapshot(still: Snapshot(camera: cam, basemapStyle: nil)).labelFade == 0.3)
    }
}
