/// Whether the insides of two polygons overlap: what decides whether polygons may be drawn
/// together, in any order, and still give the image they give drawn one by one.
///
/// The answer is exact up to a tolerance of 10⁻⁹ of the polygons' size (a sliver of overlap
/// narrower than that counts as none: at zoom 20 a country-sized polygon's tolerance is about a
/// hundredth of a pixel). The reasoning, for valid polygons (rings that do not cross, the
/// inside connected): if the insides overlap, then either a point of one's boundary lies
/// inside the other, or both have the same inside. (A part of the overlap whose edge is made of
/// both boundaries only, where they run together, is closed and open within each inside, so it
/// is the whole of each.) So each boundary edge of one polygon that reaches the other's bounds
/// is cut where it meets the other's boundary, the middle of every piece is tested (a piece
/// lies wholly inside, outside or on the other's boundary), and one point just inside each
/// polygon is tested against the other.
public enum PolygonOverlap {
    /// Whether the insides of polygons `a` and `b` (each its rings: exterior, then holes; a
    /// closing point repeating the first is allowed; even-odd rule) overlap: false when they
    /// only touch (a shared edge, a corner), true when they share some area, and nil when the
    /// test would take more than about `workLimit` edge pairs (large polygons on each other's
    /// bounds) or a polygon too thin to find a point inside — callers take nil as "may overlap".
    /// A polygon without area overlaps nothing.
    public static func interiorsOverlap(_ a: [[MapPoint]], _ b: [[MapPoint]], workLimit: Int = 4_000_000) -> Bool? {
        var budget = workLimit
        return interiorsOverlap(Shape(a), Shape(b), budget: &budget)
    }

    /// A polygon prepared for `interiorsOverlap` (its boundary as segments, bounds and area),
    /// for one polygon tested against many.
    public struct Shape: Sendable {
        fileprivate let edges: Edges

        /// The polygon's rings: exterior, then holes (a closing point allowed).
        public init(_ rings: [[MapPoint]]) { edges = Edges(rings) }
    }

    /// `interiorsOverlap(_:_:workLimit:)` of prepared polygons, with the work taken from
    /// `budget` (edge pairs), shared by many tests: nil, taking nothing, when the test would need
    /// more than is left.
    public static func interiorsOverlap(_ a: Shape, _ b: Shape, budget: inout Int) -> Bool? {
        let ea = a.edges, eb = b.edges
        // A polygon without points or area has no inside (and fills nothing).
        guard let ba = ea.bounds, let bb = eb.bounds, ea.area2 != 0, eb.area2 != 0 else { return false }
        // Bounds that only touch (or miss) leave no room for a shared inside.
        guard let both = ba.intersection(bb), both.width > 0, both.height > 0 else { return false }
        let size = max(ba.width, ba.height, bb.width, bb.height)
        let eps = 1e-9 * size
        let common = MapRect(origin: MapPoint(x: both.minX - eps, y: both.minY - eps), width: both.width + 2 * eps,
                             height: both.height + 2 * eps)
        let na = ea.near(common), nb = eb.near(common)
        let work = na.count * nb.count + na.count * eb.count + nb.count * ea.count
        guard work <= budget else { return nil }
        budget -= work
        if enters(ea, na, into: eb, nb, eps: eps) || enters(eb, nb, into: ea, na, eps: eps) { return true }
        // No boundary goes inside the other: the insides are apart or the same.
        guard let pa = ea.pointInside(eps: eps), let pb = eb.pointInside(eps: eps) else { return nil }
        return eb.strictlyInside(pa, eps: eps) || ea.strictlyInside(pb, eps: eps)
    }

    /// Whether a piece of `s`'s edges `mine` (those near the other's bounds) lies inside `o`.
    private static func enters(_ s: Edges, _ mine: [Int], into o: Edges, _ theirs: [Int], eps: Double) -> Bool {
        var ts: [Double] = []
        for i in mine {
            let p = s.p[i], q = s.q[i]
            let rx = q.x - p.x, ry = q.y - p.y
            let rr = rx * rx + ry * ry
            let lo = MapPoint(x: min(p.x, q.x) - eps, y: min(p.y, q.y) - eps)
            let hi = MapPoint(x: max(p.x, q.x) + eps, y: max(p.y, q.y) + eps)
            ts.removeAll(keepingCapacity: true)
            ts.append(0); ts.append(1)
            for j in theirs {
                let c = o.p[j], d = o.q[j]
                if max(c.x, d.x) < lo.x || min(c.x, d.x) > hi.x || max(c.y, d.y) < lo.y || min(c.y, d.y) > hi.y { continue }
                let wx = d.x - c.x, wy = d.y - c.y
                let den = rx * wy - ry * wx
                let cx = c.x - p.x, cy = c.y - p.y
                let ww = wx * wx + wy * wy
                if abs(den) > 1e-12 * (rr * ww).squareRoot() {
                    // Crossing lines: where, along each segment.
                    let t = (cx * wy - cy * wx) / den, u = (cx * ry - cy * rx) / den
                    let slackT = eps / rr.squareRoot(), slackU = eps / ww.squareRoot()
                    if t >= -slackT, t <= 1 + slackT, u >= -slackU, u <= 1 + slackU { ts.append(min(1, max(0, t))) }
                } else if abs(cx * ry - cy * rx) <= eps * rr.squareRoot() {
                    // On one line: the other segment's ends, where they fall along this one.
                    for e in [c, d] {
                        let t = ((e.x - p.x) * rx + (e.y - p.y) * ry) / rr
                        if t > 0, t < 1 { ts.append(t) }
                    }
                }
            }
            ts.sort()
            for k in 1 ..< ts.count where ts[k] - ts[k - 1] > 1e-12 {
                let t = (ts[k] + ts[k - 1]) / 2
                if o.strictlyInside(MapPoint(x: p.x + t * rx, y: p.y + t * ry), eps: eps) { return true }
            }
        }
        return false
    }

    /// A polygon's boundary as segments (zero-length ones left out).
    fileprivate struct Edges: Sendable {
        var p: [MapPoint] = [], q: [MapPoint] = []
        /// How many of the segments, from the first, are the exterior's.
        var exteriorCount = 0
        var bounds: MapRect?
        /// Twice the exterior's signed area (shoelace).
        var area2 = 0.0

        init(_ rings: [[MapPoint]]) {
            for (k, ring) in rings.enumerated() {
                var pts = ring
                if pts.count > 1, pts.first == pts.last { pts.removeLast() }
                guard pts.count >= 2 else { continue }
                for i in pts.indices {
                    let a = pts[i], b = pts[(i + 1) % pts.count]
                    if a != b { p.append(a); q.append(b) }
                }
                if k == 0 {
                    exteriorCount = p.count
                    bounds = MapRect(bounding: pts)
                    // (Relative to a corner: small polygons far from the origin keep their digits.)
                    let o = pts[0]
                    for i in 0 ..< p.count { area2 += (p[i].x - o.x) * (q[i].y - o.y) - (q[i].x - o.x) * (p[i].y - o.y) }
                }
            }
        }

        var count: Int { p.count }

        /// The segments whose bounds meet `r`.
        func near(_ r: MapRect) -> [Int] {
            p.indices.filter { i in
                max(p[i].x, q[i].x) >= r.minX && min(p[i].x, q[i].x) <= r.maxX
                    && max(p[i].y, q[i].y) >= r.minY && min(p[i].y, q[i].y) <= r.maxY
            }
        }

        /// Whether `m` is inside (even-odd) and farther than `eps` from every segment.
        func strictlyInside(_ m: MapPoint, eps: Double) -> Bool {
            var inside = false
            for i in p.indices {
                let a = p[i], b = q[i]
                let dx = b.x - a.x, dy = b.y - a.y
                let t = min(1, max(0, ((m.x - a.x) * dx + (m.y - a.y) * dy) / (dx * dx + dy * dy)))
                let ex = a.x + t * dx - m.x, ey = a.y + t * dy - m.y
                if ex * ex + ey * ey <= eps * eps { return false }
                if (a.y > m.y) != (b.y > m.y), m.x < a.x + (m.y - a.y) * dx / dy { inside.toggle() }
            }
            return inside
        }

        /// A point just inside, beside the middle of the exterior's longest edge (nil when that
        /// point is not strictly inside: a ring without area).
        func pointInside(eps: Double) -> MapPoint? {
            guard exteriorCount > 0 else { return nil }
            var longest = 0, length2 = 0.0
            for i in 0 ..< exteriorCount {
                let dx = q[i].x - p[i].x, dy = q[i].y - p[i].y
                if dx * dx + dy * dy > length2 { length2 = dx * dx + dy * dy; longest = i }
            }
            guard area2 != 0, area2.isFinite else { return nil }
            let a = p[longest], b = q[longest]
            let length = length2.squareRoot()
            // The inside is left of the edge's direction when the ring's area is positive.
            let side = area2 > 0 ? 1.0 : -1.0
            let nx = -(b.y - a.y) / length * side, ny = (b.x - a.x) / length * side
            let h = max(1e-6 * length, 4 * eps)
            let m = MapPoint(x: (a.x + b.x) / 2 + nx * h, y: (a.y + b.y) / 2 + ny * h)
            return strictlyInside(m, eps: eps) ? m : nil
        }
    }
}
