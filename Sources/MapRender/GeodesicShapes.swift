import Foundation
import GeoKit

/// Geodesic shapes in map units.
enum GeodesicShapes {
    /// A geodesic circle ready to draw in Web Mercator: the rings to fill (each a separate
    /// polygon) and the rim to stroke.
    struct CircleShape {
        /// Rings to fill. One for an ordinary circle; for a circle around one pole, the polar cap
        /// closed along the ±85.05° edge, twice (one world apart) so that every longitude is covered.
        var fills: [[MapPoint]]
        /// The rim: closed when `rimClosed`, otherwise (a circle around a pole) an open line whose
        /// ends are one world apart, drawn twice like the fill.
        var rims: [[MapPoint]]
        var rimClosed: Bool
    }

    /// The circle of `radius` metres around `center` with `count` rim points (GeoKit's geodesic
    /// circle: WGS84 direct problems, longitudes continuous), handling circles that contain a pole.
    static func circle(center: LatLng, radius: Double, count: Int) -> CircleShape {
        guard let circle = try? Geodesic.wgs84.circle(center: center, radius: radius, count: count) else {
            return CircleShape(fills: [], rims: [], rimClosed: true)
        }
        func unwrapNearCenter(_ pts: [LatLng]) -> [MapPoint] {
            // The rim starts due north of the centre; keep it on the centre's side of the antimeridian.
            guard let first = pts.first else { return [] }
            var shift = 0.0
            while first.lon + shift - center.lon > 180 { shift -= 360 }
            while first.lon + shift - center.lon < -180 { shift += 360 }
            return pts.map { MapPoint(LatLng(lat: $0.lat, lon: $0.lon + shift)) }
        }
        let onePole = circle.containsNorthPole != circle.containsSouthPole
        var fill = unwrapNearCenter(circle.mercatorRing())
        if fill.count > 1, fill.first == fill.last { fill.removeLast() }
        guard onePole, let first = circle.points.first else {
            return CircleShape(fills: [fill], rims: [unwrapNearCenter(circle.points)], rimClosed: true)
        }
        var rim = circle.points
        let last = rim[rim.count - 1]
        rim.append(LatLng(lat: first.lat, lon: last.lon + LatLng.wrapLongitude(first.lon - last.lon)))
        let rimPts = unwrapNearCenter(rim)
        // The cap spans one world in x; its copy one world to the other side fills the rest of the view.
        let span = (rimPts.last?.x ?? 0) - (rimPts.first?.x ?? 0)
        let dx = span > 0 ? -1.0 : 1.0
        let shifted = { (ring: [MapPoint]) in ring.map { MapPoint(x: $0.x + dx, y: $0.y) } }
        return CircleShape(fills: [fill, shifted(fill)], rims: [rimPts, shifted(rimPts)], rimClosed: false)
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
