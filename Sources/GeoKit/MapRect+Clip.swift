extension MapRect {
    /// Clips a polyline to this rectangle (edges included), Liang–Barsky per segment.
    ///
    /// Returns the visible parts in order, each with at least two points: a part starts
    /// where the line enters (an interpolated point on the edge, or an inside vertex) and
    /// ends where it leaves. Vertices inside are kept exactly; a segment lying along an
    /// edge is visible. Segments with a non-finite end are dropped (they split the line).
    /// Fewer than two points, or a rectangle with a non-finite or negative size, give no parts.
    public func clip(polyline points: [MapPoint]) -> [[MapPoint]] {
        guard points.count >= 2, isClippable else { return [] }
        var parts: [[MapPoint]] = []
        var current: [MapPoint] = []
        func close() {
            if current.count >= 2 { parts.append(current) }
            current = []
        }
        for i in 0..<(points.count - 1) {
            let a = points[i], b = points[i + 1]
            guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite,
                let (t0, t1) = liangBarsky(a, b), t1 > t0 || a == b
            else {  // missed, or only touched at one point
                close()
                continue
            }
            let start = t0 == 0 ? a : MapPoint(x: a.x + t0 * (b.x - a.x), y: a.y + t0 * (b.y - a.y))
            let end = t1 == 1 ? b : MapPoint(x: a.x + t1 * (b.x - a.x), y: a.y + t1 * (b.y - a.y))
            if t0 != 0 || current.isEmpty {
                close()
                current = [start]
            }
            current.append(end)
            if t1 != 1 { close() }
        }
        close()
        return parts
    }

    /// Clips a polygon ring to this rectangle (Sutherland–Hodgman, one pass per edge).
    ///
    /// The ring may repeat its first point at the end or not; the result does the same
    /// (empty when nothing is inside). A concave ring whose inside parts are separate comes
    /// back as one ring joined along the rectangle's edges (zero-area bridges), which fills
    /// correctly. Non-finite points are dropped first. A rectangle with a non-finite or
    /// negative size gives an empty ring.
    public func clip(ring input: [MapPoint]) -> [MapPoint] {
        guard isClippable else { return [] }
        var ring = input.filter { $0.x.isFinite && $0.y.isFinite }
        let closed = ring.count > 1 && ring.first == ring.last
        if closed { ring.removeLast() }
        guard ring.count >= 3 else { return [] }
        // Each pass keeps the side where `inside` holds; `cut` is the edge crossing.
        ring = Self.clipPass(ring, inside: { $0.x >= minX }) { a, b in
            let t = (minX - a.x) / (b.x - a.x)
            return MapPoint(x: minX, y: a.y + t * (b.y - a.y))
        }
        ring = Self.clipPass(ring, inside: { $0.x <= maxX }) { a, b in
            let t = (maxX - a.x) / (b.x - a.x)
            return MapPoint(x: maxX, y: a.y + t * (b.y - a.y))
        }
        ring = Self.clipPass(ring, inside: { $0.y >= minY }) { a, b in
            let t = (minY - a.y) / (b.y - a.y)
            return MapPoint(x: a.x + t * (b.x - a.x), y: minY)
        }
        ring = Self.clipPass(ring, inside: { $0.y <= maxY }) { a, b in
            let t = (maxY - a.y) / (b.y - a.y)
            return MapPoint(x: a.x + t * (b.x - a.x), y: maxY)
        }
        guard ring.count >= 3 else { return [] }
        if closed, let first = ring.first { ring.append(first) }
        return ring
    }

    private var isClippable: Bool {
        origin.x.isFinite && origin.y.isFinite && width.isFinite && height.isFinite && width >= 0 && height >= 0
    }

    private static func clipPass(
        _ ring: [MapPoint], inside: (MapPoint) -> Bool, cut: (MapPoint, MapPoint) -> MapPoint
    ) -> [MapPoint] {
        guard let last = ring.last else { return [] }
        var out: [MapPoint] = []
        out.reserveCapacity(ring.count + 4)
        var prev = last, prevIn = inside(last)
        for cur in ring {
            let curIn = inside(cur)
            if curIn != prevIn { out.append(cut(prev, cur)) }
            if curIn { out.append(cur) }
            prev = cur
            prevIn = curIn
        }
        return out
    }

    /// The visible parameter range [t0, t1] of segment a→b, or nil when it misses the rectangle.
    private func liangBarsky(_ a: MapPoint, _ b: MapPoint) -> (Double, Double)? {
        let dx = b.x - a.x, dy = b.y - a.y
        var t0 = 0.0, t1 = 1.0
        // p·t ≤ q for each of the four edges.
        for (p, q) in [(-dx, a.x - minX), (dx, maxX - a.x), (-dy, a.y - minY), (dy, maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }  // parallel to this edge and outside it
            } else {
                let r = q / p
                if p < 0 {
                    if r > t1 { return nil }
                    if r > t0 { t0 = r }
                } else {
                    if r < t0 { return nil }
                    if r < t1 { t1 = r }
                }
            }
        }
        return (t0, t1)
    }
}
