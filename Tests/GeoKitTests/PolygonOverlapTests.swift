import Foundation
import GeoKit
import Testing

/// polygon-overlap.json (Fixtures/make_overlap_fixture.py): polygon pairs and GEOS's verdict on
/// whether their insides overlap (shapely's DE-9IM relate), made from random partitions of a
/// grid (shared edges, T-junctions, corners, holes), random star-shaped polygons and holes.
private struct OverlapFixture: Decodable, Sendable {
    struct Pair: Decodable, Sendable {
        let kind: String
        let a: [[[Double]]], b: [[[Double]]]
        let overlap: Bool
    }
    let unit: Double
    let pairs: [Pair]

    static let shared: OverlapFixture = jsonFixture("polygon-overlap")
}

@Suite struct PolygonOverlapTests {
    static func rings(_ r: [[[Double]]]) -> [[MapPoint]] { r.map { $0.map { MapPoint(x: $0[0], y: $0[1]) } } }

    /// Every pair as GEOS has it, both ways round, and with the rings reversed and closed.
    @Test func agreesWithGEOS() throws {
        let f = OverlapFixture.shared
        #expect(f.pairs.count > 400)
        #expect(f.pairs.contains { $0.overlap } && f.pairs.contains { !$0.overlap })
        for (i, p) in f.pairs.enumerated() {
            let a = Self.rings(p.a), b = Self.rings(p.b)
            let got = PolygonOverlap.interiorsOverlap(a, b)
            #expect(got == p.overlap, "pair \(i) (\(p.kind)): \(String(describing: got)), GEOS \(p.overlap)")
            #expect(PolygonOverlap.interiorsOverlap(b, a) == p.overlap, "pair \(i) (\(p.kind)) swapped")
            let turned = b.map { ring in Array(ring.reversed()) + [ring.last!] }
            #expect(PolygonOverlap.interiorsOverlap(a, turned) == p.overlap, "pair \(i) (\(p.kind)) reversed and closed")
        }
    }

    func square(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> [[MapPoint]] {
        [[MapPoint(x: x, y: y), MapPoint(x: x + w, y: y), MapPoint(x: x + w, y: y + h), MapPoint(x: x, y: y + h)]]
    }

    /// Hand-made cases: a sliver of overlap far below a pixel counts as none, one of a
    /// millionth of the size does not; a corner of one on the other's edge; and the limits.
    @Test func toleranceAndLimits() {
        let a = square(0.5, 0.5, 1e-4, 1e-4)
        // Shifted into the other by 1e-15 (a thousandth of the tolerance) and by 1e-10.
        #expect(PolygonOverlap.interiorsOverlap(a, square(0.5 + 1e-4 - 1e-15, 0.5, 1e-4, 1e-4)) == false)
        #expect(PolygonOverlap.interiorsOverlap(a, square(0.5 + 1e-4 - 1e-10, 0.5, 1e-4, 1e-4)) == true)
        // A triangle whose corner touches the square's edge from outside, and one pushed in.
        let tip = { (dx: Double) in [[MapPoint(x: 0.5 + 1e-4 - dx, y: 0.50005), MapPoint(x: 0.5003, y: 0.5), MapPoint(x: 0.5003, y: 0.5001)]] }
        #expect(PolygonOverlap.interiorsOverlap(a, tip(0)) == false)
        #expect(PolygonOverlap.interiorsOverlap(a, tip(2e-6)) == true)
        // A square inside another with no edge crossing (only the inside point tells).
        #expect(PolygonOverlap.interiorsOverlap(a, square(0.50002, 0.50002, 1e-5, 1e-5)) == true)
        // Too much work for the limit: unsure. No area or no points: apart (nothing filled).
        #expect(PolygonOverlap.interiorsOverlap(a, square(0.50002, 0.50002, 1e-5, 1e-5), workLimit: 10) == nil)
        let flat = [[MapPoint(x: 0.5, y: 0.5), MapPoint(x: 0.5001, y: 0.5001), MapPoint(x: 0.50005, y: 0.50005)]]
        #expect(PolygonOverlap.interiorsOverlap(a, flat) == false)
        #expect(PolygonOverlap.interiorsOverlap(a, []) == false)
    }
}
