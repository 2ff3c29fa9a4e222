import Foundation
import GeoKit
import Testing
@testable import MapRender
import MapTestSupport

/// Simplification of densely sampled, noisy tracks (`Simplify.simplifyLine`), checked against
/// the noise-free curve the samples were generated from.
@Suite struct SimplifyNoiseTests {
    /// A smooth closed-ish curve (a Lissajous figure, ~3 900 units long) at parameter `t` in 0...1.
    static func curve(_ t: Double) -> MapPoint {
        MapPoint(x: 400 * sin(2 * .pi * 3 * t) + 500, y: 300 * sin(2 * .pi * 2 * t + 0.5) + 400)
    }

    /// `n` samples of the curve, each moved by uniform noise of ±`amplitude` on both axes.
    static func noisy(_ n: Int, amplitude: Double, seed: UInt64 = 7) -> [MapPoint] {
        var rng = SplitMix64(seed: seed)
        var points: [MapPoint] = []
        points.reserveCapacity(n)
        for i in 0 ..< n {
            let p = curve(Double(i) / Double(n - 1))
            let u = rng.unit(), v = rng.unit()
            points.append(MapPoint(x: p.x + (u * 2 - 1) * amplitude, y: p.y + (v * 2 - 1) * amplitude))
        }
        return points
    }

    static func distance(_ p: MapPoint, toSegment a: MapPoint, _ b: MapPoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let l2 = dx * dx + dy * dy
        let t = l2 > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2)) : 0
        let qx = a.x + t * dx - p.x, qy = a.y + t * dy - p.y
        return (qx * qx + qy * qy).squareRoot()
    }

    static func distance(_ p: MapPoint, toLine line: [MapPoint]) -> Double {
        var best = Double.infinity
        for i in 1 ..< line.count { best = min(best, distance(p, toSegment: line[i - 1], line[i])) }
        return best
    }

    @Test func noiseAveragesOutInsteadOfBecomingVertices() {
        // 1 unit = 1 px at tolerance 1 (a 4 px line). Clean: 4 000 samples (~1 px apart). Noisy:
        // 100 000 samples of the same curve (~0.04 px apart) with ±0.5 px uniform noise on each
        // axis (σ ≈ 0.29 px, as in shared/bench/route-1m.csv against route-10k.csv).
        let clean = (0 ..< 4000).map { Self.curve(Double($0) / 3999) }
        let noisy = Self.noisy(100_000, amplitude: 0.5)
        let cleanKept = Simplify.simplifyLine(clean, tolerance: 1)
        let averaged = Simplify.simplifyLine(noisy, tolerance: 1)
        let plain = Simplify.simplify(noisy, tolerance: 1)
        // Cost follows what is visible: about as many vertices as the clean curve needs, where the
        // radial pass + Douglas–Peucker keeps several times more (each one a noise extreme).
        #expect(averaged.count <= cleanKept.count * 3 / 2, "\(averaged.count) vertices against \(cleanKept.count)")
        #expect(plain.count > cleanKept.count * 3, "plain: \(plain.count) against \(cleanKept.count)")
        // The averaged vertices (the ends are input points, kept as they are) lie closer to the
        // noise-free curve than the noise reaches (up to 0.71 px); the plain ones are its extremes.
        let truth = (0 ..< 40_000).map { Self.curve(Double($0) / 39_999) }
        let offAveraged = averaged.dropFirst().dropLast().map { Self.distance($0, toLine: truth) }.max() ?? .infinity
        let offPlain = plain.dropFirst().dropLast().map { Self.distance($0, toLine: truth) }.max() ?? 0
        #expect(offAveraged < 0.45, "averaged vertices up to \(offAveraged) px off the curve")
        #expect(offPlain > 0.6, "plain vertices up to \(offPlain) px off the curve")
        #expect(averaged.first == noisy.first && averaged.last == noisy.last)
    }

    @Test(arguments: [0.5, 1.0, 2.0])
    func everyInputPointStaysWithinTheDocumentedBound(tolerance: Double) {
        // The bound: (averagingSpan + 1) × tolerance from the simplified line, for every input point
        // (checked on every 23rd of 60 000 noisy samples), and for a dense square wave whose corners
        // are sharper than anything the noise makes.
        let noisy = Self.noisy(60_000, amplitude: 0.5, seed: 11)
        var square: [MapPoint] = []
        for k in 0 ..< 40 {
            let y0 = k % 2 == 0 ? 0.0 : 3.0, y1 = 3 - y0
            for j in 0 ..< 30 { square.append(MapPoint(x: Double(k) * 3, y: y0 + (y1 - y0) * Double(j) / 30)) }
            for j in 0 ..< 30 { square.append(MapPoint(x: Double(k) * 3 + 3 * Double(j) / 30, y: y1)) }
        }
        let bound = (Simplify.averagingSpan + 1) * tolerance + 1e-9
        for (input, stride) in [(noisy, 23), (square, 1)] {
            let kept = Simplify.simplifyLine(input, tolerance: tolerance)
            #expect(kept.count < input.count)
            var worst = 0.0
            for i in Swift.stride(from: 0, to: input.count, by: stride) {
                worst = max(worst, Self.distance(input[i], toLine: kept))
            }
            #expect(worst <= bound, "an input point \(worst) from the line (bound \(bound))")
        }
    }

    @Test func sparseLinesAreUnchanged() {
        // Points further apart than the averaging span are runs of one: the result is plain
        // Douglas–Peucker's (here: every corner of a coarse zig-zag).
        let zig = (0 ... 50).map { MapPoint(x: Double($0) * 10, y: $0 % 2 == 0 ? 0 : 10) }
        #expect(Simplify.simplifyLine(zig, tolerance: 1) == zig)
        #expect(Simplify.averaged(zig, span: 1.5) == zig)
    }
}
