import Foundation

/// When and how often an animation runs (Core Animation's model, as iOS developers know it):
/// nothing moves for `delay` seconds, then one pass takes `duration` seconds, played
/// `repeatCount` times (fractions allowed, `.infinity` = forever); with `autoreverses` each
/// repetition plays forwards and then backwards (so it lasts `2 · duration`). Before the delay an
/// animation shows its first value, after its last repetition the value it ended on.
public struct AnimationTiming: Hashable, Sendable {
    /// One pass, seconds (> 0).
    public var duration: Double
    /// Seconds before the first pass (≥ 0).
    public var delay: Double
    /// How many repetitions (≥ 0; `.infinity` for forever).
    public var repeatCount: Double
    /// Play each repetition forwards, then backwards.
    public var autoreverses: Bool
    /// The easing of each pass.
    public var easing: Easing

    /// Creates a timing; throws `MotionError` for a duration that is not a positive finite
    /// number, a negative or non-finite delay, or a negative / NaN repeat count.
    public init(duration: Double, delay: Double = 0, repeatCount: Double = 1, autoreverses: Bool = false,
                easing: Easing = .linear) throws(MotionError) {
        guard duration.isFinite, duration > 0 else {
            throw MotionError(parameter: "duration", reason: "\(duration) is not a positive number of seconds")
        }
        guard delay.isFinite, delay >= 0 else {
            throw MotionError(parameter: "delay", reason: "\(delay) is not a non-negative number of seconds")
        }
        guard !repeatCount.isNaN, repeatCount >= 0 else {
            throw MotionError(parameter: "repeat", reason: "\(repeatCount) is not a non-negative count")
        }
        self.duration = duration; self.delay = delay; self.repeatCount = repeatCount
        self.autoreverses = autoreverses; self.easing = easing
    }

    /// Seconds one repetition lasts (`2 · duration` when it autoreverses).
    public var cycle: Double { autoreverses ? 2 * duration : duration }

    /// Seconds from time 0 to the end of the last repetition (`.infinity` when it repeats forever).
    public var end: Double { repeatCount.isInfinite ? .infinity : delay + repeatCount * cycle }

    /// Linear progress through the current pass at time `t` seconds (0…1, before easing):
    /// `frac((t − delay) / duration)` forwards, `1 −` that on the way back.
    public func linearProgress(at t: Double) -> Double {
        guard t.isFinite else { return 0 }
        let local = t - delay
        if local <= 0 { return 0 }
        if repeatCount == 0 { return 0 }
        let passes = autoreverses ? 2 * repeatCount : repeatCount
        let x = local / duration
        if x >= passes {
            // Held at the end of the last pass (fractional counts stop part-way through a pass).
            let whole = passes.rounded(.down)
            let partial = passes - whole
            let forwardsLast: Bool
            if partial > 0 {
                forwardsLast = !autoreverses || Int(whole) % 2 == 0
                return forwardsLast ? partial : 1 - partial
            }
            forwardsLast = !autoreverses || Int(whole) % 2 == 1
            return forwardsLast ? 1 : 0
        }
        let k = x.rounded(.down)
        let frac = x - k
        if autoreverses, Int(k.truncatingRemainder(dividingBy: 2)) == 1 { return 1 - frac }
        return frac
    }

    /// Eased progress at time `t`: `easing.value(linearProgress(at: t))`.
    public func progress(at t: Double) -> Double { easing.value(linearProgress(at: t)) }
}
