import Foundation
import GeoKit
import MapCamera

/// What a pick found under a screen point.
public struct Pick: Sendable, Equatable {
    /// The kind of overlay hit.
    public enum Kind: String, Sendable {
        case route, polygon, circle, marker, label, column, extrusion, arc, sprite
        /// A cluster of markers (`Overlay.cluster`); a lone marker of one is a `marker`.
        case cluster
    }

    /// The kind of overlay.
    public var kind: Kind
    /// The overlay's index in the list that was searched.
    public var overlay: Int
    /// The ground position picked: the nearest point on a route, the marker's or column's
    /// position, or the ground point under the pointer for areas.
    public var position: LatLng
    /// Screen distance from the pointer to what was hit, logical px (0 inside an area).
    public var screenDistance: Double
    /// Routes: the index of the segment (from point `segment` to `segment + 1`) nearest the pointer.
    public var segment: Int?
    /// Routes: geodesic distance (WGS84, metres) along the route from its first point to `position`.
    public var distanceAlong: Double?
    /// Routes with times: the time at `position`, seconds since 1970, interpolated linearly in
    /// distance within the segment.
    public var time: Double?
    /// Markers: the label (else the glyph).
    public var label: String?
    /// Clusters: how many markers the cluster holds, and the zoom at which it splits.
    public var count: Int?, expansionZoom: Int?
    /// A `MultiPolygon`'s or `MultiPolyline`'s part hit (an index into its set), nil for others.
    public var part: Int?

    public init(kind: Kind, overlay: Int, position: LatLng, screenDistance: Double, segment: Int? = nil,
                distanceAlong: Double? = nil, time: Double? = nil, label: String? = nil,
                count: Int? = nil, expansionZoom: Int? = nil) {
        self.kind = kind; self.overlay = overlay; self.position = position; self.screenDistance = screenDistance
        self.segment = segment; self.distanceAlong = distanceAlong; self.time = time; self.label = label
        self.count = count; self.expansionZoom = expansionZoom
    }
}

/// Hit-testing in screen space through the camera's projection (so it holds at any bearing and
/// pitch): what lies under a screen point, within a tolerance in logical pixels.
///
/// Routes report the nearest point, its segment, the geodesic distance along the route (WGS84,
/// the sum of the segments' geodesic lengths) and the time there when the route has times.
/// Circles and polygons are hit inside their area or within the tolerance of their outline;
/// markers within the tolerance of their symbol; columns anywhere on their screen silhouette.
/// The overlay drawn on top wins (higher z-index, then later in the list); among routes at the
/// same z the nearest wins. Overlays are hit in every copy of the world they are drawn in
/// (`Overlay.worldXExtent`: a marker's copy one world east in a zoomed-out view, a route across
/// the antimeridian on either side); the pick's position stays in the overlay's coordinates.
///
/// A picker caches each route's cumulative distances by its path's identity, so keep one for
/// repeated picks (hover) over the same overlays. Not thread-safe.
public final class Picker {
    /// The default tolerance, logical px.
    public static let defaultTolerance = 8.0

    private var cumulative: [ObjectIdentifier: (GeoPath, [Double])] = [:]
    private let geodesic = Geodesic.wgs84

    public init() {}

    /// The topmost overlay within `tolerance` px of `point`, or nil.
    public func pick(_ overlays: [Overlay], at point: ScreenPoint, camera: Camera,
                     tolerance: Double = Picker.defaultTolerance) -> Pick? {
        guard point.x.isFinite, point.y.isFinite, tolerance.isFinite, tolerance >= 0 else { return nil }
        let reach = copyReach(at: point, camera: camera, tolerance: tolerance)
        var best: (z: Int, index: Int, pick: Pick)?
        for (i, overlay) in overlays.enumerated() {
            let z = overlay.effectiveZIndex
            if let b = best, z < b.z { continue }
            // Every copy of the world the overlay shows in near the pointer, as renderers draw
            // them: copy k is the overlay's own coordinates moved k worlds east.
            var ks = [0]
            if let e = overlay.worldXExtent, e.lo.isFinite, e.hi.isFinite {
                if let r = reach {
                    let first = (r.lowerBound - e.hi).rounded(.up), last = (r.upperBound - e.lo).rounded(.down)
                    ks = first <= last && abs(first) < 64 && abs(last) < 64 ? Array(Int(first) ... Int(last)) : []
                } else {
                    // The pointer is above the horizon: the copy nearest the centre.
                    let k = (MapPoint(camera.center).x - (e.lo + e.hi) / 2).rounded()
                    ks = abs(k) < 64 ? [Int(k)] : [0]
                }
            }
            for k in ks {
                // The position stays in the overlay's own coordinates (a marker's, a route's point).
                guard let p = hit(overlay, index: i, at: point, camera: camera, copy: Double(k), tolerance: tolerance)
                else { continue }
                if let b = best, z == b.z, b.index == i || p.kind == b.pick.kind,
                   p.screenDistance > b.pick.screenDistance { continue }
                best = (z, i, p)
            }
        }
        return best?.pick
    }

    /// The x interval (map units) near the ground under the pointer where an overlay's copy
    /// could be hit: the tolerance and the largest symbols (256 logical px) either side, at the
    /// scale there; nil when the pointer is above the horizon.
    private func copyReach(at s: ScreenPoint, camera: Camera, tolerance: Double) -> ClosedRange<Double>? {
        let m = tolerance + 256
        guard let at = camera.unprojectToMapPoint(s)?.x, at.isFinite else { return nil }
        // Points above the horizon are left out (the ground there is farther than any copy).
        let xs = [ScreenPoint(x: s.x - m, y: s.y), ScreenPoint(x: s.x + m, y: s.y),
                  ScreenPoint(x: s.x, y: s.y - m), ScreenPoint(x: s.x, y: s.y + m)]
            .compactMap { camera.unprojectToMapPoint($0)?.x }.filter(\.isFinite) + [at]
        return xs.min()! ... xs.max()!
    }

    /// How far the pointer `s` is from marker `m`'s symbol drawn with its point at `c` (0 on it).
    static func distance(from s: ScreenPoint, to m: Marker, drawnAt c: ScreenPoint) -> Double {
        // The symbol's centre: a pin's head sits above its tip.
        let k = m.drawnScale
        let (centre, radius): (ScreenPoint, Double) = switch m.style {
        case .dot: (c, k * Marker.dotDiameter / 2)
        case .pin: (ScreenPoint(x: c.x, y: c.y - k * Marker.pinHeight * 0.65), k * Marker.pinHeight * 0.35)
        case .arrow: (c, k * Marker.arrowSize / 2)
        case .image(let img, let anchor):
            (ScreenPoint(x: c.x + k * (0.5 - anchor.x) * img.logicalWidth, y: c.y + k * (0.5 - anchor.y) * img.logicalHeight),
             k * max(img.logicalWidth, img.logicalHeight) / 2)
        }
        return max(0, hypot(s.x - centre.x, s.y - centre.y) - radius)
    }

    /// Hits the overlay's copy `k` worlds east of its own coordinates (0: as given).
    func hit(_ overlay: Overlay, index i: Int, at s: ScreenPoint, camera: Camera, copy k: Double = 0,
             tolerance: Double) -> Pick? {
        func project(_ p: LatLng, height: Double = 0) -> ScreenPoint? {
            let m = MapPoint(p)
            return camera.project(MapPoint(x: m.x + k, y: m.y), height: height)
        }
        switch overlay {
        case .polyline(let line):
            return route(line, index: i, at: s, camera: camera, copy: k,
                         tolerance: tolerance + Self.halfWidth(line.style.width, camera))
        case .marker(let m):
            guard let c = project(m.position) else { return nil }
            let d = Self.distance(from: s, to: m, drawnAt: c)
            guard d <= tolerance else { return nil }
            return Pick(kind: .marker, overlay: i, position: m.position, screenDistance: d, label: m.label ?? m.glyph ?? m.symbol)
        case .cluster(let cluster):
            // The zoom's clusters and lone markers; the nearest within the tolerance.
            var best: Pick?
            for node in cluster.level(atZoom: camera.zoom) {
                let pick: Pick?
                if let mi = node.marker {
                    // A lone marker is drawn, and hit, as a marker of its own.
                    pick = hit(.marker(cluster.markers[mi]), index: i, at: s, camera: camera, copy: k, tolerance: tolerance)
                } else if let c = camera.project(MapPoint(x: node.point.x + k, y: node.point.y)) {
                    let d = max(0, hypot(s.x - c.x, s.y - c.y) - MarkerCluster.discDiameter(count: node.count) / 2)
                    pick = d > tolerance ? nil : Pick(kind: .cluster, overlay: i, position: node.point.latLng, screenDistance: d,
                                                      label: MarkerCluster.abbreviated(node.count), count: node.count,
                                                      expansionZoom: node.expansionZoom)
                } else {
                    pick = nil
                }
                if let pick, pick.screenDistance < (best?.screenDistance ?? .infinity) { best = pick }
            }
            return best
        case .label(let l):
            guard let c = project(l.position) else { return nil }
            let d = hypot(s.x - c.x, s.y - c.y)
            guard d <= tolerance + l.size else { return nil }
            return Pick(kind: .label, overlay: i, position: l.position, screenDistance: max(0, d - l.size), label: l.text)
        case .circle(let circle):
            guard let c = project(circle.center) else { return nil }
            let rim = circle.strokeWidth / 2
            switch circle.radius {
            case .pixels(let r):
                let d = max(0, hypot(s.x - c.x, s.y - c.y) - r - rim)
                guard d <= tolerance else { return nil }
                return Pick(kind: .circle, overlay: i, position: camera.unproject(s) ?? circle.center, screenDistance: d)
            case .meters(let r):
                guard let g = camera.unproject(s) else { return nil }
                let metres = geodesic.inverse(circle.center, g).distance
                let mpp = camera.metersPerPixel(at: s) ?? .infinity
                let d = max(0, (metres - r) / mpp - rim)
                guard d.isFinite, d <= tolerance else { return nil }
                return Pick(kind: .circle, overlay: i, position: g, screenDistance: d)
            }
        case .polygon(let poly):
            guard let g = camera.unproject(s), let b = poly.exterior.bounds else { return nil }
            // On the copy of the world the polygon's own coordinates are in (a ring across the
            // antimeridian runs past x = 1 or below 0; `unproject` wraps the longitude).
            var m = MapPoint(g)
            m.x += (b.mid.x - m.x).rounded()
            if b.contains(m), Self.inside(m, poly.exterior.points),
               !poly.holes.contains(where: { Self.inside(m, $0.points) }) {
                return Pick(kind: .polygon, overlay: i, position: g, screenDistance: 0)
            }
            // Near the outline.
            let width = poly.strokeWidth / 2
            var nearest = Double.infinity
            for ring in [poly.exterior] + poly.holes {
                if let n = Self.nearestOnScreen(ring.points, closed: true, to: s, camera: camera, copy: k) {
                    nearest = min(nearest, n.distance)
                }
            }
            let d = max(0, nearest - width)
            guard d <= tolerance else { return nil }
            return Pick(kind: .polygon, overlay: i, position: g, screenDistance: d)
        case .multiPolyline(let set):
            // The nearest of its lines, reported as the set (and the line).
            let near = Self.candidates(set.paths.paths.map(\.bounds), near: s, camera: camera,
                                       margin: tolerance + Self.halfWidth(set.style.width, camera) + 2)
            return nearestPart(set.paths.paths.count, near: near, stopInside: false) {
                hit(.polyline(set.part($0)), index: i, at: s, camera: camera, copy: k, tolerance: tolerance)
            }
        case .multiPolygon(let set):
            let near = Self.candidates(set.polygons.polygons.map(\.exterior.bounds), near: s, camera: camera,
                                       margin: tolerance + set.strokeWidth / 2 + 2)
            return nearestPart(set.polygons.polygons.count, near: near, stopInside: true) {
                hit(.polygon(set.part($0)), index: i, at: s, camera: camera, copy: k, tolerance: tolerance)
            }
        case .column(let col):
            guard let base = project(col.position, height: col.base),
                  let top = project(col.position, height: col.base + col.height) else { return nil }
            let mpp = camera.metersPerPixel(at: base) ?? .infinity
            let radius = col.radius / mpp
            let d = max(0, Self.segmentDistance(s, base, top).distance - radius)
            guard d.isFinite, d <= tolerance else { return nil }
            return Pick(kind: .column, overlay: i, position: col.position, screenDistance: d)
        case .sprite, .extrusion, .arc, .image:
            return nil
        }
    }

    /// The nearest of a set's `count` parts that `hit` hits (trying only those `near` lets, all
    /// when it is nil), with `Pick.part` set; with `stopInside`, the first hit inside an area
    /// (distance 0) ends the search.
    private func nearestPart(_ count: Int, near: ((Int) -> Bool)?, stopInside: Bool, _ hit: (Int) -> Pick?) -> Pick? {
        var best: Pick?
        for j in 0 ..< count where near?(j) ?? true {
            guard var p = hit(j), p.screenDistance < (best?.screenDistance ?? .infinity) else { continue }
            p.part = j
            best = p
            if stopInside, p.screenDistance == 0 { break }
        }
        return best
    }

    /// Which parts of a set (by their bounds, map units) may lie within `margin` px of screen
    /// point `s`: those whose bounds, moved by whole worlds to the pointer's copy, meet the ground
    /// under the square of side 2·`margin` round it (the bounds of its corners' ground points: a
    /// flat map's or a pitched one's view of the square is the quadrilateral of its corners). Nil
    /// (every part may) when a corner is above the horizon or the square spans half a world.
    static func candidates(_ bounds: [MapRect?], near s: ScreenPoint, camera: Camera, margin: Double) -> ((Int) -> Bool)? {
        guard margin.isFinite, margin >= 0 else { return nil }
        var xs: [Double] = [], ys: [Double] = []
        for (dx, dy) in [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)] {
            guard let m = camera.unprojectToMapPoint(ScreenPoint(x: s.x + dx * margin, y: s.y + dy * margin)),
                  m.x.isFinite, m.y.isFinite else { return nil }
            xs.append(m.x); ys.append(m.y)
        }
        let minX = xs.min()!, maxX = xs.max()!, minY = ys.min()!, maxY = ys.max()!
        guard maxX - minX < 0.5 else { return nil }
        let midX = (minX + maxX) / 2
        return { j in
            guard let b = bounds[j] else { return false }
            // (A part a quarter of the world wide or more is always tried: its copies are the
            // hit's business.)
            guard b.width < 0.25 else { return true }
            let shift = (b.mid.x - midX).rounded()
            return b.maxX >= minX + shift && b.minX <= maxX + shift && b.maxY >= minY && b.minY <= maxY
        }
    }

    /// Half a line's width in logical px at the camera's centre.
    public static func halfWidth(_ w: Length, _ camera: Camera) -> Double {
        switch w {
        case .pixels(let p): return p / 2
        case .meters(let m):
            let mpp = camera.metersPerPixel(at: camera.centerPoint) ?? .infinity
            return mpp.isFinite && mpp > 0 ? m / mpp / 2 : 0
        }
    }

    func route(_ line: Polyline, index i: Int, at s: ScreenPoint, camera: Camera, copy k: Double,
               tolerance: Double) -> Pick? {
        let pts = line.path.points
        guard let n = Self.nearestOnScreen(pts, closed: false, to: s, camera: camera, copy: k), n.distance <= tolerance
        else {
            return nil
        }
        let a = pts[n.segment].latLng
        let ground: LatLng
        if pts.count == 1 {
            ground = a
        } else if let g = camera.unproject(n.point) {
            ground = g
        } else {
            let b = pts[n.segment + 1]
            let p0 = pts[n.segment]
            ground = MapPoint(x: p0.x + (b.x - p0.x) * n.fraction, y: p0.y + (b.y - p0.y) * n.fraction).latLng
        }
        let cum = cumulativeDistances(line.path)
        let into = geodesic.inverse(a, ground).distance
        let along = cum[n.segment] + into
        var time: Double?
        if let times = line.times, times.count == pts.count {
            if n.segment + 1 < pts.count {
                let seg = cum[n.segment + 1] - cum[n.segment]
                let f = seg > 0 ? min(1, into / seg) : 0
                time = times[n.segment] + (times[n.segment + 1] - times[n.segment]) * f
            } else {
                time = times[n.segment]
            }
        }
        return Pick(kind: .route, overlay: i, position: ground, screenDistance: n.distance, segment: n.segment,
                    distanceAlong: along, time: time)
    }

    /// Cumulative geodesic distances along a path's points, metres (cached by identity).
    public func cumulativeDistances(_ path: GeoPath) -> [Double] {
        let key = ObjectIdentifier(path)
        if let (p, c) = cumulative[key], p === path { return c }
        var c = [Double](repeating: 0, count: path.count)
        var prev = path.points.first?.latLng
        for k in path.points.indices.dropFirst() {
            let here = path.points[k].latLng
            c[k] = c[k - 1] + geodesic.inverse(prev!, here).distance
            prev = here
        }
        if cumulative.count > 256 { cumulative.removeAll() }
        cumulative[key] = (path, c)
        return c
    }

    struct ScreenNearest {
        var segment: Int
        var fraction: Double
        var point: ScreenPoint
        var distance: Double
    }

    /// The nearest point of a projected line to `s` (segments with an end behind the camera
    /// skipped), the line taken as given, moved `k` worlds east.
    static func nearestOnScreen(_ pts: [MapPoint], closed: Bool, to s: ScreenPoint, camera: Camera,
                                copy k: Double = 0) -> ScreenNearest? {
        guard !pts.isEmpty else { return nil }
        func project(_ p: MapPoint) -> ScreenPoint? { camera.project(MapPoint(x: p.x + k, y: p.y)) }
        var best: ScreenNearest?
        var prev = project(pts[0])
        if pts.count == 1, let p = prev {
            return ScreenNearest(segment: 0, fraction: 0, point: p, distance: hypot(s.x - p.x, s.y - p.y))
        }
        let count = closed ? pts.count : pts.count - 1
        for i in 0..<count {
            let next = project(pts[(i + 1) % pts.count])
            defer { prev = next }
            guard let a = prev, let b = next else { continue }
            let r = segmentDistance(s, a, b)
            if best == nil || r.distance < best!.distance {
                best = ScreenNearest(segment: i, fraction: r.t, point: r.point, distance: r.distance)
            }
        }
        return best
    }

    /// Distance from `s` to the segment a–b, the parameter of the nearest point and the point.
    static func segmentDistance(_ s: ScreenPoint, _ a: ScreenPoint, _ b: ScreenPoint) -> (distance: Double, t: Double, point: ScreenPoint) {
        let dx = b.x - a.x, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? ((s.x - a.x) * dx + (s.y - a.y) * dy) / len2 : 0
        t = min(1, max(0, t))
        let p = ScreenPoint(x: a.x + t * dx, y: a.y + t * dy)
        return (hypot(s.x - p.x, s.y - p.y), t, p)
    }

    /// Even-odd point in ring, in Mercator.
    static func inside(_ p: MapPoint, _ ring: [MapPoint]) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }
}
