import Foundation

/// A geodesic circle: the points at a fixed geodesic distance from a centre, one per azimuth.
///
/// `points` are raw rim points, azimuth 0° (due north of the centre) first, then clockwise
/// (as seen from above) in equal azimuth steps; the ring is not closed (the first point is
/// not repeated). Longitudes are unrolled so that consecutive points differ by less than 180°:
///
/// - A circle that crosses the antimeridian keeps going past ±180 (e.g. 175 … 185), so it draws
///   as one ring in Web Mercator without a seam; wrap with `LatLng.normalized` if needed.
/// - A circle that contains a pole cannot close in longitude: going once round the rim changes
///   the longitude by ±360°. `points` are still the true rim; to fill the disc on a Mercator
///   map, close the ring through the pole edge — `mercatorRing()` does exactly that.
public struct GeodesicCircle: Sendable, Equatable {
    /// The centre.
    public var center: LatLng
    /// The radius: geodesic distance from the centre to every rim point, metres.
    public var radius: Double
    /// Rim points, clockwise from north, not closed, longitudes unrolled (see the type's notes).
    public var points: [LatLng]
    /// True when the North Pole lies inside the circle (its distance from the centre < radius).
    public var containsNorthPole: Bool
    /// True when the South Pole lies inside the circle.
    public var containsSouthPole: Bool

    /// A closed ring (first point repeated at the end) for filling the disc in Web Mercator,
    /// latitudes clamped to ±`maxLatitude`.
    ///
    /// Without an enclosed pole this is `points` closed. With exactly one enclosed pole the ring
    /// continues past 360° of longitude, runs along the clamped pole edge and back, so the
    /// polygon covers the polar cap (longitudes then span 360°: draw it in two world copies or
    /// clip it to the map). With both poles enclosed (radius over ~10 000 km around an
    /// equatorial centre) the rim is returned closed unchanged; such discs cannot be drawn as
    /// one simple Mercator polygon.
    public func mercatorRing(maxLatitude: Double = WebMercator.maxLatitude) -> [LatLng] {
        guard let first = points.first, let last = points.last else { return [] }
        func clamp(_ p: LatLng) -> LatLng {
            LatLng(lat: min(max(p.lat, -maxLatitude), maxLatitude), lon: p.lon)
        }
        var ring = points.map(clamp)
        let closeLon = last.lon + LatLng.wrapLongitude(first.lon - last.lon)
        let turns = ((closeLon - first.lon) / 360).rounded()
        if turns == 0 || containsNorthPole == containsSouthPole {
            ring.append(clamp(first))
            return ring
        }
        let poleLat = containsNorthPole ? maxLatitude : -maxLatitude
        ring.append(clamp(LatLng(lat: first.lat, lon: closeLon)))
        ring.append(LatLng(lat: poleLat, lon: closeLon))
        ring.append(LatLng(lat: poleLat, lon: first.lon))
        ring.append(clamp(first))
        return ring
    }
}

extension Geodesic {
    /// The geodesic circle of `radius` metres around `center`, sampled at `count` equally spaced
    /// azimuths (the direct problem along each).
    ///
    /// Every rim point is at geodesic distance `radius` along its azimuth. For radii beyond
    /// about 19 970 km (π·b, the shortest distance to a cut locus, reached near the antipode
    /// of an equatorial centre) some of those geodesics are no longer the shortest path.
    ///
    /// - Throws: `GeometryError` if `center` is not valid (index 0), `radius` is not finite or
    ///   outside 0…`halfMeridian`, or `count` is outside 3…`maxGeneratedPoints`.
    public func circle(center: LatLng, radius: Double, count: Int = 128) throws -> GeodesicCircle {
        guard center.isValid else { throw GeometryError.invalidPoint(index: 0, center) }
        guard radius.isFinite else { throw GeometryError.notFinite("radius", radius) }
        guard radius >= 0 && radius <= halfMeridian else {
            throw GeometryError.outOfRange("radius", radius, 0...halfMeridian)
        }
        guard count >= 3 && count <= Self.maxGeneratedPoints else {
            throw GeometryError.outOfRange("count", Double(count), 3...Double(Self.maxGeneratedPoints))
        }
        var points: [LatLng] = []
        points.reserveCapacity(count)
        var prevLon = center.lon
        for i in 0..<count {
            let azimuth = 360 * Double(i) / Double(count)
            let p = GeodesicLine(self, from: center, azimuth: azimuth).position(distance: radius)
            // First point: the unrolled longitude from the centre; then continue from the previous.
            let lon = i == 0 ? p.unrolledLongitude : prevLon + LatLng.wrapLongitude(p.point.lon - prevLon)
            points.append(LatLng(lat: p.point.lat, lon: lon))
            prevLon = lon
        }
        let poles = enclosedPoles(center: center, radius: radius)
        return GeodesicCircle(
            center: center, radius: radius, points: points, containsNorthPole: poles.north,
            containsSouthPole: poles.south)
    }

    /// Which poles the geodesic circle of `radius` metres round `center` encloses: those whose
    /// distance from the centre (along its meridian) is less than the radius. A pole farther
    /// than the radius along any meridian arc of the shortest possible degree is rejected without
    /// solving (cheap enough for every circle of every frame).
    public func enclosedPoles(center: LatLng, radius: Double) -> (north: Bool, south: Bool) {
        // The meridian's radius of curvature is at least min(b²/a, a²/b) (at the equator for an
        // oblate ellipsoid, at the poles for a prolate one).
        let shortestPerDegree = min(b * b / a, a * a / b) * .pi / 180 * 0.999
        func encloses(_ poleLat: Double) -> Bool {
            guard radius > abs(poleLat - center.lat) * shortestPerDegree else { return false }
            return inverse(center, LatLng(lat: poleLat, lon: center.lon)).distance < radius
        }
        return (encloses(90), encloses(-90))
    }
}
