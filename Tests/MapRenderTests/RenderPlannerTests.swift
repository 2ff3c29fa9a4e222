import Foundation
import GeoKit
import MapCamera
import MapScene
import Testing
@testable import MapRender

@Suite struct RenderPlannerTests {
    static let center = LatLng(lat: 37.7651335, lon: -122.4191805)
    static let camera = Camera(center: center, zoom: 15, size: ScreenSize(width: 400, height: 300))

    /// Pixel discs (dots, cluster discs) are polygons the shader cuts the circle out of: with
    /// shader coverage the polygon, its vertices pushed out one device pixel, must hold every
    /// pixel within half a pixel of the circle, and no more sides than that needs; with
    /// multisampling its sides stay within 0.1 px of the circle, never fewer than before.
    @Test func pixelDiscSides() {
        // The 12-px dot at ratio 1: its 8-px white disc needs 10 sides (cos(π/9) · 9 = 8.457 < 8.5,
        // cos(π/10) · 9 = 8.560), its 6-px disc 9 (cos(π/8) · 7 = 6.467, cos(π/9) · 7 = 6.578).
        #expect(RenderPlanner.discSegments(radius: 8, pixelRatio: 1, shaderCoverage: true) == 10)
        #expect(RenderPlanner.discSegments(radius: 6, pixelRatio: 1, shaderCoverage: true) == 9)
        #expect(RenderPlanner.discSegments(radius: 8, pixelRatio: 1, shaderCoverage: false) == 32)
        for ratio in [1.0, 1.5, 2, 3, 4] {
            for radius in [0.5, 1, 3, 6, 8, 14, 23, 48, 64, 100, 256] {
                let r = radius * ratio
                let n = RenderPlanner.discSegments(radius: radius, pixelRatio: ratio, shaderCoverage: true)
                let inner = (r + 1) * cos(Double.pi / Double(n))
                #expect(inner >= r + 0.5, "r \(r): \(n) sides reach \(inner)")
                if n > 8 { #expect((r + 1) * cos(Double.pi / Double(n - 1)) < r + 0.5, "r \(r): \(n) sides are more than needed") }
                let m = RenderPlanner.discSegments(radius: radius, pixelRatio: ratio, shaderCoverage: false)
                #expect(m >= 32 && r * (1 - cos(Double.pi / Double(m))) <= 0.1 + 1e-12, "r \(r): \(m) sides")
            }
        }
        // Nothing silly for nothing or too much.
        #expect(RenderPlanner.discSegments(radius: 0, pixelRatio: 1, shaderCoverage: true) == 32)
        #expect(RenderPlanner.discSegments(radius: .infinity, pixelRatio: 1, shaderCoverage: true) == 32)
        #expect(RenderPlanner.discSegments(radius: 1e9, pixelRatio: 4, shaderCoverage: false) == 1024)
    }

    /// One path drawn both as a polygon's outline and as a thin line (round joins, butt caps: the
    /// line's mesh key once equalled the outline's) gets each its own mesh: the outline closed,
    /// the line open, as when each is planned alone.
    @Test func aPathThatIsBothOutlineAndLineGetsTwoMeshes() throws {
        let path = try GeoPath(coordinates: [LatLng(lat: 37.764, lon: -122.421), LatLng(lat: 37.766, lon: -122.421),
                                             LatLng(lat: 37.766, lon: -122.418)])
        let outline = Overlay.polygon(Polygon(exterior: path, fill: Color(rgb: 0, alpha: 0), stroke: Color(rgb: 0xFF0000), strokeWidth: 2))
        let line = Overlay.polyline(Polyline(path: path, style: LineStyle(width: .pixels(2), color: Color(rgb: 0x0000FF), join: .round,
                                                                          cap: .butt)))
        func triangles(_ overlays: [Overlay]) -> [Int] {
            RenderPlanner().plan(Scene(overlays: overlays), camera: Self.camera).commands.map(\.mesh.triangleCount)
        }
        let alone = triangles([outline]) + triangles([line])
        #expect(alone.count == 2 && alone[0] != alone[1], "\(alone)")
        #expect(triangles([outline, line]) == alone)
        // (Polygons are drawn under lines whatever the order they are added in.)
        #expect(triangles([line, outline]) == alone)
    }

    @Test func offScreenOverlaysAreCulled() throws {
        var s = Scene()
        // ~0.1° away is ~8 km, far outside a 400×300 view at zoom 15 (~1.2 km across).
        let far = LatLng(lat: Self.center.lat + 0.1, lon: Self.center.lon)
        s.add(.polyline(try Polyline(coordinates: [far, LatLng(lat: far.lat + 0.01, lon: far.lon)])))
        s.add(.circle(try Circle(center: far, radius: .meters(50))))
        s.add(.marker(try Marker(position: far)))
        s.add(.polygon(try Polygon(exterior: [far, LatLng(lat: far.lat, lon: far.lon + 0.01), LatLng(lat: far.lat + 0.01, lon: far.lon)])))
        #expect(RenderPlanner().plan(s, camera: Self.camera).commands.isEmpty)
        // The same overlays at the centre are drawn: line 1, circle fill + rim 2, marker 2, polygon 1.
        var near = Scene()
        let c = Self.center
        near.add(.polyline(try Polyline(coordinates: [c, LatLng(lat: c.lat + 0.001, lon: c.lon)])))
        near.add(.circle(try Circle(center: c, radius: .meters(50))))
        near.add(.marker(try Marker(position: c)))
        near.add(.polygon(try Polygon(exterior: [c, LatLng(lat: c.lat, lon: c.lon + 0.001), LatLng(lat: c.lat + 0.001, lon: c.lon)])))
        #expect(RenderPlanner().plan(near, camera: Self.camera).commands.count == 6)
    }

    @Test func overlaysArePlannedInEveryWorldCopyTheViewShows() throws {
        // A marker at −170° seen from 180°: drawn one world east of its own x (10° past 180°).
        var s = Scene()
        s.add(.marker(try Marker(position: LatLng(lat: 0, lon: -170))))
        let seam = Camera(center: LatLng(lat: 0, lon: 180), zoom: 3, size: ScreenSize(width: 600, height: 400))
        let near = RenderPlanner().plan(s, camera: seam).commands
        #expect(!near.isEmpty)
        #expect(near.allSatisfy { abs($0.origin.x - 190.0 / 360 - 0.5) < 1e-9 })
        // Zoom 0, 1400 px across: the world (512 px) shows 2.7 times; a marker at 90°E is in 3
        // copies, each the same commands one world apart, the meshes shared.
        let wide = Camera(center: LatLng(lat: 0, lon: 0), zoom: 0, size: ScreenSize(width: 1400, height: 300))
        var m = Scene()
        m.add(.marker(try Marker(position: LatLng(lat: 0, lon: 90))))
        let cmds = RenderPlanner().plan(m, camera: wide).commands
        let xs = Set(cmds.map { ($0.origin.x * 4).rounded() / 4 })
        #expect(xs == [-0.25, 0.75, 1.75])
        #expect(Set(cmds.map { ObjectIdentifier($0.mesh) }).count * 3 == cmds.count)
        // Off, the overlay stays where its coordinates put it (the basemap places its own copies).
        var line = try Polyline(coordinates: [LatLng(lat: 0, lon: -175), LatLng(lat: 1, lon: -171)])
        var one = Scene()
        one.add(.polyline(line))
        #expect(RenderPlanner().plan(one, camera: seam).commands.count == 1)
        line.worldCopies = false
        var placed = Scene()
        placed.add(.polyline(line))
        #expect(RenderPlanner().plan(placed, camera: seam).commands.isEmpty)
        // The centre's own copy only, for a view inside the world: no extra work.
        #expect(RenderPlanner().plan(m, camera: Camera(center: LatLng(lat: 0, lon: 90), zoom: 5,
                                                      size: ScreenSize(width: 400, height: 300))).commands.count == cmds.count / 3)
    }

    @Test func hugeGeometryIsClippedToTheView() throws {
        // A meridian-to-meridian zig-zag of 20k points across the whole US at zoom 15: only the
        // part near the view is tessellated, and every vertex lies within the clip cell.
        var pts: [LatLng] = []
        for k in 0 ..< 20_000 {
            pts.append(LatLng(lat: 30 + 15 * Double(k % 2), lon: -125 + 50 * Double(k) / 20_000))
        }
        pts.append(Self.center)
        pts.append(LatLng(lat: Self.center.lat + 0.001, lon: Self.center.lon + 0.001))
        var s = Scene()
        s.add(.polyline(try Polyline(coordinates: pts)))
        let plan = RenderPlanner().plan(s, camera: Self.camera)
        let cmd = try #require(plan.commands.first)
        // Unclipped, 20k segments would need ≥ 80k vertices.
        #expect(cmd.mesh.vertexCount < 5_000)
        let ws = Self.camera.worldSize
        let c = MapPoint(Self.center)
        for k in stride(from: 0, to: cmd.mesh.vertices.count, by: 6) {
            let x = cmd.origin.x + Double(cmd.mesh.vertices[k]), y = cmd.origin.y + Double(cmd.mesh.vertices[k + 1])
            // The clip rectangle is 3 cells of at most 2× the view radius (~250 px) around the centre.
            #expect(abs(x - c.x) * ws < 3000 && abs(y - c.y) * ws < 3000)
        }
    }

    @Test func geodesicPolylineBulgesPoleward() throws {
        // New York → London along the great circle passes north of both ends. Its northmost point:
        // sphere (Clairaut: acos|sin α₁ cos φ₁|) 53.784°, GeographicLib WGS84 geodesic 53.799°.
        // Tolerance 0.11°: the 4 px line is simplified to 1 px at zoom 2 (world 2048 px), which at
        // 54°N is 360°/2048 · cos 54° = 0.103° of latitude; 1° densification steps cut < 0.01°.
        let ny = LatLng(lat: 40.7128, lon: -74.0060), london = LatLng(lat: 51.5074, lon: -0.1278)
        var s = Scene()
        s.add(.polyline(try Polyline(coordinates: [ny, london], geodesic: true)))
        let cam = Camera(center: LatLng(lat: 48, lon: -40), zoom: 2, size: ScreenSize(width: 800, height: 600))
        let cmd = try #require(RenderPlanner().plan(s, camera: cam).commands.first)
        var minY = Double.infinity
        for k in stride(from: 0, to: cmd.mesh.vertices.count, by: 6) { minY = min(minY, cmd.origin.y + Double(cmd.mesh.vertices[k + 1])) }
        let northmost = MapPoint(x: 0, y: minY).latLng.lat
        #expect(abs(northmost - 53.784) < 0.11, "northmost \(northmost)")
        // A straight Mercator line never goes north of London.
        var straight = Scene()
        straight.add(.polyline(try Polyline(coordinates: [ny, london])))
        let cmd2 = try #require(RenderPlanner().plan(straight, camera: cam).commands.first)
        var minY2 = Double.infinity
        for k in stride(from: 0, to: cmd2.mesh.vertices.count, by: 6) { minY2 = min(minY2, cmd2.origin.y + Double(cmd2.mesh.vertices[k + 1])) }
        #expect(MapPoint(x: 0, y: minY2).latLng.lat < 51.51)
    }

    struct StubRasterizer: LabelRasterizer {
        func rasterize(_ label: Label, pixelRatio: Double) -> SpriteImage? {
            SpriteImage(width: 8, height: 4, pixels: [UInt8](repeating: 255, count: 8 * 4 * 4), pixelRatio: pixelRatio)
        }
    }

    @Test func labelsNeedARasterizer() throws {
        var s = Scene()
        s.add(.label(try Label(position: Self.center, text: "Mission")))
        s.add(.marker(try Marker(position: Self.center, label: "A")))
        #expect(RenderPlanner().plan(s, camera: Self.camera).commands.count == 2) // the marker dot only
        let plan = RenderPlanner(labelRasterizer: StubRasterizer()).plan(s, camera: Self.camera)
        let textured = plan.commands.filter { $0.texture != nil }
        #expect(textured.count == 2)
        // Marker labels are drawn last, above every other overlay.
        #expect(plan.commands.last?.texture != nil)
    }

    @Test func badValuesAreSkippedNotTrapped() throws {
        var s = Scene()
        let line = [Self.center, LatLng(lat: Self.center.lat + 0.001, lon: Self.center.lon)]
        s.add(.polyline(try Polyline(coordinates: line, style: LineStyle(width: .pixels(.nan)))))
        s.add(.polyline(try Polyline(coordinates: line, style: LineStyle(width: .pixels(-3)))))
        s.add(.polyline(try Polyline(coordinates: [])))
        s.add(.polygon(Polygon(exterior: try GeoPath(points: []))))
        #expect(RenderPlanner().plan(s, camera: Self.camera).commands.isEmpty)
        var cam = Self.camera
        cam.zoom = .nan
        _ = RenderPlanner().plan(s, camera: cam)
        cam.zoom = 1e9
        _ = RenderPlanner().plan(s, camera: cam)
    }
}
