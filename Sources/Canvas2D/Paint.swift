/// What a fill or stroke paints with.
public enum Paint: Sendable, Hashable {
    /// One colour.
    case color(RGBAColor)
    /// A linear gradient.
    case linearGradient(LinearGradient)
    /// A radial gradient.
    case radialGradient(RadialGradient)
}

/// A colour at a position along a gradient.
public struct GradientStop: Sendable, Hashable {
    /// Position along the gradient, 0…1.
    public var offset: Double
    /// Colour at that position.
    public var color: RGBAColor

    /// Creates a stop at `offset` (0…1).
    public init(_ offset: Double, _ color: RGBAColor) {
        self.offset = offset
        self.color = color
    }
}

/// Colours varying along the line from `start` to `end` (logical px); padded beyond the ends.
public struct LinearGradient: Sendable, Hashable {
    /// Where offset 0 lies.
    public var start: CanvasPoint
    /// Where offset 1 lies.
    public var end: CanvasPoint
    /// The stops, in increasing offset.
    public var stops: [GradientStop]

    /// Creates a linear gradient.
    public init(start: CanvasPoint, end: CanvasPoint, stops: [GradientStop]) {
        self.start = start
        self.end = end
        self.stops = stops
    }
}

/// Colours varying between two circles (logical px); padded beyond them.
public struct RadialGradient: Sendable, Hashable {
    /// Centre of the start circle (offset 0).
    public var startCenter: CanvasPoint
    /// Radius of the start circle, logical px.
    public var startRadius: Double
    /// Centre of the end circle (offset 1).
    public var endCenter: CanvasPoint
    /// Radius of the end circle, logical px.
    public var endRadius: Double
    /// The stops, in increasing offset.
    public var stops: [GradientStop]

    /// Creates a radial gradient between two circles.
    public init(
        startCenter: CanvasPoint, startRadius: Double, endCenter: CanvasPoint, endRadius: Double, stops: [GradientStop]
    ) {
        self.startCenter = startCenter
        self.startRadius = startRadius
        self.endCenter = endCenter
        self.endRadius = endRadius
        self.stops = stops
    }

    /// A gradient from `center` (offset 0) out to `radius` (offset 1).
    public init(center: CanvasPoint, radius: Double, stops: [GradientStop]) {
        self.init(startCenter: center, startRadius: 0, endCenter: center, endRadius: radius, stops: stops)
    }
}
