import GeoKit

/// A polygon raised into a solid (a building, a country by population): its footprint with
/// holes, walls from `base` up to `height` metres and a flat top, lit so that walls and roof
/// read as 3D. Extrusions hide each other and the ground behind them through the depth buffer.
public struct Extrusion: Sendable {
    /// The outer ring of the footprint (closing point optional).
    public var exterior: GeoPath
    /// Holes in the footprint (courtyards): the walls go round them too.
    public var holes: [GeoPath]
    /// Height of the roof above the ground, metres.
    public var height: Double
    /// Height of the bottom above the ground, metres (0 stands on the ground).
    public var base: Double
    /// Colour before lighting.
    public var color: Color
    /// Drawing order; nil takes the default for extrusions.
    public var zIndex: Int?

    /// Creates an extrusion from shared rings; throws `SceneError` for a non-finite, negative or
    /// too large height (over `Column.maxHeight`) or a base above the height.
    public init(
        exterior: GeoPath, holes: [GeoPath] = [], height: Double, base: Double = 0,
        color: Color = Color(rgb: 0x8C959F), zIndex: Int? = nil
    ) throws(SceneError) {
        guard height.isFinite, height >= 0, height <= Column.maxHeight else {
            throw SceneError(parameter: "height", reason: "\(height) m is not in 0…\(Int(Column.maxHeight)) m")
        }
        guard base.isFinite, base >= 0, base <= height else {
            throw SceneError(parameter: "base", reason: "\(base) m is not in 0…height (\(height) m)")
        }
        self.exterior = exterior; self.holes = holes; self.height = height; self.base = base
        self.color = color; self.zIndex = zIndex
    }

    /// Creates an extrusion from rings of positions in degrees; throws `SceneError` for invalid
    /// positions or heights.
    public init(
        exterior: [LatLng], holes: [[LatLng]] = [], height: Double, base: Double = 0,
        color: Color = Color(rgb: 0x8C959F), zIndex: Int? = nil
    ) throws(SceneError) {
        let rings = try GeoPath.rings(exterior: exterior, holes: holes)
        try self.init(
            exterior: rings.exterior, holes: rings.holes,
            height: height, base: base, color: color, zIndex: zIndex)
    }
}
