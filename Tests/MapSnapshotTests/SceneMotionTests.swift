import Foundation
import GeoKit
import MapFormats
import MapScene
import MapTestSupport
import Testing
@testable import MapSnapshot

/// Scene files with moving parts: animation blocks, pulses, replays, follow cameras, and the
/// errors that name where and why.
@Suite struct SceneMotionTests: SceneFixture {
    /// Hand-derived: radiusScale 1 → 2 over 2 s (linear) gives 1.5× at t = 1; opacity keyframes
    /// [1, 0.2] with autoreverse over 1 s give 0.6 at 0.5 s and at 1.5 s; colour and position move.
    @Test func animationBlockDrivesStyleValues() throws {
        let a = try loader.animatedSnapshot(from: doc("""
            {"camera": {"center": [10, 20], "zoom": 10}, "duration": 4, "fps": 25,
             "overlays": [
               {"type": "circle", "position": [10, 20], "radius": 100, "fill": "ff000080", "stroke": "ff0000",
                "animation": {"duration": 2, "repeat": 1, "radiusScale": [1, 2]}},
               {"type": "marker", "position": [10, 20],
                "animation": {"duration": 1, "autoreverse": true, "opacity": [1, 0.2], "color": ["000000", "ffffff"],
                              "position": [{"offset": 0, "value": [10, 20]}, {"offset": 1, "value": [11, 22], "easing": "ease"}]}},
               {"type": "route", "coordinates": [[10, 20], [10, 21]], "animation": {"progress": [0, 1], "duration": 4, "repeat": 1}}]}
            """))
        #expect(a.duration == 4 && a.fps == 25 && a.layers.count == 3 && a.still.overlays.isEmpty)
        let f = a.frame(at: 1)
        guard case .circle(let c) = f.overlays[0], case .marker(let m) = a.frame(at: 0.5).overlays[1],
              case .marker(let m2) = a.frame(at: 1.5).overlays[1] else { Issue.record("kinds"); return }
        #expect(c.radius == .meters(150))
        expectNear(m.opacity, 0.6, tolerance: 1e-12)
        expectNear(m2.opacity, 0.6, tolerance: 1e-12)
        #expect(m.color == Color(r: 128, g: 128, b: 128))
        expectNear(m.position.lat, 10.5, tolerance: 1e-12)  // linear easing applies from the first keyframe
        // The route is drawn up to half its length at t = 2 (one piece, ending at lon ≈ 20.5).
        let lines = a.frame(at: 2).overlays.compactMap { o -> Polyline? in if case .polyline(let l) = o { l } else { nil } }
        let end = try #require(lines.last?.path.points.last).latLng
        expectNear(end.lon, 20.5, tolerance: 1e-3)
        #expect(a.frame(at: 0).overlays.filter { if case .polyline = $0 { true } else { false } }.isEmpty)
    }

    @Test func pulseAndReplayWithFollow() throws {
        let scratch = try ScratchDirectory("motion"), dir = scratch.url
        try "lat,lon,time\n47,8,2024-05-01T10:00:00Z\n47,8.01,2024-05-01T10:00:10Z\n47.01,8.01,2024-05-01T10:00:40Z\n"
            .write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let l = SceneLoader(baseDirectory: dir)
        let a = try l.animatedSnapshot(from: doc("""
            {"camera": {"zoom": 15, "pitch": 30, "follow": true},
             "overlays": [{"type": "pulse", "position": [47, 8], "radius": 40, "radiusUnit": "px"},
                          {"type": "replay", "file": "t.csv", "speed": 4, "head": "dot"}]}
            """))
        // 40 track seconds at 4× = 10 s; the follow camera is on the head, looking along travel.
        #expect(a.duration == 10)
        let cam = a.frame(at: 5).camera  // track time 20 s: a third of the way up the second leg
        expectNear(cam.center.lat, 47 + 0.01 / 3, tolerance: 1e-6)
        expectNear(cam.center.lon, 8.01, tolerance: 1e-9)
        #expect(cam.zoom == 15 && cam.pitch == 30)
        guard case .circle(let c) = a.frame(at: 0.4).overlays.first else { Issue.record("no pulse"); return }
        #expect(c.radius == .pixels(40))
        #expect(c.fill.a == UInt8((0.275 * 255).rounded()))
    }

    /// `labelFade` is how long labels fade in animations (0.3 s, MapLibre's, by default); the
    /// still keeps 0 (stills show the placement as it is).
    @Test func labelFadeIsReadFromTheSceneFile() throws {
        for (key, expected) in [("", 0.3), (#""labelFade": 0.5,"#, 0.5), (#""labelFade": 0,"#, 0)] {
            let a = try loader.animatedSnapshot(from: doc(#"{"camera": {"center": [1, 2], "zoom": 3}, \#(key) "overlays": []}"#))
            #expect(a.labelFade == expected && a.still.labelFade == 0 && a.frame(at: 1).labelFade == 0, "\(key)")
        }
    }

    @Test(arguments: [
        (#"{"overlays": [{"type": "circle", "position": [1, 2], "radius": 5, "animation": {"opasity": [1, 0]}}]}"#,
         "overlays[0].animation.opasity: unknown key (did you mean 'opacity'?)"),
        (#"{"camera": {"center": [1, 2], "zoom": 3}, "overlays": [{"type": "circle", "position": [1, 2], "radius": 5, "animation": {"opacity": [1, 2]}}]}"#,
         "overlays[0].animation.opacity[1]: opacity 2.0 is not in 0…1"),
        (#"{"camera": {"center": [1, 2], "zoom": 3}, "overlays": [{"type": "circle", "position": [1, 2], "radius": 5, "animation": {"easing": "wobbly", "opacity": [1, 0]}}]}"#,
         "overlays[0].animation.easing: unknown easing 'wobbly'"),
        (#"{"camera": {"center": [1, 2], "zoom": 3}, "overlays": [{"type": "circle", "position": [1, 2], "radius": 5, "animation": {"duration": 0, "opacity": [1, 0]}}]}"#,
         "overlays[0].animation.duration: 0.0 is not a positive number of seconds"),
        (#"{"camera": {"center": [1, 2], "zoom": 3}, "overlays": [{"type": "marker", "position": [1, 2], "animation": {"progress": [0, 1]}}]}"#,
         "overlays[0].animation.progress: progress applies to routes only"),
        (#"{"camera": {"center": [1, 2], "zoom": 3}, "overlays": [{"type": "pulse", "position": [1, 2], "radius": 5, "period": -1}]}"#,
         "overlays[0].period: -1.0 is not a positive number of seconds"),
        (#"{"camera": {"center": [1, 2], "zoom": 3}, "duration": 900, "overlays": []}"#, "duration: 900 s is over the limit of 600 s"),
        (#"{"camera": {"center": [1, 2], "zoom": 3}, "labelFade": -1, "overlays": []}"#, "labelFade: -1 is not in 0…10 s"),
        (#"{"camera": {"center": [1, 2], "zoom": 3}, "labelFade": 1e9, "overlays": []}"#, "labelFade: 1000000000 is not in 0…10 s"),
        (#"{"camera": {"zoom": 3, "follow": true}, "overlays": [{"type": "pulse", "position": [1, 2], "radius": 5}]}"#,
         "camera.follow: there is no replay to follow"),
    ])
    func errorsSayWhereAndWhy(json: String, message: String) throws {
        do {
            _ = try loader.animatedSnapshot(from: doc(json))
            Issue.record("no error for \(json)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }
}
