import GeoKit

/// A column standing on the map: a prism (or, with many sides, a cylinder) at a point, its
/// radius and height in metres, lit so that its top and sides read as 3D.
public struct Column: Sendable {
    /// Where the column stands, degrees.
    public var position: LatLng
    /// Height of the top above the ground, metres.
    public var height: Double
    /// Radius of the column, metres on the ground.
    public var radius: Double
    /// Height of the bottom above the ground, metres (0 stands on the ground).
    public var base: Double
    /// Colour of the column before lighting.
    public var color: Color
    /// Number of sides, 3…64 (24 by default: reads as a cylinder; 4 gives a square box).
    public var sides: Int
    /// Drawing order among overlays; 3D objects share the depth buffer, so this matters only
    /// between translucent ones. Nil takes the default for columns.
    public var zIndex: Int?

    /// Creates a column; throws `SceneError` for an invalid position, a negative or non-finite
    /// height or radius, a base above the height, a height over `Column.maxHeight`, or `sides`
    /// outside 3…64.
    public init(
        position: LatLng, height: Double, radius: Double = 20, base: Double = 0,
        color: Color = Color(rgb: 0x2DA44E), sides: Int = 24, zIndex: Int? = nil
    ) throws(SceneError) {
        guard position.isValid else {
            throw SceneError(parameter: "position", reason: "invalid position \(position.lat),\(position.lon)")
        }
        guard height.isFinite, height >= 0, height <= Column.maxHeight else {
            throw SceneError(parameter: "height", reason: "\(height) m is not in 0…\(Int(Column.maxHeight)) m")
        }
        guard radius.isFinite, radius > 0, radius <= Column.maxRadius else {
            throw SceneError(parameter: "radius", reason: "\(radius) m is not in (0, \(Int(Column.maxRadius))] m")
        }
        guard base.isFinite, base >= 0, base <= height else {
            throw SceneError(parameter: "base", reason: "\(base) m is not in 0…height (\(height) m)")
        }
        guard (3...64).contains(sides) else {
            throw SceneError(parameter: "sides", reason: "\(sides) is not in 3…64")
        }
        self.position = position; self.height = height; self.radius = radius; self.base = base
        self.color = color; self.sides = sides; self.zIndex = zIndex
    }

    /// The tallest column accepted: 10 000 km (heights are scaled with the pixels per metre
    /// at the camera's centre latitude, so this reaches far above a world view).
    public static let maxHeight = 10_000_000.0
    /// The widest column accepted: 1 000 km.
    public static let maxRadius = 1_000_000.0
}
