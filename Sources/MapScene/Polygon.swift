import GeoKit

/// A filled area with optional holes and outline.
public struct Polygon: Sendable {
    /// The outer ring (closing point optional).
    public var exterior: GeoPath
    /// Holes, each a ring inside the exterior.
    public var holes: [GeoPath]
    /// Fill colour (transparent for none).
    public var fill: Color
    /// Outline colour, or nil for none.
    public var stroke: Color?
    /// Outline width in logical pixels.
    public var strokeWidth: Double
    /// Drawing order; nil takes the default for polygons.
    public var zIndex: Int?
    /// Drawn again in every copy of the world the view shows, east and west (true, as MapLibre's
    /// `renderWorldCopies`), or only where its coordinates put it (false: for geometry its
    /// maker already placed in each copy the view needs, like basemap features and tiles).
    public var worldCopies = true

    /// Creates a polygon from shared rings.
    public init(exterior: GeoPath, holes: [GeoPath] = [], fill: Color = Color(rgb: 0x1F6FEB, alpha: 0x40),
                stroke: Color? = nil, strokeWidth: Double = 1, zIndex: Int? = nil) {
        self.exterior = exterior; self.holes = holes; self.fill = fill
        self.stroke = stroke; self.strokeWidth = strokeWidth; self.zIndex = zIndex
    }

    /// Creates a polygon from rings of positions in degrees; throws `SceneError` for invalid positions.
    public init(exterior: [LatLng], holes: [[LatLng]] = [], fill: Color = Color(rgb: 0x1F6FEB, alpha: 0x40),
                stroke: Color? = nil, strokeWidth: Double = 1, zIndex: Int? = nil) throws(SceneError) {
        let rings = try GeoPath.rings(exterior: exterior, holes: holes)
        self.init(exterior: rings.exterior, holes: rings.holes, fill: fill, stroke: stroke, strokeWidth: strokeWidth, zIndex: zIndex)
    }
}
