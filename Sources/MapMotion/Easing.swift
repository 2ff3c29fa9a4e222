import Foundation
import MapCamera
import MapScene

/// How an animation moves between two values: maps linear progress 0…1 to eased progress.
///
/// The curves are CSS's (CSS Easing Functions Level 1): `linear`, `cubic-bezier(x1, y1, x2, y2)`
/// with the named presets `ease`, `ease-in`, `ease-out`, `ease-in-out`, and `steps(n, jump-start |
/// jump-end)`.
public enum Easing: Hashable, Sendable, CustomStringConvertible {
    /// Constant speed.
    case linear
    /// A CSS cubic Bézier through (0, 0), (x1, y1), (x2, y2), (1, 1).
    case cubicBezier(EasingCurve)
    /// `count` equal jumps; `jumpStart` jumps at the start of each interval (CSS `jump-start`),
    /// otherwise at its end (`jump-end`, the CSS default).
    case steps(Int, jumpStart: Bool)

    /// CSS `ease`, cubic-bezier(0.25, 0.1, 0.25, 1).
    public static let ease = Easing.cubicBezier(.ease)
    /// CSS `ease-in`, cubic-bezier(0.42, 0, 1, 1).
    public static let easeIn = Easing.cubicBezier(EasingCurve(x1: 0.42, y1: 0, x2: 1, y2: 1))
    /// CSS `ease-out`, cubic-bezier(0, 0, 0.58, 1).
    public static let easeOut = Easing.cubicBezier(EasingCurve(x1: 0, y1: 0, x2: 0.58, y2: 1))
    /// CSS `ease-in-out`, cubic-bezier(0.42, 0, 0.58, 1).
    public static let easeInOut = Easing.cubicBezier(.easeInOut)
    /// CSS `step-start` = steps(1, jump-start).
    public static let stepStart = Easing.steps(1, jumpStart: true)
    /// CSS `step-end` = steps(1, jump-end).
    public static let stepEnd = Easing.steps(1, jumpStart: false)

    /// Eased progress for linear progress `p` (clamped to 0…1; NaN counts as 0).
    public func value(_ p: Double) -> Double {
        let x = p.isNaN ? 0 : min(max(p, 0), 1)
        switch self {
        case .linear: return x
        case .cubicBezier(let curve): return curve.value(at: x)
        case .steps(let n, let jumpStart):
            let count = Double(max(1, n))
            if x >= 1 { return 1 }
            let step = (x * count).rounded(.down) + (jumpStart ? 1 : 0)
            return min(step / count, 1)
        }
    }

    /// Parses CSS syntax: `linear`, `ease`, `ease-in`, `ease-out`, `ease-in-out`, `step-start`,
    /// `step-end`, `cubic-bezier(x1, y1, x2, y2)` (x1, x2 in 0…1) or `steps(n[, start|end|jump-start|jump-end])`.
    /// Throws `MotionError` saying why.
    public init(parsing text: String) throws(MotionError) {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch s {
        case "linear": self = .linear; return
        case "ease": self = .ease; return
        case "ease-in": self = .easeIn; return
        case "ease-out": self = .easeOut; return
        case "ease-in-out": self = .easeInOut; return
        case "step-start": self = .stepStart; return
        case "step-end": self = .stepEnd; return
        default: break
        }
        func arguments(_ name: String) -> [String]? {
            guard s.hasPrefix(name + "("), s.hasSuffix(")") else { return nil }
            return s.dropFirst(name.count + 1).dropLast().split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        if let a = arguments("cubic-bezier") {
            let v = a.compactMap(Double.init)
            guard a.count == 4, v.count == 4, v.allSatisfy(\.isFinite) else {
                throw MotionError(parameter: "easing", reason: "'\(text)': cubic-bezier takes four numbers")
            }
            guard (0...1).contains(v[0]), (0...1).contains(v[2]) else {
                throw MotionError(parameter: "easing", reason: "'\(text)': cubic-bezier x1 and x2 must be in 0…1")
            }
            self = .cubicBezier(EasingCurve(x1: v[0], y1: v[1], x2: v[2], y2: v[3]))
            return
        }
        if let a = arguments("steps") {
            guard (1...2).contains(a.count), let n = Int(a[0]), n >= 1, n <= 10_000 else {
                throw MotionError(parameter: "easing", reason: "'\(text)': steps takes a count 1…10000 and start or end")
            }
            let position = a.count == 2 ? a[1] : "end"
            switch position {
            case "start", "jump-start": self = .steps(n, jumpStart: true)
            case "end", "jump-end": self = .steps(n, jumpStart: false)
            default: throw MotionError(parameter: "easing", reason: "'\(text)': step position must be start or end")
            }
            return
        }
        throw MotionError(parameter: "easing", reason: "unknown easing '\(text)' (expected linear, ease, ease-in, "
            + "ease-out, ease-in-out, step-start, step-end, cubic-bezier(…) or steps(…))")
    }

    /// CSS text of the curve.
    public var description: String {
        switch self {
        case .linear: return "linear"
        case .cubicBezier(let c): return "cubic-bezier(\(c.x1), \(c.y1), \(c.x2), \(c.y2))"
        case .steps(let n, let start): return "steps(\(n), \(start ? "jump-start" : "jump-end"))"
        }
    }
}

/// An invalid animation value: which parameter (e.g. `duration`, `keyframes[2].offset`) and why;
/// the same shape as the scene's errors.
public typealias MotionError = SceneError
