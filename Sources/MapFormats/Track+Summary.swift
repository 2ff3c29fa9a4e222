import Foundation
import GeoKit

extension Track {
    /// The bounding box of all parts and waypoints in degrees (plain min/max of latitude
    /// and longitude, so a track across the antimeridian spans nearly 360°), or nil when empty.
    public var bounds: (south: Double, west: Double, north: Double, east: Double)? {
        var s = Double.infinity, w = Double.infinity, n = -Double.infinity, e = -Double.infinity
        func add(_ c: LatLng) {
            s = min(s, c.lat); n = max(n, c.lat)
            w = min(w, c.lon); e = max(e, c.lon)
        }
        for part in parts { for p in part.points { add(p.coordinate) } }
        for wp in waypoints { add(wp.coordinate) }
        guard s <= n else { return nil }
        return (s, w, n, e)
    }

    /// The geodesic length in metres on WGS84: the sum, over each part, of
    /// `Geodesic.wgs84.inverse(a, b).distance` between consecutive points (parts are not
    /// joined to each other; waypoints do not count).
    public var geodesicLength: Double {
        var total = 0.0
        for part in parts {
            let pts = part.points
            guard pts.count > 1 else { continue }
            for k in 1..<pts.count {
                total += Geodesic.wgs84.inverse(pts[k - 1].coordinate, pts[k].coordinate).distance
            }
        }
        return total
    }

    /// The earliest and latest time stamp over all points and waypoints, or nil when none has one.
    public var timeSpan: (start: Date, end: Date)? {
        var lo = Double.infinity, hi = -Double.infinity
        for part in parts {
            for p in part.points {
                if let t = p.time?.timeIntervalSince1970 {
                    lo = min(lo, t)
                    hi = max(hi, t)
                }
            }
        }
        for w in waypoints {
            if let t = w.time?.timeIntervalSince1970 {
                lo = min(lo, t)
                hi = max(hi, t)
            }
        }
        guard lo <= hi else { return nil }
        return (Date(timeIntervalSince1970: lo), Date(timeIntervalSince1970: hi))
    }

    /// ISO 8601 text for a time, in UTC, with milliseconds only when not whole seconds
    /// (`2024-05-01T10:00:00Z`, `2024-05-01T10:00:00.25Z`).
    public static func formatTime(_ date: Date) -> String {
        ISO8601Time.format(date)
    }
}
