import Foundation

/// Splitting lines where they cross the antimeridian (±180° longitude).
public enum Antimeridian {
    /// Where along a crossing segment the crossing point is placed.
    public enum Interpolation: Sendable, Hashable {
        /// On the straight segment in Mercator (linear in x and in Mercator y, with no clamp
        /// at ±85.05°): exactly where the segment the renderer draws crosses the edge of the world.
        case mercator
        /// On the great circle through the two ends, on a sphere (closed form; differs from
        /// the WGS84 geodesic by up to about 0.2% of the segment's latitude change).
        case greatCircle
    }

    /// Splits a line wherever consecutive points are more than 180° apart in longitude,
    /// taking the short way round: such a segment is cut with an interpolated point at
    /// 180° on one side and -180° on the other (same latitude), so each part can be drawn
    /// without a jump across the world.
    ///
    /// Longitudes are wrapped into [-180, 180) first (the cut points are exactly ±180).
    /// A segment exactly 180° wide is not split. Parts with fewer than two points are
    /// dropped, except that a one-point input gives one one-point part; empty input gives
    /// no parts. Throws `invalidPoint` with the index of a NaN/infinite coordinate or a
    /// latitude outside ±90°.
    public static func split(
        _ points: [LatLng], interpolation: Interpolation = .mercator
    ) throws(GeometryError) -> [[LatLng]] {
        for (i, p) in points.enumerated() where !p.isValid { throw .invalidPoint(index: i, p) }
        guard let first = points.first else { return [] }
        if points.count == 1 { return [[first.normalized]] }
        var parts: [[LatLng]] = []
        var current: [LatLng] = [first.normalized]
        for i in 1..<points.count {
            let a = points[i - 1].normalized, b = points[i].normalized
            let dlon = b.lon - a.lon
            guard abs(dlon) > 180 else {
                current.append(b)
                continue
            }
            // Going east across 180° (dlon < -180) or west across -180° (dlon > 180).
            let edge: Double = dlon < 0 ? 180 : -180
            let bLon = dlon < 0 ? b.lon + 360 : b.lon - 360
            let lat = crossingLatitude(a, LatLng(lat: b.lat, lon: bLon), atLongitude: edge, interpolation)
            let near = LatLng(lat: lat, lon: edge), far = LatLng(lat: lat, lon: -edge)
            if current.last != near && !(current.last.map { $0.lat == lat && abs($0.lon) == 180 } ?? false) {
                current.append(near)
            }
            if current.count >= 2 { parts.append(current) }
            current = [far]
            if !(b.lat == lat && abs(b.lon) == 180) { current.append(b) }
        }
        if current.count >= 2 { parts.append(current) }
        return parts
    }

    /// The latitude where segment a→b (with `b.lon` unwrapped next to `a.lon`) meets `lon`.
    static func crossingLatitude(
        _ a: LatLng, _ b: LatLng, atLongitude lon: Double, _ interpolation: Interpolation
    ) -> Double {
        // A pole is on every meridian: a segment from a pole crosses at that pole.
        if abs(a.lat) == 90 || abs(b.lat) == 90 { return abs(a.lat) == 90 ? a.lat : b.lat }
        let r = Double.pi / 180
        switch interpolation {
        case .mercator:
            // Linear in x and in the Mercator ordinate ψ = asinh(tan φ) (not clamped at ±85.05°).
            let t = (lon - a.lon) / (b.lon - a.lon)
            let pa = asinh(tan(a.lat * r)), pb = asinh(tan(b.lat * r))
            return atan(sinh(pa + t * (pb - pa))) / r
        case .greatCircle:
            // Great circle through A and B: tan φ = [tan φa sin(λ − λb) − tan φb sin(λ − λa)] / sin(λa − λb).
            let num = tan(a.lat * r) * sin((lon - b.lon) * r) - tan(b.lat * r) * sin((lon - a.lon) * r)
            return atan(num / sin((a.lon - b.lon) * r)) / r
        }
    }
}
