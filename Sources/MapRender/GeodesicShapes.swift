import Foundation
import GeoKit

/// Geodesic shapes in map units.
enum GeodesicShapes {
    /// A geodesic circle ready to draw in Web Mercator: the rings to fill (each a separate
    /// polygon) and the rim to stroke.
    struct CircleShape {
        /// Rings to fill. One for an ordinary circle; for a circle around one pole, the polar cap
        /// closed along the ±85.05° edge, then the same one world to the side (for a circle drawn
        /// without world copies, so that every longitude near it is covered).
        var fills: [[MapPoint]]
        /// The rim: one closed ring when `rimClosed`. Otherwise open lines: the parts of the rim
        /// inside Web Mercator's latitudes (beyond ±85.05° it is not drawn, not flattened onto
        /// the edge); for a circle around a pole, whose rim's ends are one world apart, those
        /// parts and then the same one world to the side, like the fill.
        var rims: [[MapPoint]]
        var rimClosed: Bool
        /// How many of `rims` belong to the circle itself (the rest are its copy one world away).
        var copyStart: Int
    }

    /// The circle of `radius` metres around `center` with `count` rim points (GeoKit's geodesic
    /// circle: WGS84 direct problems, longitudes continuous), handling circles that contain a pole.
    ///
    /// Where the rim strays more than `tolerance` map units from the chord between consecutive
    /// points (near a pole, where Mercator bends the rim far more than its radius suggests),
    /// points at azimuths between them are added, up to `maxRefinedPoints` in all.
    static func circle(center: LatLng, radius: Double, count: Int, tolerance: Double = .infinity) -> CircleShape {
        let geodesic = Geodesic.wgs84
        guard var circle = try? geodesic.circle(center: center, radius: radius, count: count) else {
            return CircleShape(fills: [], rims: [], rimClosed: true, copyStart: 0)
        }
        var azimuths = (0 ..< circle.points.count).map { 360 * Double($0) / Double(circle.points.count) }
        let original = circle.points
        if circle.containsSouthPole, !circle.containsNorthPole, circle.points.count > 1 {
            // A polar cap's ring is cut where the rim starts, one world from where it ends, and
            // neighbouring copies meet along that cut. Start it beyond the pole (due south, as
            // due north is for a circle round the North Pole), where the rim is nearest the
            // map's edge or past it, rather than across the cap's middle.
            let h = circle.points.count / 2
            circle.points = Array(circle.points[h...] + circle.points[..<h])
            azimuths = Array(azimuths[h...] + azimuths[..<h].map { $0 + 360 })
        }
        if tolerance.isFinite, tolerance > 0 {
            circle.points = refined(circle.points, azimuths: azimuths, center: center, radius: radius,
                                    tolerance: tolerance, geodesic: geodesic)
        }
        if circle.points != original {
            var rim: [LatLng] = []
            rim.reserveCapacity(circle.points.count)
            for p in circle.points {
                // Longitudes continuous from the first point (rotation and refinement keep the order).
                let lon = rim.last.map { $0.lon + LatLng.wrapLongitude(p.lon - $0.lon) } ?? p.lon
                rim.append(LatLng(lat: p.lat, lon: lon))
            }
            circle.points = rim
        }
        let onePole = circle.containsNorthPole != circle.containsSouthPole
        func unwrapped(_ pts: [LatLng]) -> [LatLng] {
            // Keep the rim's start within half a world of the centre; a polar cap's world-wide
            // span is centred on the centre (from 180° east of it to 180° west).
            guard let first = pts.first else { return [] }
            let lons = pts.map(\.lon)
            let ref = onePole ? (lons.min()! + lons.max()!) / 2 : first.lon
            var shift = 0.0
            while ref + shift - center.lon > 180 { shift -= 360 }
            while ref + shift - center.lon < -180 { shift += 360 }
            return pts.map { LatLng(lat: $0.lat, lon: $0.lon + shift) }
        }
        func unwrapNearCenter(_ pts: [LatLng]) -> [MapPoint] { unwrapped(pts).map { MapPoint($0) } }
        var fill = unwrapNearCenter(circle.mercatorRing())
        if fill.count > 1, fill.first == fill.last { fill.removeLast() }
        guard onePole, let first = circle.points.first else {
            let limit = WebMercator.maxLatitude
            guard let out = circle.points.firstIndex(where: { abs($0.lat) > limit }) else {
                return CircleShape(fills: [fill], rims: [unwrapNearCenter(circle.points)], rimClosed: true, copyStart: 1)
            }
            // Start the open rim at a point beyond the edge, so that its parts inside come out whole.
            var rim = Array(circle.points[out...]) + Array(circle.points[..<out])
            rim.append(rim[0])
            let parts = insideMercator(unwrapped(rim))
            return CircleShape(fills: [fill], rims: parts, rimClosed: false, copyStart: parts.count)
        }
        var rim = circle.points
        let last = rim[rim.count - 1]
        rim.append(LatLng(lat: first.lat, lon: last.lon + LatLng.wrapLongitude(first.lon - last.lon)))
        // The cap spans one world in x, east or west from its start; its copy one world to the
        // other side fills the rest of the view.
        let dx = rim[rim.count - 1].lon > rim[0].lon ? -1.0 : 1.0
        let shifted = { (ring: [MapPoint]) in ring.map { MapPoint(x: $0.x + dx, y: $0.y) } }
        let parts = insideMercator(unwrapped(rim))
        return CircleShape(fills: [fill, shifted(fill)], rims: parts + parts.map(shifted), rimClosed: false,
                           copyStart: parts.count)
    }

    /// At most this many rim points after refinement.
    static let maxRefinedPoints = 16_384

    /// Rim points with more inserted (at intermediate azimuths, by the direct problem) wherever
    /// the rim between two consecutive ones, the last and first included, strays from their
    /// chord by more than `tolerance` map units at the middle azimuth: a segment straying d gets
    /// ⌈√(d / tolerance)⌉ pieces (the deviation falls with the square of the length).
    /// `azimuths` are the points' azimuths in degrees, increasing.
    static func refined(_ points: [LatLng], azimuths: [Double], center: LatLng, radius: Double, tolerance: Double,
                        geodesic: Geodesic) -> [LatLng] {
        let n = points.count
        guard n > 1, azimuths.count == n, tolerance > 0 else { return points }
        func at(_ az: Double) -> LatLng { GeodesicLine(geodesic, from: center, azimuth: az).position(distance: radius).point }
        func y(_ p: LatLng) -> Double { MapPoint(LatLng(lat: p.lat, lon: 0)).y }
        var pieces = [Int](repeating: 1, count: n)
        var extra = 0
        for i in 0 ..< n {
            let a = points[i], b = points[(i + 1) % n]
            let a0 = azimuths[i], a1 = i + 1 < n ? azimuths[i + 1] : azimuths[0] + 360
            let m = at((a0 + a1) / 2)
            // In map units, longitudes taken the short way from a.
            let bx = LatLng.wrapLongitude(b.lon - a.lon) / 360, mx = LatLng.wrapLongitude(m.lon - a.lon) / 360
            let dx = mx - bx / 2, dy = y(m) - (y(a) + y(b)) / 2
            let d = (dx * dx + dy * dy).squareRoot()
            guard d.isFinite, d > tolerance else { continue }
            pieces[i] = min(Int((d / tolerance).squareRoot().rounded(.up)), 64)
            extra += pieces[i] - 1
        }
        guard extra > 0, n + extra <= maxRefinedPoints else { return points }
        var out: [LatLng] = []
        out.reserveCapacity(n + extra)
        for i in 0 ..< n {
            out.append(points[i])
            let k = pieces[i]
            guard k > 1 else { continue }
            let a0 = azimuths[i], a1 = i + 1 < n ? azimuths[i + 1] : azimuths[0] + 360
            for j in 1 ..< k { out.append(at(a0 + (a1 - a0) * Double(j) / Double(k))) }
        }
        return out
    }

    /// The parts of a line (longitudes continuous) that lie within Web Mercator's latitudes,
    /// each ending where the line crosses ±85.05° (interpolated along the segment by latitude).
    static func insideMercator(_ pts: [LatLng]) -> [[MapPoint]] {
        let limit = WebMercator.maxLatitude
        func crossing(_ a: LatLng, _ b: LatLng) -> MapPoint {  // a inside, b beyond the edge
            let edge = b.lat > 0 ? limit : -limit
            let t = (edge - a.lat) / (b.lat - a.lat)
            let lon = t.isFinite ? a.lon + min(max(t, 0), 1) * (b.lon - a.lon) : a.lon
            return MapPoint(LatLng(lat: edge, lon: lon))
        }
        var parts: [[MapPoint]] = []
        var cur: [MapPoint] = []
        for (i, p) in pts.enumerated() {
            if abs(p.lat) <= limit {
                if cur.isEmpty, i > 0 { cur.append(crossing(p, pts[i - 1])) }
                cur.append(MapPoint(p))
            } else if !cur.isEmpty {
                cur.append(crossing(pts[i - 1], p))
                parts.append(cur)
                cur = []
            }
        }
        if cur.count >= 2 { parts.append(cur) }
        return parts
    }

    /// Densifies a line so that each segment follows the great circle (on a sphere) between
    /// its ends, with pieces no longer than `maxStepDegrees` of arc. Longitudes are unwrapped
    /// so the line stays continuous across the antimeridian.
    static func greatCircle(_ pts: [LatLng], maxStepDegrees: Double = 1) -> [MapPoint] {
        guard pts.count >= 2 else { return pts.map { MapPoint($0) } }
        func vec(_ p: LatLng) -> (Double, Double, Double) {
            let la = p.lat * .pi / 180, lo = p.lon * .pi / 180
            return (cos(la) * cos(lo), cos(la) * sin(lo), sin(la))
        }
        var out: [MapPoint] = [MapPoint(pts[0])]
        var lastLon = pts[0].lon
        for i in 0 ..< pts.count - 1 {
            let a = vec(pts[i]), b = vec(pts[i + 1])
            let d = min(1, max(-1, a.0 * b.0 + a.1 * b.1 + a.2 * b.2))
            let omega = acos(d)
            let steps = max(1, Int((omega * 180 / .pi / maxStepDegrees).rounded(.up)))
            for k in 1 ... steps {
                let t = Double(k) / Double(steps)
                var p: LatLng
                if omega < 1e-12 || k == steps {
                    p = k == steps ? pts[i + 1] : pts[i]
                } else {
                    let s = sin(omega)
                    let wa = sin((1 - t) * omega) / s, wb = sin(t * omega) / s
                    let x = wa * a.0 + wb * b.0, y = wa * a.1 + wb * b.1, z = wa * a.2 + wb * b.2
                    p = LatLng(lat: atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi, lon: atan2(y, x) * 180 / .pi)
                }
                while p.lon - lastLon > 180 { p.lon -= 360 }
                while p.lon - lastLon < -180 { p.lon += 360 }
                lastLon = p.lon
                out.append(MapPoint(p))
            }
        }
        return out
    }
}
