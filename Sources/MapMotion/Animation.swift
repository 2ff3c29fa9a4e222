import Foundation
import GeoKit
import MapScene

/// A value that can be blended between two keyframes.
public protocol Interpolatable: Sendable {
    /// The value a fraction `t` (0…1) of the way from `a` to `b`.
    static func interpolate(_ a: Self, _ b: Self, _ t: Double) -> Self
}

extension Double: Interpolatable {
    /// `a + (b − a)·t`.
    public static func interpolate(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }
}

extension Color: Interpolatable {
    /// Each 8-bit channel (straight alpha) blended linearly and rounded.
    public static func interpolate(_ a: Color, _ b: Color, _ t: Double) -> Color {
        func mix(_ x: UInt8, _ y: UInt8) -> UInt8 {
            UInt8(max(0, min(255, (Double(x) + (Double(y) - Double(x)) * t).rounded())))
        }
        return Color(r: mix(a.r, b.r), g: mix(a.g, b.g), b: mix(a.b, b.b), a: mix(a.a, b.a))
    }
}

extension LatLng: Interpolatable {
    /// Latitude and longitude blended linearly (a straight line on the Mercator map for short hops).
    public static func interpolate(_ a: LatLng, _ b: LatLng, _ t: Double) -> LatLng {
        LatLng(lat: a.lat + (b.lat - a.lat) * t, lon: a.lon + (b.lon - a.lon) * t)
    }
}

/// One keyframe: a value at an offset (0…1) through a pass, and the easing towards the next one.
public struct Keyframe<Value: Interpolatable>: Sendable {
    /// Where in the pass, 0…1.
    public var offset: Double
    /// The value there.
    public var value: Value
    /// Easing from this keyframe to the next (CSS applies timing functions per keyframe interval).
    public var easing: Easing

    /// Creates a keyframe.
    public init(offset: Double, value: Value, easing: Easing = .linear) {
        self.offset = offset; self.value = value; self.easing = easing
    }
}

/// A value animated over time: keyframes through one pass, run by an `AnimationTiming`.
/// `value(at: t)` is a pure function of the time in seconds, so frame N of an export at F fps is
/// exactly `value(at: N / F)`.
public struct Animation<Value: Interpolatable>: Sendable {
    /// Keyframes in increasing offset order, the first at 0 and the last at 1.
    public let keyframes: [Keyframe<Value>]
    /// When and how often.
    public let timing: AnimationTiming

    /// Creates an animation; throws `MotionError` unless there are at least two keyframes with
    /// finite offsets increasing from 0 to 1.
    public init(keyframes: [Keyframe<Value>], timing: AnimationTiming) throws(MotionError) {
        guard keyframes.count >= 2 else {
            throw MotionError(parameter: "keyframes", reason: "an animation needs at least two keyframes")
        }
        guard keyframes.first?.offset == 0, keyframes.last?.offset == 1 else {
            throw MotionError(parameter: "keyframes", reason: "the first keyframe must be at offset 0 and the last at 1")
        }
        for i in 1..<keyframes.count where !(keyframes[i].offset.isFinite && keyframes[i].offset >= keyframes[i - 1].offset) {
            throw MotionError(parameter: "keyframes[\(i)].offset", reason: "offsets must increase from 0 to 1")
        }
        self.keyframes = keyframes
        self.timing = timing
    }

    /// From one value to another over one pass.
    public init(from: Value, to: Value, timing: AnimationTiming) {
        keyframes = [Keyframe(offset: 0, value: from), Keyframe(offset: 1, value: to)]
        self.timing = timing
    }

    /// Evenly spaced values (at least two) over one pass.
    public init(values: [Value], timing: AnimationTiming) throws(MotionError) {
        guard values.count >= 2 else {
            throw MotionError(parameter: "values", reason: "an animation needs at least two values")
        }
        let n = Double(values.count - 1)
        try self.init(keyframes: values.enumerated().map { Keyframe(offset: Double($0.offset) / n, value: $0.element) },
                      timing: timing)
    }

    /// The value at time `t` seconds.
    public func value(at t: Double) -> Value { value(atProgress: timing.progress(at: t)) }

    /// The value at eased progress `p` through a pass (0…1).
    public func value(atProgress p: Double) -> Value {
        let p = p.isNaN ? 0 : min(max(p, 0), 1)
        // The last keyframe whose offset is ≤ p (binary search; keyframes are few).
        var lo = 0, hi = keyframes.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if keyframes[mid].offset <= p { lo = mid } else { hi = mid }
        }
        let a = keyframes[lo], b = keyframes[hi]
        let span = b.offset - a.offset
        guard span > 0 else { return p >= b.offset ? b.value : a.value }
        let local = a.easing.value((p - a.offset) / span)
        return Value.interpolate(a.value, b.value, local)
    }
}
