import Foundation
import GeoKit
import MapScene

/// How far along a route something is at time `t`: metres animated by an `Animation`, or the
/// route's own timestamps played at `speed` track seconds per second from `start`.
public enum RouteDrive: Sendable {
    /// Metres along the route.
    case distance(Animation<Double>)
    /// Track time `start + speed · t` (seconds since 1970), interpolated between point times.
    case time(start: Double, speed: Double)

    /// Metres along `route` at time `t`.
    public func distance(on route: RoutePath, at t: Double) -> Double {
        switch self {
        case .distance(let a): return a.value(at: t)
        case .time(let start, let speed): return route.distance(atTime: start + speed * t) ?? 0
        }
    }
}

/// A route drawn as it is travelled (route trim): only the part between two distances, with an
/// optional head marker at the far end, a fading comet tail instead of the whole trail, and
/// dashes that march.
public struct RouteProgress: AnimatedLayer {
    /// The route.
    public var route: RoutePath
    /// Where the head is (the far end of the drawn part).
    public var head: RouteDrive
    /// Where the drawn part starts, metres (nil: the route's start).
    public var start: Animation<Double>?
    /// When set, only the last `tail` metres behind the head are drawn, fading from transparent
    /// to the line's colour at the head (drawn as one new path each frame).
    public var tail: Double?
    /// The line's style.
    public var style: LineStyle
    /// Dash speed in logical pixels per second (marching dashes; needs `style.dash`).
    public var dashSpeed: Double
    /// The marker drawn at the head (its position and rotation are set every frame), or nil.
    public var headMarker: Marker?
    /// Drawing order of the line; nil takes the routes' default.
    public var zIndex: Int?

    /// Creates a route progress layer.
    public init(route: RoutePath, head: RouteDrive, start: Animation<Double>? = nil, tail: Double? = nil,
                style: LineStyle = LineStyle(), dashSpeed: Double = 0, headMarker: Marker? = nil, zIndex: Int? = nil) {
        self.route = route; self.head = head; self.start = start; self.tail = tail; self.style = style
        self.dashSpeed = dashSpeed; self.headMarker = headMarker; self.zIndex = zIndex
    }

    /// The drawn part at time `t`: (from, to) in metres along the route.
    public func range(at t: Double) -> (from: Double, to: Double) {
        let b = min(max(head.distance(on: route, at: t), 0), route.length)
        var a = start?.value(at: t) ?? 0
        if let tail, tail > 0 { a = max(a, b - tail) }
        return (min(max(a, 0), b), b)
    }

    public func overlays(at t: Double) -> [Overlay] {
        let (a, b) = range(at: t)
        var style = self.style
        if dashSpeed != 0, dashSpeed.isFinite, t.isFinite { style.dashOffset += dashSpeed * t }
        var lines: [Polyline]
        if let tail, tail > 0 {
            style.fade = 1
            // One path for the whole tail, so that the fade runs over all of it.
            lines = route.pieces(from: a, to: b, style: style, zIndex: zIndex)
            if lines.count > 1, let merged = Self.merge(lines) { lines = [merged] }
        } else {
            lines = route.pieces(from: a, to: b, style: style, zIndex: zIndex)
        }
        var out = lines.map { Overlay.polyline($0) }
        if var marker = headMarker {
            let p = route.position(atDistance: b)
            marker.position = p.position
            if case .arrow = marker.style { marker.rotation = p.heading }
            out.append(.marker(marker))
        }
        return out
    }

    static func merge(_ lines: [Polyline]) -> Polyline? {
        guard let first = lines.first, let path = try? GeoPath(points: joinedPoints(lines.map(\.path))) else { return nil }
        var line = Polyline(path: path, style: first.style, zIndex: first.zIndex)
        line.alongOffset = first.alongOffset
        return line
    }
}

/// A marker moving along a route, by distance or by the track's own times, turned to the
/// direction of travel when it is an arrow (or when `rotates` is set for images).
public struct MovingMarker: AnimatedLayer {
    /// The route.
    public var route: RoutePath
    /// Where the marker is.
    public var drive: RouteDrive
    /// The marker (position and rotation are set every frame).
    public var marker: Marker
    /// Turn image markers to the heading too (arrows always turn).
    public var rotates: Bool

    /// Creates a moving marker.
    public init(route: RoutePath, drive: RouteDrive, marker: Marker, rotates: Bool = true) {
        self.route = route; self.drive = drive; self.marker = marker; self.rotates = rotates
    }

    /// Position and heading at time `t`.
    public func state(at t: Double) -> (position: LatLng, heading: Double) {
        route.position(atDistance: drive.distance(on: route, at: t))
    }

    public func overlays(at t: Double) -> [Overlay] {
        let s = state(at: t)
        var m = marker
        m.position = s.position
        switch m.style {
        case .arrow: m.rotation = s.heading
        case .image: if rotates { m.rotation = s.heading }
        default: break
        }
        return [.marker(m)]
    }
}
