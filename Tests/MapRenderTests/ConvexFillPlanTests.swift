import Foundation
import GeoKit
import MapCamera
@testable import MapRender
import MapScene
import Testing

/// Which polygons of a `MultiPolygon` are drawn as convex fills (no fringe), and the vertices
/// they are drawn with.
@Suite struct ConvexFillPlanTests {
    static func ring(_ points: [(Double, Double)], holes: [[(Double, Double)]] = []) throws -> PolygonRings {
        func path(_ p: [(Double, Double)]) throws -> GeoPath { try GeoPath(coordinates: p.map { LatLng(lat: $0.0, lon: $0.1) }) }
        return PolygonRings(exterior: try path(points), holes: try holes.map(path))
    }

    /// A triangle at 46°N, 7°E whose corner at the origin is `degrees` wide (in map units,
    /// where the Mercator projection keeps angles).
    static func wedge(_ degrees: Double) throws -> PolygonRings {
        let o = MapPoint(LatLng(lat: 46, lon: 7)), r = 1e-5
        let a = degrees * .pi / 180
        let pts = [o, MapPoint(x: o.x + r, y: o.y), MapPoint(x: o.x + r * cos(a), y: o.y - r * sin(a))]
        return PolygonRings(exterior: try GeoPath(points: pts))
    }

    @Test func smallConvexPolygonsWithoutHolesAreConvexFills() throws {
        let square = [(46.0, 7.0), (46.0, 7.001), (46.001, 7.001), (46.001, 7.0)]
        #expect(RenderPlanner.isConvexFill(try Self.ring(square)))
        #expect(RenderPlanner.isConvexFill(try Self.ring(square + [square[0]])), "a closing point is not a corner")
        #expect(RenderPlanner.isConvexFill(try Self.ring(square.reversed())), "either way round")
        #expect(RenderPlanner.isConvexFill(try Self.ring([(46.0, 7.0), (46.0, 7.001), (46.001, 7.0005)])))
        // Not: a hole, five corners (a convex pentagon), a reflex corner (an arrowhead), an L.
        #expect(!RenderPlanner.isConvexFill(try Self.ring(square, holes: [[(46.0002, 7.0002), (46.0002, 7.0004), (46.0004, 7.0003)]])))
        let pentagon: [(Double, Double)] = (0 ..< 5).map { k in
            let a = Double(k) * 2 * Double.pi / 5
            return (46 + 0.001 * sin(a), 7 + 0.001 * cos(a))
        }
        #expect(!RenderPlanner.isConvexFill(try Self.ring(pentagon)))
        #expect(!RenderPlanner.isConvexFill(try Self.ring([(46.0, 7.0), (46.0005, 7.001), (46.0, 7.0005), (46.001, 7.0005)])))
        #expect(!RenderPlanner.isConvexFill(try Self.ring(MultiShapePlanTests.ells(1)[0].exterior.points.map {
            let l = $0.latLng; return (l.lat, l.lon)
        })))
        // Corners sharper than the fringe's miter limit (sin(angle / 2) ≥ ¼: about 29°) keep the fringe.
        #expect(RenderPlanner.isConvexFill(try Self.wedge(35)))
        #expect(!RenderPlanner.isConvexFill(try Self.wedge(20)))
        // Degenerate rings: all on one line, a repeated corner.
        #expect(!RenderPlanner.isConvexFill(try Self.ring([(46.0, 7.0), (46.0, 7.001), (46.0, 7.002)])))
        #expect(!RenderPlanner.isConvexFill(try Self.ring([(46.0, 7.0), (46.0, 7.001), (46.0, 7.001), (46.001, 7.0)])))
    }

    static let camera = MultiShapePlanTests.camera

    @Test func anOpaqueSetDrawsItsConvexPolygonsApartWithEveryCornerOnEachVertex() throws {
        let squares = try MultiShapePlanTests.squares(3)
        let triangle = try Self.ring([(45.999, 6.999), (45.999, 6.9992), (45.9991, 6.9991)])
        let ell = try MultiShapePlanTests.ells(1, lat: 46.001, lon: 7.001)[0]
        let set = PolygonSet(squares + [triangle, ell])
        let plan = RenderPlanner().plan(Scene(overlays: [.multiPolygon(MultiPolygon(polygons: set, fill: Color(rgb: 0x336699)))]),
                                        camera: Self.camera)
        try #require(plan.commands.count == 2)
        // The convex fills, then the L as a wedge fill (its 4 triangles).
        let convex = plan.commands[0], wedge = plan.commands[1]
        #expect(wedge.mesh.layout == .wedgeFill && wedge.mesh.triangleCount == 4)
        #expect(convex.mesh.layout == .convexFill && convex.coverage == .fill && convex.color == Color(rgb: 0x336699))
        // A fan per polygon: 2 triangles per square, 1 for the triangle; 4 + 4 + 4 + 3 vertices.
        #expect(convex.mesh.triangleCount == 3 * 2 + 1 && convex.mesh.vertexCount == 3 * 4 + 3)
        #expect(Array(convex.mesh.indices.prefix(6)) == [0, 1, 2, 0, 2, 3])
        #expect(Array(convex.mesh.indices.suffix(3)) == [12, 13, 14])
        // Each vertex: the polygon's corners in order (map units from the command's origin; a
        // triangle's fourth is its first), then its own corner's index.
        let v = convex.mesh.vertices, s = VertexLayout.convexFill.stride
        func corners(_ vertex: Int) -> [MapPoint] {
            (0 ..< 4).map { MapPoint(x: Double(v[vertex * s + 2 * $0]) + convex.origin.x, y: Double(v[vertex * s + 2 * $0 + 1]) + convex.origin.y) }
        }
        let first = squares[0].exterior.points
        for vertex in 0 ..< 4 {
            let c = corners(vertex)
            for k in 0 ..< 4 {
                #expect(abs(c[k].x - first[k].x) < 1e-10 && abs(c[k].y - first[k].y) < 1e-10, "vertex \(vertex), corner \(k)")
            }
            #expect(v[vertex * s + 8] == Float(vertex))
        }
        let t = triangle.exterior.points
        for vertex in 12 ..< 15 {
            let c = corners(vertex)
            for (k, p) in (t + [t[0]]).enumerated() {
                #expect(abs(c[k].x - p.x) < 1e-10 && abs(c[k].y - p.y) < 1e-10, "vertex \(vertex), corner \(k)")
            }
            #expect(v[vertex * s + 8] == Float(vertex - 12))
        }
    }

    @Test func aTranslucentSetKeepsEveryFringe() throws {
        // Where two translucent parts touch, each pixel must be blended once with the colour in
        // full: every interior comes before every fringe, as for concave parts (a set with an
        // outline, or in a faded basemap layer; without, see `aTranslucentSetIsAnOpaqueOneInALayer`).
        let set = PolygonSet(try MultiShapePlanTests.squares(60))
        let planner = RenderPlanner()
        planner.layersTranslucentSets = false
        let plan = planner.plan(Scene(overlays: [.multiPolygon(MultiPolygon(polygons: set, fill: Color(rgb: 0x336699, alpha: 0x80)))]),
                                camera: Self.camera)
        try #require(plan.commands.count == 1)
        #expect(plan.commands[0].mesh.layout == .ground)
        #expect(plan.commands[0].mesh.triangleCount == 60 * (2 + 8) && plan.commands[0].mesh.fringeStart == 60 * 2 * 3)
    }

    @Test func aTranslucentSetIsAnOpaqueOneInALayer() throws {
        // Without an outline: the opaque colour's convex fills, in a layer of the fill's opacity,
        // mixed only within the squares' box on screen (and 2 px round it).
        let set = PolygonSet(try MultiShapePlanTests.squares(60))
        let fill = Color(rgb: 0x336699, alpha: 0x80)
        let plan = RenderPlanner().plan(Scene(overlays: [.multiPolygon(MultiPolygon(polygons: set, fill: fill))]), camera: Self.camera)
        try #require(plan.commands.count == 1)
        let c = plan.commands[0]
        #expect(c.mesh.layout == .convexFill && c.mesh.triangleCount == 60 * 2)
        #expect(c.color == Color(rgb: 0x336699) && c.group?.opacity == 0x80 / 255.0)
        var box: (Double, Double, Double, Double) = (.infinity, .infinity, -.infinity, -.infinity)
        for p in set.polygons.flatMap(\.exterior.points) {
            let s = try #require(Self.camera.project(p))
            box = (min(box.0, s.x), min(box.1, s.y), max(box.2, s.x), max(box.3, s.y))
        }
        let b = try #require(c.screenBox)
        let w = Self.camera.size.width, h = Self.camera.size.height
        for (got, want) in [(b.minX, max(0, box.0 - 2)), (b.minY, max(0, box.1 - 2)), (b.maxX, min(w, box.2 + 2)), (b.maxY, min(h, box.3 + 2))] {
            #expect(abs(got - want) < 1e-6, "\(b) against \(box)")
        }
        // With an outline: fringed, as before.
        let outlined = RenderPlanner().plan(Scene(overlays: [.multiPolygon(MultiPolygon(polygons: set, fill: fill, stroke: Color(rgb: 0x555555),
                                                                                        strokeWidth: 1))]), camera: Self.camera)
        #expect(outlined.commands.first?.mesh.layout == .ground && outlined.commands.first?.group == nil)
    }
}

/// A layer's concave parts as their triangles' convex fills (`RenderPlanner.triangleFillMesh`):
/// what the mesh holds, checked against areas and corners worked out by hand.
@Suite struct TriangleFillPlanTests {
    /// The mesh's convex fills, each its corners (three, or four where a corner is given twice).
    static func fills(_ mesh: Mesh) -> [[MapPoint]] {
        let stride = VertexLayout.convexFill.stride
        var out: [[MapPoint]] = []
        for v in Swift.stride(from: 0, to: mesh.vertices.count, by: stride) where mesh.vertices[v + 8] == 0 {
            let c = (0 ..< 4).map { MapPoint(x: Double(mesh.vertices[v + 2 * $0]), y: Double(mesh.vertices[v + 2 * $0 + 1])) }
            out.append(c[3] == c[0] ? Array(c[0 ..< 3]) : c)
        }
        return out
    }

    static func area(_ ring: [MapPoint]) -> Double { abs(Outline.doubleArea(ring.map { ($0.x, $0.y) })) / 2 }

    static func angle(at p: MapPoint, _ a: MapPoint, _ b: MapPoint) -> Double {
        let u = (a.x - p.x, a.y - p.y), v = (b.x - p.x, b.y - p.y)
        return acos((u.0 * v.0 + u.1 * v.1) / (hypot(u.0, u.1) * hypot(v.0, v.1))) * 180 / .pi
    }

    @Test func anEllIsCoveredOnceByItsTriangles() {
        // 2 × 2 less a 1 × 1 corner: area 3. Ear clipping gives four triangles, none with a
        // corner under 15° (its corners are at whole coordinates up to 2: the sharpest a triangle
        // of them can have is atan(1/3) = 18.4°): four fills of three corners.
        let ell = [(0.0, 0.0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)].map { MapPoint(x: $0.0, y: $0.1) }
        let mesh = RenderPlanner.triangleFillMesh([[ell]], origin: MapPoint(x: 0, y: 0), pixelsPerUnit: 1000)
        #expect(mesh.layout == .convexFill)
        let fills = Self.fills(mesh)
        #expect(fills.count == 4)
        #expect(abs(fills.reduce(0) { $0 + Self.area($1) } - 3) < 1e-6)
        for f in fills {
            #expect(f.count == 3 && (0 ..< 3).allSatisfy { Self.angle(at: f[$0], f[($0 + 1) % 3], f[($0 + 2) % 3]) > 18 }, "\(f)")
        }
        // Four fills of three or four corners: one vertex a corner, a fan of triangles each.
        #expect(mesh.vertices.count == fills.reduce(0) { $0 + $1.count } * VertexLayout.convexFill.stride)
        #expect(mesh.indices.count == fills.reduce(0) { $0 + 3 * ($1.count - 2) })
    }

    @Test func aTriangleWithTwoSharpCornersIsSplitAtTheFootOfItsThird() {
        // Isosceles, 10° at each end of its base from (0, 0) to (10, 0), apex at (5, 5 tan 10°):
        // the foot of the perpendicular from the apex is the base's middle, (5, 0).
        let h = 5 * tan(10 * Double.pi / 180)
        let tri = [MapPoint(x: 0, y: 0), MapPoint(x: 10, y: 0), MapPoint(x: 5, y: h)]
        let fills = Self.fills(RenderPlanner.triangleFillMesh([[tri]], origin: MapPoint(x: 0, y: 0), pixelsPerUnit: 100))
        #expect(fills.count == 2)
        func has(_ f: [MapPoint], _ p: MapPoint) -> Bool { f.contains { abs($0.x - p.x) < 1e-5 && abs($0.y - p.y) < 1e-5 } }
        for f in fills {
            #expect(f.count == 4 && f[0] == f[1] && (f[0] == tri[0] || f[0] == tri[1]), "\(f)")
            #expect(has(f, MapPoint(x: 5, y: 0)) && has(f, tri[2]), "\(f)")
            #expect(abs(Self.area(f) - 2.5 * h) < 1e-5)
        }
        // One sharp corner: given twice, first; none: as it is.
        let one = [MapPoint(x: 0, y: 0), MapPoint(x: 10, y: 0), MapPoint(x: 10, y: 10 * tan(10 * Double.pi / 180))]
        let oneFills = Self.fills(RenderPlanner.triangleFillMesh([[one]], origin: MapPoint(x: 0, y: 0), pixelsPerUnit: 100))
        #expect(oneFills.count == 1 && oneFills[0].count == 4 && oneFills[0][0] == one[0] && oneFills[0][1] == one[0])
        // (20°, 70°, 90°: as it is.)
        let wide = [MapPoint(x: 0, y: 0), MapPoint(x: 10, y: 0), MapPoint(x: 10, y: 10 * tan(20 * Double.pi / 180))]
        #expect(Self.fills(RenderPlanner.triangleFillMesh([[wide]], origin: MapPoint(x: 0, y: 0), pixelsPerUnit: 100)).map(\.count) == [3])
    }

    @Test func trianglesThinnerThanASixteenthOfAPixelAreLeftOut() {
        // A rectangle 2 × 1 with a corner 0.0001 out of the middle of its bottom edge: at 100 px
        // a unit the triangle on that corner and the bottom edge's ends is 0.01 px thick (left
        // out; its neighbours meet along nearly the same line), at 10 000 px a unit 1 px.
        let ring = [(0.0, 0.0), (1, -0.0001), (2, 0), (2, 1), (0, 1)].map { MapPoint(x: $0.0, y: $0.1) }
        for (ppu, thin) in [(100.0, true), (10_000.0, false)] {
            let fills = Self.fills(RenderPlanner.triangleFillMesh([[ring]], origin: MapPoint(x: 0, y: 0), pixelsPerUnit: ppu))
            let total = fills.reduce(0) { $0 + Self.area($1) }
            #expect(abs(total - (thin ? 2 : 2.0001)) < 1e-6, "\(ppu): \(total)")
            #expect(fills.contains { Self.area($0) < 0.001 } != thin, "\(ppu): \(fills)")
        }
    }
}
