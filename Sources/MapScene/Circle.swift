import GeoKit

/// A circle: in metres a true geodesic circle (every rim point at that geodesic distance
/// from the centre on WGS84), in pixels a disc of constant on-screen size.
public struct Circle: Sendable {
    /// Centre position in degrees.
    public var center: LatLng
    /// Radius: `.meters` (geodesic) or `.pixels` (screen).
    public var radius: Length
    /// Fill colour (transparent for none).
    public var fill: Color
    /// Rim colour, or nil for none.
    public var stroke: Color?
    /// Rim width in logical pixels.
    public var strokeWidth: Double
    /// Drawing order; nil takes the default for circles.
    public var zIndex: Int?
    /// Drawn again in every copy of the world the view shows (true), or only where its
    /// coordinates put it (false: the basemap places its labels and dots per copy itself).
    public var worldCopies = true

    /// Creates a circle; throws `SceneError` for an invalid centre or a negative / non-finite radius,
    /// or a metric radius over 10 000 km (`Circle.maxRadiusMeters`).
    public init(center: LatLng, radius: Length, fill: Color = Color(rgb: 0xFF0000, alpha: 0x40),
                stroke: Color? = Color(rgb: 0xFF0000), strokeWidth: Double = 2, zIndex: Int? = nil) throws(SceneError) {
        guard center.isValid else {
            throw SceneError(parameter: "center", reason: "invalid position \(center.lat),\(center.lon)")
        }
        let r = radius.value
        guard r.isFinite, r >= 0 else { throw SceneError(parameter: "radius", reason: "\(r) is not a non-negative number") }
        if case .meters = radius, r > Circle.maxRadiusMeters {
            throw SceneError(parameter: "radius", reason: "\(r) m exceeds the limit of \(Circle.maxRadiusMeters) m")
        }
        if case .pixels = radius, r > 10_000 {
            throw SceneError(parameter: "radius", reason: "\(r) px exceeds the limit of 10000 px")
        }
        guard strokeWidth.isFinite, strokeWidth >= 0 else {
            throw SceneError(parameter: "strokeWidth", reason: "\(strokeWidth) is not a non-negative number")
        }
        self.center = center; self.radius = radius; self.fill = fill
        self.stroke = stroke; self.strokeWidth = strokeWidth; self.zIndex = zIndex
    }

    /// The largest metric radius accepted: 10 000 km (a quarter of the meridian).
    public static let maxRadiusMeters = 10_000_000.0
}
