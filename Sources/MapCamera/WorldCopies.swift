import Foundation
import GeoKit

/// The copies of the world a view shows side by side: a view near or across the antimeridian
/// (or wider than the world) shows the world more than once, as MapLibre draws it
/// (`renderWorldCopies`). Something spanning `lo…hi` in x (map units) is drawn again at
/// `x + k` for each whole-world shift `k` that `shifts(lo:hi:)` gives; the planner draws
/// overlays so, and whatever must agree with where they land (the basemap's reserved label
/// boxes) asks the same question.
public struct WorldCopies: Sendable {
    /// At most this many copies of one thing are drawn (a view of the whole world at zoom 0).
    public static let maxCopies = 8

    /// The x interval (map units) of the ground the view shows, grown by 1024 logical pixels at
    /// its coarsest scale so that sprites, labels and wide strokes anchored just outside count;
    /// nil for a camera with non-finite values.
    public let groundSpan: ClosedRange<Double>?
    /// The camera centre's x (map units).
    let centerX: Double

    public init(camera: Camera) {
        centerX = MapPoint(camera.center).x
        groundSpan = Self.groundSpan(camera)
    }

    static func groundSpan(_ camera: Camera) -> ClosedRange<Double>? {
        let quad = camera.visibleGroundQuad
        guard quad.count == 4 else { return nil }
        let xs = quad.map(\.x)
        guard let lo = xs.min(), let hi = xs.max(), lo.isFinite, hi.isFinite else { return nil }
        // Map units per logical pixel along each edge of the ground quad (x only: that is
        // what the span measures), at least the scale at the centre.
        let w = max(camera.size.width, 1), h = max(camera.size.height, 1)
        var perPx = 1 / camera.worldSize
        for (i, len) in [w, h, w, h].enumerated() {
            perPx = max(perPx, abs(xs[(i + 1) % 4] - xs[i]) / len)
        }
        let margin = 1024 * perPx
        guard margin.isFinite else { return nil }
        return (lo - margin) ... (hi + margin)
    }

    /// The whole-world shifts `k` (x + k) at which something spanning `lo…hi` in x may show in
    /// this view: `[0]` unless the view reaches past the world's edge or the thing does; at most
    /// `maxCopies`, nearest the view's centre first, returned in increasing order.
    public func shifts(lo: Double, hi: Double) -> [Int] {
        guard let span = groundSpan, lo.isFinite, hi.isFinite, lo <= hi else { return [0] }
        let first = (span.lowerBound - hi).rounded(.up), last = (span.upperBound - lo).rounded(.down)
        guard first <= last else { return [] }
        if first == 0 && last == 0 { return [0] }
        guard abs(first) < 1e9, abs(last) < 1e9 else { return [0] }
        let ks = Array(Int(first) ... Int(last))
        guard ks.count > Self.maxCopies else { return ks }
        let mid = centerX - (lo + hi) / 2
        return Array(ks.sorted { abs(Double($0) - mid) < abs(Double($1) - mid) }.prefix(Self.maxCopies)).sorted()
    }
}
