import Foundation
import GeoKit

/// A camera move from one camera to another over a duration, as a pure function of elapsed
/// time: `camera(at:)` is exact and reproducible for any time, so a test clock stepping at
/// 60 Hz sees the same frames every run, and the last frame is the target exactly.
public struct CameraTransition: Sendable {
    /// How the camera travels.
    public enum Path: Sendable, Equatable {
        /// Zoom, pitch and padding linearly, the bearing the short way round, the centre in a
        /// straight line in Web Mercator (MapLibre's `easeTo` without its pan speed-up).
        case ease
        /// The zoom-out-and-in path of van Wijk & Nuij, "Smooth and efficient zooming and
        /// panning" (2003), with curvature ρ (MapLibre's `flyTo`; its default ρ is 1.42).
        case fly(rho: Double)
    }

    /// The camera at the start.
    public let start: Camera
    /// The camera at the end (constrained).
    public let end: Camera
    /// Duration in seconds.
    public let duration: Double
    /// The timing curve applied to elapsed time / duration.
    public let easing: EasingCurve
    /// The path.
    public let path: Path

    // Geometry in start-zoom world pixels, computed once.
    private let from: MapPoint  // normalised Mercator, x unwrapped towards `to`
    private let to: MapPoint
    private let endBearing: Double  // unwrapped so the rotation takes the short way
    private let fly: FlyPath?

    /// Creates an ease from `start` to `end` over `duration` seconds with an easing curve.
    public static func ease(
        from start: Camera, to end: Camera, duration: Double,
        easing: EasingCurve = .ease
    ) -> CameraTransition {
        CameraTransition(start: start, end: end, duration: duration, easing: easing, path: .ease)
    }

    /// Creates a fly-to from `start` to `end`. With no `duration`, it lasts `S / speed`
    /// seconds where S is the path length in ρ-screenfuls (MapLibre's default speed 1.2).
    public static func fly(
        from start: Camera, to end: Camera, duration: Double? = nil,
        rho: Double = 1.42, speed: Double = 1.2,
        easing: EasingCurve = .ease
    ) -> CameraTransition {
        let r = rho.isFinite && rho > 0 ? rho : 1.42
        var t = CameraTransition(start: start, end: end, duration: 0, easing: easing, path: .fly(rho: r))
        let length = t.fly?.length ?? 0
        let d = duration ?? (speed.isFinite && speed > 0 ? length / speed : 0)
        t = CameraTransition(start: start, end: end, duration: d, easing: easing, path: .fly(rho: r))
        return t
    }

    init(start: Camera, end: Camera, duration: Double, easing: EasingCurve, path: Path) {
        let s = start.constrained()
        var e = end.constrained()
        if !e.isFinite { e = s }
        self.start = s
        self.end = e
        self.duration = duration.isFinite && duration > 0 ? duration : 0
        self.easing = easing
        self.path = path
        let f = s.centerMapPoint
        var t = e.centerMapPoint
        t.x -= (t.x - f.x).rounded()  // the short way round the antimeridian
        from = f
        to = t
        endBearing = s.bearing + Camera.normalizedBearing(e.bearing - s.bearing)
        if case .fly(let rho) = path {
            fly = FlyPath(start: s, from: f, to: t, endZoom: e.zoom, rho: rho)
        } else {
            fly = nil
        }
    }

    /// The fly-to path's parameters (nil for an ease).
    public var flyPath: FlyPath? { fly }

    /// True when `elapsed` seconds have reached the end.
    public func isFinished(at elapsed: Double) -> Bool { elapsed >= duration }

    /// The camera `elapsed` seconds after the start: the start before 0, the end (exactly)
    /// from `duration` on.
    public func camera(at elapsed: Double) -> Camera {
        guard elapsed.isFinite else { return elapsed.isNaN ? start : (elapsed > 0 ? end : start) }
        if elapsed >= duration { return end }
        if elapsed <= 0 { return start }
        return camera(atProgress: easing.value(at: elapsed / duration))
    }

    /// The camera at eased progress k in 0…1 along the path.
    public func camera(atProgress k: Double) -> Camera {
        if k >= 1 { return end }
        if k <= 0 { return start }
        var c = start
        c.bearing = Camera.normalizedBearing(lerp(start.bearing, endBearing, k))
        c.pitch = lerp(start.pitch, end.pitch, k)
        c.padding = EdgeInsets(
            top: lerp(start.padding.top, end.padding.top, k),
            left: lerp(start.padding.left, end.padding.left, k),
            bottom: lerp(start.padding.bottom, end.padding.bottom, k),
            right: lerp(start.padding.right, end.padding.right, k))
        let centre: MapPoint
        if let fly {
            let s = k * fly.length
            c.zoom = fly.zoom(atDistance: s)
            let u = fly.travelled(atDistance: s)
            centre = MapPoint(x: from.x + (to.x - from.x) * u, y: from.y + (to.y - from.y) * u)
        } else {
            c.zoom = lerp(start.zoom, end.zoom, k)
            centre = MapPoint(x: lerp(from.x, to.x, k), y: lerp(from.y, to.y, k))
        }
        c.center = LatLng(lat: Camera.latitude(mercatorY: centre.y), lon: LatLng.wrapLongitude(centre.x * 360 - 180))
        return c
    }
}

private func lerp(_ a: Double, _ b: Double, _ k: Double) -> Double { a + (b - a) * k }

/// The van Wijk & Nuij optimal zoom-and-pan path between two views, measured as MapLibre's
/// `flyTo` measures it: w₀ = max(viewport width, height) is the visible span at the start,
/// w₁ = w₀ / 2^(z₁ − z₀) the end span and u₁ the ground distance, all in start-zoom pixels.
///
/// With b_i = (w₁² − w₀² ± ρ⁴u₁²) / (2·w_i·ρ²·u₁) (+ for i = 0) and r_i = ln(√(b_i² + 1) − b_i):
/// at distance s (in ρ-screenfuls, 0…S with S = (r₁ − r₀)/ρ) the span is
/// w(s) = w₀·cosh r₀ / cosh(r₀ + ρs) and the distance travelled is
/// u(s) = w₀·(cosh r₀·tanh(r₀ + ρs) − sinh r₀)/ρ². When u₁ ≈ 0 the path is a pure zoom with
/// w(s) = w₀·e^(±ρs), S = |ln(w₁/w₀)|/ρ.
public struct FlyPath: Sendable, Equatable {
    /// The curvature ρ.
    public let rho: Double
    /// Start zoom.
    public let startZoom: Double
    /// End zoom.
    public let endZoom: Double
    /// w₀, start span in pixels.
    public let w0: Double
    /// w₁, end span in start-zoom pixels.
    public let w1: Double
    /// u₁, ground distance in start-zoom pixels.
    public let u1: Double
    /// r₀ (0 for a pure zoom).
    public let r0: Double
    /// S, the path length in ρ-screenfuls.
    public let length: Double
    private let pureZoom: Bool

    init(start: Camera, from: MapPoint, to: MapPoint, endZoom: Double, rho: Double) {
        self.rho = rho
        startZoom = start.zoom
        self.endZoom = endZoom
        let ws = start.worldSize
        let w0 = max(start.size.width, start.size.height)
        let w1 = w0 / pow(2, endZoom - start.zoom)
        let dx = (to.x - from.x) * ws, dy = (to.y - from.y) * ws
        let u1 = (dx * dx + dy * dy).squareRoot()
        self.w0 = w0
        self.w1 = w1
        self.u1 = u1
        let rho2 = rho * rho
        func r(_ i: Int) -> Double {
            let wi = i == 0 ? w0 : w1
            let sign: Double = i == 0 ? 1 : -1
            let b = (w1 * w1 - w0 * w0 + sign * rho2 * rho2 * u1 * u1) / (2 * wi * rho2 * u1)
            return log((b * b + 1).squareRoot() - b)
        }
        let r0v = r(0)
        let s = (r(1) - r0v) / rho
        if abs(u1) < 1e-6 || !s.isFinite {
            pureZoom = true
            r0 = 0
            length = abs(log(w1 / w0)) / rho
        } else {
            pureZoom = false
            r0 = r0v
            length = s
        }
    }

    /// The visible span at distance s, relative to w₀.
    public func span(atDistance s: Double) -> Double {
        if pureZoom { return exp((w1 < w0 ? -1 : 1) * rho * s) }
        return cosh(r0) / cosh(r0 + rho * s)
    }

    /// The zoom at distance s along the path: z₀ + log₂(w₀ / w(s)).
    public func zoom(atDistance s: Double) -> Double {
        startZoom - log2(span(atDistance: s))
    }

    /// The fraction of the ground distance travelled at distance s: u(s)/u₁.
    public func travelled(atDistance s: Double) -> Double {
        if pureZoom { return 0 }
        return w0 * ((cosh(r0) * tanh(r0 + rho * s) - sinh(r0)) / (rho * rho)) / u1
    }

    /// The lowest zoom the path passes: z₀ − log₂(cosh r₀) at s = −r₀/ρ when that lies on the
    /// path, otherwise the lower of the two ends.
    public var minimumZoom: Double {
        let sStar = -r0 / rho
        if !pureZoom, sStar > 0, sStar < length { return startZoom - log2(cosh(r0)) }
        return min(startZoom, endZoom)
    }
}
