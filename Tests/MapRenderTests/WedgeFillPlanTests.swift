import Foundation
import GeoKit
import MapCamera
@testable import MapRender
import MapScene
import Testing

/// Wedge fills (`RenderPlanner.wedgeFillMesh`): the triangles of concave polygons and polygons
/// with holes, each carrying its corners, their polygon neighbours and which corners are reflex
/// and which edges are the polygon's, checked by hand on an L and a square with a hole.
@Suite struct WedgeFillPlanTests {
    struct Triangle {
        var corners: [MapPoint]
        var reflex: [Bool]
        var own: [Bool]
        var pred: [MapPoint]
        var succ: [MapPoint]
    }

    /// The mesh's triangles, read back from vertex 0 of each (vertices 1 and 2 must repeat it
    /// but for their own index).
    static func triangles(_ mesh: Mesh) -> [Triangle] {
        let s = VertexLayout.wedgeFill.stride, v = mesh.vertices
        var out: [Triangle] = []
        for t in stride(from: 0, to: mesh.indices.count, by: 3) {
            let base = Int(mesh.indices[t]) * s
            for k in 0 ..< 3 {
                let b = Int(mesh.indices[t + k]) * s
                #expect(mesh.indices[t + k] == mesh.indices[t] + UInt32(k))
                #expect(v[b + 6] == Float(k))
                for i in 0 ..< s where i != 6 { #expect(v[b + i] == v[base + i]) }
            }
            let p = { (i: Int) in MapPoint(x: Double(v[base + i]), y: Double(v[base + i + 1])) }
            let flags = Int(v[base + 7])
            out.append(Triangle(corners: [p(0), p(2), p(4)], reflex: (0 ..< 3).map { flags & (1 << $0) != 0 },
                                own: (0 ..< 3).map { flags & (1 << (3 + $0)) != 0 },
                                pred: (0 ..< 3).map { p(8 + 4 * $0) }, succ: (0 ..< 3).map { p(10 + 4 * $0) }))
        }
        return out
    }

    static func cross(_ a: MapPoint, _ b: MapPoint, _ c: MapPoint) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    /// Checks what holds for every triangle of a polygon whose rings are `rings` (as the mesh
    /// stores them, relative to the origin 0): positive area; each corner's neighbours are its
    /// ring neighbours, ordered so that the inside is on the left; a corner is reflex where it
    /// turns right; an edge is the polygon's where the next corner follows on the ring. Returns
    /// the polygon edges the triangles own, as (from, to).
    static func check(_ tris: [Triangle], rings: [[MapPoint]]) -> [(MapPoint, MapPoint)] {
        var owned: [(MapPoint, MapPoint)] = []
        for t in tris {
            #expect(cross(t.corners[0], t.corners[1], t.corners[2]) > 0)
            for i in 0 ..< 3 {
                let c = t.corners[i]
                let ring = rings.first { $0.contains(c) }!
                let k = ring.firstIndex(of: c)!
                let neighbours = [ring[(k + ring.count - 1) % ring.count], ring[(k + 1) % ring.count]]
                #expect(Set(neighbours.map { [$0.x, $0.y] }) == Set([t.pred[i], t.succ[i]].map { [$0.x, $0.y] }))
                #expect(t.reflex[i] == (cross(t.pred[i], c, t.succ[i]) < 0))
                #expect(t.own[i] == (t.succ[i] == t.corners[(i + 1) % 3]))
                if t.own[i] { owned.append((c, t.corners[(i + 1) % 3])) }
            }
        }
        return owned
    }

    static func ring(_ pts: [(Double, Double)]) -> [MapPoint] { pts.map { MapPoint(x: $0.0, y: $0.1) } }

    @Test func anEllIsFourTrianglesWithOneReflexCornerAndItsSixEdgesOwnedOnce() {
        // Clockwise as x and y go (negative area): walked backwards for the inside on the left.
        let ell = Self.ring([(0, 0), (0, 4), (2, 4), (2, 2), (4, 2), (4, 0)])
        let tris = Self.triangles(RenderPlanner.wedgeFillMesh([[ell]], origin: MapPoint(x: 0, y: 0)))
        #expect(tris.count == 4)
        let owned = Self.check(tris, rings: [ell])
        // The six edges, each owned by one triangle, in the inside-on-the-left direction
        // (against the ring's order).
        let expected = (0 ..< 6).map { (ell[($0 + 1) % 6], ell[$0]) }
        #expect(owned.count == 6)
        for e in expected { #expect(owned.filter { $0.0 == e.0 && $0.1 == e.1 }.count == 1, "\(e)") }
        // Only (2, 2) is reflex, in every triangle that has it.
        for t in tris {
            for i in 0 ..< 3 { #expect(t.reflex[i] == (t.corners[i] == MapPoint(x: 2, y: 2))) }
        }
        #expect(tris.contains { $0.corners.contains(MapPoint(x: 2, y: 2)) })
    }

    @Test func aSquareWithAHoleOwnsAllEightEdgesAndTheHolesCornersAreReflex() {
        let outer = Self.ring([(0, 0), (6, 0), (6, 6), (0, 6)])
        let hole = Self.ring([(2, 2), (4, 2), (4, 4), (2, 4)])
        let tris = Self.triangles(RenderPlanner.wedgeFillMesh([[outer, hole]], origin: MapPoint(x: 0, y: 0)))
        #expect(tris.count == 8)
        let owned = Self.check(tris, rings: [outer, hole])
        #expect(owned.count == 8)
        // The outer ring has positive area (walked as given); the hole too, so it is walked
        // backwards: the inside (outside the hole) on the left.
        for k in 0 ..< 4 {
            #expect(owned.filter { $0.0 == outer[k] && $0.1 == outer[(k + 1) % 4] }.count == 1)
            #expect(owned.filter { $0.0 == hole[(k + 1) % 4] && $0.1 == hole[k] }.count == 1)
        }
        for t in tris {
            for i in 0 ..< 3 { #expect(t.reflex[i] == hole.contains(t.corners[i])) }
        }
    }

    /// A comb whose notches' bottoms lie on one line with the base's chain of corners: ear
    /// clipping makes triangles of collinear corners there, which cannot move their edges out.
    /// Every polygon edge must still be moved out by some triangle: owned by one, or lying along
    /// an edge a triangle owns (handed across the thin triangles' longest edges).
    @Test(arguments: [0.0, 0.3, 1.0]) func everyEdgeOfACombIsMovedOutByATriangle(turn: Double) {
        var comb = [(0.0, 0.0), (0.0, 10.0)]
        for t in 0 ..< 5 {
            let x = Double(t) * 4
            comb += [(x + 2, 10), (x + 2, 4), (x + 4, 4), (x + 4, 10)]
        }
        comb += [(22.0, 10.0), (22.0, 0.0)]
        let ring = comb.map { p in MapPoint(x: p.0 * cos(turn) - p.1 * sin(turn), y: p.0 * sin(turn) + p.1 * cos(turn)) }
        // At 0.1 px a unit the comb is 2.2 px wide and its notches' bottoms are what they are;
        // at 100 px a unit nothing is thin but exact zeros.
        for scale in [0.1, 100.0] {
            let tris = Self.triangles(RenderPlanner.wedgeFillMesh([[ring]], origin: MapPoint(x: 0, y: 0), pixelsPerUnit: scale))
            var owned: [(MapPoint, MapPoint)] = []
            for t in tris { for i in 0 ..< 3 where t.own[i] { owned.append((t.corners[i], t.corners[(i + 1) % 3])) } }
            // Within a quarter of a pixel of the owned edge (whose half pixel moved out then
            // covers it: thin triangles are under 1/16 px, a run of them may turn a little),
            // between its ends.
            func on(_ p: MapPoint, _ a: MapPoint, _ b: MapPoint) -> Bool {
                let len = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
                let t = ((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y)) / (len * len)
                return abs(Self.cross(a, b, p)) / len <= 0.25 / scale && t > -1e-6 && t < 1 + 1e-6
            }
            for k in ring.indices {
                let a = ring[k], b = ring[(k + 1) % ring.count]
                #expect(owned.contains { on(a, $0.0, $0.1) && on(b, $0.0, $0.1) }, "edge \(k) at \(scale) px a unit, turned \(turn)")
            }
            // Moved out the inside-on-the-left way: a triangle that owns an edge lies on its
            // left. (Thin triangles that own none may turn either way in Float.)
            for t in tris where t.own.contains(true) { #expect(Self.cross(t.corners[0], t.corners[1], t.corners[2]) > 0) }
        }
    }

    @Test func corridorsLeftByClippersKeepTheFringe() throws {
        // A square with a zero-width spike from the middle of its top edge (along lon 7.001 up to
        // lat 46.002 and back), as clippers leave corridors: no edge of the shape.
        let c = [(46.0, 7.0), (46.0, 7.002), (46.001, 7.002), (46.001, 7.001), (46.002, 7.001), (46.001, 7.001), (46.001, 7.0)]
        let corridor = PolygonRings(exterior: try GeoPath(coordinates: c.map { LatLng(lat: $0.0, lon: $0.1) }))
        #expect(RenderPlanner.hasRetracedEdges(corridor))
        #expect(!RenderPlanner.hasRetracedEdges(try MultiShapePlanTests.ells(1)[0]))
        let plan = RenderPlanner().plan(Scene(overlays: [.multiPolygon(MultiPolygon(polygons: PolygonSet([corridor]), fill: Color(rgb: 0x336699)))]),
                                        camera: MultiShapePlanTests.camera)
        try #require(plan.commands.count == 1)
        #expect(plan.commands[0].mesh.layout == .ground && plan.commands[0].mesh.fringeStart != nil)
    }

    @Test func degenerateRingsAddNothing() {
        let line = Self.ring([(0, 0), (1, 1), (2, 2), (3, 3)])
        #expect(RenderPlanner.wedgeFillMesh([[line], [], [Self.ring([(0, 0), (1, 0)])]], origin: MapPoint(x: 0, y: 0)).indices.isEmpty)
    }
}
