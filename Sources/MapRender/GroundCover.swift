import GeoKit
import MapCamera
import MapScene

/// Whether an opaque fill covers every pixel of a view: then a plan whose first command it would
/// be leaves it out and has the frame cleared to its colour (`RenderPlan.ground`). A map zoomed
/// into land is such a view: the basemap's land is one polygon round it, which llvmpipe fills
/// (and shades for coverage at every pixel) at about the cost of a full-screen quad or more, where
/// a clear costs next to nothing.
enum GroundCover {
    /// How far (logical px at the view's coarsest scale) every edge of the polygon must stay from
    /// the view: its coverage fringe reaches 1.7 device px out, its simplification moves it by at
    /// most 0.71 px, and a margin is kept besides.
    static let marginPx = 6.0

    /// Whether one polygon of `polygons` holds the whole of what `camera` sees, with `marginPx`
    /// to spare on every side: the ground shows in every row (no far-plane line or horizon in
    /// view), and no edge of any ring of that polygon comes within the margin of the visible
    /// ground's quadrilateral, whose corner lies inside the polygon (even–odd over its rings, as
    /// it is filled). With no edge near the quadrilateral, it lies wholly inside or wholly outside.
    static func holdsView(_ polygons: PolygonSet, camera: Camera) -> Bool {
        guard camera.topGroundY <= 0, let setBounds = polygons.bounds else { return false }
        let quad = camera.visibleGroundQuad
        guard quad.count == 4, quad.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return false }
        // Map units per logical pixel, at its largest: the top row is the farthest from the eye.
        let w = camera.size.width
        guard let below = camera.unprojectToMapPoint(ScreenPoint(x: 0, y: 1)),
              let beside = camera.unprojectToMapPoint(ScreenPoint(x: w, y: 1)) else { return false }
        func dist(_ a: MapPoint, _ b: MapPoint) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        let scale = max(dist(quad[0], below), dist(quad[1], beside), dist(quad[0], quad[1]) / max(w, 1))
        let margin = marginPx * scale
        guard margin.isFinite, margin > 0 else { return false }
        let minX = quad.reduce(Double.infinity) { min($0, $1.x) } - margin
        let maxX = quad.reduce(-Double.infinity) { max($0, $1.x) } + margin
        let minY = quad.reduce(Double.infinity) { min($0, $1.y) } - margin
        let maxY = quad.reduce(-Double.infinity) { max($0, $1.y) } + margin
        guard setBounds.minX <= minX, setBounds.minY <= minY, setBounds.maxX >= maxX, setBounds.maxY >= maxY else { return false }
        // The quadrilateral's sides, counter-clockwise or clockwise alike (convex either way).
        let sides = (0 ..< 4).map { (quad[$0], quad[($0 + 1) % 4]) }
        // Whether p is inside the convex quadrilateral (on the same side of all four sides).
        func inside(_ p: MapPoint) -> Bool {
            var sign = 0.0
            for (a, b) in sides {
                let c = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
                if c == 0 { continue }
                if sign == 0 { sign = c } else if (c > 0) != (sign > 0) { return false }
            }
            return true
        }
        // Whether edge a–b comes within the margin of the quadrilateral (or crosses or lies in it).
        func near(_ a: MapPoint, _ b: MapPoint) -> Bool {
            if max(a.x, b.x) < minX || min(a.x, b.x) > maxX || max(a.y, b.y) < minY || min(a.y, b.y) > maxY { return false }
            if inside(a) || inside(b) { return true }
            for (c, d) in sides {
                if Self.crosses(a, b, c, d) { return true }
                if min(Self.distance(a, c, d), Self.distance(b, c, d), Self.distance(c, a, b), Self.distance(d, a, b)) < margin {
                    return true
                }
            }
            return false
        }
        let probe = quad[0]
        for polygon in polygons.polygons {
            guard let b = polygon.exterior.bounds, b.minX <= minX, b.minY <= minY, b.maxX >= maxX, b.maxY >= maxY else { continue }
            var clear = true
            var crossings = 0
            rings: for ring in [polygon.exterior] + polygon.holes {
                let pts = ring.points
                guard pts.count >= 3 else { continue }
                for i in pts.indices {
                    let a = pts[i], b = pts[i == pts.count - 1 ? 0 : i + 1]
                    if near(a, b) { clear = false; break rings }
                    // A ray from the probe towards +x: the crossings' parity says inside.
                    if (a.y > probe.y) != (b.y > probe.y),
                       probe.x < a.x + (probe.y - a.y) / (b.y - a.y) * (b.x - a.x) {
                        crossings += 1
                    }
                }
            }
            if clear && crossings % 2 == 1 { return true }
        }
        return false
    }

    /// Whether segments a–b and c–d cross (touching counts).
    private static func crosses(_ a: MapPoint, _ b: MapPoint, _ c: MapPoint, _ d: MapPoint) -> Bool {
        func orient(_ p: MapPoint, _ q: MapPoint, _ r: MapPoint) -> Double { (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x) }
        let d1 = orient(c, d, a), d2 = orient(c, d, b), d3 = orient(a, b, c), d4 = orient(a, b, d)
        return (d1 > 0) != (d2 > 0) && (d3 > 0) != (d4 > 0) || d1 == 0 || d2 == 0 || d3 == 0 || d4 == 0
    }

    /// The distance from p to segment a–b.
    private static func distance(_ p: MapPoint, _ a: MapPoint, _ b: MapPoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        let t = len2 > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0
        let x = a.x + t * dx - p.x, y = a.y + t * dy - p.y
        return (x * x + y * y).squareRoot()
    }
}
