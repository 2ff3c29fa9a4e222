import Foundation
import GeoKit
import MapScene
import MapTestSupport
import Testing
@testable import MapRender

/// Polygon rings cut along tile edges keep their cut edges exactly when simplified.
@Suite struct SimplifySeamTests {
    /// The ring that showed the seam over France (basemap level 1, tile 3,2, grid 2^18, y in
    /// grid units): coast points a fraction of the tolerance from the corner (0.5, 89652) where
    /// the coast meets the tile's east edge x = 0.5. Tolerance 6.1e-5 (0.5 px at zoom 4.1).
    @Test func cornerOfAnAxisEdgeSurvives() {
        let g = 1.0 / 262_144
        let ring = [
            MapPoint(x: 0.4985542297363281, y: 89631 * g), MapPoint(x: 0.4995460510253906, y: 89696 * g),
            MapPoint(x: 0.499969482421875, y: 89658 * g), MapPoint(x: 0.5, y: 89652 * g),
            MapPoint(x: 0.5, y: 98304 * g), MapPoint(x: 0.475921630859375, y: 98304 * g),
            MapPoint(x: 0.4985542297363281, y: 89631 * g),
        ]
        let tolerance = 6.103515625e-05
        let plain = Simplify.simplify(ring, tolerance: tolerance)
        // Without pinning the radial pass drops the corner (it is 0.2 px from its neighbour):
        // the cut edge tilts and a sliver opens along x = 0.5.
        #expect(!plain.contains(MapPoint(x: 0.5, y: 89652 * g)))
        let kept = Simplify.simplify(ring, tolerance: tolerance, keepAxisEdges: true)
        #expect(kept.contains(MapPoint(x: 0.5, y: 89652 * g)))
        #expect(kept.contains(MapPoint(x: 0.5, y: 98304 * g)))
        #expect(kept.contains(MapPoint(x: 0.475921630859375, y: 98304 * g)))
        #expect(kept.first == ring.first && kept.last == ring.last)
    }
}

/// Neighbouring polygons that share wiggly edges, simplified ring by ring, keep those edges
/// shared when the rings are cut at the corners where they part (`PolygonSet.junctions`).
@Suite struct SharedEdgeSimplifyTests {
    /// A 4 × 4 grid of cells with jittered corners, each edge between two corners carrying five
    /// points up to 1.6 tolerances off its chord (the same points for both cells beside it, in
    /// opposite directions), as a choropleth's borders are. Returns each cell's ring (no closing
    /// point) and the grid's extent.
    static func cells(seed: UInt64) -> [[MapPoint]] {
        var rng = SplitMix64(seed: seed)
        func uniform(_ lo: Double, _ hi: Double) -> Double { Double.random(in: lo ... hi, using: &rng) }
        let n = 4, t = 1.0
        var corner: [[MapPoint]] = []
        for i in 0 ... n {
            corner.append((0 ... n).map { j in
                let edge = i == 0 || j == 0 || i == n || j == n
                return MapPoint(x: Double(j) * 20 + (edge ? 0 : uniform(-4, 4)), y: Double(i) * 20 + (edge ? 0 : uniform(-4, 4)))
            })
        }
        var wiggles: [String: [MapPoint]] = [:]
        // The points from corner a to corner b (both ends left out), made once per edge.
        func edge(_ a: (Int, Int), _ b: (Int, Int)) -> [MapPoint] {
            let flip = (a.0, a.1) > (b.0, b.1)
            let (p, q) = flip ? (b, a) : (a, b)
            let key = "\(p)\(q)"
            if wiggles[key] == nil {
                let s = corner[p.0][p.1], e = corner[q.0][q.1]
                let dx = e.x - s.x, dy = e.y - s.y, len = (dx * dx + dy * dy).squareRoot()
                let boundary = (p.0 == q.0 && (p.0 == 0 || p.0 == n)) || (p.1 == q.1 && (p.1 == 0 || p.1 == n))
                wiggles[key] = (1 ... 5).map { k in
                    let f = Double(k) / 6, off = boundary ? 0 : uniform(-1.6, 1.6) * t
                    return MapPoint(x: s.x + f * dx - off * dy / len, y: s.y + f * dy + off * dx / len)
                }
            }
            return flip ? wiggles[key]!.reversed() : wiggles[key]!
        }
        var rings: [[MapPoint]] = []
        for i in 0 ..< n {
            for j in 0 ..< n {
                let around = [(i, j), (i, j + 1), (i + 1, j + 1), (i + 1, j)]
                var ring: [MapPoint] = []
                for k in 0 ..< 4 {
                    let a = around[k], b = around[(k + 1) % 4]
                    ring.append(corner[a.0][a.1])
                    ring += edge(a, b)
                }
                rings.append(ring)
            }
        }
        return rings
    }

    /// Directed edges of the rings that no ring runs back along and that are not on the grid's
    /// outer boundary: slivers between neighbours.
    static func unmatched(_ rings: [[MapPoint]]) -> Int {
        var edges: [[Double]: Int] = [:]
        for r in rings { for i in r.indices { let a = r[i], b = r[(i + 1) % r.count]; edges[[a.x, a.y, b.x, b.y], default: 0] += 1 } }
        func outer(_ p: MapPoint) -> Bool { p.x == 0 || p.y == 0 || p.x == 80 || p.y == 80 }
        return edges.keys.filter { e in
            edges[[e[2], e[3], e[0], e[1]]] == nil && !(outer(MapPoint(x: e[0], y: e[1])) && outer(MapPoint(x: e[2], y: e[3])))
        }.count
    }

    /// Six such grids: cut at the junctions, every inner edge of the simplified rings has its
    /// neighbour's running back along it; simplified ring by ring, some do not (the slivers).
    @Test func sharedEdgesStayShared() throws {
        var apartTotal = 0
        for seed in 1 ... 6 as ClosedRange<UInt64> {
            let rings = Self.cells(seed: seed)
            let junctions = PolygonSet.junctions(of: try rings.map { PolygonRings(exterior: try GeoPath(points: $0)) })
            // The grid's inner corners (three or four cells meet) and the 12 on its boundary
            // where two cells' shared edge ends: 9 + 12.
            #expect(junctions.count == 21)
            let alike = rings.map { Simplify.simplifyRing($0, tolerance: 1, junctions: junctions) }
            let apart = rings.map { Array(Simplify.simplify($0 + [$0[0]], tolerance: 1, keepAxisEdges: true).dropLast()) }
            print("seed \(seed): \(alike.reduce(0) { $0 + $1.count }) points kept of \(rings.reduce(0) { $0 + $1.count }); "
                + "edges without their neighbour's: \(Self.unmatched(alike)) cut at junctions, \(Self.unmatched(apart)) ring by ring")
            #expect(Self.unmatched(alike) == 0, "seed \(seed)")
            #expect(alike.reduce(0) { $0 + $1.count } < rings.reduce(0) { $0 + $1.count } * 3 / 4)
            apartTotal += Self.unmatched(apart)
        }
        #expect(apartTotal > 0)
    }

    /// A hole and the polygon that fills it are one ring each way round with no junction: they
    /// come out the same.
    @Test func aHoleAndItsFillingComeOutTheSame() {
        let ring = (0 ..< 40).map { k -> MapPoint in
            let a = Double(k) / 40 * 2 * Double.pi, r = 30 + (k % 3 == 0 ? 0.4 : -0.3)
            return MapPoint(x: 50 + r * cos(a), y: 50 + r * sin(a))
        }
        let filling = Array(ring[17...] + ring[..<17]).reversed().map { $0 }
        let a = Simplify.simplifyRing(ring, tolerance: 1, junctions: []), b = Simplify.simplifyRing(filling, tolerance: 1, junctions: [])
        #expect(a.count < ring.count && Set(a) == Set(b) && a.count == b.count)
    }
}

extension SharedEdgeSimplifyTests {
    /// A ring with a junction repeated (a point given twice in a row) keeps it once.
    @Test func aRepeatedJunctionIsKeptOnce() {
        let a = MapPoint(x: 0, y: 0), b = MapPoint(x: 10, y: 0), c = MapPoint(x: 10, y: 10), d = MapPoint(x: 0, y: 10)
        let out = Simplify.simplifyRing([a, b, b, c, d], tolerance: 0.5, junctions: [b, d])
        #expect(out.count == 4 && Set(out) == [a, b, c, d], "\(out)")
    }
}
