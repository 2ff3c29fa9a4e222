/// A vector path made of subpaths: lines, cubic and quadratic Bézier curves and circular arcs,
/// in logical px (y down). A value type, like Quartz's `CGPath`.
///
/// Elements with a non-finite coordinate or radius are dropped (the path stays drawable).
public struct CanvasPath: Sendable, Hashable {
    /// One drawing instruction.
    public enum Element: Sendable, Hashable {
        /// Starts a new subpath at a point.
        case move(to: CanvasPoint)
        /// A straight line to a point.
        case line(to: CanvasPoint)
        /// A cubic Bézier curve to `to` with two control points.
        case curve(to: CanvasPoint, control1: CanvasPoint, control2: CanvasPoint)
        /// A quadratic Bézier curve to `to` with one control point.
        case quadCurve(to: CanvasPoint, control: CanvasPoint)
        /// A circular arc (angles in radians from +x towards +y, i.e. clockwise on screen).
        case arc(center: CanvasPoint, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool)
        /// Closes the current subpath with a line back to its start.
        case close
    }

    /// The elements in drawing order.
    public private(set) var elements: [Element] = []

    /// An empty path.
    public init() {}

    /// True when the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// Starts a new subpath at `point`.
    public mutating func move(to point: CanvasPoint) {
        if point.isFinite { elements.append(.move(to: point)) }
    }

    /// Adds a straight line from the current point to `point`.
    public mutating func addLine(to point: CanvasPoint) {
        if point.isFinite { elements.append(.line(to: point)) }
    }

    /// Adds a cubic Bézier curve from the current point to `point`.
    public mutating func addCurve(to point: CanvasPoint, control1: CanvasPoint, control2: CanvasPoint) {
        if point.isFinite, control1.isFinite, control2.isFinite {
            elements.append(.curve(to: point, control1: control1, control2: control2))
        }
    }

    /// Adds a quadratic Bézier curve from the current point to `point`.
    public mutating func addQuadCurve(to point: CanvasPoint, control: CanvasPoint) {
        if point.isFinite, control.isFinite { elements.append(.quadCurve(to: point, control: control)) }
    }

    /// Adds a circular arc around `center` (logical px) of `radius` (logical px) from `startAngle`
    /// to `endAngle` (radians, measured from +x towards +y — clockwise on screen, since y points
    /// down). `clockwise: true` sweeps in the direction of increasing angle (clockwise on screen).
    /// A line joins the current point to the arc's start, as in Quartz and Cairo.
    public mutating func addArc(
        center: CanvasPoint, radius: Double, startAngle: Double, endAngle: Double,
        clockwise: Bool = true
    ) {
        guard center.isFinite, radius.isFinite, radius >= 0, startAngle.isFinite, endAngle.isFinite else { return }
        elements.append(
            .arc(
                center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                clockwise: clockwise))
    }

    /// Closes the current subpath.
    public mutating func closeSubpath() {
        elements.append(.close)
    }

    /// Appends all elements of another path.
    public mutating func addPath(_ other: CanvasPath) {
        elements.append(contentsOf: other.elements)
    }

    /// Adds a closed rectangle (clockwise on screen).
    public mutating func addRect(_ rect: CanvasRect) {
        guard rect.isFinite else { return }
        move(to: CanvasPoint(x: rect.x, y: rect.y))
        addLine(to: CanvasPoint(x: rect.maxX, y: rect.y))
        addLine(to: CanvasPoint(x: rect.maxX, y: rect.maxY))
        addLine(to: CanvasPoint(x: rect.x, y: rect.maxY))
        closeSubpath()
    }

    /// Adds a closed rectangle with circular corners of `cornerRadius` (clamped to half the shorter side).
    public mutating func addRoundedRect(_ rect: CanvasRect, cornerRadius: Double) {
        guard rect.isFinite, cornerRadius.isFinite else { return }
        let r = max(0, min(cornerRadius, min(abs(rect.width), abs(rect.height)) / 2))
        if r == 0 { return addRect(rect) }
        let half = Double.pi / 2
        move(to: CanvasPoint(x: rect.x + r, y: rect.y))
        addArc(center: CanvasPoint(x: rect.maxX - r, y: rect.y + r), radius: r, startAngle: -half, endAngle: 0)
        addArc(center: CanvasPoint(x: rect.maxX - r, y: rect.maxY - r), radius: r, startAngle: 0, endAngle: half)
        addArc(center: CanvasPoint(x: rect.x + r, y: rect.maxY - r), radius: r, startAngle: half, endAngle: 2 * half)
        addArc(center: CanvasPoint(x: rect.x + r, y: rect.y + r), radius: r, startAngle: 2 * half, endAngle: 3 * half)
        closeSubpath()
    }

    /// Adds a closed circle.
    public mutating func addCircle(center: CanvasPoint, radius: Double) {
        guard center.isFinite, radius.isFinite, radius >= 0 else { return }
        move(to: CanvasPoint(x: center.x + radius, y: center.y))
        addArc(center: center, radius: radius, startAngle: 0, endAngle: 2 * Double.pi)
        closeSubpath()
    }

    /// Adds a closed ellipse inscribed in `rect` (four cubic Béziers, error under 0.03 % of the radius).
    public mutating func addEllipse(in rect: CanvasRect) {
        guard rect.isFinite else { return }
        // Control-point distance for a quarter circle: 4/3·(√2 − 1) ≈ 0.5523 (standard result).
        let k = 0.552_284_749_831
        let c = rect.center
        let rx = rect.width / 2, ry = rect.height / 2
        move(to: CanvasPoint(x: c.x + rx, y: c.y))
        addCurve(
            to: CanvasPoint(x: c.x, y: c.y + ry), control1: CanvasPoint(x: c.x + rx, y: c.y + k * ry),
            control2: CanvasPoint(x: c.x + k * rx, y: c.y + ry))
        addCurve(
            to: CanvasPoint(x: c.x - rx, y: c.y), control1: CanvasPoint(x: c.x - k * rx, y: c.y + ry),
            control2: CanvasPoint(x: c.x - rx, y: c.y + k * ry))
        addCurve(
            to: CanvasPoint(x: c.x, y: c.y - ry), control1: CanvasPoint(x: c.x - rx, y: c.y - k * ry),
            control2: CanvasPoint(x: c.x - k * rx, y: c.y - ry))
        addCurve(
            to: CanvasPoint(x: c.x + rx, y: c.y), control1: CanvasPoint(x: c.x + k * rx, y: c.y - ry),
            control2: CanvasPoint(x: c.x + rx, y: c.y - k * ry))
        closeSubpath()
    }

    /// A path holding one closed rectangle.
    public static func rect(_ rect: CanvasRect) -> CanvasPath {
        var p = CanvasPath()
        p.addRect(rect)
        return p
    }

    /// A path holding one closed circle.
    public static func circle(center: CanvasPoint, radius: Double) -> CanvasPath {
        var p = CanvasPath()
        p.addCircle(center: center, radius: radius)
        return p
    }

    /// A path holding one open polyline through `points`.
    public static func polyline(_ points: [CanvasPoint]) -> CanvasPath {
        var p = CanvasPath()
        for (i, point) in points.enumerated() {
            if i == 0 { p.move(to: point) } else { p.addLine(to: point) }
        }
        return p
    }
}
