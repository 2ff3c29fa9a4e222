import Foundation

// CONTRACT STUB — replaced by the Karney implementation (issue 2). The public API
// below is the contract other modules code against; keep the signatures.

/// The result of an inverse geodesic problem.
public struct GeodesicInverse: Sendable, Equatable {
    /// Geodesic distance in metres.
    public var distance: Double
    /// Forward azimuth at the first point, degrees clockwise from north, in [-180, 180].
    public var azimuth1: Double
    /// Forward azimuth at the second point, degrees clockwise from north, in [-180, 180].
    public var azimuth2: Double
}

/// The result of a direct geodesic problem.
public struct GeodesicDirect: Sendable, Equatable {
    /// The end point (longitude in [-180, 180]).
    public var point: LatLng
    /// Forward azimuth at the end point, degrees.
    public var azimuth2: Double
}

/// Geodesics on an ellipsoid of revolution.
public struct Geodesic: Sendable {
    /// Equatorial radius in metres.
    public let a: Double
    /// Flattening.
    public let f: Double

    /// The WGS84 ellipsoid: a = 6378137 m, f = 1/298.257223563.
    public static let wgs84 = Geodesic(a: 6_378_137, f: 1 / 298.257223563)

    /// Creates a geodesic calculator for an ellipsoid.
    public init(a: Double, f: Double) {
        self.a = a
        self.f = f
    }

    /// Solves the inverse problem: distance and azimuths between two points.
    public func inverse(_ p1: LatLng, _ p2: LatLng) -> GeodesicInverse {
        fatalError("Geodesic.inverse: not yet implemented")
    }

    /// Solves the direct problem: the point `distance` metres from `p1` along `azimuth` degrees.
    public func direct(from p1: LatLng, azimuth: Double, distance: Double) -> GeodesicDirect {
        fatalError("Geodesic.direct: not yet implemented")
    }
}
