import Foundation
import GeoKit
import MapScene

/// The points of consecutive paths as one line, without repeating the point where one ends and
/// the next begins (nor any other point repeated in a row).
func joinedPoints(_ paths: [GeoPath]) -> [MapPoint] {
    var pts: [MapPoint] = []
    pts.reserveCapacity(paths.reduce(0) { $0 + $1.count })
    for path in paths {
        for p in path.points where pts.last != p { pts.append(p) }
    }
    return pts
}

/// A route prepared for motion: cumulative geodesic distances (WGS84, metres), optional point
/// times, and its points cut into fixed chunks of shared `GeoPath`s, so that drawing any part of
/// it (`pieces(from:to:)`) re-uses the cached meshes of every whole chunk inside that part and
/// builds new geometry only for the two cut ends (at most `chunkSize` points each), whatever
/// the route's length.
public final class RoutePath: Sendable {
    /// The points, degrees.
    public let points: [LatLng]
    /// Seconds since 1970 for each point, non-decreasing; nil when the route has no times.
    public let times: [Double]?
    /// Geodesic distance from the first point to each point, metres.
    public let distances: [Double]
    /// Along-line length in normalised Web Mercator units (the straight segments the renderer draws).
    let mercator: [Double]
    let mapPoints: [MapPoint]
    /// Chunk k holds points `k·chunkSize … (k+1)·chunkSize` (neighbours share their end point).
    let chunks: [GeoPath]

    /// Points per shared chunk.
    public static let chunkSize = 1024

    /// Measures a route. Throws `MotionError` for fewer than two points, an invalid position, or
    /// times that are not finite, are given for some points only, or go backwards.
    public init(points: [LatLng], times: [Double]? = nil) throws(MotionError) {
        guard points.count >= 2 else {
            throw MotionError(parameter: "points", reason: "a route needs at least two points, found \(points.count)")
        }
        for (i, p) in points.enumerated() where !p.isValid {
            throw MotionError(parameter: "points[\(i)]", reason: "invalid position \(p.lat),\(p.lon)")
        }
        if let times {
            guard times.count == points.count else {
                throw MotionError(parameter: "times", reason: "\(times.count) times for \(points.count) points")
            }
            for i in times.indices {
                guard times[i].isFinite else { throw MotionError(parameter: "times[\(i)]", reason: "not a finite time") }
                if i > 0, times[i] < times[i - 1] {
                    throw MotionError(parameter: "times[\(i)]", reason: "time goes backwards (\(times[i] - times[i - 1]) s)")
                }
            }
        }
        self.points = points
        self.times = times
        let geo = Geodesic.wgs84
        var d = [0.0], m = [0.0]
        d.reserveCapacity(points.count)
        m.reserveCapacity(points.count)
        // Steps across the antimeridian take the shorter way round, as the drawn route does.
        let mp = GeoPath.mapPoints(points, steps: .shorterWay)
        for i in 1..<points.count {
            d.append(d[i - 1] + geo.inverse(points[i - 1], points[i]).distance)
            let dx = mp[i].x - mp[i - 1].x, dy = mp[i].y - mp[i - 1].y
            m.append(m[i - 1] + (dx * dx + dy * dy).squareRoot())
        }
        distances = d
        mercator = m
        mapPoints = mp
        var cs: [GeoPath] = []
        var start = 0
        while start < mp.count - 1 {
            let end = min(start + Self.chunkSize, mp.count - 1)
            // Points are valid (checked above), so this cannot throw.
            if let path = try? GeoPath(points: Array(mp[start...end])) { cs.append(path) }
            start = end
        }
        chunks = cs
    }

    /// Total geodesic length, metres.
    public var length: Double { distances[distances.count - 1] }

    /// Time span `(start, end)` in seconds since 1970, when the route has times.
    public var timeSpan: (start: Double, end: Double)? {
        guard let times else { return nil }
        return (times[0], times[times.count - 1])
    }

    /// Where `distance` metres along the route falls: segment index and fraction (clamped to the route).
    func locate(distance: Double) -> (index: Int, fraction: Double) {
        let d = distance.isNaN ? 0 : min(max(distance, 0), length)
        // Last point whose distance is ≤ d.
        var lo = 0, hi = distances.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if distances[mid] <= d { lo = mid } else { hi = mid }
        }
        let span = distances[lo + 1] - distances[lo]
        return (lo, span > 0 ? min(max((d - distances[lo]) / span, 0), 1) : 0)
    }

    /// Where time `t` (seconds since 1970) falls: segment index and fraction, interpolated
    /// linearly in time between the points around it (clamped to the track); nil without times.
    func locate(time t: Double) -> (index: Int, fraction: Double)? {
        guard let times else { return nil }
        if !(t > times[0]) { return (0, 0) }
        if t >= times[times.count - 1] {
            // The last moving segment's end.
            return (times.count - 2, 1)
        }
        var lo = 0, hi = times.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if times[mid] <= t { lo = mid } else { hi = mid }
        }
        let span = times[lo + 1] - times[lo]
        return (lo, span > 0 ? (t - times[lo]) / span : 0)
    }

    /// The distance along the route (metres) reached at time `t` (seconds since 1970); nil without times.
    public func distance(atTime t: Double) -> Double? {
        guard let (i, f) = locate(time: t) else { return nil }
        return distances[i] + f * (distances[i + 1] - distances[i])
    }

    /// The point `distance` metres along the route (on the drawn straight Mercator segment) and
    /// the direction of travel there, degrees clockwise from north.
    public func position(atDistance distance: Double) -> (position: LatLng, heading: Double) {
        let (i, f) = locate(distance: distance)
        return (mapPoint(i, f).latLng, heading(segment: i))
    }

    func mapPoint(_ i: Int, _ f: Double) -> MapPoint {
        let a = mapPoints[i], b = mapPoints[i + 1]
        return MapPoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)
    }

    /// Direction of segment `i` on the map (Mercator is conformal, so this is the geographic
    /// heading too), degrees clockwise from north; a zero-length segment takes its neighbours'.
    func heading(segment i: Int) -> Double {
        // The segment itself, else the nearest non-empty one after or before it.
        for step in 0..<mapPoints.count {
            for j in [i + step, i - step] where j >= 0 && j + 1 < mapPoints.count {
                let a = mapPoints[j], b = mapPoints[j + 1]
                let dx = b.x - a.x, dy = b.y - a.y
                if dx * dx + dy * dy > 0 {
                    var h = atan2(dx, -dy) * 180 / .pi
                    if h < 0 { h += 360 }
                    return h
                }
            }
        }
        return 0
    }

    /// Polylines drawing the part of the route from `from` to `to` metres along it. Whole chunks
    /// inside the part are the shared chunk paths (their meshes stay cached from frame to frame);
    /// the ends are new paths of at most `chunkSize` points. Empty when the part is empty.
    public func pieces(from: Double, to: Double, style: LineStyle, zIndex: Int? = nil) -> [Polyline] {
        let a = from.isNaN ? 0 : min(max(from, 0), length)
        let b = to.isNaN ? 0 : min(max(to, 0), length)
        guard b > a else { return [] }
        let (ia, fa) = locate(distance: a)
        let (ib, fb) = locate(distance: b)
        let pa = mapPoint(ia, fa), pb = mapPoint(ib, fb)
        let along = { (i: Int, f: Double) in self.mercator[i] + f * (self.mercator[i + 1] - self.mercator[i]) }
        var out: [Polyline] = []
        func emit(_ pts: [MapPoint], alongStart: Double) {
            var clean: [MapPoint] = []
            clean.reserveCapacity(pts.count)
            for p in pts where clean.last != p { clean.append(p) }
            guard clean.count >= 2, let path = try? GeoPath(points: clean) else { return }
            var line = Polyline(path: path, style: style, zIndex: zIndex)
            line.alongOffset = alongStart
            out.append(line)
        }
        // Whole chunks strictly inside (ia + 1 … ib): chunk k spans points k·C … (k+1)·C.
        let c = Self.chunkSize
        let firstChunk = (ia + 1 + c - 1) / c
        let lastChunkEnd = ib / c  // chunks k < lastChunkEnd end at or before point ib
        if firstChunk < lastChunkEnd {
            emit([pa] + Array(mapPoints[(ia + 1)...(firstChunk * c)]), alongStart: along(ia, fa))
            for k in firstChunk..<lastChunkEnd {
                var line = Polyline(path: chunks[k], style: style, zIndex: zIndex)
                line.alongOffset = mercator[k * c]
                out.append(line)
            }
            emit(Array(mapPoints[(lastChunkEnd * c)...ib]) + [pb], alongStart: mercator[lastChunkEnd * c])
        } else {
            let middle = ia + 1 <= ib ? Array(mapPoints[(ia + 1)...ib]) : []
            emit([pa] + middle + [pb], alongStart: along(ia, fa))
        }
        return out
    }
}
