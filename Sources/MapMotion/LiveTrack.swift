import Foundation
import GeoKit
import MapScene

/// A polyline that grows while it is recorded. Appending k points costs O(k) amortised work:
/// the points live in chunks of shared `GeoPath`s; only the open tail chunk (at most
/// `tailCapacity` points) is rebuilt on an append, so the renderer re-tessellates that chunk
/// alone and keeps every sealed chunk's cached mesh. Sealed chunks are merged 16 at a time into
/// larger ones (256 → 4 096 → 65 536 points), so a million points are about 50 draw calls.
/// Thread-safe: one thread may append while another renders.
public final class LiveTrack: @unchecked Sendable {
    /// The line's style.
    public let style: LineStyle
    /// Drawing order; nil takes the routes' default.
    public let zIndex: Int?

    /// Points in the open tail chunk before it is sealed.
    public static let tailCapacity = 256
    /// How many sealed chunks of one level merge into one of the next.
    public static let mergeFactor = 16
    /// Levels of merging (chunks of 256, 4 096 and 65 536 points); the last level does not merge.
    public static let levels = 3

    private let lock = NSLock()
    /// Sealed chunks by level, oldest first.
    private var sealed: [[GeoPath]] = Array(repeating: [], count: LiveTrack.levels)
    private var tail: [MapPoint] = []
    private var tailPath: GeoPath?
    private var total = 0
    private var last: LatLng?

    /// Creates an empty live track.
    public init(style: LineStyle = LineStyle(), zIndex: Int? = nil) {
        self.style = style
        self.zIndex = zIndex
    }

    /// The number of points appended so far.
    public var count: Int { lock.withLock { total } }

    /// The newest point, if any.
    public var lastPoint: LatLng? { lock.withLock { last } }

    /// Appends points; throws `MotionError` naming the first invalid one (nothing is appended then).
    public func append(_ points: [LatLng]) throws(MotionError) {
        for (i, p) in points.enumerated() where !p.isValid {
            throw MotionError(parameter: "points[\(i)]", reason: "invalid position \(p.lat),\(p.lon)")
        }
        guard !points.isEmpty else { return }
        lock.lock()
        defer { lock.unlock() }
        for p in points {
            let m = MapPoint(p)
            tail.append(m)
            if tail.count > Self.tailCapacity { seal() }
        }
        total += points.count
        last = points[points.count - 1]
        tailPath = tail.count >= 2 ? try? GeoPath(points: tail) : nil
    }

    /// Appends one point.
    public func append(_ point: LatLng) throws(MotionError) { try append([point]) }

    /// Seals the tail (all but its last point, which starts the next tail).
    private func seal() {
        guard tail.count >= 2, let path = try? GeoPath(points: tail) else { return }
        let end = tail[tail.count - 1]
        tail = [end]
        sealed[0].append(path)
        for level in 0..<(Self.levels - 1) where sealed[level].count >= Self.mergeFactor {
            let pts = joinedPoints(sealed[level])
            sealed[level].removeAll()
            if let merged = try? GeoPath(points: pts) { sealed[level + 1].append(merged) }
        }
    }

    /// The polylines to draw now, oldest first.
    public func polylines() -> [Polyline] {
        lock.withLock {
            var paths: [GeoPath] = []
            for level in sealed.indices.reversed() { paths += sealed[level] }
            if let tailPath { paths.append(tailPath) }
            return paths.map { Polyline(path: $0, style: style, zIndex: zIndex) }
        }
    }

    /// The number of polylines `polylines()` returns now.
    public var pieceCount: Int { lock.withLock { sealed.reduce(0) { $0 + $1.count } + (tailPath == nil ? 0 : 1) } }
}

extension LiveTrack: AnimatedLayer {
    /// The track as it is now (a live track follows the data, not the clock).
    public func overlays(at t: Double) -> [Overlay] { polylines().map { .polyline($0) } }
}
