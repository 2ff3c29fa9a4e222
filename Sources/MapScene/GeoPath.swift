import GeoKit

/// An immutable sequence of points in normalised Web Mercator (`MapPoint`), shared by
/// reference: overlays that hold the same `GeoPath` share its tessellation cache, because
/// the renderer keys cached meshes by the path's identity (plus the zoom bucket).
public final class GeoPath: Sendable {
    /// The points, in order.
    public let points: [MapPoint]
    /// The bounding rectangle, nil when empty.
    public let bounds: MapRect?

    /// Wraps points already in `MapPoint` space (the basemap hands these over).
    /// Throws `SceneError` naming the first non-finite point.
    public init(points: [MapPoint], parameter: String = "points") throws(SceneError) {
        for (i, p) in points.enumerated() where !(p.x.isFinite && p.y.isFinite) {
            throw SceneError(parameter: "\(parameter)[\(i)]", reason: "non-finite coordinate (\(p.x), \(p.y))")
        }
        self.points = points
        self.bounds = MapRect(bounding: points)
    }

    /// Projects geographic positions (degrees). Throws `SceneError` naming the first
    /// position that is not finite or has a latitude outside ±90°. Latitudes beyond
    /// ±85.0511° are clamped to the Web Mercator square.
    public init(coordinates: [LatLng], parameter: String = "coordinates") throws(SceneError) {
        var pts: [MapPoint] = []
        pts.reserveCapacity(coordinates.count)
        for (i, c) in coordinates.enumerated() {
            guard c.isValid else {
                throw SceneError(parameter: "\(parameter)[\(i)]", reason: "invalid position \(c.lat),\(c.lon)")
            }
            pts.append(MapPoint(c))
        }
        self.points = pts
        self.bounds = MapRect(bounding: pts)
    }

    /// The number of points.
    public var count: Int { points.count }
}

/// An invalid value in a scene: which parameter and why.
public struct SceneError: Error, CustomStringConvertible, Equatable {
    /// The offending parameter, e.g. `coordinates[12]` or `radius`.
    public let parameter: String
    /// Why it was rejected.
    public let reason: String

    /// Creates an error.
    public init(parameter: String, reason: String) {
        self.parameter = parameter
        self.reason = reason
    }

    /// `parameter: reason`.
    public var description: String { "\(parameter): \(reason)" }
}
