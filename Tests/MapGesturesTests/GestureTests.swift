import Foundation
import GeoKit
import MapCamera
import MapGestures
import MapTestSupport
import Testing

/// Synthetic event streams stepped at 60 Hz against the camera math: anchors stay put, the
/// thresholds of MapLibre hold, inertia travels what its formula gives, north snaps.
struct GestureTests {
    static let size = ScreenSize(width: 800, height: 600)

    static func camera(bearing: Double = 0, pitch: Double = 0) -> Camera {
        Camera(center: LatLng(lat: 47.37, lon: 8.54), zoom: 13, bearing: bearing, pitch: pitch, size: size)
    }

    /// Expects the ground point `g` to be drawn at `p` (±tolerance px).
    static func expectUnder(_ cam: Camera, _ g: LatLng, _ p: ScreenPoint, tolerance: Double = 0.5, _ what: String) {
        guard let s = cam.project(g) else { Issue.record("\(what): behind the camera"); return }
        expectNear(s.x, p.x, tolerance: tolerance, "\(what) x")
        expectNear(s.y, p.y, tolerance: tolerance, "\(what) y")
    }

    /// A mouse drag: the ground point pressed stays under the pointer on every frame.
    @Test(arguments: [(0.0, 0.0), (30, 0), (0, 50), (30, 50)])
    func dragKeepsTheGroundUnderThePointer(bearing: Double, pitch: Double) throws {
        let m = MapInteraction(camera: Self.camera(bearing: bearing, pitch: pitch))
        let start = ScreenPoint(x: 300, y: 350)
        let ground = try #require(m.camera.unproject(start))
        m.handle(TimedEvent(t: 0, event: .pointerDown(x: start.x, y: start.y, button: .left)))
        for k in 1...40 {
            let t = Double(k) / 60
            let p = ScreenPoint(x: start.x + 6 * Double(k), y: start.y - 2.5 * Double(k) + 10 * sin(Double(k) / 5))
            m.handle(TimedEvent(t: t, event: .pointerMove(x: p.x, y: p.y)))
            Self.expectUnder(m.step(to: t), ground, p, "frame \(k)")
        }
    }

    /// A wheel notch eases the zoom over 200 ms about the cursor, which stays on its ground point.
    @Test func wheelZoomKeepsItsAnchor() throws {
        let m = MapInteraction(camera: Self.camera(bearing: 30, pitch: 40))
        let p = ScreenPoint(x: 620, y: 180)
        let ground = try #require(m.camera.unproject(p))
        let z0 = m.camera.zoom
        m.handle(TimedEvent(t: 0, event: .wheel(x: p.x, y: p.y, dy: -MapInteraction.wheelDelta * 25)))
        for k in 1...15 { Self.expectUnder(m.step(to: Double(k) / 60), ground, p, "frame \(k)") }
        // MapLibre: scale 2/(1 + e^(−100.006/450)) for one notch of 100 px.
        expectNear(m.camera.zoom - z0, log2(2 / (1 + exp(-MapInteraction.wheelDelta * 25 / 450))), tolerance: 1e-9)
        #expect(!m.isActive)
    }

    /// A pinch spreading about a fixed midpoint zooms about it (once past 0.1 levels) and keeps
    /// the midpoint's ground point under it; 5° of turn with fingers 300 px apart does not rotate
    /// (threshold 25/(π·300)·360 ≈ 9.5°), 30° does.
    @Test(arguments: [(5.0, false), (30.0, true)])
    func pinchZoomsAboutTheMidpointAndRotatesPastTheThreshold(turn: Double, rotates: Bool) throws {
        let m = MapInteraction(camera: Self.camera(bearing: 10))
        let mid = ScreenPoint(x: 420, y: 280)
        let ground = try #require(m.camera.unproject(mid))
        let b0 = m.camera.bearing
        func fingers(_ spread: Double, _ angle: Double) -> (ScreenPoint, ScreenPoint) {
            let a = angle * .pi / 180
            return (ScreenPoint(x: mid.x - spread / 2 * cos(a), y: mid.y - spread / 2 * sin(a)),
                    ScreenPoint(x: mid.x + spread / 2 * cos(a), y: mid.y + spread / 2 * sin(a)))
        }
        let (a, b) = fingers(300, 0)
        m.handle(TimedEvent(t: 0, event: .touch(phase: .down, id: 1, x: a.x, y: a.y)))
        m.handle(TimedEvent(t: 0, event: .touch(phase: .down, id: 2, x: b.x, y: b.y)))
        for k in 1...30 {
            let t = Double(k) / 60, f = Double(k) / 30
            let (a, b) = fingers(300 * (1 + 0.4 * f), turn * f)
            m.handle(TimedEvent(t: t, event: .touch(phase: .move, id: 1, x: a.x, y: a.y)))
            m.handle(TimedEvent(t: t, event: .touch(phase: .move, id: 2, x: b.x, y: b.y)))
            Self.expectUnder(m.step(to: t), ground, mid, "frame \(k)")
        }
        #expect(m.camera.zoom > 13.4, "spread 1.4× should zoom in ~0.49 levels, zoom \(m.camera.zoom)")
        let turned = abs(Camera.normalizedBearing(m.camera.bearing - b0))
        if rotates { #expect(turned > 10, "bearing turned \(turned)°") } else { #expect(turned == 0, "bearing turned \(turned)°") }
    }

    /// A pinch let go while still spreading coasts on in zoom (MapLibre's zoom inertia) about
    /// the fingers' last midpoint, whichever finger lifts first: the ground point under the
    /// midpoint stays there on every frame of the coast, and the zoom travels MapLibre's
    /// distance. Each finger's move is its own event at the same time, as from SDL or a script.
    @Test(arguments: [false, true])
    func pinchInertiaZoomsAboutTheLastMidpoint(secondFingerFirst: Bool) throws {
        let m = MapInteraction(camera: Self.camera(bearing: 20, pitch: 30))
        let mid = ScreenPoint(x: 430, y: 310)
        let ground = try #require(m.camera.unproject(mid))
        func spread(_ k: Int) -> Double { 110 + 10 * Double(k) }
        m.handle(TimedEvent(t: 0, event: .touch(phase: .down, id: 1, x: mid.x - spread(0), y: mid.y)))
        m.handle(TimedEvent(t: 0, event: .touch(phase: .down, id: 2, x: mid.x + spread(0), y: mid.y)))
        for k in 1...12 {
            let t = Double(k) / 60
            m.handle(TimedEvent(t: t, event: .touch(phase: .move, id: 1, x: mid.x - spread(k), y: mid.y)))
            m.handle(TimedEvent(t: t, event: .touch(phase: .move, id: 2, x: mid.x + spread(k), y: mid.y)))
            _ = m.step(to: t)
        }
        let t = 13.0 / 60
        let order: [(Int, Double)] = secondFingerFirst ? [(2, 1), (1, -1)] : [(1, -1), (2, 1)]
        for (id, side) in order {
            m.handle(TimedEvent(t: t, event: .touch(phase: .up, id: id, x: mid.x + side * spread(12), y: mid.y)))
        }
        let released = m.camera.zoom
        for k in 14...60 { Self.expectUnder(m.step(to: Double(k) / 60), ground, mid, "coast frame \(k)") }
        // MapLibre's coast over the 60 ms before release (frames 10–12, 0.05 s): the zoom moved
        // log2(230/200) levels, speed = that · 0.3 / 0.05 s, duration = speed / (20 · 0.3),
        // distance = speed · duration / 2 (about 0.122 levels).
        let speed = log2(230.0 / 200) * 0.3 / 0.05
        expectNear(m.camera.zoom - released, speed * (speed / 6) / 2, tolerance: 1e-9, "zoom coast")
        #expect(!m.isActive)
    }

    /// Two fingers side by side dragged up together pitch the map (0.5°/px) and do not zoom.
    @Test func twoFingerVerticalDragPitches() {
        let m = MapInteraction(camera: Self.camera())
        m.handle(TimedEvent(t: 0, event: .touch(phase: .down, id: 1, x: 300, y: 400)))
        m.handle(TimedEvent(t: 0, event: .touch(phase: .down, id: 2, x: 500, y: 402)))
        for k in 1...20 {
            let t = Double(k) / 60, dy = -3 * Double(k)
            m.handle(TimedEvent(t: t, event: .touch(phase: .move, id: 1, x: 300, y: 400 + dy)))
            m.handle(TimedEvent(t: t, event: .touch(phase: .move, id: 2, x: 500, y: 402 + dy)))
        }
        expectNear(m.camera.pitch, 30, tolerance: 1e-9)  // 60 px up × 0.5°/px
        #expect(m.camera.zoom == 13)
        expectNear(m.camera.center.lat, 47.37, tolerance: 1e-12)
    }

    /// Released at 1000 px/s (60 Hz events of 16.67 px), a pan coasts MapLibre's distance:
    /// speed = 1000 · 0.3 = 300 px/s, duration = 300/(2500 · 0.3) = 0.4 s, distance = 300 · 0.4/2 = 60 px (±2 %).
    @Test func panInertiaTravelsMapLibresDistance() throws {
        let m = MapInteraction(camera: Self.camera(bearing: 20))
        m.handle(TimedEvent(t: 0, event: .pointerDown(x: 100, y: 300, button: .left)))
        var x = 100.0
        for k in 1...18 {
            x += 1000.0 / 60
            m.handle(TimedEvent(t: Double(k) / 60, event: .pointerMove(x: x, y: 300)))
        }
        let release = ScreenPoint(x: x, y: 300)
        let ground = try #require(m.camera.unproject(release))
        m.handle(TimedEvent(t: 18.0 / 60, event: .pointerUp(x: x, y: 300, button: .left)))
        var last = m.camera
        var frames = 0
        for k in 19...80 {
            let c = m.step(to: Double(k) / 60)
            if c != last { frames += 1 }
            last = c
        }
        let moved = try #require(m.camera.project(ground)).x - release.x
        expectNear(moved, 60, tolerance: 1.2)
        #expect(frames >= 23 && frames <= 25, "coast frames \(frames) (0.4 s at 60 Hz)")
        #expect(!m.isActive)
    }

    /// Holding still for 100 ms before letting go gives no fling.
    @Test func holdingStillBeforeReleaseGivesNoFling() {
        let m = MapInteraction(camera: Self.camera())
        m.handle(TimedEvent(t: 0, event: .pointerDown(x: 100, y: 300, button: .left)))
        for k in 1...10 { m.handle(TimedEvent(t: Double(k) / 60, event: .pointerMove(x: 100 + 20 * Double(k), y: 300))) }
        m.handle(TimedEvent(t: 10.0 / 60 + 0.1, event: .pointerUp(x: 300, y: 300, button: .left)))
        let c = m.camera
        #expect(m.step(to: 2) == c)
    }

    /// Right-drag rotates 0.8°/px; let go within 7° of north it eases to north, at 10° it stays.
    @Test(arguments: [(5.0, 0.0), (10.0, 10.0)])
    func bearingSnapsToNorthWithinSevenDegrees(turn: Double, expected: Double) {
        let m = MapInteraction(camera: Self.camera())
        m.handle(TimedEvent(t: 0, event: .pointerDown(x: 400, y: 300, button: .right)))
        let steps = 10
        for k in 1...steps {
            m.handle(TimedEvent(t: Double(k) / 60, event: .pointerMove(x: 400 + turn / 0.8 * Double(k) / Double(steps), y: 300)))
        }
        expectNear(m.camera.bearing, turn, tolerance: 1e-9)
        // Held still, then released: no inertia, only the snap.
        m.handle(TimedEvent(t: 1, event: .pointerUp(x: 400 + turn / 0.8, y: 300, button: .right)))
        m.step(to: 2.5)
        expectNear(m.camera.bearing, expected, tolerance: 1e-9)
    }

    /// Double-click zooms in by one about the pointer (Shift: out); N turns back to north in 1 s.
    @Test func doubleClickAndKeys() throws {
        let m = MapInteraction(camera: Self.camera(bearing: 40))
        let p = ScreenPoint(x: 200, y: 150)
        let ground = try #require(m.camera.unproject(p))
        for (t, e) in [(0.0, InputEvent.pointerDown(x: p.x, y: p.y, button: .left)), (0.05, .pointerUp(x: p.x, y: p.y, button: .left)),
                       (0.2, .pointerDown(x: p.x, y: p.y, button: .left)), (0.25, .pointerUp(x: p.x, y: p.y, button: .left))] {
            m.handle(TimedEvent(t: t, event: e))
        }
        // The first click is reported for picking; the second one zoomed instead.
        #expect(m.takeClicks() == [p])
        #expect(m.takeClicks().isEmpty)
        for k in 13...40 { Self.expectUnder(m.step(to: Double(k) / 60), ground, p, "frame \(k)") }
        expectNear(m.camera.zoom, 14, tolerance: 1e-9)
        m.handle(TimedEvent(t: 1, event: .key("n")))
        m.step(to: 1.5)
        #expect(m.camera.bearing != 0 && m.isActive)
        m.step(to: 2.01)
        expectNear(m.camera.bearing, 0, tolerance: 1e-9)
        m.handle(TimedEvent(t: 3, event: .key("+")))
        m.step(to: 3.4)
        expectNear(m.camera.zoom, 15, tolerance: 1e-9)
        m.handle(TimedEvent(t: 4, event: .key("up", modifiers: .shift)))
        m.step(to: 4.4)
        expectNear(m.camera.pitch, 10, tolerance: 1e-9)
    }
}

/// Touch taps and one-finger pan.
struct TouchTapTests {
    @Test func oneFingerPanDoubleTapAndTwoFingerTap() throws {
        let m = MapInteraction(camera: GestureTests.camera(bearing: 15))
        let p = ScreenPoint(x: 250, y: 200)
        let ground = try #require(m.camera.unproject(p))
        m.handle(TimedEvent(t: 0, event: .touch(phase: .down, id: 7, x: p.x, y: p.y)))
        for k in 1...20 {
            let q = ScreenPoint(x: p.x + 5 * Double(k), y: p.y + 3 * Double(k))
            m.handle(TimedEvent(t: Double(k) / 60, event: .touch(phase: .move, id: 7, x: q.x, y: q.y)))
            GestureTests.expectUnder(m.step(to: Double(k) / 60), ground, q, "pan frame \(k)")
        }
        m.handle(TimedEvent(t: 0.5, event: .touch(phase: .up, id: 7, x: p.x + 100, y: p.y + 60)))
        m.step(to: 2)
        // Double tap: +1 zoom about the tap.
        let z = m.camera.zoom
        let tap = ScreenPoint(x: 500, y: 400)
        let g2 = try #require(m.camera.unproject(tap))
        for (t, ph) in [(3.0, TouchPhase.down), (3.05, .up), (3.2, .down), (3.25, .up)] {
            m.handle(TimedEvent(t: t, event: .touch(phase: ph, id: 1, x: tap.x, y: tap.y)))
        }
        m.step(to: 3.7)
        expectNear(m.camera.zoom, z + 1, tolerance: 1e-9)
        GestureTests.expectUnder(m.camera, g2, tap, "double tap anchor")
        // Two-finger tap: −1 zoom.
        for (t, ph, id) in [(5.0, TouchPhase.down, 1), (5.0, .down, 2), (5.1, .up, 1), (5.1, .up, 2)] {
            m.handle(TimedEvent(t: t, event: .touch(phase: ph, id: id, x: id == 1 ? 300 : 400, y: 300)))
        }
        m.step(to: 5.6)
        expectNear(m.camera.zoom, z, tolerance: 1e-9)
    }
}
