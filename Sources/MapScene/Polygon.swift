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

    /// Creates a polygon from shared rings.
    public init(exterior: GeoPath, holes: [GeoPath] = [], fill: Color = Color(rgb: 0x1F6FEB, alpha: 0x40),
                stroke: Color? = nil, strokeWidth: Double = 1, zIndex: Int? = nil) {
        self.exterior = exterior; self.holes = holes; self.fill = fill
        self.stroke = stroke; self.strokeWidth = strokeWidth; self.zIndex = zIndex
    }

    /// Creates a polygon from rings of positions in degrees; throws `SceneError` for invalid positions.
    public init(exterior: [LatLng], holes: [[LatLng]] = [], fill: Color = Color(rgb: 0x1F6FEB, alpha: 0x40),
                stroke: Color? = nil, strokeWidth: Double = 1, zIndex: Int? = nil) throws(SceneError) {
        var hs: [GeoPath] = []
        for (i, h) in holes.enumerated() { hs.append(try GeoPath(coordinates: h, parameter: "holes[\(i)]")) }
        self.init(exterior: try GeoPath(coordinates: exterior, parameter: "exterior"), holes: hs, fill: fill,
                  stroke: stroke, strokeWidth: strokeWidth, zIndex: zIndex)
    }
}
