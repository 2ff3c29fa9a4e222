import GeoKit
import MapCamera
@testable import MapRender
import MapScene
import Testing

/// How the planner handles `MultiPolygon` and `MultiPolyline`: one mesh per set, kept while the
/// set lives, culled as a whole, and planned part by part where one mesh would not do.
@Suite struct MultiShapePlanTests {
    static let camera = Camera(center: LatLng(lat: 46, lon: 7), zoom: 14, size: ScreenSize(width: 400, height: 400))

    /// `n` squares of 0.0001° (about 11 × 15 m) around `lat`, `lon`, 40 m apart.
    static func squares(_ n: Int, lat: Double = 46, lon: Double = 7) throws -> [PolygonRings] {
        try (0 ..< n).map { i in
            let a = lat + Double(i % 10) * 0.0004 - 0.002, b = lon + Double(i / 10) * 0.0006 - 0.003
            return PolygonRings(exterior: try GeoPath(coordinates: [LatLng(lat: a, lon: b), LatLng(lat: a, lon: b + 0.0002),
                                                                    LatLng(lat: a + 0.0001, lon: b + 0.0002),
                                                                    LatLng(lat: a + 0.0001, lon: b)]))
        }
    }

    /// `n` L-shapes (concave hexagons) of about the squares' size, placed as `squares` places them.
    static func ells(_ n: Int, lat: Double = 46, lon: Double = 7) throws -> [PolygonRings] {
        try (0 ..< n).map { i in
            let a = lat + Double(i % 10) * 0.0004 - 0.002, b = lon + Double(i / 10) * 0.0006 - 0.003
            return PolygonRings(exterior: try GeoPath(coordinates: [
                LatLng(lat: a, lon: b), LatLng(lat: a, lon: b + 0.0002), LatLng(lat: a + 0.00005, lon: b + 0.0002),
                LatLng(lat: a + 0.00005, lon: b + 0.0001), LatLng(lat: a + 0.0001, lon: b + 0.0001), LatLng(lat: a + 0.0001, lon: b)]))
        }
    }

    @Test func aSetIsOneCommandWhoseMeshIsKeptWhileTheSetLives() throws {
        let planner = RenderPlanner()
        let set = PolygonSet(try Self.ells(60))
        let scene = Scene(overlays: [.multiPolygon(MultiPolygon(polygons: set, fill: Color(rgb: 0x336699)))])
        let plan = planner.plan(scene, camera: Self.camera)
        #expect(plan.commands.count == 1)
        let mesh = plan.commands[0].mesh
        // Each L (concave): its 4 triangles as wedge fills, no fringe.
        #expect(mesh.layout == .wedgeFill && mesh.triangleCount == 60 * 4 && mesh.fringeStart == nil)
        // Three meshes made: the wedge fills, and the set's fills with fringes and convex fills
        // (none here: empty).
        #expect(planner.statistics.misses == 3)
        // A pan and a zoom within the half-level bucket: the same mesh, nothing tessellated.
        var moved = Self.camera
        moved.center = LatLng(lat: 46.001, lon: 7.001)
        moved.zoom = 14.3
        let again = planner.plan(scene, camera: moved)
        #expect(again.commands.count == 1 && again.commands[0].mesh === mesh)
        #expect(planner.statistics.misses == 3)
        // A new set of the same polygons is new geometry.
        let other = Scene(overlays: [.multiPolygon(MultiPolygon(polygons: PolygonSet(set.polygons), fill: Color(rgb: 0x336699)))])
        #expect(planner.plan(other, camera: Self.camera).commands[0].mesh !== mesh)
    }

    @Test func aSetIsTheTrianglesOfItsParts() throws {
        // The same L-shapes as 60 Polygons (batched into one command): the set's wedge fills are
        // the Polygons' interior triangles, each once.
        let rings = try Self.ells(60)
        let fill = Color(rgb: 0x336699)
        let parts = RenderPlanner().plan(Scene(overlays: rings.map { .polygon(Polygon(exterior: $0.exterior, fill: fill)) }),
                                         camera: Self.camera)
        let one = RenderPlanner().plan(Scene(overlays: [.multiPolygon(MultiPolygon(polygons: PolygonSet(rings), fill: fill))]),
                                       camera: Self.camera)
        try #require(parts.commands.count == 1 && one.commands.count == 1)
        func point(_ c: DrawCommand, _ k: Int) -> [Double] {
            [((Double(c.mesh.vertices[k]) + c.origin.x) * 1e7).rounded(), ((Double(c.mesh.vertices[k + 1]) + c.origin.y) * 1e7).rounded()]
        }
        func key(_ t: [[Double]]) -> [Double] { t.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 } }
        let p = parts.commands[0], w = one.commands[0]
        let interior = try #require(p.mesh.fringeStart)
        let a = stride(from: 0, to: interior, by: 3).map { t in key((0 ..< 3).map { point(p, Int(p.mesh.indices[t + $0]) * 6) }) }
        let s = VertexLayout.wedgeFill.stride
        let b = stride(from: 0, to: w.mesh.indices.count, by: 3).map { t in
            key((0 ..< 3).map { point(w, Int(w.mesh.indices[t]) * s + 2 * $0) })
        }
        #expect(a.count == 60 * 4)
        #expect(a.sorted { $0.lexicographicallyPrecedes($1) } == b.sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test func aSetOffScreenIsCulledAndAnOutlineIsASecondCommand() throws {
        let set = PolygonSet(try Self.squares(10, lat: 47, lon: 8))
        let planner = RenderPlanner()
        let far = MultiPolygon(polygons: set, fill: Color(rgb: 0x336699), stroke: .black, strokeWidth: 2)
        #expect(planner.plan(Scene(overlays: [.multiPolygon(far)]), camera: Self.camera).commands.isEmpty)
        var there = Self.camera
        there.center = LatLng(lat: 47, lon: 8)
        let plan = planner.plan(Scene(overlays: [.multiPolygon(far)]), camera: there)
        #expect(plan.commands.count == 2)
        #expect(plan.commands[1].coverage == .stroke && plan.commands[1].extrudeScale == 1)
    }

    /// Parts 10⁵ px apart do not share one mesh (Float offsets from its middle would lose
    /// precision): the set, far wider than four view cells, is meshed for the view's cell, round
    /// the cell's middle, and the far part is not in it.
    @Test func aSetTooLargeForOneMeshIsMeshedForTheViewsCell() throws {
        var rings = try Self.squares(3)
        // One more square about 70° of longitude east: 10⁵ px away at zoom 14.
        rings += try Self.squares(1, lat: 46, lon: 77)
        let fill = Color(rgb: 0x336699)
        let plan = RenderPlanner().plan(Scene(overlays: [.multiPolygon(MultiPolygon(polygons: PolygonSet(rings), fill: fill))]),
                                        camera: Self.camera)
        // The three near squares (convex fills, two triangles each); the far one left out.
        try #require(plan.commands.count == 1)
        #expect(plan.commands[0].mesh.layout == .convexFill && plan.commands[0].mesh.triangleCount == 3 * 2)
        let all = try #require(PolygonSet(rings).bounds)
        let cell = try #require(PlanView(camera: Self.camera).clipCell(for: all))
        #expect(plan.commands[0].origin == cell.rect.mid)
    }

    /// 15 × 15 shapes made at points 0.0015° apart round 46, 7 (about 560 px apart at zoom 18:
    /// about 8 000 px across).
    static func wideGrid<T>(_ make: (Double, Double) throws -> T) rethrows -> [T] {
        try (0 ..< 225).map { (k: Int) throws -> T in
            let lat: Double = 46 + Double(k / 15 - 7) * 0.0015
            let lon: Double = 7 + Double(k % 15 - 7) * 0.0015
            return try make(lat, lon)
        }
    }

    /// `camera` at zoom 18.
    static var zoomedIn: Camera {
        var camera = Self.camera
        camera.zoom = 18
        return camera
    }

    /// A set wider than four view cells (a vector tile zoomed far in) is meshed for the view's
    /// cell: only the polygons that meet the cell's rectangle (3×3 cells round the view), and
    /// one that is itself that wide through a Polygon's clipped path.
    @Test func aSetWiderThanFourViewCellsIsMeshedByTheViewsCell() throws {
        let camera = Self.zoomedIn
        let rings = try Self.wideGrid { lat, lon in try Self.ells(1, lat: lat + 0.002, lon: lon + 0.003)[0] }
        // And a field far wider than the cells, round the view.
        let field = PolygonRings(exterior: try GeoPath(coordinates: [
            LatLng(lat: 45.97, lon: 6.97), LatLng(lat: 45.97, lon: 7.03), LatLng(lat: 46.03, lon: 7.015), LatLng(lat: 46.03, lon: 6.97)]))
        let set = PolygonSet(rings + [field])
        let scene = Scene(overlays: [.multiPolygon(MultiPolygon(polygons: set, fill: Color(rgb: 0x336699)))])
        // (The field holds the view: drawn, not taken for the frame's ground, see GroundCoverTests.)
        func planner() -> RenderPlanner {
            let p = RenderPlanner()
            p.clearsCoveredGround = false
            return p
        }
        #expect(RenderPlanner().plan(scene, camera: camera).ground == Color(rgb: 0x336699))
        let plan = planner().plan(scene, camera: camera)
        let view = PlanView(camera: camera)
        let setBounds = try #require(set.bounds)
        let cell = try #require(view.clipCell(for: setBounds))
        let meeting = rings.filter { $0.exterior.bounds!.intersects(cell.rect) }.count
        let visible = rings.filter { r in r.exterior.points.contains { p in
            guard let q = camera.project(p.latLng) else { return false }
            return q.x >= 0 && q.x <= 400 && q.y >= 0 && q.y <= 400
        } }.count
        #expect(visible >= 1 && meeting > visible && meeting < rings.count, "\(visible) visible, \(meeting) meet the cell of \(rings.count)")
        // The field, clipped to the cell (a Polygon's fill), then the Ls that meet the cell.
        try #require(plan.commands.count == 2)
        #expect(plan.commands[0].mesh.layout == .ground && plan.commands[0].mesh.fringeStart != nil)
        #expect(plan.commands[1].mesh.layout == .wedgeFill && plan.commands[1].mesh.triangleCount == 4 * meeting)
        // Panned within the cell: the same meshes; into the next cell's: another.
        var near = camera
        near.center = LatLng(lat: 46.0001, lon: 7.0001)
        let planner = planner()
        let first = planner.plan(scene, camera: camera).commands[1].mesh
        if PlanView(camera: near).clipCell(for: set.bounds!)?.key == cell.key {
            #expect(planner.plan(scene, camera: near).commands[1].mesh === first)
        }
        var far = camera
        far.center = LatLng(lat: 46.004, lon: 7.006)
        #expect(PlanView(camera: far).clipCell(for: set.bounds!)?.key != cell.key)
        #expect(planner.plan(scene, camera: far).commands.last!.mesh !== first)
    }

    /// The same for lines: a wide set's lines that meet the view's cell in one mesh round the
    /// cell's middle, and a line that wide itself as a `Polyline` (clipped to the cell).
    @Test func aLineSetWiderThanFourViewCellsIsMeshedByTheViewsCell() throws {
        let camera = Self.zoomedIn
        let paths = try Self.wideGrid { lat, lon in
            try GeoPath(coordinates: [LatLng(lat: lat + 0.0002, lon: lon + 0.0003), LatLng(lat: lat + 0.0003, lon: lon + 0.0006)])
        }
        let long = try GeoPath(coordinates: [LatLng(lat: 46.0001, lon: 6.98), LatLng(lat: 46.0001, lon: 7.02)])
        let set = PathSet(paths + [long])
        let style = LineStyle(width: .pixels(4), color: Color(rgb: 0x336699))
        let plan = RenderPlanner().plan(Scene(overlays: [.multiPolyline(MultiPolyline(paths: set, style: style))]), camera: camera)
        let all = try #require(set.bounds)
        let cell = try #require(PlanView(camera: camera).clipCell(for: all))
        let meeting = paths.filter { $0.bounds!.intersects(cell.rect) }.count
        #expect(meeting > 0 && meeting < paths.count)
        // The long line as a Polyline and the set's mesh for the cell (one stroke per meeting
        // line), merged into one command as alike ground commands are.
        let longAlone = RenderPlanner().plan(Scene(overlays: [.polyline(Polyline(path: long, style: style))]), camera: camera)
        let longTriangles = longAlone.commands.reduce(0) { $0 + $1.mesh.triangleCount }
        let oneLine = RenderPlanner().plan(Scene(overlays: [.polyline(Polyline(path: paths[0], style: style))]),
                                           camera: Camera(center: paths[0].points[0].latLng, zoom: 18, size: ScreenSize(width: 400, height: 400)))
        let perLine = oneLine.commands.reduce(0) { $0 + $1.mesh.triangleCount }
        try #require(plan.commands.count == 1 && longTriangles > 0 && perLine > 0)
        #expect(plan.commands[0].mesh.triangleCount == longTriangles + perLine * meeting)
    }

    /// What is transparent is not drawn: a line's colour or its casing's at alpha 0 drops that
    /// command (the other stays), both drop the line, and a polygon's transparent outline draws
    /// no outline; alike for a set and a single line.
    @Test func transparentStrokesPlanNoCommands() throws {
        let paths = PathSet(try (0 ..< 3).map { i in
            try GeoPath(coordinates: [LatLng(lat: 45.999 + Double(i) * 0.0005, lon: 6.995), LatLng(lat: 45.999 + Double(i) * 0.0005, lon: 7.005)])
        })
        let clear = Color(rgb: 0x336699, alpha: 0)
        func commands(_ line: LineStyle) -> [(color: Color, scale: Double)] {
            let planner = RenderPlanner()
            let set = planner.plan(Scene(overlays: [.multiPolyline(MultiPolyline(paths: paths, style: line))]), camera: Self.camera)
            let one = planner.plan(Scene(overlays: [.polyline(Polyline(path: paths.paths[0], style: line))]), camera: Self.camera)
            #expect(set.commands.map(\.color) == one.commands.map(\.color))
            return set.commands.map { ($0.color, $0.extrudeScale) }
        }
        let both = commands(LineStyle(width: .pixels(4), color: Color(rgb: 0x336699), casingColor: .white))
        #expect(both.map(\.color) == [.white, Color(rgb: 0x336699)] && both.map(\.scale) == [3, 2])
        let casingOnly = commands(LineStyle(width: .pixels(4), color: clear, casingColor: .white))
        #expect(casingOnly.map(\.color) == [.white] && casingOnly.map(\.scale) == [3])
        let lineOnly = commands(LineStyle(width: .pixels(4), color: Color(rgb: 0x336699), casingColor: Color(rgb: 0xFFFFFF, alpha: 0)))
        #expect(lineOnly.map(\.color) == [Color(rgb: 0x336699)] && lineOnly.map(\.scale) == [2])
        #expect(commands(LineStyle(width: .pixels(4), color: clear, casingColor: Color(rgb: 0xFFFFFF, alpha: 0))).isEmpty)
        #expect(commands(LineStyle(width: .pixels(4), color: clear)).isEmpty)
        // Polygons: the fill stays, the transparent outline goes (a set and one polygon).
        let squares = try Self.squares(3)
        let planner = RenderPlanner()
        let set = planner.plan(Scene(overlays: [.multiPolygon(MultiPolygon(polygons: PolygonSet(squares), fill: Color(rgb: 0x112233),
                                                                           stroke: clear, strokeWidth: 2))]), camera: Self.camera)
        #expect(!set.commands.isEmpty && set.commands.allSatisfy { $0.color == Color(rgb: 0x112233) })
        let one = planner.plan(Scene(overlays: [.polygon(Polygon(exterior: squares[0].exterior, fill: Color(rgb: 0x112233),
                                                                 stroke: clear, strokeWidth: 2))]), camera: Self.camera)
        #expect(!one.commands.isEmpty && one.commands.allSatisfy { $0.color == Color(rgb: 0x112233) })
        let outlined = planner.plan(Scene(overlays: [.polygon(Polygon(exterior: squares[0].exterior, fill: Color(rgb: 0x112233),
                                                                      stroke: .white, strokeWidth: 2))]), camera: Self.camera)
        #expect(outlined.commands.contains { $0.color == .white })
    }

    @Test func linesOfASetShareOneMeshAndItsDashesStartAtEachLine() throws {
        let paths = PathSet(try (0 ..< 5).map { i in
            try GeoPath(coordinates: [LatLng(lat: 45.999 + Double(i) * 0.0005, lon: 6.995), LatLng(lat: 45.999 + Double(i) * 0.0005, lon: 7.005)])
        })
        var style = LineStyle(width: .pixels(4), color: Color(rgb: 0x336699), cap: .butt, dash: [2, 1], casingColor: .white)
        style.dashUnit = .lineWidths
        let planner = RenderPlanner()
        let plan = planner.plan(Scene(overlays: [.multiPolyline(MultiPolyline(paths: paths, style: style))]), camera: Self.camera)
        // The casing and the line, one mesh.
        #expect(plan.commands.count == 2 && plan.commands[0].mesh === plan.commands[1].mesh)
        #expect(plan.commands[0].extrudeScale == 3 && plan.commands[1].extrudeScale == 2)
        // Dashes in line widths: 8 px on, 4 off.
        #expect(plan.commands[1].dash == [8, 4] && plan.commands[0].dash.isEmpty)
        // Each line's distance along starts at 0 at its first point: five vertices at distance 0
        // on the centre line (a butt-capped straight line: each end's two edge vertices).
        let m = plan.commands[1].mesh
        let starts = stride(from: 0, to: m.vertices.count, by: 6).filter { m.vertices[$0 + 4] == 0 }.count
        #expect(starts == 5 * 2)
        // In metres: drawn on the ground, as a Polyline's.
        style.width = .meters(10)
        let metres = planner.plan(Scene(overlays: [.multiPolyline(MultiPolyline(paths: paths, style: style))]), camera: Self.camera)
        #expect(!metres.commands.isEmpty && metres.commands.allSatisfy { $0.widthOnGround })
    }
}
