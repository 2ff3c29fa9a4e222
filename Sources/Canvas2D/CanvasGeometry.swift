/// A point in a canvas's user space: logical pixels, origin top-left, y down.
public struct CanvasPoint: Sendable, Hashable {
    /// Horizontal coordinate, logical px, growing rightwards.
    public var x: Double
    /// Vertical coordinate, logical px, growing downwards.
    public var y: Double

    /// Creates a point from its coordinates in logical px.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin (0, 0).
    public static let zero = CanvasPoint(x: 0, y: 0)

    var isFinite: Bool { x.isFinite && y.isFinite }
}

/// An axis-aligned rectangle in logical px (origin top-left, y down).
public struct CanvasRect: Sendable, Hashable {
    /// Left edge, logical px.
    public var x: Double
    /// Top edge, logical px.
    public var y: Double
    /// Width, logical px.
    public var width: Double
    /// Height, logical px.
    public var height: Double

    /// Creates a rectangle from its top-left corner and size, in logical px.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The right edge `x + width`.
    public var maxX: Double { x + width }
    /// The bottom edge `y + height`.
    public var maxY: Double { y + height }
    /// The centre point.
    public var center: CanvasPoint { CanvasPoint(x: x + width / 2, y: y + height / 2) }

    var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }
}
