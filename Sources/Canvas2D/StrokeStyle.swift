/// Which points a fill covers where subpaths overlap or cross.
public enum FillRule: Sendable, Hashable {
    /// Inside when the winding number is non-zero.
    case nonZero
    /// Inside when a ray crosses the path an odd number of times (holes by overlap).
    case evenOdd
}

/// How a stroke turns corners.
public enum CanvasLineJoin: Sendable, Hashable {
    /// Sharp corners, cut to a bevel past the style's miter limit.
    case miter
    /// Rounded corners.
    case round
    /// Flattened corners.
    case bevel
}

/// How a stroke ends open subpaths.
public enum CanvasLineCap: Sendable, Hashable {
    /// Ends exactly at the end point.
    case butt
    /// A half disc around the end point.
    case round
    /// A half square beyond the end point.
    case square
}

/// How to stroke a path: width, joins, caps, dashes. Lengths in logical px.
public struct StrokeStyle: Sendable, Hashable {
    /// Line width, logical px (non-finite or negative values draw nothing).
    public var width: Double
    /// Corner style.
    public var join: CanvasLineJoin
    /// End style.
    public var cap: CanvasLineCap
    /// Miter length limit as a multiple of the width (Cairo/SVG meaning; default 4).
    public var miterLimit: Double
    /// Alternating dash and gap lengths, logical px; empty for a solid line.
    public var dash: [Double]
    /// Offset into the dash pattern at the start of each subpath, logical px.
    public var dashPhase: Double

    /// Creates a stroke style.
    public init(
        width: Double = 1, join: CanvasLineJoin = .miter, cap: CanvasLineCap = .butt, miterLimit: Double = 4,
        dash: [Double] = [], dashPhase: Double = 0
    ) {
        self.width = width
        self.join = join
        self.cap = cap
        self.miterLimit = miterLimit
        self.dash = dash
        self.dashPhase = dashPhase
    }
}
