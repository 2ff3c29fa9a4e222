import Foundation
import GeoKit
import MapCamera
import MapRender
import MapRenderGL
import MapScene
import Testing

/// Overlays land where the camera math puts them: pixels are read back at `Camera.project`
/// positions of route vertices, geodesic rim points (GeographicLib fixture, see
/// scripts/fixtures/render-circle-rim.py) and marker centres.
@Suite struct PlacementTests {
    struct RimFixture: Decodable {
        let center: [Double]
        let radius_m: Double
        let rim: [[Double]]
    }

    static let rims: [RimFixture] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/circle-rim.json")
        guard let data = try? Data(contentsOf: url), let r = try? JSONDecoder().decode([RimFixture].self, from: data) else { return [] }
        return r
    }()

    static let center = LatLng(lat: 37.7651335, lon: -122.4191805)
    static let routeVertices = [
        LatLng(lat: center.lat + 0.0010, lon: center.lon - 0.0015),
        LatLng(lat: center.lat - 0.0005, lon: center.lon - 0.0005),
        LatLng(lat: center.lat + 0.0012, lon: center.lon + 0.0002),
    ]
    static let markerPosition = LatLng(lat: center.lat - 0.0015, lon: center.lon + 0.0012)
    static let red = Color(rgb: 0xFF0000), blue = Color(rgb: 0x0000FF), green = Color(rgb: 0x00C000)

    static func scene() throws -> Scene {
        var s = Scene(background: .white)
        let rim = try #require(rims.first)
        s.add(.circle(try Circle(center: LatLng(lat: rim.center[0], lon: rim.center[1]), radius: .meters(rim.radius_m),
                                 fill: .transparent, stroke: red, strokeWidth: 3)))
        s.add(.polyline(try Polyline(coordinates: routeVertices, style: LineStyle(width: .pixels(5), color: blue))))
        s.add(.marker(try Marker(position: markerPosition, color: green)))
        return s
    }

    /// True when some output pixel within `radius` device pixels of the logical point is within
    /// 60 per channel of `color` (the "≈1 px" of the acceptance: edges are antialiased).
    static func colorNear(_ frame: Frame, _ p: ScreenPoint, ratio: Double, _ color: Color, radius: Int = 1) -> Bool {
        let cx = Int((p.x * ratio).rounded(.down)), cy = Int((p.y * ratio).rounded(.down))
        for dy in -radius ... radius {
            for dx in -radius ... radius {
                guard let px = frame.pixel(x: cx + dx, y: cy + dy) else { continue }
                if abs(Int(px.r) - Int(color.r)) <= 60 && abs(Int(px.g) - Int(color.g)) <= 60
                    && abs(Int(px.b) - Int(color.b)) <= 60 && px.a == 255 { return true }
            }
        }
        return false
    }

    @Test(arguments: [(0.0, 1.0), (45.0, 1.0), (0.0, 2.0), (45.0, 2.0)])
    func overlaysLandWhereTheCameraProjects(bearing: Double, ratio: Double) throws {
        let r = try RenderHarness.renderer()
        let camera = Camera(center: Self.center, zoom: 14.5, bearing: bearing, size: ScreenSize(width: 400, height: 300),
                            pixelRatio: ratio)
        let frame = try r.render(scene: try Self.scene(), camera: camera)
        try? RenderHarness.bitmap(frame).writePNG(to: "/tmp/placement-\(Int(bearing))-\(Int(ratio)).png", options: .fast)
        #expect(frame.width == Int(400 * ratio) && frame.height == Int(300 * ratio))
        let rim = try #require(Self.rims.first)
        #expect(rim.rim.count == 12)
        for (k, ll) in rim.rim.enumerated() {
            let p = try #require(camera.project(LatLng(lat: ll[0], lon: ll[1])))
            let hit = Self.colorNear(frame, p, ratio: ratio, Self.red)
            #expect(hit, "rim point \(k) at \(p)")
        }
        for (k, v) in Self.routeVertices.enumerated() {
            let p = try #require(camera.project(v))
            let hit = Self.colorNear(frame, p, ratio: ratio, Self.blue)
            #expect(hit, "route vertex \(k) at \(p)")
        }
        let m = try #require(camera.project(Self.markerPosition))
        let markerHit = Self.colorNear(frame, m, ratio: ratio, Self.green, radius: 0)
        #expect(markerHit, "marker centre at \(m)")
        // Negative controls: the circle's centre (fill transparent, route ≈ 9 px away) and a point
        // 15 px right of the marker (dot radius 6 + 2 px ring) stay white.
        let c = try #require(camera.project(Self.center))
        let centreWhite = frame.pixel(x: Int(c.x * ratio), y: Int(c.y * ratio)).map { $0.r == 255 && $0.g == 255 && $0.b == 255 }
        #expect(centreWhite == true)
        let besideMarkerWhite = frame.pixel(x: Int((m.x + 15) * ratio), y: Int(m.y * ratio)).map { $0.r == 255 && $0.b == 255 }
        #expect(besideMarkerWhite == true)
        // A rim point just 8 px further out is not red: the rim is where the geodesic says, not a
        // Mercator-scaled approximation that might still overlap the probe window.
        let p0 = try #require(camera.project(LatLng(lat: rim.rim[3][0], lon: rim.rim[3][1])))
        let dir = (x: p0.x - c.x, y: p0.y - c.y)
        let len = (dir.x * dir.x + dir.y * dir.y).squareRoot()
        let out = ScreenPoint(x: p0.x + dir.x / len * 8, y: p0.y + dir.y / len * 8)
        let outsideRed = Self.colorNear(frame, out, ratio: ratio, Self.red, radius: 0)
        #expect(!outsideRed)
    }

    @Test func pixelCirclesKeepTheirScreenSize() throws {
        // A 20 px circle rim (2 px wide) at zoom 12 and zoom 17: rim pixels at 20 px from the centre both times.
        let r = try RenderHarness.renderer()
        var s = Scene(background: .white)
        s.add(.circle(try Circle(center: Self.center, radius: .pixels(20), fill: .transparent, stroke: Self.red, strokeWidth: 2)))
        for zoom in [12.0, 17.0] {
            let camera = Camera(center: Self.center, zoom: zoom, bearing: 30, size: ScreenSize(width: 100, height: 100))
            let frame = try r.render(scene: s, camera: camera)
            for a in stride(from: 0.0, to: 360, by: 45) {
                let p = ScreenPoint(x: 50 + 20 * cos(a * .pi / 180), y: 50 + 20 * sin(a * .pi / 180))
                let hit = Self.colorNear(frame, p, ratio: 1, Self.red)
                #expect(hit, "zoom \(zoom) angle \(a)")
            }
            let outside = Self.colorNear(frame, ScreenPoint(x: 50 + 26, y: 50), ratio: 1, Self.red, radius: 0)
            #expect(!outside)
        }
    }

    @Test func rejectsBadSizesWithClearErrors() throws {
        let r = try RenderHarness.renderer()
        for (size, ratio) in [(ScreenSize(width: 0, height: 100), 1.0), (ScreenSize(width: 9000, height: 10), 1),
                              (ScreenSize(width: 5000, height: 5000), 2), (ScreenSize(width: 100, height: 100), 5),
                              (ScreenSize(width: .nan, height: 100), 1)] {
            let camera = Camera(center: Self.center, zoom: 10, size: size, pixelRatio: ratio)
            #expect(throws: RenderError.self) { try r.render(scene: Scene(), camera: camera) }
        }
    }

    @Test func cacheReusesMeshesAtTheSameZoomBucket() throws {
        let r = try RenderHarness.renderer()
        let planner = RenderPlanner()
        let scene = try Self.scene()
        let cam = Camera(center: Self.center, zoom: 15, size: ScreenSize(width: 400, height: 300))
        _ = planner.plan(scene, camera: cam)
        let first = planner.statistics
        var moved = cam
        moved.zoom = 15.3; moved.bearing = 70
        _ = planner.plan(scene, camera: moved)
        let second = planner.statistics
        #expect(second.misses == first.misses, "a pan/rotate within the zoom bucket re-tessellates nothing")
        #expect(second.hits > first.hits)
        moved.zoom = 16.2
        _ = planner.plan(scene, camera: moved)
        #expect(planner.statistics.misses > second.misses, "a new zoom bucket re-simplifies the route")
        _ = r
    }
}

@Suite struct OverdrawTests {
    /// Culling hidden segments of a self-overlapping scribble leaves the image unchanged (but for
    /// rare edge samples) while filling far less.
    @Test(arguments: [(0.0, 1.0, LineJoin.miter, LineCap.square), (30.0, 2.0, .round, .round), (10.0, 1.0, .bevel, .butt)])
    func culledScribbleIsPixelIdentical(bearing: Double, ratio: Double, join: LineJoin, cap: LineCap) throws {
        let camera = Camera(center: PlacementTests.center, zoom: 15, bearing: bearing, size: ScreenSize(width: 200, height: 150),
                            pixelRatio: ratio)
        var rng = SplitMix(seed: 7)
        let c = MapPoint(camera.center), ws = camera.worldSize
        let pts = (0 ..< 3_000).map { _ in
            MapPoint(x: c.x + (Double(rng.next() % 240) - 120) / ws, y: c.y + (Double(rng.next() % 190) - 95) / ws)
        }
        var scene = Scene(background: .white)
        scene.add(.polyline(Polyline(path: try GeoPath(points: pts),
                                     style: LineStyle(width: .pixels(4), color: Color(rgb: 0x1F6FEB, alpha: 0xC0), join: join,
                                                      cap: cap, casingColor: Color(rgb: 0x0A3069), casingWidth: 1))))
        let culled = try MapRenderer()
        let plain = try MapRenderer()
        plain.planner.cullsOverdraw = false
        let a = try culled.render(scene: scene, camera: camera)
        let b = try plain.render(scene: scene, camera: camera)
        // Where the scribble covers pixels fully, they are painted as rectangles and only the
        // segments reaching its edge are stroked.
        let (tc, tp) = (culled.lastTimings.triangles, plain.lastTimings.triangles)
        #expect(tc * 10 < tp, "\(tc) triangles culled vs \(tp)")
        // Ink: the summed area of the stroke triangles in logical px² (what the rasteriser fills).
        func ink(_ planner: RenderPlanner) -> Double {
            var area = 0.0
            for cmd in planner.plan(scene, camera: camera).commands where cmd.mesh.layout == .ground {
                let v = cmd.mesh.vertices, k = cmd.extrudeScale
                func p(_ i: UInt32) -> (Double, Double) {
                    let j = Int(i) * 6
                    return (Double(v[j]) * ws + Double(v[j + 2]) * k, Double(v[j + 1]) * ws + Double(v[j + 3]) * k)
                }
                let idx = cmd.mesh.indices
                for t in stride(from: 0, to: idx.count, by: 3) {
                    let a = p(idx[t]), b = p(idx[t + 1]), c = p(idx[t + 2])
                    area += abs((b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)) / 2
                }
            }
            return area
        }
        let inkCulled = ink(culled.planner), inkPlain = ink(plain.planner)
        #expect(inkCulled * 2 < inkPlain, "culled ink \(inkCulled) px² vs \(inkPlain) px²")
        // Identical but for rare edge samples where cut pieces of one segment meet (the pieces'
        // normals and coverage differ in the last bits): at most 0.05 % of the bytes by more than
        // one level of 255, none by more than 64.
        var differing = 0, worst = 0
        for i in 0 ..< a.pixels.count where abs(Int(a.pixels[i]) - Int(b.pixels[i])) > 1 {
            differing += 1
            worst = max(worst, abs(Int(a.pixels[i]) - Int(b.pixels[i])))
        }
        #expect(differing * 2000 <= a.pixels.count && worst <= 64, "\(differing) bytes differ, by up to \(worst)")
    }

    /// A tight spiral retraces itself within a pixel thousands of times, so exact culling keeps
    /// nearly every segment (their antialiased rims are never full) and a 350k-point one took
    /// seconds a frame. Past its budget the culler turns coarse: twice the turns over the same
    /// ring cost the culled frame almost nothing more (the unculled one twice as much), and the
    /// image is the same ring (pixels differing by more than 8 levels only along its rims: < 2 %).
    @Test func tightSpiralIsCulledCoarsely() throws {
        let camera = Camera(center: PlacementTests.center, zoom: 15, size: ScreenSize(width: 1024, height: 768))
        let c = MapPoint(camera.center), ws = camera.worldSize
        // n points, 17.5 a turn, the radius shrinking from 350 px to 213 px.
        func scene(_ n: Int) throws -> Scene {
            let pts = (0 ..< n).map { i -> MapPoint in
                let a = Double(i) * 2 * .pi / 17.5, r = 350 - 137 * Double(i) / Double(n)
                return MapPoint(x: c.x + r * cos(a) / ws, y: c.y + r * sin(a) / ws)
            }
            var scene = Scene(background: .white)
            scene.add(.polyline(Polyline(path: try GeoPath(points: pts), style: LineStyle(width: .pixels(4), color: Color(rgb: 0x1F6FEB)))))
            return scene
        }
        let culled = try MapRenderer()
        let plain = try MapRenderer()
        plain.planner.cullsOverdraw = false
        var triangles: [(culled: Int, plain: Int)] = []
        var last: (Frame, Frame)?
        for n in [100_000, 200_000] {
            let s = try scene(n)
            let a = try culled.render(scene: s, camera: camera)
            let b = try plain.render(scene: s, camera: camera)
            triangles.append((culled.lastTimings.triangles, plain.lastTimings.triangles))
            last = (a, b)
        }
        #expect(Double(triangles[1].culled) < 1.25 * Double(triangles[0].culled), "\(triangles)")
        #expect(Double(triangles[1].plain) > 1.8 * Double(triangles[0].plain), "\(triangles)")
        let (a, b) = last!
        var differing = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            let d = (0 ..< 3).map { abs(Int(a.pixels[i + $0]) - Int(b.pixels[i + $0])) }.max()!
            if d > 8 { differing += 1 }
        }
        #expect(differing * 50 < a.pixels.count / 4, "\(differing) pixels differ")
        // Both are the filled ring: route blue between the radii, white outside and in the middle.
        let ring = a.pixel(x: 512 + 280, y: 384)!, out = a.pixel(x: 512 + 380, y: 384)!, hole = a.pixel(x: 512 + 150, y: 384)!
        #expect(abs(Int(ring.r) - 0x1F) <= 2 && abs(Int(ring.b) - 0xEB) <= 2)
        #expect(out.r == 255 && out.g == 255 && out.b == 255 && hole.r == 255)
    }
}
