import Foundation
import GeoKit
import MapCamera
import MapScene

/// World copies: a view near or across the antimeridian (or wider than the world) shows the
/// world more than once side by side, as MapLibre draws it (`renderWorldCopies`). An overlay is
/// planned once per copy it may show in, with the view shifted by whole worlds the other way,
/// and its commands moved by those worlds (`origin.x + k`); meshes are shared between copies.
extension PlanView {
    /// At most this many copies of one overlay are drawn (a view of the whole world at zoom 0).
    static let maxWorldCopies = 8

    /// The x interval (map units) of the ground the view shows, grown by 1024 logical pixels at
    /// its coarsest scale so that sprites, labels and wide strokes anchored just outside count;
    /// nil for a camera with non-finite values.
    static func groundSpan(_ camera: Camera, worldSize: Double) -> ClosedRange<Double>? {
        let quad = camera.visibleGroundQuad
        guard quad.count == 4 else { return nil }
        let xs = quad.map(\.x)
        guard let lo = xs.min(), let hi = xs.max(), lo.isFinite, hi.isFinite else { return nil }
        // Map units per logical pixel along each edge of the ground quad (x only: that is
        // what the span measures), at least the scale at the centre.
        let w = max(camera.size.width, 1), h = max(camera.size.height, 1)
        var perPx = 1 / worldSize
        for (i, len) in [w, h, w, h].enumerated() {
            perPx = max(perPx, abs(xs[(i + 1) % 4] - xs[i]) / len)
        }
        let margin = 1024 * perPx
        guard margin.isFinite else { return nil }
        return (lo - margin) ... (hi + margin)
    }

    /// The whole-world shifts `k` (the overlay's x + k) at which something spanning `lo…hi` in
    /// x may show in this view: `[0]` unless the view reaches past the world's edge or the
    /// overlay does; at most `maxWorldCopies`, nearest the view's centre first.
    func copies(lo: Double, hi: Double) -> [Int] {
        guard let span = groundSpan, lo.isFinite, hi.isFinite, lo <= hi else { return [0] }
        let first = (span.lowerBound - hi).rounded(.up), last = (span.upperBound - lo).rounded(.down)
        guard first <= last else { return [] }
        if first == 0 && last == 0 { return [0] }
        guard abs(first) < 1e9, abs(last) < 1e9 else { return [0] }
        let ks = Array(Int(first) ... Int(last))
        guard ks.count > Self.maxWorldCopies else { return ks }
        let mid = center.x - (lo + hi) / 2
        return Array(ks.sorted { abs(Double($0) - mid) < abs(Double($1) - mid) }.prefix(Self.maxWorldCopies)).sorted()
    }
}

extension RenderPlanner {
    /// The x interval (map units) an overlay's geometry covers without its pixel-sized parts,
    /// or nil for one that stays where its coordinates put it (`worldCopies` off) or has none.
    static func xExtent(_ overlay: Overlay) -> (lo: Double, hi: Double)? {
        func x(_ p: LatLng) -> Double { (p.lon + 180) / 360 }
        switch overlay {
        case .polyline(let l):
            guard l.worldCopies, let b = l.path.bounds else { return nil }
            return (b.minX, b.maxX)
        case .polygon(let p):
            guard p.worldCopies, let b = p.exterior.bounds else { return nil }
            return (b.minX, b.maxX)
        case .extrusion(let e):
            guard let b = e.exterior.bounds else { return nil }
            return (b.minX, b.maxX)
        case .image(let g):
            guard g.worldCopies, g.isValid else { return nil }
            let xs = g.corners.map(\.x)
            return (xs.min()!, xs.max()!)
        case .circle(let c):
            guard c.worldCopies else { return nil }
            // A geodesic circle in metres reaches about its radius east and west (more near the
            // poles, where Mercator stretches it; at most the whole world round a pole).
            var r = 0.0
            if case .meters(let m) = c.radius, m.isFinite, m > 0 {
                r = min(0.5, 1.5 * m * MapPoint.unitsPerMeter(atLatitude: min(max(c.center.lat, -85), 85)))
                // A circle round one pole fills the polar cap: one world wide, from the rim's
                // start (due north of the centre, or beyond the pole) one way round; its copies
                // fill the rest of the view.
                if c.center.isValid, containsOnePole(c.center, radius: m) { r = 1 }
            }
            return (x(c.center) - r, x(c.center) + r)
        case .marker(let m): return (x(m.position), x(m.position))
        case .label(let l): return l.worldCopies ? (x(l.position), x(l.position)) : nil
        case .sprite(let s): return (x(s.position), x(s.position))
        case .column(let c): return (x(c.position), x(c.position))
        case .arc(let a):
            // The arc runs from `from` the shorter way round.
            let ends = GeoPath.mapPoints([a.from, a.to], steps: .shorterWay)
            return (min(ends[0].x, ends[1].x), max(ends[0].x, ends[1].x))
        }
    }


    /// Whether a geodesic circle encloses exactly one pole (as `GeodesicCircle` decides it).
    static func containsOnePole(_ center: LatLng, radius: Double) -> Bool {
        let g = Geodesic.wgs84
        let north = g.inverse(center, LatLng(lat: 90, lon: center.lon)).distance < radius
        let south = g.inverse(center, LatLng(lat: -90, lon: center.lon)).distance < radius
        return north != south
    }
}
