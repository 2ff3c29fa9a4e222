import GeoKit

/// Clipping to an axis-aligned rectangle in map units.
enum Clip {
    /// Splits a polyline into the pieces inside `r` (Liang–Barsky per segment); each piece comes
    /// with the along-line distance (map units) of its first point on the whole line.
    static func polyline(_ pts: [MapPoint], to r: MapRect) -> [(points: [MapPoint], start: Double)] {
        var pieces: [(points: [MapPoint], start: Double)] = []
        guard pts.count >= 2 else { return pts.count == 1 && r.contains(pts[0]) ? [(pts, 0)] : [] }
        var current: [MapPoint] = []
        var currentStart = 0.0
        var cum = 0.0
        for i in 0 ..< pts.count - 1 {
            let a = pts[i], b = pts[i + 1]
            let segLen = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            defer { cum += segLen }
            guard let (ca, cb) = segment(a, b, r) else {
                if current.count >= 2 { pieces.append((current, currentStart)) }
                current = []
                continue
            }
            if current.isEmpty || current.last != ca {
                if current.count >= 2 { pieces.append((current, currentStart)) }
                current = [ca]
                let da = ((ca.x - a.x) * (ca.x - a.x) + (ca.y - a.y) * (ca.y - a.y)).squareRoot()
                currentStart = cum + da
            }
            current.append(cb)
            if cb != b {
                pieces.append((current, currentStart)); current = []
            }
        }
        if current.count >= 2 { pieces.append((current, currentStart)) }
        return pieces
    }

    /// The part of segment a–b inside r, or nil.
    static func segment(_ a: MapPoint, _ b: MapPoint, _ r: MapRect) -> (MapPoint, MapPoint)? {
        var t0 = 0.0, t1 = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        let ps = [-dx, dx, -dy, dy]
        let qs = [a.x - r.minX, r.maxX - a.x, a.y - r.minY, r.maxY - a.y]
        for k in 0 ..< 4 {
            let p = ps[k], q = qs[k]
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let t = q / p
                if p < 0 { if t > t1 { return nil }; if t > t0 { t0 = t } }
                else { if t < t0 { return nil }; if t < t1 { t1 = t } }
            }
        }
        let ca = t0 == 0 ? a : MapPoint(x: a.x + t0 * dx, y: a.y + t0 * dy)
        let cb = t1 == 1 ? b : MapPoint(x: a.x + t1 * dx, y: a.y + t1 * dy)
        return (ca, cb)
    }

    /// Clips a ring (implicitly closed) to r with Sutherland–Hodgman; concave rings may come
    /// back with zero-width bridges along the rectangle's edges, which fill to nothing.
    static func ring(_ pts: [MapPoint], to r: MapRect) -> [MapPoint] {
        var out = pts
        for edge in 0 ..< 4 {
            guard !out.isEmpty else { return [] }
            let input = out
            out = []
            out.reserveCapacity(input.count + 4)
            func inside(_ p: MapPoint) -> Bool {
                switch edge {
                case 0: p.x >= r.minX
                case 1: p.x <= r.maxX
                case 2: p.y >= r.minY
                default: p.y <= r.maxY
                }
            }
            func cut(_ a: MapPoint, _ b: MapPoint) -> MapPoint {
                switch edge {
                case 0, 1:
                    let x = edge == 0 ? r.minX : r.maxX
                    let t = (x - a.x) / (b.x - a.x)
                    return MapPoint(x: x, y: a.y + t * (b.y - a.y))
                default:
                    let y = edge == 2 ? r.minY : r.maxY
                    let t = (y - a.y) / (b.y - a.y)
                    return MapPoint(x: a.x + t * (b.x - a.x), y: y)
                }
            }
            var prevP = input[input.count - 1]
            var prevIn = inside(prevP)
            for p in input {
                let pIn = inside(p)
                if pIn {
                    if !prevIn { out.append(cut(prevP, p)) }
                    out.append(p)
                } else if prevIn {
                    out.append(cut(prevP, p))
                }
                prevP = p; prevIn = pIn
            }
        }
        return out
    }
}
