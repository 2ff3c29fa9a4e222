/// A geographic position on the WGS84 ellipsoid, in degrees.
///
/// `lat` is the geodetic latitude in degrees, positive north, valid in [-90, 90].
/// `lon` is the longitude in degrees, positive east; any finite value is accepted and
/// `normalized` wraps it into [-180, 180).
public struct LatLng: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Latitude in degrees, positive north.
    public var lat: Double
    /// Longitude in degrees, positive east.
    public var lon: Double

    /// Creates a position from a latitude and longitude in degrees.
    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    /// True when both values are finite and the latitude is within [-90, 90].
    public var isValid: Bool {
        lat.isFinite && lon.isFinite && lat >= -90 && lat <= 90
    }

    /// The same position with the longitude wrapped into [-180, 180).
    public var normalized: LatLng {
        LatLng(lat: lat, lon: LatLng.wrapLongitude(lon))
    }

    /// Wraps a longitude in degrees into [-180, 180).
    public static func wrapLongitude(_ lon: Double) -> Double {
        guard lon.isFinite else { return lon }
        if lon >= -180 && lon < 180 { return lon }
        var r = (lon + 180).truncatingRemainder(dividingBy: 360)
        if r < 0 { r += 360 }
        return r - 180
    }

    /// `lat,lon` with full precision, the form the CLI reads.
    public var description: String { "\(lat),\(lon)" }
}
