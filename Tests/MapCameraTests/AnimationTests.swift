import Foundation
import GeoKit
import MapTestSupport
import Testing
@testable import MapCamera

/// A clock the test advances by hand.
final class TestClock {
    var now = 0.0
}

@Suite struct AnimationTests {
    static let size = ScreenSize(width: 800, height: 600)
    static let a = Camera(center: LatLng(lat: 51.5074, lon: -0.1278), zoom: 10, size: size)
    static let b = Camera(center: LatLng(lat: 40.7128, lon: -74.006), zoom: 11, bearing: 90, pitch: 40, size: size)

    /// CSS `ease` values from scripts/fixtures/camera_animation_fixtures.py (bisection in
    /// Python): 0.25 → 0.40851059135539586, 0.5 → 0.802403387584857, 0.75 → 0.9604589783489741.
    @Test(arguments: [(0.25, 0.40851059135539586), (0.5, 0.802403387584857), (0.75, 0.9604589783489741)])
    func cubicBezierEase(_ c: (Double, Double)) {
        // tolerance 1e-12: both solve x(s) = t to ~1e-14
        expectNear(EasingCurve.ease.value(at: c.0), c.1, tolerance: 1e-12)
    }

    @Test func easingEnds() {
        for curve in [EasingCurve.ease, .linear, .easeInOut] {
            #expect(curve.value(at: 0) == 0 && curve.value(at: 1) == 1)
            #expect(curve.value(at: -1) == 0 && curve.value(at: 2) == 1)
        }
        expectNear(EasingCurve.easeInOut.value(at: 0.5), 0.5, tolerance: 1e-12)  // symmetric curve
    }

    /// Drives an animator at exactly 60 Hz and records every frame.
    static func run(_ start: (CameraAnimator) -> Void, frames: Int) -> [Camera] {
        let clock = TestClock()
        let animator = CameraAnimator(camera: a) { clock.now }
        var seen: [Camera] = []
        animator.onFrame = { seen.append($0) }
        start(animator)
        for i in 1...frames {
            clock.now = Double(i) / 60
            animator.frame()
        }
        return seen
    }

    /// Linear ease over 1 s at 60 Hz: frame 30 is halfway in zoom (10.5), pitch (20), bearing
    /// (45) and in Mercator position; frame 60 is the target exactly; frames after the end
    /// are not produced; two runs are identical.
    @Test func easeAtSixtyHertz() throws {
        let frames = Self.run({ $0.ease(to: Self.b, duration: 1, easing: .linear) }, frames: 90)
        #expect(frames.count == 60)
        let mid = frames[29]
        expectNear(mid.zoom, 10.5, tolerance: 1e-12)
        expectNear(mid.pitch, 20, tolerance: 1e-12)
        expectNear(mid.bearing, 45, tolerance: 1e-12)
        expectNear(mercY(mid.center.lat), (mercY(51.5074) + mercY(40.7128)) / 2, tolerance: 1e-12)
        expectNear(mid.center.lon, (-0.1278 - 74.006) / 2, tolerance: 1e-9)
        #expect(frames.last == Self.b.constrained())
        let again = Self.run({ $0.ease(to: Self.b, duration: 1, easing: .linear) }, frames: 90)
        #expect(again == frames)
        // With the default curve, frame 30 is at the CSS ease value 0.802403387584857.
        let eased = Self.run({ $0.ease(to: Self.b, duration: 1) }, frames: 60)
        expectNear(eased[29].zoom, 10 + 0.802403387584857, tolerance: 1e-12)
    }

    /// Bearing eases the short way: 170° → −170° passes 180°, not 0°.
    @Test func bearingShortWay() {
        var s = Self.a
        s.bearing = 170
        var e = Self.a
        e.bearing = -170
        let t = CameraTransition.ease(from: s, to: e, duration: 1, easing: .linear)
        expectNear(abs(t.camera(at: 0.5).bearing), 180, tolerance: 1e-9)
    }

    /// Interrupting: a second ease started at frame 30 begins where the first one is then,
    /// and the camera never jumps.
    @Test func interruptible() throws {
        let clock = TestClock()
        let animator = CameraAnimator(camera: Self.a) { clock.now }
        animator.ease(to: Self.b, duration: 1, easing: .linear)
        for i in 1...30 {
            clock.now = Double(i) / 60
            animator.frame()
        }
        let at30 = animator.camera
        expectNear(at30.zoom, 10.5, tolerance: 1e-12)
        var c = Self.a
        c.zoom = 3
        animator.ease(to: c, duration: 0.5, easing: .linear)
        let t = try #require(animator.transition)
        #expect(t.start == at30.constrained())
        clock.now = 31.0 / 60
        animator.frame()
        // 1/60 s of a 0.5 s ease from 10.5 to 3: 10.5 − 7.5/30
        expectNear(animator.camera.zoom, 10.5 - 7.5 / 30, tolerance: 1e-12)
        animator.stop()
        #expect(!animator.isAnimating)
        clock.now = 2
        #expect(animator.frame() == false)
        expectNear(animator.camera.zoom, 10.5 - 7.5 / 30, tolerance: 1e-12)
    }

    /// Fly London z10 → New York z11 in 800×600, ρ = 1.42. From the van Wijk formula
    /// (scripts/fixtures/camera_animation_fixtures.py, Mercator from pyproj): u₁ =
    /// 109978.66454653205 px, r₀ = −5.624746936300261, S = 8.410317474333237, the widest
    /// point at s* = 3.9610893917607477 where the zoom is 2.8851867138023994.
    /// With linear easing and duration 2·S/s* seconds, frame 120 (2 s) lands on s*.
    @Test func flyPassesMinimumZoom() throws {
        let end = Camera(center: LatLng(lat: 40.7128, lon: -74.006), zoom: 11, size: Self.size)
        let probe = CameraTransition.fly(from: Self.a, to: end, easing: .linear)
        let path = try #require(probe.flyPath)
        expectNear(path.u1, 109978.66454653205, tolerance: 1e-6)
        expectNear(path.r0, -5.624746936300261, tolerance: 1e-10)
        expectNear(path.length, 8.410317474333237, tolerance: 1e-10)
        expectNear(path.minimumZoom, 2.8851867138023994, tolerance: 1e-10)
        // Default duration: S / 1.2 screenfuls per second (MapLibre's speed).
        expectNear(probe.duration, 8.410317474333237 / 1.2, tolerance: 1e-10)

        let duration = 2 * 8.410317474333237 / 3.9610893917607477
        let frames = Self.run({ $0.fly(to: end, duration: duration, easing: .linear) }, frames: 400)
        let zooms = frames.map(\.zoom)
        // tolerance 1e-9 zoom: the frame sits on s* up to rounding; the zoom is flat there
        expectNear(zooms[119], 2.8851867138023994, tolerance: 1e-9)
        #expect(zooms.allSatisfy { $0 >= 2.8851867138023994 - 1e-9 })
        #expect(frames.last == end.constrained())
        // Reproducible frame for frame.
        #expect(Self.run({ $0.fly(to: end, duration: duration, easing: .linear) }, frames: 400) == frames)
        // Halfway in distance travelled at s*: u(s*)/u₁ = w₀(cosh r₀·tanh 0 − sinh r₀)/(ρ²u₁).
        let uStar = 800 * (-sinh(-5.624746936300261)) / (1.42 * 1.42) / 109978.66454653205
        expectNear(path.travelled(atDistance: 3.9610893917607477), uStar, tolerance: 1e-9)
    }

    /// A fly with no distance is a pure zoom: S = |ln(w₁/w₀)|/ρ = ln 2^3 / 1.42 for 3 levels.
    @Test func flyPureZoom() throws {
        var end = Self.a
        end.zoom = 13
        let t = CameraTransition.fly(from: Self.a, to: end, easing: .linear)
        let path = try #require(t.flyPath)
        expectNear(path.length, 3 * log(2) / 1.42, tolerance: 1e-12)
        expectNear(t.camera(atProgress: 0.5).zoom, 11.5, tolerance: 1e-12)
        // tolerance 1e-12°: the Mercator round trip of the unmoved centre
        expectNear(t.camera(atProgress: 0.5).center, Self.a.center, tolerance: 1e-12)
    }

    @Test func nonFiniteTargetsDoNotMove() {
        var bad = Self.b
        bad.zoom = .nan
        let t = CameraTransition.ease(from: Self.a, to: bad, duration: 1)
        let mid = t.camera(at: 0.5)
        #expect(mid.zoom == Self.a.zoom)
        expectNear(mid.center, Self.a.center, tolerance: 1e-12)
        #expect(CameraTransition.ease(from: Self.a, to: Self.b, duration: .nan).camera(at: 0) == Self.b.constrained())
    }
}
