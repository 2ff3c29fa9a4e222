import GeoKit
import MapTestSupport
import Testing

@Suite struct MapRectClipTests {
    private let box = MapRect(origin: MapPoint(x: 0, y: 0), width: 10, height: 10)
    private func pts(_ xy: [(Double, Double)]) -> [MapPoint] { xy.map { MapPoint(x: $0.0, y: $0.1) } }

    private func expectParts(_ got: [[MapPoint]], _ want: [[(Double, Double)]], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(got.count == want.count, "parts \(got)", sourceLocation: sourceLocation)
        for (g, w) in zip(got, want) {
            #expect(g.count == w.count, "part \(g)", sourceLocation: sourceLocation)
            for (p, q) in zip(g, w) {
                expectNear(p.x, q.0, tolerance: 1e-12, sourceLocation: sourceLocation)
                expectNear(p.y, q.1, tolerance: 1e-12, sourceLocation: sourceLocation)
            }
        }
    }

    /// Hand-derived against the box (0,0)–(10,10).
    @Test func polylines() {
        // Straight through: enters at x = 0, leaves at x = 10.
        expectParts(box.clip(polyline: pts([(-5, 5), (15, 5)])), [[(0, 5), (10, 5)]])
        // Diagonal through: t = 1/3 … 2/3 of (-10,-10)→(20,20).
        expectParts(box.clip(polyline: pts([(-10, -10), (20, 20)])), [[(0, 0), (10, 10)]])
        // Out and back in: leaves at (10,2), re-enters at (10,8), leaves at (8,10).
        expectParts(
            box.clip(polyline: pts([(2, 2), (12, 2), (12, 8), (8, 8), (8, 12), (2, 12)])),
            [[(2, 2), (10, 2)], [(10, 8), (8, 8), (8, 10)]])
        // Inside vertices are kept exactly, in one part.
        expectParts(box.clip(polyline: pts([(1, 1), (2, 3), (4, 2)])), [[(1, 1), (2, 3), (4, 2)]])
        // Touching a corner only: no part. Running along an edge: visible.
        #expect(box.clip(polyline: pts([(-5, 5), (5, -5)])).isEmpty)
        expectParts(box.clip(polyline: pts([(0, 0), (10, 0)])), [[(0, 0), (10, 0)]])
        // A vertex on the edge, then outward: the part ends at the vertex.
        expectParts(box.clip(polyline: pts([(5, 5), (10, 5), (15, 5)])), [[(5, 5), (10, 5)]])
        // Entirely outside.
        #expect(box.clip(polyline: pts([(-1, -1), (-5, 20), (20, 20)])).isEmpty)
    }

    @Test func polylineBadInput() {
        expectParts(box.clip(polyline: pts([(1, 1), (2, 2), (.nan, 3), (4, 4), (5, 5)])), [[(1, 1), (2, 2)], [(4, 4), (5, 5)]])
        #expect(box.clip(polyline: []).isEmpty)
        #expect(box.clip(polyline: pts([(1, 1)])).isEmpty)
        let bad = MapRect(origin: MapPoint(x: 0, y: .nan), width: 1, height: 1)
        #expect(bad.clip(polyline: pts([(0, 0), (1, 1)])).isEmpty)
        #expect(MapRect(origin: MapPoint(x: 0, y: 0), width: -1, height: 1).clip(ring: pts([(0, 0), (1, 0), (1, 1)])).isEmpty)
    }

    /// Shoelace area, to compare rings independent of their starting vertex.
    private func area(_ r: [MapPoint]) -> Double {
        var s = 0.0
        for i in r.indices {
            let a = r[i], b = r[(i + 1) % r.count]
            s += a.x * b.y - b.x * a.y
        }
        return abs(s) / 2
    }

    /// Hand-derived intersections with the box (0,0)–(10,10).
    @Test func rings() {
        // A square overlapping one corner: the 5×5 corner square.
        let corner = box.clip(ring: pts([(-5, -5), (5, -5), (5, 5), (-5, 5)]))
        #expect(corner.count == 4)
        expectNear(area(corner), 25, tolerance: 1e-12)
        #expect(Set(corner.map { [$0.x, $0.y] }) == [[0, 0], [5, 0], [5, 5], [0, 5]])
        // A ring holding the box becomes the box.
        let around = box.clip(ring: pts([(-1, -1), (20, -1), (20, 20), (-1, 20)]))
        expectNear(area(around), 100, tolerance: 1e-12)
        // A diamond centred on the box with half-diagonal 10: the box minus nothing (its corners
        // (±10 along the axes from (5,5)) lie outside; each box corner is 5+5 = 10 away in L1, on
        // the diamond's edge) — area 100.
        let diamond = box.clip(ring: pts([(5, -5), (15, 5), (5, 15), (-5, 5)]))
        expectNear(area(diamond), 100, tolerance: 1e-12)
        // A triangle inside is unchanged; a closed input stays closed.
        let tri = pts([(1, 1), (4, 1), (1, 4), (1, 1)])
        #expect(box.clip(ring: tri) == tri)
        // Outside: empty.
        #expect(box.clip(ring: pts([(20, 20), (30, 20), (30, 30)])).isEmpty)
        // A U shape (outer 0…10 × -5…5 minus the notch 3…7 × -5…2): the part with y ≥ 0 is
        // 10·5 − 4·2 = 42.
        let u = pts([(0, -5), (3, -5), (3, 2), (7, 2), (7, -5), (10, -5), (10, 5), (0, 5)])
        expectNear(area(box.clip(ring: u)), 42, tolerance: 1e-12)
        // Bad input.
        #expect(box.clip(ring: pts([(1, 1), (2, 2)])).isEmpty)
        expectNear(area(box.clip(ring: pts([(1, 1), (.nan, 0), (4, 1), (1, 4)]))), 4.5, tolerance: 1e-12)
    }
}
