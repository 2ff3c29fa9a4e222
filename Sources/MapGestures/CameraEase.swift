import Foundation
import MapCamera

/// One eased camera change from a base camera: a pan (screen pixels), a zoom change about a
/// point, and target bearing and pitch, all on one progress curve (MapLibre merges inertia
/// components into one animation the same way). A pure function of time.
struct CameraEase {
    var base: Camera
    var start: Double
    var duration: Double
    var easing: EasingCurve
    var pan = ScreenPoint(x: 0, y: 0)
    var zoomDelta = 0.0
    var around: ScreenPoint?
    var bearing: Double?
    var pitch: Double?

    var end: Double { start + duration }

    func camera(at t: Double) -> Camera {
        let p = duration > 0 ? easing.value(at: (t - start) / duration) : 1
        var cam = base
        if pan.x != 0 || pan.y != 0 { cam = cam.panned(by: ScreenPoint(x: pan.x * p, y: pan.y * p)) }
        if zoomDelta != 0 { cam = cam.zoomed(by: zoomDelta * p, around: around) }
        if let bearing {
            var d = (bearing - base.bearing).truncatingRemainder(dividingBy: 360)
            if d > 180 { d -= 360 }
            if d < -180 { d += 360 }
            cam = cam.rotated(to: base.bearing + d * p, around: around)
        }
        if let pitch { cam = cam.pitched(to: base.pitch + (pitch - base.pitch) * p) }
        return cam
    }
}

/// MapLibre GL's inertia constants (handler_inertia.ts): linearity, deceleration, top speed.
public enum Inertia {
    /// The curve all inertia eases follow: cubic-bezier(0, 0, 0.3, 1).
    public static let easing = EasingCurve(x1: 0, y1: 0, x2: 0.3, y2: 1)
    /// How much of the release speed is kept (0.3).
    public static let linearity = 0.3
    /// Pan: deceleration 2500 px/s², top speed 1400 px/s.
    public static let pan = (deceleration: 2500.0, maxSpeed: 1400.0)
    /// Zoom: 20 levels/s², 1400 levels/s.
    public static let zoom = (deceleration: 20.0, maxSpeed: 1400.0)
    /// Bearing: 1000 °/s², 360 °/s (at most 179° in all).
    public static let bearing = (deceleration: 1000.0, maxSpeed: 360.0)
    /// Pitch: 1000 °/s², 90 °/s.
    public static let pitch = (deceleration: 1000.0, maxSpeed: 90.0)
    /// Velocity is taken over the last 60 ms before release.
    public static let window = 0.06

    /// MapLibre's `calculateEasing`: for `amount` moved in `seconds`, the coast's duration (s)
    /// and distance: speed = clamp(amount·L/seconds, ±max); duration = |speed|/(deceleration·L);
    /// distance = speed·duration/2.
    public static func coast(amount: Double, seconds: Double, deceleration: Double, maxSpeed: Double)
        -> (duration: Double, distance: Double) {
        guard seconds > 0, amount.isFinite else { return (0, 0) }
        let speed = min(max(amount * linearity / seconds, -maxSpeed), maxSpeed)
        let duration = abs(speed) / (deceleration * linearity)
        return (duration, speed * duration / 2)
    }
}
