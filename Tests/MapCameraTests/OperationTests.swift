import Foundation
import GeoKit
import MapTestSupport
import Testing
@testable import MapCamera

@Suite struct OperationTests {
    static let base = Camera(
        center: LatLng(lat: 48.8566, lon: 2.3522), zoom: 11, bearing: 30, pitch: 40,
        size: ScreenSize(width: 1024, height: 768))

    /// Zoom about a point keeps that point's ground position under it within 1e-6 px, for
    /// seeded random cameras, cursor positions below the horizon and zoom changes.
    @Test func zoomAboutPointKeepsItUnderCursor() throws {
        var rng = SeededRandom(seed: 99)
        var checked = 0
        for _ in 0..<500 {
            var cam = randomCamera(&rng)
            cam.center.lat = .random(in: -60...60, using: &rng)
            cam.zoom = .random(in: 3...18, using: &rng)
            let s = ScreenPoint(
                x: .random(in: 0...cam.size.width, using: &rng),
                y: .random(in: 0...cam.size.height, using: &rng))
            guard let g = cam.unproject(s), s.y > cam.horizonY + 20 else { continue }
            // project() picks the copy of the world nearest the centre; skip cursor points
            // that show another copy (a far pitched view at low zoom).
            guard abs(try #require(cam.groundOffset(at: s)).px) < cam.worldSize / 4 else { continue }
            let z = cam.zoomed(by: .random(in: -2...2, using: &rng), around: s)
            guard abs(z.center.lat) < 80 else { continue }  // stays clear of the latitude clamp
            let back = try #require(z.project(g))
            // tolerance 1e-6 px (the acceptance bound)
            expectNear(back.x, s.x, tolerance: 1e-6, "\(cam)")
            expectNear(back.y, s.y, tolerance: 1e-6, "\(cam)")
            checked += 1
        }
        #expect(checked > 300)
    }

    /// Rotating about a point and dragging keep the grabbed ground point under the pointer.
    @Test func rotateAndDragKeepGroundUnderPointer() throws {
        let s = ScreenPoint(x: 700, y: 500)
        let g = try #require(Self.base.unproject(s))
        let r = Self.base.rotated(to: -75, around: s)
        #expect(r.bearing == -75)
        let back = try #require(r.project(g))
        expectNear(back.x, s.x, tolerance: 1e-6)
        expectNear(back.y, s.y, tolerance: 1e-6)
        let to = ScreenPoint(x: 300, y: 420)
        let d = Self.base.dragged(from: s, to: to)
        let moved = try #require(d.project(g))
        expectNear(moved.x, to.x, tolerance: 1e-6)
        expectNear(moved.y, to.y, tolerance: 1e-6)
    }

    /// Pan, hand-derived: pitch 0, bearing 0, zoom 2 (world 2048 px) at (0, 0). Panning by
    /// (+100, 0) drags the content right, so the centre moves 100 px west:
    /// −100/2048·360° = −17.578125°. Panning by (0, +100) moves it 100 px north:
    /// lat = φ(y = 0.5 − 100/2048).
    @Test func panByScreenDelta() {
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 2, size: ScreenSize(width: 800, height: 600))
        let east = cam.panned(by: ScreenPoint(x: 100, y: 0))
        expectNear(east.center.lon, -17.578125, tolerance: 1e-12)
        expectNear(east.center.lat, 0, tolerance: 1e-12)
        let south = cam.panned(by: ScreenPoint(x: 0, y: 100))
        expectNear(south.center.lat, latFromMercY(0.5 - 100.0 / 2048), tolerance: 1e-12)
        // At bearing 180 the screen's right is west on the ground: the centre moves east.
        var flipped = cam
        flipped.bearing = 180
        expectNear(flipped.panned(by: ScreenPoint(x: 100, y: 0)).center.lon, 17.578125, tolerance: 1e-9)
    }

    /// NaN and infinite arguments leave the camera unchanged (MapLibre's transform tests).
    @Test func nonFiniteArgumentsLeaveCameraUnchanged() {
        let c = Self.base
        #expect(c.zoomed(to: .nan) == c)
        #expect(c.zoomed(by: .infinity, around: ScreenPoint(x: 1, y: 1)) == c)
        #expect(c.zoomed(to: 12, around: ScreenPoint(x: .nan, y: 1)) == c)
        #expect(c.panned(by: ScreenPoint(x: .nan, y: 0)) == c)
        #expect(c.dragged(from: ScreenPoint(x: 0, y: 0), to: ScreenPoint(x: .infinity, y: 0)) == c)
        #expect(c.rotated(to: .nan) == c)
        #expect(c.pitched(to: .nan) == c)
        #expect(c.settingLocation(LatLng(lat: .nan, lon: 0), at: ScreenPoint(x: 1, y: 1)) == c)
    }

    /// Constraints: zoom within min/max, pitch within maxPitch (and never past 85), latitude
    /// within ±85.051129°, longitude wrapped, bearing into (−180, 180].
    @Test func constraints() {
        var c = Self.base
        c.constraints = CameraConstraints(minZoom: 2, maxZoom: 15, maxPitch: 60)
        #expect(c.zoomed(to: 30).zoom == 15)
        #expect(c.zoomed(to: -3).zoom == 2)
        #expect(c.pitched(to: 75).pitch == 60)
        #expect(c.pitched(to: -5).pitch == 0)
        var loose = Self.base
        loose.constraints.maxPitch = 120
        #expect(loose.pitched(to: 100).pitch == 85)
        let north = Self.base.settingLocation(LatLng(lat: 89, lon: 0), at: Self.base.centerPoint)
        expectNear(north.center.lat, 85.051128779806592, tolerance: 1e-12)
        #expect(Self.base.rotated(to: 540).bearing == 180)
        #expect(Self.base.rotated(to: -190).bearing == 170)
        var far = Self.base
        far.center.lon = 190
        expectNear(far.constrained().center.lon, -170, tolerance: 1e-12)
    }

    /// Setting pitch keeps the centre (pitch turns about the centre point).
    @Test func pitchKeepsCentre() throws {
        let p = Self.base.pitched(to: 70)
        #expect(p.pitch == 70)
        let s = try #require(p.project(Self.base.center))
        expectNear(s.x, p.centerPoint.x, tolerance: 1e-9)
        expectNear(s.y, p.centerPoint.y, tolerance: 1e-9)
    }
}
