/// Douglas–Peucker line simplification on planar points.
///
/// Works on `MapPoint`s in any planar unit (normalised Web Mercator, world pixels, screen
/// pixels); the tolerance is in the same unit. A point is kept when its distance to the
/// *segment* (not the infinite line) between the kept points around it exceeds the
/// tolerance, so exact duplicates and collinear points are always dropped, while
/// backtracking spikes along a line are kept. The first and last points are always kept.
///
/// Iterative with an explicit stack (no recursion, so a million points cannot overflow
/// the call stack). Plain Douglas–Peucker is O(n log n) for typical tracks but O(n²) on
/// adversarial ones (a zig-zag or a tight spiral, where each split peels off one point), so
/// the work is bounded: once the distance evaluations pass `workPerPoint · n`, a range that
/// still needs splitting is split at its middle point instead of its farthest one. Keeping
/// an extra point never breaks the tolerance, ranges within it still collapse, and the rest
/// costs O(n log n); inputs that stay under the budget (all ordinary tracks) get exactly the
/// classic result. Non-finite points (NaN, ±∞) are skipped: never kept, and the first and
/// last finite points act as the endpoints.
public enum DouglasPeucker {
    /// The indices of the points kept, ascending. Empty for empty input; `[0]` for one
    /// finite point. A NaN or negative tolerance counts as 0.
    public static func keptIndices(_ points: [MapPoint], tolerance: Double) -> [Int] {
        let tol = tolerance > 0 ? tolerance : 0  // NaN compares false: 0
        if points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) {
            return points.withUnsafeBufferPointer { kept(in: $0, tolerance: tol) }
        }
        var finite: [MapPoint] = [], index: [Int] = []
        for (i, p) in points.enumerated() where p.x.isFinite && p.y.isFinite {
            finite.append(p)
            index.append(i)
        }
        return finite.withUnsafeBufferPointer { kept(in: $0, tolerance: tol) }.map { index[$0] }
    }

    /// The points kept (see `keptIndices(_:tolerance:)`).
    public static func simplify(_ points: [MapPoint], tolerance: Double) -> [MapPoint] {
        keptIndices(points, tolerance: tolerance).map { points[$0] }
    }

    /// Distance evaluations per input point before ranges are split at their middle (see the
    /// type's documentation). Ordinary tracks use a few tens per point.
    public static let workPerPoint = 64

    /// The kept mask of finite points (both ends always kept), with bounded work.
    public static func keptMask(in p: UnsafeBufferPointer<MapPoint>, tolerance: Double) -> [Bool] {
        var work = 0
        return keptMask(in: p, tolerance: tolerance, work: &work)
    }

    /// `keptMask(in:tolerance:)` that also counts the distance evaluations made (for tests).
    static func keptMask(in p: UnsafeBufferPointer<MapPoint>, tolerance: Double, work: inout Int) -> [Bool] {
        let n = p.count
        if n <= 2 { return [Bool](repeating: true, count: n) }
        let tol2 = tolerance * tolerance
        var keep = [Bool](repeating: false, count: n)
        keep[0] = true
        keep[n - 1] = true
        let budget = work + workPerPoint * n
        var stack: [(Int, Int)] = [(0, n - 1)]
        while let (first, last) = stack.popLast() {
            guard last - first > 1 else { continue }
            let a = p[first], b = p[last]
            let dx = b.x - a.x, dy = b.y - a.y
            let len2 = dx * dx + dy * dy
            var worst = -1.0, at = first
            for i in (first + 1)..<last {
                let q = p[i]
                var ex = q.x - a.x, ey = q.y - a.y
                if len2 > 0 {
                    let t = min(max((ex * dx + ey * dy) / len2, 0), 1)
                    ex -= t * dx
                    ey -= t * dy
                }
                let d2 = ex * ex + ey * ey
                if d2 > worst {
                    worst = d2
                    at = i
                }
            }
            work += last - first - 1
            if worst > tol2 {
                // Past the budget, split long ranges evenly so the depth stays logarithmic.
                if work > budget && last - first > 8 { at = first + (last - first) / 2 }
                keep[at] = true
                stack.append((first, at))
                stack.append((at, last))
            }
        }
        return keep
    }

    private static func kept(in p: UnsafeBufferPointer<MapPoint>, tolerance: Double) -> [Int] {
        let keep = keptMask(in: p, tolerance: tolerance)
        return keep.indices.filter { keep[$0] }
    }
}
