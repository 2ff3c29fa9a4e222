import Foundation

/// A timing curve mapping animation progress 0…1 to eased progress 0…1: a CSS-style cubic
/// Bézier through (0, 0), (x1, y1), (x2, y2), (1, 1), or linear.
public struct EasingCurve: Hashable, Sendable {
    /// First control point x, 0…1.
    public let x1: Double
    /// First control point y.
    public let y1: Double
    /// Second control point x, 0…1.
    public let x2: Double
    /// Second control point y.
    public let y2: Double

    /// Creates a cubic Bézier curve; control point x values are clamped to 0…1 so that the
    /// curve is a function of time.
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = min(max(x1, 0), 1); self.y1 = y1
        self.x2 = min(max(x2, 0), 1); self.y2 = y2
    }

    /// CSS `ease`, cubic-bezier(0.25, 0.1, 0.25, 1): MapLibre's default easing.
    public static let ease = EasingCurve(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)
    /// Constant speed.
    public static let linear = EasingCurve(x1: 0, y1: 0, x2: 1, y2: 1)
    /// CSS `ease-in-out`, cubic-bezier(0.42, 0, 0.58, 1).
    public static let easeInOut = EasingCurve(x1: 0.42, y1: 0, x2: 0.58, y2: 1)

    /// Eased progress at time fraction `t` (clamped to 0…1); exactly 0 at 0 and 1 at 1.
    public func value(at t: Double) -> Double {
        guard t.isFinite else { return t.isNaN ? 0 : (t > 0 ? 1 : 0) }
        if t <= 0 { return 0 }
        if t >= 1 { return 1 }
        if self == .linear { return t }
        let s = parameter(forX: t)
        return bezier(s, y1, y2)
    }

    /// B(s) for one coordinate: 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³.
    private func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }

    private func bezierSlope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }

    /// Solves x(s) = x: Newton's method from s = x, falling back to bisection (x(s) is
    /// monotonic for control x in 0…1), to 1e-14.
    private func parameter(forX x: Double) -> Double {
        var s = x
        for _ in 0..<8 {
            let err = bezier(s, x1, x2) - x
            if abs(err) < 1e-14 { return s }
            let slope = bezierSlope(s, x1, x2)
            if abs(slope) < 1e-9 { break }
            s = min(max(s - err / slope, 0), 1)
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<100 {
            let v = bezier(s, x1, x2)
            if abs(v - x) < 1e-14 { break }
            if v < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }
}
