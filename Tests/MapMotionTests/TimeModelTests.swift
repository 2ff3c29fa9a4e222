import Foundation
import GeoKit
import MapMotion
import MapScene
import MapTestSupport
import Testing

/// The time model: CSS easings, Core Animation timing (delay, repeat, autoreverse), keyframes.
struct TimeModelTests {
    /// CSS's named cubic Béziers against an independent bisection of the Bézier definition
    /// (Python, 200 halvings; values in the comment of each row), ±1e-9.
    @Test(arguments: [
        (Easing.ease, [0.09479630571604328, 0.40851059135539586, 0.802403387584857, 0.9756253556235667]),
        (Easing.easeIn, [0.017026609651562948, 0.09346465071882484, 0.31535681257253945, 0.6916339333193131]),
        (Easing.easeOut, [0.16057215423753346, 0.37813813082510966, 0.6846431874274606, 0.9377179998632676]),
        (Easing.easeInOut, [0.019722453548311196, 0.1291619310473198, 0.5, 0.9183401437341024]),
    ])
    func namedCurvesMatchTheBezierDefinition(easing: Easing, expected: [Double]) {
        for (x, y) in zip([0.1, 0.25, 0.5, 0.8], expected) {
            expectNear(easing.value(x), y, tolerance: 1e-9, "\(easing) at \(x)")
        }
        #expect(easing.value(0) == 0 && easing.value(1) == 1)
    }

    /// CSS steps(): jump-end holds the lower value, jump-start the upper (spec examples).
    @Test func steps() throws {
        let end = try Easing(parsing: "steps(4, end)"), start = try Easing(parsing: "steps(4, start)")
        #expect(end.value(0) == 0 && end.value(0.3) == 0.25 && end.value(0.99) == 0.75 && end.value(1) == 1)
        #expect(start.value(0) == 0.25 && start.value(0.3) == 0.5 && start.value(0.8) == 1)
        #expect(try Easing(parsing: "step-end").value(0.5) == 0)
        #expect(try Easing(parsing: "step-start").value(0.5) == 1)
    }

    @Test func parsingErrorsSayWhy() {
        #expect(throws: MotionError.self) { try Easing(parsing: "bouncy") }
        #expect(throws: MotionError.self) { try Easing(parsing: "cubic-bezier(1.5, 0, 0.5, 1)") }
        #expect(throws: MotionError.self) { try Easing(parsing: "steps(0)") }
        #expect((try? Easing(parsing: "cubic-bezier(0, 0, 1, 1)"))?.value(0.37) ?? 0 == 0.37)
    }

    /// Hand-derived: duration 2 s, delay 1 s, two repetitions that autoreverse (each 4 s).
    @Test func delayRepeatAndAutoreverse() throws {
        let t = try AnimationTiming(duration: 2, delay: 1, repeatCount: 2, autoreverses: true)
        #expect(t.end == 9)
        #expect(t.linearProgress(at: 0.5) == 0)       // before the delay: the first value
        #expect(t.linearProgress(at: 1.5) == 0.25)    // forwards
        #expect(t.linearProgress(at: 3.5) == 0.75)    // backwards: 1 − 0.25
        #expect(t.linearProgress(at: 5.5) == 0.25)    // second repetition, forwards again
        #expect(t.linearProgress(at: 20) == 0)        // ended on the way back
        let once = try AnimationTiming(duration: 2, repeatCount: 1.5)
        #expect(once.linearProgress(at: 2.5) == 0.25)
        #expect(once.linearProgress(at: 100) == 0.5)  // stopped half-way through the second pass
        let forever = try AnimationTiming(duration: 0.8, repeatCount: .infinity)
        #expect(forever.end.isInfinite)
        expectNear(forever.linearProgress(at: 1000.2), 0.2 / 0.8, tolerance: 1e-9)
        #expect(throws: MotionError.self) { try AnimationTiming(duration: 0) }
        #expect(throws: MotionError.self) { try AnimationTiming(duration: .nan) }
        #expect(throws: MotionError.self) { try AnimationTiming(duration: 1, delay: -1) }
    }

    @Test func keyframesInterpolateWithTheirOwnEasing() throws {
        let timing = try AnimationTiming(duration: 1)
        let a = try Animation(values: [0.0, 10, 0], timing: timing)
        #expect(a.value(at: 0.25) == 5 && a.value(at: 0.5) == 10 && a.value(at: 0.75) == 5)
        let stepped = try Animation(keyframes: [Keyframe(offset: 0, value: 0.0, easing: .stepEnd), Keyframe(offset: 1, value: 8.0)],
                                    timing: timing)
        #expect(stepped.value(at: 0.9) == 0)
        let c = Animation(from: Color(rgb: 0x000000), to: Color(rgb: 0xFF8000, alpha: 0), timing: timing)
        #expect(c.value(at: 0.5) == Color(r: 128, g: 64, b: 0, a: 128))
        #expect(throws: MotionError.self) { try Animation(keyframes: [Keyframe(offset: 0.2, value: 1.0), Keyframe(offset: 1, value: 2.0)], timing: timing) }
    }

    /// Frame N at F fps is t = N / F; limits on fps, duration and frame count.
    @Test func frameClock() throws {
        let c = try FrameClock(duration: 2, fps: 30)
        #expect(c.frameCount == 60 && c.time(ofFrame: 45) == 1.5)
        #expect(try FrameClock(duration: 0.1, fps: 25).frameCount == 3)
        #expect(throws: MotionError.self) { try FrameClock(duration: 1, fps: 0) }
        #expect(throws: MotionError.self) { try FrameClock(duration: 1, fps: 121) }
        #expect(throws: MotionError.self) { try FrameClock(duration: 601, fps: 1) }
        #expect(throws: MotionError.self) { try FrameClock(duration: 400, fps: 60) }
    }

    /// The pulse's state is 0.8 + 0.4·frac(t/0.8) and 0.5 − 0.45·frac(t/0.8) (the iOS constants).
    @Test func pulseState() throws {
        let p = try Pulse(center: LatLng(lat: 1, lon: 2), radius: .meters(100))
        for t in stride(from: 0.0, to: 3, by: 0.07) {
            let x = t / 0.8, f = x - x.rounded(.down)
            let s = p.state(at: t)
            expectNear(s.scale, 0.8 + 0.4 * f, tolerance: 1e-12)
            expectNear(s.opacity, 0.5 - 0.45 * f, tolerance: 1e-12)
        }
        guard case .circle(let c) = p.overlays(at: 0.4).first, case .meters(let r) = c.radius else {
            Issue.record("not a metric circle"); return
        }
        expectNear(r, 100, tolerance: 1e-9)
        #expect(c.stroke == nil && c.fill.a == UInt8((0.275 * 255).rounded()))
        #expect(throws: MotionError.self) { try Pulse(center: LatLng(lat: 1, lon: 2), radius: .meters(-1)) }
        #expect(throws: MotionError.self) { try Pulse(center: LatLng(lat: 1, lon: 2), radius: .pixels(10), period: 0) }
    }
}
