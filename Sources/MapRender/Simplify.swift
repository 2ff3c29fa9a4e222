import GeoKit

/// Line simplification for rendering (internal; GeoKit's public one is for users).
enum Simplify {
    /// A ring (no closing point) simplified as `simplify` does with `keepAxisEdges`, but cut at
    /// its junctions (`cuts`: the indices of those corners, ascending, see `RingCuts`) and each piece between two of them simplified in the one
    /// direction the piece itself decides (the lesser of it and its reverse, point by point), so
    /// that a piece two rings share, one each way round, comes out the same in both. A ring
    /// without such a corner starts at its least point, in the direction of its lesser
    /// neighbour (so a ring another ring repeats, a hole and the polygon filling it, comes out the
    /// same too).
    static func simplifyRing(_ ring: [MapPoint], tolerance: Double, cuts: some Collection<Int32>) -> [MapPoint] {
        let n = ring.count
        guard n >= 3 else { return ring }
        func less(_ a: MapPoint, _ b: MapPoint) -> Bool { a.x < b.x || a.x == b.x && a.y < b.y }
        guard let first = cuts.first.map(Int.init) else {
            let start = (0 ..< n).min { less(ring[$0], ring[$1]) }!
            var pts = (0 ... n).map { ring[(start + $0) % n] }
            let backwards = less(pts[n - 1], pts[1])
            if backwards { pts.reverse() }
            let s = Array(simplify(pts, tolerance: tolerance, keepAxisEdges: true).dropLast())
            return backwards ? s.reversed() : s
        }
        var out: [MapPoint] = []
        out.reserveCapacity(n)
        // (A point repeated in the ring, a junction twice over, is kept once.)
        func add(_ p: MapPoint) { if out.last != p { out.append(p) } }
        var rest = cuts.dropFirst().makeIterator()
        var a = first
        while a < first + n {
            let b = rest.next().map(Int.init) ?? first + n
            defer { a = b }
            // The piece from a to b (its last point is the next piece's first), simplified in
            // its own direction; a lone edge as it is.
            guard b - a >= 2 else { add(ring[a % n]); continue }
            let m = b - a + 1
            var reversed = false
            for i in 0 ..< m {
                let p = ring[(a + i) % n], q = ring[(b - i) % n]
                if p != q { reversed = less(q, p); break }
            }
            let pts = (0 ..< m).map { ring[(reversed ? b - $0 : a + $0) % n] }
            let s = simplify(pts, tolerance: tolerance, keepAxisEdges: true)
            if reversed {
                for p in s.reversed().dropLast() { add(p) }
            } else {
                for p in s.dropLast() { add(p) }
            }
        }
        while out.count > 1, out.first == out.last { out.removeLast() }
        return out
    }

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

    /// For polylines: like `simplify`, but the pre-pass replaces each run of consecutive points
    /// whose bounding box has a diagonal of at most `averagingSpan` × `tolerance` by the run's
    /// centroid instead of keeping the run's first point. Every dropped point then lies within
    /// that diagonal of the centroid, and so within (`averagingSpan` + 1) × `tolerance` of the
    /// result (2 × `tolerance` with the radial pass). Sub-pixel noise (a GPS track sampled many
    /// times per pixel) averages out instead of handing Douglas–Peucker its outliers as vertices:
    /// the shared bench's 1M-point track, the 10k one plus ~0.3 px of noise per sample, keeps 879
    /// points instead of 9 729 at 1 px over the whole track (the 10k track: 834 instead of 868),
    /// and its line no longer zig-zags through the noise's extremes. Always keeps both ends.
    static func simplifyLine(_ points: [MapPoint], tolerance: Double) -> [MapPoint] {
        guard points.count > 2, tolerance > 0 else { return points }
        return douglasPeucker(averaged(points, span: averagingSpan * tolerance), tolerance: tolerance)
    }

    /// The bounding-box diagonal of an averaged run, in tolerances (see `simplifyLine`).
    static let averagingSpan = 1.5

    /// Both ends, and between them the centroid of each maximal run of consecutive points whose
    /// bounding box has a diagonal of at most `span` (map units). O(n).
    static func averaged(_ points: [MapPoint], span: Double) -> [MapPoint] {
        let n = points.count
        guard n > 2 else { return points }
        let s2 = span * span
        var out: [MapPoint] = [points[0]]
        out.reserveCapacity(min(n, 1 << 16))
        var i = 1
        while i < n - 1 {
            var x0 = points[i].x, x1 = x0, y0 = points[i].y, y1 = y0
            var sx = 0.0, sy = 0.0, count = 0.0
            while i < n - 1 {
                let p = points[i]
                let nx0 = min(x0, p.x), nx1 = max(x1, p.x), ny0 = min(y0, p.y), ny1 = max(y1, p.y)
                if count > 0, (nx1 - nx0) * (nx1 - nx0) + (ny1 - ny0) * (ny1 - ny0) > s2 { break }
                x0 = nx0; x1 = nx1; y0 = ny0; y1 = ny1
                sx += p.x; sy += p.y; count += 1
                i += 1
            }
            out.append(MapPoint(x: sx / count, y: sy / count))
        }
        out.append(points[n - 1])
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
