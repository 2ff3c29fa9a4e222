import Foundation
import GeoKit

/// Geodesic shapes in map units.
enum GeodesicShapes {
    /// `count` rim points of the geodesic circle of `radius` metres around `center`
    /// (WGS84, `Geodesic.wgs84.direct` at evenly spaced azimuths clockwise from north),
    /// longitudes unwrapped to stay continuous around the centre.
    static func circleRing(center: LatLng, radius: Double, count: Int) -> [MapPoint] {
        var ring: [MapPoint] = []
        ring.reserveCapacity(count)
        for k in 0 ..< count {
            let az = 360 * Double(k) / Double(count)
            var p = Geodesic.wgs84.direct(from: center, azimuth: az, distance: radius).point
            // Keep the rim on the same side of the antimeridian as the centre.
            while p.lon - center.lon > 180 { p.lon -= 360 }
            while p.lon - center.lon < -180 { p.lon += 360 }
            ring.append(MapPoint(p))
        }
        return ring
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
