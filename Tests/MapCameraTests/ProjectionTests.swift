import Foundation
import GeoKit
import MapTestSupport
import Testing
@testable import MapCamera

@Suite struct ProjectionTests {
    // MARK: Hand-derived, pitch 0

    /// Zoom 0, 512×512 viewport centred on (0, 0): the world is 512 px and fills the view.
    /// At bearing b a ground offset (dx, dy) (east, south, px) appears at
    /// centre + (dx·cos b + dy·sin b, −dx·sin b + dy·cos b) — the map turns by −b.
    /// 90°E is dx = 512·(270/360 − 1/2) = 128; 45°N is dy = 512·(y45 − 1/2) with
    /// y45 = 1/2 − ln(tan 67.5°)/(2π) = 1/2 − 0.881373587019543/(2π), so dy = −71.8197…
    @Test(arguments: [0.0, 45, 90, 180, -30])
    func pitchZeroAtBearings(_ bearing: Double) throws {
        let cam = Camera(
            center: LatLng(lat: 0, lon: 0), zoom: 0, bearing: bearing,
            size: ScreenSize(width: 512, height: 512))
        let dy45 = 512 * (-0.881373587019543 / (2 * .pi))
        let b = bearing * .pi / 180
        for (p, dx, dy) in [
            (LatLng(lat: 0, lon: 90), 128.0, 0.0), (LatLng(lat: 45, lon: 0), 0, dy45),
            (LatLng(lat: 45, lon: 90), 128, dy45), (LatLng(lat: 0, lon: 0), 0, 0),
        ] {
            let s = try #require(cam.project(p))
            // tolerance 1e-9 px: double rounding of ~1e2 px values
            expectNear(s.x, 256 + dx * cos(b) + dy * sin(b), tolerance: 1e-9, "x of \(p) at bearing \(bearing)")
            expectNear(s.y, 256 - dx * sin(b) + dy * cos(b), tolerance: 1e-9, "y of \(p) at bearing \(bearing)")
        }
        // Bearing 90 puts east at the top (the architecture's convention), spelled out.
        if bearing == 90 {
            let east = try #require(cam.project(LatLng(lat: 0, lon: 90)))
            expectNear(east.x, 256, tolerance: 1e-9)
            expectNear(east.y, 128, tolerance: 1e-9)
        }
    }

    /// Near the antimeridian: centre 179.9°E at zoom 5 (world 16384 px). 179.9°W is 0.2° east
    /// of the centre on the nearest copy of the world: 16384 · 0.2/360 = 9.102222… px right.
    @Test func antimeridianNearestCopy() throws {
        let cam = Camera(center: LatLng(lat: 0, lon: 179.9), zoom: 5, size: ScreenSize(width: 800, height: 600))
        let s = try #require(cam.project(LatLng(lat: 0, lon: -179.9)))
        expectNear(s.x, 400 + 16384 * 0.2 / 360, tolerance: 1e-9)
        expectNear(s.y, 300, tolerance: 1e-9)
        let back = try #require(cam.unproject(s))
        expectNear(back, LatLng(lat: 0, lon: -179.9), tolerance: 1e-11)
        // The other way round: centre 179.9°W, point 179.9°E lies 9.1 px to the left.
        let cam2 = Camera(center: LatLng(lat: 0, lon: -179.9), zoom: 5, size: ScreenSize(width: 800, height: 600))
        let s2 = try #require(cam2.project(LatLng(lat: 0, lon: 179.9)))
        expectNear(s2.x, 400 - 16384 * 0.2 / 360, tolerance: 1e-9)
    }

    /// High latitude: centre 80°N at zoom 3 (world 4096 px); 81°N 10°E lies
    /// 4096·10/360 px east and 4096·(y(81) − y(80)) px south (negative: north), with y from
    /// the textbook Mercator formula.
    @Test func highLatitude() throws {
        let cam = Camera(center: LatLng(lat: 80, lon: 0), zoom: 3, size: ScreenSize(width: 800, height: 600))
        let s = try #require(cam.project(LatLng(lat: 81, lon: 10)))
        expectNear(s.x, 400 + 4096 * 10 / 360, tolerance: 1e-9)
        expectNear(s.y, 300 + 4096 * (mercY(81) - mercY(80)), tolerance: 1e-9)
        // Beyond the Mercator limit the latitude is clamped (as MapLibre's project does).
        let pole = try #require(cam.project(LatLng(lat: 89.9, lon: 0)))
        expectNear(pole.y, 300 + 4096 * (0 - mercY(80)), tolerance: 1e-9)
    }

    /// Padding moves the centre of perspective: top 100, left 40, bottom 20, right 200 in an
    /// 800×600 view puts the centre at ((40 + 800 − 200)/2, (100 + 600 − 20)/2) = (320, 340).
    @Test func paddingShiftsCenter() throws {
        let cam = Camera(
            center: LatLng(lat: 10, lon: 20), zoom: 4, pitch: 50,
            size: ScreenSize(width: 800, height: 600),
            padding: EdgeInsets(top: 100, left: 40, bottom: 20, right: 200))
        let s = try #require(cam.project(LatLng(lat: 10, lon: 20)))
        expectNear(s.x, 320, tolerance: 1e-9)
        expectNear(s.y, 340, tolerance: 1e-9)
        let c = try #require(cam.unproject(ScreenPoint(x: 320, y: 340)))
        expectNear(c, LatLng(lat: 10, lon: 20), tolerance: 1e-12)
    }

    // MARK: Hand-derived, pitched

    /// Pitch 60, 800×600 view: eye distance d = 1.5·600 = 900 px. A ground point D = 100 world
    /// px north of the centre (bearing 0) is tilted away: its depth grows by D·sin 60° and its
    /// vertical offset shrinks to D·cos 60°, so it lands at
    /// y = 300 − 900·(100·½)/(900 + 100·√3/2) = 300 − 45000/986.6025403784439.
    /// The same distance south comes nearer: y = 300 + 45000/(900 − 86.60254037844386).
    /// A point 100 px east at the centre row keeps depth 900: x = 400 + 100.
    @Test func pitchSixtyByHand() throws {
        // zoom 0 at the equator: 100 world px = 100/512 of the world.
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 0, pitch: 60, size: ScreenSize(width: 800, height: 600))
        let dLat = latFromMercY(0.5 - 100.0 / 512)  // 100 px north
        let n = try #require(cam.project(LatLng(lat: dLat, lon: 0)))
        expectNear(n.x, 400, tolerance: 1e-9)
        expectNear(n.y, 300 - 45000 / (900 + 100 * 3.0.squareRoot() / 2), tolerance: 1e-9)
        let s = try #require(cam.project(LatLng(lat: -dLat, lon: 0)))
        expectNear(s.y, 300 + 45000 / (900 - 100 * 3.0.squareRoot() / 2), tolerance: 1e-9)
        let e = try #require(cam.project(LatLng(lat: 0, lon: 360.0 * 100 / 512)))
        expectNear(e.x, 500, tolerance: 1e-9)
        expectNear(e.y, 300, tolerance: 1e-9)
    }

    /// Pitch 45 with bearing 90 (east at the top): a point 100 px east of the centre is "up"
    /// the screen, tilted away like the northern point above:
    /// y = 300 − 900·(100·cos 45°)/(900 + 100·sin 45°).
    /// Bearing −30 at pitch 45: 100 px north (dx 0, dy −100) turns to
    /// (x1, y1) = (−100·sin 30°·… ) — written out: x1 = dx·cos b + dy·sin b = 50,
    /// y1 = −dx·sin b + dy·cos b = −86.6025…; then y2 = y1·cos 45°, w = 900 − y1·sin 45°,
    /// screen = (400 + 900·x1/w, 300 + 900·y2/w).
    @Test func pitchFortyFiveAtBearings() throws {
        let r = 0.5.squareRoot()
        let cam = Camera(
            center: LatLng(lat: 0, lon: 0), zoom: 0, bearing: 90, pitch: 45,
            size: ScreenSize(width: 800, height: 600))
        let e = try #require(cam.project(LatLng(lat: 0, lon: 360.0 * 100 / 512)))
        expectNear(e.x, 400, tolerance: 1e-9)
        expectNear(e.y, 300 - 900 * 100 * r / (900 + 100 * r), tolerance: 1e-9)

        let cam2 = Camera(
            center: LatLng(lat: 0, lon: 0), zoom: 0, bearing: -30, pitch: 45,
            size: ScreenSize(width: 800, height: 600))
        let n = try #require(cam2.project(LatLng(lat: latFromMercY(0.5 - 100.0 / 512), lon: 0)))
        let x1 = 50.0, y1 = -100 * 3.0.squareRoot() / 2
        let w = 900 - y1 * r
        expectNear(n.x, 400 + 900 * x1 / w, tolerance: 1e-9)
        expectNear(n.y, 300 + 900 * y1 * r / w, tolerance: 1e-9)
    }

    /// Heights: at the equator and zoom 0 one metre is 512/40075016.68557849 px (WGS84
    /// equatorial circumference). Pitch 0: a point 100 px east raised by h px is nearer the eye
    /// (depth 900 − h), so x = 400 + 900·100/(900 − h). Choose h = 300 px:
    /// height = 300 · 40075016.68557849 / 512 m, x = 400 + 150.
    @Test func heightRaisesTowardsEye() throws {
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 0, size: ScreenSize(width: 800, height: 600))
        let metres = 300 * 40_075_016.68557849 / 512
        let s = try #require(cam.project(LatLng(lat: 0, lon: 360.0 * 100 / 512), height: metres))
        expectNear(s.x, 550, tolerance: 1e-9)
        expectNear(s.y, 300, tolerance: 1e-9)
    }

    /// Behind the camera: pitch 85, bearing 0, 1280×720, d = 1080. A ground point y1 px south
    /// of the centre has depth w = 1080 − y1·sin 85°, negative once y1 > 1080/sin 85° ≈ 1084.1.
    @Test func behindCameraIsNil() {
        let cam = Camera(
            center: LatLng(lat: 0, lon: 0), zoom: 10, pitch: 85, size: ScreenSize(width: 1280, height: 720))
        let ws = 512.0 * 1024
        #expect(cam.project(LatLng(lat: latFromMercY(0.5 + 1100 / ws), lon: 0)) == nil)
        #expect(cam.project(LatLng(lat: latFromMercY(0.5 + 1070 / ws), lon: 0)) != nil)
    }

    /// Horizon: pitch 80 in an 800×600 view sits at y = 300 − 900·cot 80° = 141.30…;
    /// rows above it see sky.
    @Test func horizon() throws {
        let cam = Camera(center: LatLng(lat: 30, lon: 0), zoom: 5, pitch: 80, size: ScreenSize(width: 800, height: 600))
        let h = 300 - 900 / tan(80 * Double.pi / 180)
        expectNear(cam.horizonY, h, tolerance: 1e-9)
        #expect(cam.unproject(ScreenPoint(x: 400, y: h - 0.01)) == nil)
        #expect(cam.unproject(ScreenPoint(x: 10, y: 0)) == nil)
        #expect(try #require(cam.unproject(ScreenPoint(x: 400, y: h + 1))).lat > 30)
        let flat = Camera(center: LatLng(lat: 30, lon: 0), zoom: 5, size: ScreenSize(width: 800, height: 600))
        #expect(flat.horizonY == -.infinity)
    }

    // MARK: Independent fixtures (MapLibre's matrices in numpy, pyproj Mercator)

    @Test(arguments: CameraFixtures.project)
    func projectMatchesFixture(_ c: ProjectCase) {
        let s = c.camera.camera.project(LatLng(lat: c.lat, lon: c.lon), height: c.height)
        guard let e = c.expected else {
            #expect(s == nil, "expected behind camera")
            return
        }
        guard let s else {
            Issue.record("expected a point, got nil")
            return
        }
        // tolerance 1e-6 px: two double-precision pipelines at up to 2^14·512 px world size
        expectNear(s.x, e.0, tolerance: 1e-6, "x")
        expectNear(s.y, e.1, tolerance: 1e-6, "y")
    }

    /// A projector made once projects the fixtures' points as MapLibre does, through both of
    /// its entries (degrees, and Mercator on the copy of the world nearest the centre), and
    /// stays right when reused for point after point.
    @Test func projectorMatchesFixtures() throws {
        var projectors: [String: Camera.Projector] = [:]
        for c in CameraFixtures.project {
            let key = c.name
            let projector = projectors[key] ?? c.camera.camera.projector
            projectors[key] = projector
            let g = LatLng(lat: c.lat, lon: c.lon)
            var m = MapPoint(g)
            m.x -= (m.x - (c.camera.camera.center.lon + 180) / 360).rounded()
            for s in [projector.project(g, height: c.height), projector.project(m, height: c.height)] {
                guard let e = c.expected else {
                    #expect(s == nil, "expected behind camera")
                    continue
                }
                let s = try #require(s)
                expectNear(s.x, e.0, tolerance: 1e-6, "x")
                expectNear(s.y, e.1, tolerance: 1e-6, "y")
            }
        }
        #expect(projectors.count > 3)
        var bad = Camera(center: LatLng(lat: 0, lon: 0), zoom: 3, size: ScreenSize(width: 800, height: 600))
        bad.bearing = .nan
        #expect(!bad.projector.isValid)
        #expect(bad.projector.project(MapPoint(x: 0.5, y: 0.5)) == nil)
    }

    /// `Projector.depthRatio` is how much more ground a screen pixel covers at a point than at
    /// the centre: unprojecting the pixel on either side of the point's place on screen (a
    /// screen row is one depth in a view without roll) gives ground points `ratio` world pixels
    /// apart. At the centre, and anywhere in a view straight down, it is 1; rows below the centre
    /// are nearer (under 1), rows above farther.
    @Test func depthRatioIsTheGroundAPixelCovers() throws {
        for (pitch, bearing) in [(0.0, 0.0), (30.0, 0.0), (60.0, 35.0), (75.0, -120.0), (85.0, 200.0)] {
            var camera = Camera(center: LatLng(lat: 43.77, lon: 11.25), zoom: 15, size: ScreenSize(width: 1024, height: 768))
            camera.pitch = pitch
            camera.bearing = bearing
            let projector = camera.projector
            expectNear(projector.depthRatio(MapPoint(camera.center)), 1, tolerance: 1e-12, "centre")
            var rows = 0
            for y in stride(from: 767.0, through: 0, by: -40) {
                for x in [10.0, 512, 1000] {
                    let s = ScreenPoint(x: x, y: y)
                    guard let g = camera.unprojectToMapPoint(s),
                          let a = camera.unprojectToMapPoint(ScreenPoint(x: x - 0.5, y: y)),
                          let b = camera.unprojectToMapPoint(ScreenPoint(x: x + 0.5, y: y)) else { continue }
                    let covered = hypot(b.x - a.x, b.y - a.y) * camera.worldSize
                    let ratio = projector.depthRatio(g)
                    expectNear(ratio, covered, tolerance: 1e-6 * covered, "pitch \(pitch) at \(x), \(y)")
                    if pitch == 0 { expectNear(ratio, 1, tolerance: 1e-9, "straight down") }
                    if pitch > 0 && y > 384.5 { #expect(ratio < 1, "below the centre at pitch \(pitch)") }
                    if pitch > 0 && y < 383.5 { #expect(ratio > 1, "above the centre at pitch \(pitch)") }
                    rows += 1
                }
            }
            #expect(rows > 30)
        }
        var bad = Camera(center: LatLng(lat: 0, lon: 0), zoom: 3, size: ScreenSize(width: 800, height: 600))
        bad.pitch = .nan
        #expect(bad.projector.depthRatio(MapPoint(x: 0.5, y: 0.5)).isNaN)
    }

    /// `Projector.maxScale(in:)` bounds how long a short ground segment anywhere in a box is on
    /// screen, whatever its direction: checked on 2 000 segments in boxes across and beyond
    /// pitched, turned views (off screen too), each measured by projecting its ends. The bound
    /// is close: somewhere in each box a segment comes within a fifth of it.
    @Test func maxScaleBoundsEverySegmentOnScreen() throws {
        struct Uniform { var mix: SplitMix64; mutating func nextDouble() -> Double { Double(mix.next() >> 11) / Double(1 << 53) } }
        var rng = Uniform(mix: SplitMix64(seed: 7))
        for (pitch, bearing) in [(0.0, 0.0), (45.0, 30.0), (70.0, -100.0), (85.0, 10.0)] {
            var camera = Camera(center: LatLng(lat: 43.77, lon: 11.25), zoom: 15, size: ScreenSize(width: 1024, height: 768))
            camera.pitch = pitch
            camera.bearing = bearing
            let projector = camera.projector
            let c = MapPoint(camera.center), unit = 1 / camera.worldSize
            var boxes = 0
            for _ in 0 ..< 40 {
                let x = c.x + (rng.nextDouble() - 0.5) * 3000 * unit, y = c.y + (rng.nextDouble() - 0.8) * 3000 * unit
                let box = MapRect(origin: MapPoint(x: x, y: y), width: rng.nextDouble() * 400 * unit, height: rng.nextDouble() * 400 * unit)
                guard let bound = projector.maxScale(in: box) else { continue }
                boxes += 1
                var most = 0.0
                for _ in 0 ..< 50 {
                    let p = MapPoint(x: box.minX + rng.nextDouble() * box.width, y: box.minY + rng.nextDouble() * box.height)
                    let angle = rng.nextDouble() * 2 * Double.pi, len = 1e-3 * unit
                    let q = MapPoint(x: p.x + cos(angle) * len, y: p.y + sin(angle) * len)
                    let a = try #require(projector.project(p)), b = try #require(projector.project(q))
                    let scale = hypot(b.x - a.x, b.y - a.y) / len
                    #expect(scale <= bound * (1 + 1e-6), "pitch \(pitch): \(scale) over \(bound)")
                    most = max(most, scale)
                }
                #expect(most >= bound / 5, "pitch \(pitch): at most \(most) of \(bound)")
            }
            #expect(boxes >= 20)
        }
        // A box reaching behind the eye has no bound.
        var steep = Camera(center: LatLng(lat: 43.77, lon: 11.25), zoom: 15, size: ScreenSize(width: 1024, height: 768))
        steep.pitch = 80
        let c = MapPoint(steep.center)
        #expect(steep.projector.maxScale(in: MapRect(origin: MapPoint(x: c.x, y: c.y), width: 1e-3, height: 1)) == nil)
    }

    @Test(arguments: CameraFixtures.unproject)
    func unprojectMatchesFixture(_ c: UnprojectCase) {
        let g = c.camera.camera.unproject(ScreenPoint(x: c.x, y: c.y))
        guard let e = c.expected else {
            #expect(g == nil, "expected above horizon")
            return
        }
        guard let g else {
            Issue.record("expected a ground point, got nil")
            return
        }
        // tolerance 1e-7°: numpy's matrix inverse loses digits at pitch 85 near the horizon
        expectNear(g, LatLng(lat: e.0, lon: e.1), tolerance: 1e-7)
    }

    // MARK: Invariance sweeps

    /// project(unproject(s)) == s within 1e-6 px for 2000 random cameras (seeded) and screen
    /// points below the horizon whose ground point lies inside the Mercator world.
    @Test func roundTripRandomCameras() throws {
        var rng = SeededRandom(seed: 42)
        var checked = 0
        for _ in 0..<2000 {
            let cam = randomCamera(&rng)
            let s = ScreenPoint(
                x: .random(in: 0...cam.size.width, using: &rng),
                y: .random(in: 0...cam.size.height, using: &rng))
            guard let g = cam.unproject(s), abs(g.lat) < Camera.maxLatitude else { continue }
            // Where the world is narrower than the view, a screen point can show another copy
            // of the world than the one nearest the centre, which project() picks.
            guard abs(try #require(cam.groundOffset(at: s)).px) < cam.worldSize / 2 - 1 else { continue }
            let back = try #require(cam.project(g))
            // tolerance 1e-6 px (the acceptance bound)
            expectNear(back.x, s.x, tolerance: 1e-6, "\(cam) at \(s)")
            expectNear(back.y, s.y, tolerance: 1e-6, "\(cam) at \(s)")
            checked += 1
        }
        #expect(checked > 1000)
    }

    /// The matrix agrees with project(): multiply, divide by w, map clip to screen
    /// (x = (ndc.x + 1)/2·width, y = (1 − ndc.y)/2·height), for random cameras, origins and
    /// points with heights.
    @Test func matrixAgreesWithProject() throws {
        var rng = SeededRandom(seed: 7)
        var checked = 0
        for _ in 0..<1000 {
            let cam = randomCamera(&rng)
            let s = ScreenPoint(
                x: .random(in: 0...cam.size.width, using: &rng),
                y: .random(in: 0...cam.size.height, using: &rng))
            guard let g = cam.unproject(s), abs(g.lat) < 85 else { continue }
            let h = Double.random(in: 0...3000, using: &rng)
            // Points far off screen (a tall column right under a high-zoom eye) carry
            // proportionally larger rounding; the check is for what lands near the view.
            guard let expected = cam.project(g, height: h),
                abs(expected.x) < 4 * cam.size.width, abs(expected.y) < 4 * cam.size.height
            else { continue }
            // An origin near the point, as a renderer would pick (a tile corner); the point is
            // taken on the copy of the world nearest the centre, as project() does.
            var mp = MapPoint(g)
            let cx = (cam.center.lon + 180) / 360
            mp.x -= (mp.x - cx).rounded()
            let origin = MapPoint(
                x: mp.x - .random(in: 0...0.001, using: &rng),
                y: mp.y - .random(in: 0...0.001, using: &rng))
            let m = cam.viewProjectionMatrix(relativeTo: origin)
            #expect(m.count == 16)
            let v = ((mp.x - origin.x) * cam.worldSize, (mp.y - origin.y) * cam.worldSize, h)
            let clipX = m[0] * v.0 + m[4] * v.1 + m[8] * v.2 + m[12]
            let clipY = m[1] * v.0 + m[5] * v.1 + m[9] * v.2 + m[13]
            let clipW = m[3] * v.0 + m[7] * v.1 + m[11] * v.2 + m[15]
            #expect(clipW > 0)
            let x = (clipX / clipW + 1) / 2 * cam.size.width
            let y = (1 - clipY / clipW) / 2 * cam.size.height
            // tolerance 1e-6 px
            expectNear(x, expected.x, tolerance: 1e-6, "\(cam)")
            expectNear(y, expected.y, tolerance: 1e-6, "\(cam)")
            checked += 1
        }
        #expect(checked > 500)
    }

    /// Depth: MapLibre's far plane at pitch 0 is 1.01·d (the top edge's ground point is at
    /// depth d = 900 in an 800×600 view), the near plane height/50 = 12; the centre, at depth
    /// d, has clip z/w inside (−1, 1).
    @Test func depthRange() {
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 3, size: ScreenSize(width: 800, height: 600))
        expectNear(cam.farZ, 1.01 * 900, tolerance: 1e-9)
        expectNear(cam.nearZ, 12, tolerance: 1e-12)
        let m = cam.viewProjectionMatrix(relativeTo: MapPoint(x: 0.5, y: 0.5))
        let z = m[14], w = m[15]
        #expect(w > 0 && z / w > -1 && z / w < 1)
    }

    @Test func nonFiniteInputIsNil() {
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 3, size: ScreenSize(width: 800, height: 600))
        #expect(cam.project(LatLng(lat: .nan, lon: 0)) == nil)
        #expect(cam.project(LatLng(lat: 0, lon: 0), height: .infinity) == nil)
        #expect(cam.unproject(ScreenPoint(x: .nan, y: 0)) == nil)
        var bad = cam
        bad.zoom = .nan
        #expect(bad.project(LatLng(lat: 0, lon: 0)) == nil)
        var empty = cam
        empty.size = ScreenSize(width: 0, height: 0)
        #expect(empty.unproject(ScreenPoint(x: 0, y: 0)) == nil)
    }
}
