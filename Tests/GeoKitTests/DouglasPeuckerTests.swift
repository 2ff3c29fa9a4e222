import Foundation
@testable import GeoKit
import MapTestSupport
import Testing

@Suite struct DouglasPeuckerTests {
    private func pts(_ xy: [(Double, Double)]) -> [MapPoint] { xy.map { MapPoint(x: $0.0, y: $0.1) } }

    /// Hand-derived zigzag (0,0)(1,1)(2,0)(3,1)(4,0): against the chord y = 0 the peaks are at
    /// distance 1, so tolerance 1 keeps only the ends; below 1 the first peak (1,1) splits (the
    /// first of equal distances wins), then (2,0) and (3,1) are both √0.4 ≈ 0.632 from chord
    /// (1,1)–(4,0): dropped at 0.64, and at 0.63 one splits and the other is 1 from its chord.
    @Test func zigzag() {
        let z = pts([(0, 0), (1, 1), (2, 0), (3, 1), (4, 0)])
        #expect(DouglasPeucker.keptIndices(z, tolerance: 1) == [0, 4])
        #expect(DouglasPeucker.keptIndices(z, tolerance: 0.9) == [0, 1, 4])
        #expect(DouglasPeucker.keptIndices(z, tolerance: 0.64) == [0, 1, 4])
        #expect(DouglasPeucker.keptIndices(z, tolerance: 0.63) == [0, 1, 2, 3, 4])
    }

    /// Hand-derived track: (0,0)(1,0.1)(2,-0.1)(3,5)(4,6)(5,7)(6,8.1)(7,9)
    /// with tolerance 1: chord (0,0)–(7,9) is farthest from (2,-0.1) (|9·2 − 7·(−0.1)|/√130 = 1.640),
    /// then (3,5) is 3.32 from (2,-0.1)–(7,9) and the rest lie within 0.25 of their chords.
    @Test func track() {
        let t = pts([(0, 0), (1, 0.1), (2, -0.1), (3, 5), (4, 6), (5, 7), (6, 8.1), (7, 9)])
        #expect(DouglasPeucker.keptIndices(t, tolerance: 1) == [0, 2, 3, 7])
        #expect(DouglasPeucker.simplify(t, tolerance: 1) == [t[0], t[2], t[3], t[7]])
    }

    /// Collinear points go at any tolerance ≥ 0; a point that backtracks along the line is not
    /// collinear *with its segment* and stays; duplicates go; tolerance 0 keeps the rest.
    @Test func invariants() {
        #expect(DouglasPeucker.keptIndices(pts([(0, 0), (1, 1), (2, 2), (3, 3)]), tolerance: 0) == [0, 3])
        #expect(DouglasPeucker.keptIndices(pts([(0, 0), (2, 0), (1, 0)]), tolerance: 0.5) == [0, 1, 2])
        #expect(DouglasPeucker.keptIndices(pts([(0, 0), (0, 0), (1, 0), (1, 0), (1, 1)]), tolerance: 0) == [0, 2, 4])
        // A closed ring: the chord is a point, so (1,1) at √2 splits first; (1,0) is √½ ≈ 0.707
        // from (0,0)–(1,1).
        let ring = pts([(0, 0), (1, 0), (1, 1), (0, 0)])
        #expect(DouglasPeucker.keptIndices(ring, tolerance: 0.75) == [0, 2, 3])
        #expect(DouglasPeucker.keptIndices(ring, tolerance: 0.7) == [0, 1, 2, 3])
        // Endpoints are kept even when identical.
        #expect(DouglasPeucker.keptIndices(pts([(5, 5), (5, 5)]), tolerance: 10) == [0, 1])
    }

    /// Random walks: tolerance 0 keeps every point (no three are collinear), and for larger
    /// tolerances every dropped point lies within the tolerance of the kept segment spanning it
    /// (checked by an independent point-to-segment distance).
    @Test(arguments: [0.0, 0.5, 2, 10]) func randomWalk(tolerance: Double) {
        var rng = SplitMix(seed: 7)
        var p = MapPoint(x: 0, y: 0)
        let walk = (0..<2000).map { _ in
            p = MapPoint(x: p.x + rng.uniform(-1, 1), y: p.y + rng.uniform(-1, 1))
            return p
        }
        let kept = DouglasPeucker.keptIndices(walk, tolerance: tolerance)
        #expect(kept.first == 0 && kept.last == walk.count - 1)
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 })
        if tolerance == 0 { #expect(kept.count == walk.count) }
        for (a, b) in zip(kept, kept.dropFirst()) {
            for i in (a + 1)..<b {
                let d = segmentDistance(walk[i], walk[a], walk[b])
                #expect(d <= tolerance, "point \(i) is \(d) from kept segment \(a)–\(b)")
            }
        }
    }

    private func segmentDistance(_ p: MapPoint, _ a: MapPoint, _ b: MapPoint) -> Double {
        // Minimum over a fine parametrisation is too coarse; use the closed form on the clamped foot.
        let ab = (b.x - a.x, b.y - a.y), ap = (p.x - a.x, p.y - a.y)
        let l2 = ab.0 * ab.0 + ab.1 * ab.1
        let t = l2 == 0 ? 0 : max(0, min(1, (ap.0 * ab.0 + ap.1 * ab.1) / l2))
        return hypot(ap.0 - t * ab.0, ap.1 - t * ab.1)
    }

    @Test func badInput() {
        #expect(DouglasPeucker.keptIndices([], tolerance: 1) == [])
        #expect(DouglasPeucker.keptIndices(pts([(1, 2)]), tolerance: 1) == [0])
        let withNaN = pts([(0, 0), (.nan, 1), (1, 5), (2, 0), (.infinity, 0)])
        #expect(DouglasPeucker.keptIndices(withNaN, tolerance: 1) == [0, 2, 3])
        #expect(DouglasPeucker.keptIndices(pts([(.nan, .nan)]), tolerance: 1) == [])
        // NaN and negative tolerances behave as 0.
        let z = pts([(0, 0), (1, 1), (2, 2), (3, 0)])
        #expect(DouglasPeucker.keptIndices(z, tolerance: .nan) == [0, 2, 3])
        #expect(DouglasPeucker.keptIndices(z, tolerance: -4) == [0, 2, 3])
    }

    /// One million points of a noisy sine: runs iteratively (no stack overflow) and reports its
    /// time (about 0.65 s in a debug build on the 2-core dev machine); the assertion is on the
    /// result, not the time.
    @Test func millionPoints() {
        let n = 1_000_000
        var rng = SplitMix(seed: 3)
        let line = (0..<n).map { i in
            MapPoint(x: Double(i) / Double(n), y: sin(Double(i) / 5000) * 0.01 + rng.uniform(0, 1e-6))
        }
        let clock = ContinuousClock()
        var kept: [Int] = []
        let took = clock.measure { kept = DouglasPeucker.keptIndices(line, tolerance: 1e-5) }
        print("DouglasPeucker: 1M points → \(kept.count) kept in \(took)")
        #expect(kept.first == 0 && kept.last == n - 1)
        #expect(kept.count > 100 && kept.count < n / 10)
    }
}

/// Douglas–Peucker's work is bounded on the inputs that make the textbook algorithm quadratic.
@Suite struct DouglasPeuckerBoundTests {
    /// The textbook recursion, written independently here: the oracle for ordinary input.
    private func classic(_ p: [MapPoint], _ tol: Double) -> [Int] {
        var keep = [Bool](repeating: false, count: p.count)
        keep[0] = true; keep[p.count - 1] = true
        func segDist(_ q: MapPoint, _ a: MapPoint, _ b: MapPoint) -> Double {
            let dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy
            let t = l2 > 0 ? min(1, max(0, ((q.x - a.x) * dx + (q.y - a.y) * dy) / l2)) : 0
            return hypot(a.x + t * dx - q.x, a.y + t * dy - q.y)
        }
        func rec(_ i: Int, _ j: Int) {
            guard j > i + 1 else { return }
            var best = -1.0, at = i
            for k in i + 1 ..< j {
                let d = segDist(p[k], p[i], p[j])
                if d > best { best = d; at = k }
            }
            if best > tol { keep[at] = true; rec(i, at); rec(at, j) }
        }
        rec(0, p.count - 1)
        return (0 ..< p.count).filter { keep[$0] }
    }

    /// Every dropped point lies within `tol` of the kept segment spanning it.
    private func withinTolerance(_ p: [MapPoint], _ kept: [Int], _ tol: Double) -> Bool {
        for (a, b) in zip(kept, kept.dropFirst()) {
            let pa = p[a], pb = p[b]
            for k in a + 1 ..< b {
                let dx = pb.x - pa.x, dy = pb.y - pa.y, l2 = dx * dx + dy * dy
                let t = l2 > 0 ? min(1, max(0, ((p[k].x - pa.x) * dx + (p[k].y - pa.y) * dy) / l2)) : 0
                if hypot(pa.x + t * dx - p[k].x, pa.y + t * dy - p[k].y) > tol * (1 + 1e-12) { return false }
            }
        }
        return true
    }

    private func work(_ p: [MapPoint], _ tol: Double) -> (mask: [Bool], work: Int) {
        var w = 0
        let m = p.withUnsafeBufferPointer { DouglasPeucker.keptMask(in: $0, tolerance: tol, work: &w) }
        return (m, w)
    }

    /// A zig-zag (amplitude 1, step 1, tolerance 0.1: the first point off the chord is always
    /// the farthest) and a tight spiral (each split peels one point): the textbook algorithm
    /// makes about n²/2 evaluations (5·10⁹ for 100k points); the bound is
    /// `workPerPoint`·n plus n·log₂n, and every dropped point is still within the tolerance.
    @Test(arguments: ["zigzag", "spiral"])
    func adversarialInputIsNotQuadratic(_ kind: String) {
        let n = 100_000
        let p: [MapPoint] = (0 ..< n).map { i in
            if kind == "zigzag" { return MapPoint(x: Double(i), y: i % 2 == 0 ? 0 : 1) }
            let a = Double(i) * 0.5, r = 1000 - Double(i) * 0.009
            return MapPoint(x: r * cos(a), y: r * sin(a))
        }
        let tol = kind == "zigzag" ? 0.1 : 0.5
        let (mask, w) = work(p, tol)
        let log2n = Int(log2(Double(n)).rounded(.up))
        #expect(w <= DouglasPeucker.workPerPoint * n + 2 * n * log2n, "\(w) evaluations")
        let kept = (0 ..< n).filter { mask[$0] }
        #expect(kept.first == 0 && kept.last == n - 1)
        #expect(withinTolerance(p, kept, tol))
    }

    /// Ordinary tracks stay within the budget and get exactly the textbook result.
    @Test func ordinaryTracksGetTheClassicResult() {
        var rng = SplitMix(seed: 7)
        var x = 0.0, y = 0.0, heading = 0.0
        let p: [MapPoint] = (0 ..< 20_000).map { _ in
            heading += rng.uniform(-0.3, 0.3)
            x += cos(heading); y += sin(heading)
            return MapPoint(x: x, y: y)
        }
        for tol in [0.2, 1, 5] {
            let (mask, w) = work(p, tol)
            #expect(w < DouglasPeucker.workPerPoint * p.count)
            #expect((0 ..< p.count).filter { mask[$0] } == classic(p, tol))
        }
    }
}
