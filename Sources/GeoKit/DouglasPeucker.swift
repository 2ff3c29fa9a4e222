/// Douglas–Peucker line simplification on planar points.
///
/// Works on `MapPoint`s in any planar unit (normalised Web Mercator, world pixels, screen
/// pixels); the tolerance is in the same unit. A point is kept when its distance to the
/// *segment* (not the infinite line) between the kept points around it exceeds the
/// tolerance, so exact duplicates and collinear points are always dropped, while
/// backtracking spikes along a line are kept. The first and last points are always kept.
///
/// Iterative with an explicit stack (no recursion, so a million points cannot overflow
/// the call stack); O(n log n) for typical tracks, O(n²) in the worst case (a spiral
/// where each split peels off one point). Non-finite points (NaN, ±∞) are skipped: never
/// kept, and the first and last finite points act as the endpoints.
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

    private static func kept(in p: UnsafeBufferPointer<MapPoint>, tolerance: Double) -> [Int] {
        let n = p.count
        if n <= 2 { return Array(0..<n) }
        let tol2 = tolerance * tolerance
        var keep = [Bool](repeating: false, count: n)
        keep[0] = true
        keep[n - 1] = true
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
            if worst > tol2 {
                keep[at] = true
                stack.append((first, at))
                stack.append((at, last))
            }
        }
        var out: [Int] = []
        for i in 0..<n where keep[i] { out.append(i) }
        return out
    }
}
