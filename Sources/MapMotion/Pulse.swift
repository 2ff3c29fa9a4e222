import Foundation
import GeoKit
import MapScene

/// A pulsing circle, the "you are here / estimated region" halo of the iOS Maps app: a filled
/// disc whose radius runs from `scale.from` to `scale.to` times `radius` while its opacity runs
/// from `opacity.from` to `opacity.to`, over `period` seconds, again and again.
///
/// With a radius in metres the disc is a true geodesic circle at every scale (it keeps its size
/// on the ground as the map zooms); in pixels it keeps its size on screen.
public struct Pulse: AnimatedLayer {
    /// Centre, degrees.
    public var center: LatLng
    /// The radius the scale multiplies: metres (geodesic) or pixels.
    public var radius: Length
    /// The disc's colour, multiplied by the animated opacity.
    public var color: Color
    /// How the pulse runs (default: 0.8 s, linear, forever).
    public var timing: AnimationTiming
    /// Radius multipliers at the start and end of a pulse (default 0.8 → 1.2).
    public var scale: (from: Double, to: Double)
    /// Opacity at the start and end of a pulse (default 0.5 → 0.05).
    public var opacity: (from: Double, to: Double)
    /// Drawing order; nil takes the circles' default.
    public var zIndex: Int?

    /// The iOS constants: 0.8 s, radius 0.8 → 1.2, opacity 0.5 → 0.05, linear, forever.
    public static let defaultPeriod = 0.8
    /// Default radius multipliers.
    public static let defaultScale = (from: 0.8, to: 1.2)
    /// Default opacities.
    public static let defaultOpacity = (from: 0.5, to: 0.05)

    /// Creates a pulse; throws `MotionError` for an invalid centre, radius, period, scale or opacity.
    public init(center: LatLng, radius: Length, color: Color = Color(rgb: 0xFF3B30),
                period: Double = Pulse.defaultPeriod, scale: (from: Double, to: Double) = Pulse.defaultScale,
                opacity: (from: Double, to: Double) = Pulse.defaultOpacity, easing: Easing = .linear,
                delay: Double = 0, zIndex: Int? = nil) throws(MotionError) {
        guard center.isValid else {
            throw MotionError(parameter: "center", reason: "invalid position \(center.lat),\(center.lon)")
        }
        guard radius.value.isFinite, radius.value > 0 else {
            throw MotionError(parameter: "radius", reason: "\(radius.value) is not a positive radius")
        }
        guard [scale.from, scale.to].allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 100 }) else {
            throw MotionError(parameter: "scale", reason: "\(scale.from),\(scale.to): scales must be in 0…100")
        }
        guard [opacity.from, opacity.to].allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) else {
            throw MotionError(parameter: "opacity", reason: "\(opacity.from),\(opacity.to): opacities must be in 0…1")
        }
        if case .meters(let m) = radius, m * max(scale.from, scale.to) > Circle.maxRadiusMeters {
            throw MotionError(parameter: "radius", reason: "\(m) m scaled by \(max(scale.from, scale.to)) exceeds \(Int(Circle.maxRadiusMeters)) m")
        }
        if case .pixels(let p) = radius, p * max(scale.from, scale.to) > 10_000 {
            throw MotionError(parameter: "radius", reason: "\(p) px scaled by \(max(scale.from, scale.to)) exceeds 10000 px")
        }
        self.center = center; self.radius = radius; self.color = color
        self.timing = try AnimationTiming(duration: period, delay: delay, repeatCount: .infinity, easing: easing)
        self.scale = scale; self.opacity = opacity; self.zIndex = zIndex
    }

    /// Radius multiplier and opacity at time `t`.
    public func state(at t: Double) -> (scale: Double, opacity: Double) {
        let p = timing.progress(at: t)
        return (scale.from + (scale.to - scale.from) * p, opacity.from + (opacity.to - opacity.from) * p)
    }

    /// One filled circle, no rim.
    public func overlays(at t: Double) -> [Overlay] {
        let (s, o) = state(at: t)
        let r: Length = switch radius {
        case .meters(let m): .meters(m * s)
        case .pixels(let p): .pixels(p * s)
        }
        guard r.value > 0, let c = try? Circle(center: center, radius: r, fill: color.withOpacity(o), stroke: nil,
                                               strokeWidth: 0, zIndex: zIndex) else { return [] }
        return [.circle(c)]
    }
}
