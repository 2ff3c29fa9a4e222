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

    /// How a path's steps between neighbouring points meet the antimeridian.
    public enum Steps: Sendable {
        /// Each step runs between the longitudes as given: 179.9° → −179.9° goes back round the
        /// world (GeoJSON's reading, RFC 7946 §3.1.9: a shape across the antimeridian is cut in
        /// two, or given with longitudes past ±180°).
        case asGiven
        /// Each step takes the shorter way round, as a GPS track does: a longitude more than 180°
        /// from the previous point's is moved by whole turns to within 180° of it, so 179.9° →
        /// −179.9° crosses the antimeridian (x runs past 1). Steps of exactly 180° stay as given.
        case shorterWay
    }

    /// Projects geographic positions (degrees). Throws `SceneError` naming the first
    /// position that is not finite or has a latitude outside ±90°. Latitudes beyond
    /// ±85.0511° are clamped to the Web Mercator square. `steps` says how steps across the
    /// antimeridian are read; with `within`, the first point is moved by whole turns into that x
    /// range when a move can put it there (a polygon's holes into their exterior's copy of the world).
    public init(coordinates: [LatLng], parameter: String = "coordinates", steps: Steps = .asGiven,
                within: ClosedRange<Double>? = nil) throws(SceneError) {
        for (i, c) in coordinates.enumerated() where !c.isValid {
            throw SceneError(parameter: "\(parameter)[\(i)]", reason: "invalid position \(c.lat),\(c.lon)")
        }
        let pts = Self.mapPoints(coordinates, steps: steps, within: within)
        self.points = pts
        self.bounds = MapRect(bounding: pts)
    }

    /// Valid positions in normalised Web Mercator, their steps read as `steps` says and the first
    /// moved into `within` when whole turns can put it there (see `init(coordinates:…)`).
    public static func mapPoints(_ coordinates: [LatLng], steps: Steps, within: ClosedRange<Double>? = nil) -> [MapPoint] {
        var pts: [MapPoint] = []
        pts.reserveCapacity(coordinates.count)
        // Whole turns the path moves by (all of it, so that its steps stay as they were).
        var shift = 0.0
        if let r = within, let first = coordinates.first {
            let x = MapPoint(first).x
            let k = ((r.lowerBound + r.upperBound) / 2 - x).rounded()
            if !r.contains(x), k.isFinite, r.contains(x + k) { shift = k }
        }
        for c in coordinates {
            var p = MapPoint(c)
            p.x += shift
            if steps == .shorterWay, let last = pts.last {
                let d = p.x - last.x
                if abs(d) > 0.5 { p.x -= d.rounded() }
            }
            pts.append(p)
        }
        return pts
    }

    /// A polygon's rings from positions in degrees, taken as given (`Steps.asGiven`), each hole
    /// moved by whole turns into its exterior's copy of the world when it lies in another (both
    /// may run past the antimeridian). Throws `SceneError` naming `exterior[i]` or `holes[k][i]`.
    public static func rings(exterior: [LatLng], holes: [[LatLng]]) throws(SceneError) -> (exterior: GeoPath, holes: [GeoPath]) {
        let ext = try GeoPath(coordinates: exterior, parameter: "exterior")
        let span = ext.bounds.map { $0.minX ... $0.maxX }
        var hs: [GeoPath] = []
        for (i, h) in holes.enumerated() { hs.append(try GeoPath(coordinates: h, parameter: "holes[\(i)]", within: span)) }
        return (ext, hs)
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
