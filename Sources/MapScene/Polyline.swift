import GeoKit

/// How two stroked segments meet.
public enum LineJoin: String, Hashable, Sendable, CaseIterable {
    /// A circular arc around the vertex.
    case round
    /// Extended outer edges meeting at a point; falls back to bevel beyond the miter limit (2 line widths).
    case miter
    /// The outer corners joined by a straight edge.
    case bevel
}

/// How a stroked line ends.
public enum LineCap: String, Hashable, Sendable, CaseIterable {
    /// Ends exactly at the end point.
    case butt
    /// A half disc around the end point.
    case round
    /// Extends half the line width past the end point.
    case square
}

/// What a line's dash lengths count.
public enum DashUnit: String, Hashable, Sendable {
    /// Logical pixels along the line.
    case pixels
    /// Multiples of the line's width on screen, as MapLibre's `line-dasharray`: a line twice as
    /// wide has dashes twice as long (and a width in metres lengthens them as the map zooms in).
    case lineWidths
}

/// How a line is stroked.
public struct LineStyle: Hashable, Sendable {
    /// Full line width: logical pixels or metres on the ground.
    public var width: Length
    /// Stroke colour.
    public var color: Color
    /// Join between segments.
    public var join: LineJoin
    /// End caps.
    public var cap: LineCap
    /// Dash pattern in `dashUnit`s: on, off, on, off… (at most 8 entries; an odd count runs its
    /// last dash into the first, as MapLibre's); empty = solid.
    public var dash: [Double]
    /// What `dash` counts: logical pixels (default) or line widths.
    public var dashUnit: DashUnit = .pixels
    /// Outline colour drawn under the line, or nil for none.
    public var casingColor: Color?
    /// Outline width in logical pixels on each side of the line.
    public var casingWidth: Double
    /// Shifts the dash pattern forwards along the line by this many logical pixels (animate it
    /// for dashes that march).
    public var dashOffset: Double
    /// The first `fade` fraction (0…1) of the line's length fades in from transparent at its
    /// start to the full colour: a comet's tail behind a moving head. 0 = no fade.
    public var fade: Double

    /// Creates a line style (defaults: 4 px, `#1f6feb`, round joins and caps, solid, no casing).
    public init(width: Length = .pixels(4), color: Color = Color(rgb: 0x1F6FEB), join: LineJoin = .round,
                cap: LineCap = .round, dash: [Double] = [], casingColor: Color? = nil, casingWidth: Double = 1,
                dashOffset: Double = 0, fade: Double = 0) {
        self.width = width; self.color = color; self.join = join; self.cap = cap
        self.dash = dash; self.casingColor = casingColor; self.casingWidth = casingWidth
        self.dashOffset = dashOffset; self.fade = fade
    }
}

/// A route or any open line on the map.
public struct Polyline: Sendable {
    /// The points (shared; see `GeoPath`).
    public var path: GeoPath
    /// Stroke style.
    public var style: LineStyle
    /// When true each segment follows the great circle between its ends instead of a
    /// straight Mercator line (densified on the sphere).
    public var geodesic: Bool
    /// Drawing order; nil takes the default for routes (`OverlayKind.route`).
    public var zIndex: Int?
    /// The along-line distance (normalised Web Mercator units) of the first point in the longer
    /// line this one is a piece of: the pieces of a chunked or trimmed line keep one dash phase.
    public var alongOffset: Double = 0
    /// The time of each point, seconds since 1970-01-01 UTC (a track's times), or nil. Picking
    /// reports the time at the picked point from these; ignored unless there is one per point.
    public var times: [Double]?
    /// Drawn again in every copy of the world the view shows, east and west (true, as MapLibre's
    /// `renderWorldCopies`), or only where its coordinates put it (false: for geometry its
    /// maker already placed in each copy the view needs, like basemap features and tiles).
    public var worldCopies = true

    /// Creates a polyline from a shared path.
    public init(path: GeoPath, style: LineStyle = LineStyle(), geodesic: Bool = false, zIndex: Int? = nil) {
        self.path = path; self.style = style; self.geodesic = geodesic; self.zIndex = zIndex
    }

    /// Creates a polyline from positions in degrees, each step the shorter way round the
    /// antimeridian (`GeoPath.Steps.shorterWay`); throws `SceneError` for invalid positions.
    public init(coordinates: [LatLng], style: LineStyle = LineStyle(), geodesic: Bool = false,
                zIndex: Int? = nil) throws(SceneError) {
        self.init(path: try GeoPath(coordinates: coordinates, steps: .shorterWay), style: style, geodesic: geodesic,
                  zIndex: zIndex)
    }
}
