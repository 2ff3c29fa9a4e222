import Foundation
import GeoKit
import MapCamera

/// A camera that follows something moving along a route: centred on it, at a fixed zoom and
/// pitch, turned so that the direction of travel points up. The direction is the chord of the
/// route between the positions `smoothing / 2` seconds before and after (clamped to the
/// route), so GPS jitter and short zig-zags do not shake the view; a pure function of `t`.
public struct FollowCamera: Sendable {
    /// The route.
    public var route: RoutePath
    /// Where the followed thing is.
    public var drive: RouteDrive
    /// Size, pixel ratio, zoom, pitch and padding come from this camera; centre and bearing are set.
    public var base: Camera
    /// Seconds of travel over which the direction is taken (default 2).
    public var smoothing: Double
    /// Turn the map to the direction of travel (false keeps `base.bearing`).
    public var turns: Bool

    /// Creates a follow camera.
    public init(route: RoutePath, drive: RouteDrive, base: Camera, smoothing: Double = 2, turns: Bool = true) {
        self.route = route; self.drive = drive; self.base = base
        self.smoothing = smoothing.isFinite ? max(0, smoothing) : 2
        self.turns = turns
    }

    /// The camera at time `t`.
    public func camera(at t: Double) -> Camera {
        let d = drive.distance(on: route, at: t)
        var cam = base
        cam.center = route.position(atDistance: d).position
        if turns { cam.bearing = heading(at: t, distance: d) }
        return cam.constrained()
    }

    /// The smoothed direction of travel at time `t`, degrees clockwise from north.
    public func heading(at t: Double) -> Double { heading(at: t, distance: drive.distance(on: route, at: t)) }

    private func heading(at t: Double, distance d: Double) -> Double {
        var w = smoothing / 2
        // Widen the window until the chord has a length (a stop or a window at the route's end).
        for _ in 0..<12 {
            let a = MapPoint(route.position(atDistance: drive.distance(on: route, at: t - w)).position)
            let b = MapPoint(route.position(atDistance: drive.distance(on: route, at: t + w)).position)
            let dx = b.x - a.x, dy = b.y - a.y
            if dx * dx + dy * dy > 1e-22 {
                var h = atan2(dx, -dy) * 180 / .pi
                if h < 0 { h += 360 }
                return h
            }
            w = max(w * 2, 0.25)
        }
        return route.position(atDistance: d).heading
    }
}
