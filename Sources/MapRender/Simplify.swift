import GeoKit

/// Line simplification for rendering (internal; GeoKit's public one is for users).
enum Simplify {
    /// Keeps a subset of `points` such that the dropped points lie within `tolerance`
    /// (map units) of the kept line: a radial-distance pre-pass (O(n)) followed by an
    /// iterative Douglas–Peucker (explicit stack, no recursion). Always keeps both ends.
    ///
    /// `keepAxisEdges` (polygon rings): both ends of every exactly horizontal or vertical edge
    /// longer than the tolerance are kept, so such an edge stays bit-identical. Tiled data (the
    /// basemap's land cut into tiles) meets its neighbour along such edges; simplifying each
    /// tile alone would otherwise move a cut's end by up to the tolerance and open a sliver
    /// (a faint seam) between the tiles.
    static func simplify(_ points: [MapPoint], tolerance: Double, keepAxisEdges: Bool = false) -> [MapPoint] {
        guard points.count > 2, tolerance > 0 else { return points }
        let n = points.count
        var pinned = [Bool](repeating: false, count: keepAxisEdges ? n : 0)
        if keepAxisEdges {
            for i in 0 ..< n - 1 {
                let a = points[i], b = points[i + 1]
                if (a.x == b.x && abs(b.y - a.y) > tolerance) || (a.y == b.y && abs(b.x - a.x) > tolerance) {
                    pinned[i] = true; pinned[i + 1] = true
                }
            }
        }
        // Radial pre-pass: drop points closer than the tolerance to the last kept one.
        let t2 = tolerance * tolerance
        var radial: [MapPoint] = []
        var radialPinned: [Int] = [0]
        radial.reserveCapacity(min(n, 1 << 16))
        var last = points[0]
        radial.append(last)
        for i in 1 ..< n - 1 {
            let p = points[i]
            let dx = p.x - last.x, dy = p.y - last.y
            if keepAxisEdges && pinned[i] {
                radialPinned.append(radial.count)
                radial.append(p); last = p
            } else if dx * dx + dy * dy > t2 { radial.append(p); last = p }
        }
        radial.append(points[n - 1])
        radialPinned.append(radial.count - 1)
        guard radialPinned.count > 2 else { return douglasPeucker(radial, tolerance: tolerance) }
        // Douglas–Peucker between consecutive pinned points.
        var out: [MapPoint] = [radial[0]]
        for k in 1 ..< radialPinned.count {
            let a = radialPinned[k - 1], b = radialPinned[k]
            guard b > a else { continue }
            out += douglasPeucker(Array(radial[a ... b]), tolerance: tolerance).dropFirst()
        }
        return out
    }

    /// Douglas–Peucker with GeoKit's bounded work (never quadratic on zig-zags or spirals).
    static func douglasPeucker(_ pts: [MapPoint], tolerance: Double) -> [MapPoint] {
        let n = pts.count
        guard n > 2 else { return pts }
        let keep = pts.withUnsafeBufferPointer { DouglasPeucker.keptMask(in: $0, tolerance: tolerance) }
        var out: [MapPoint] = []
        out.reserveCapacity(n / 4)
        for i in 0 ..< n where keep[i] { out.append(pts[i]) }
        return out
    }
}
