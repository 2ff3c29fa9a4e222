import Foundation
import GeoKit

extension Overlay {
    /// The x interval (normalised Web Mercator, one world = 1) the overlay's geometry covers
    /// without its pixel-sized parts, or nil for one that stays where its coordinates put it
    /// (`worldCopies` off) or has none. Renderers draw the overlay again, and pickers hit it,
    /// in every copy of the world (x + k for whole k) that this interval shifted meets.
    public var worldXExtent: (lo: Double, hi: Double)? {
        func x(_ p: LatLng) -> Double { (p.lon + 180) / 360 }
        // Geometry with map bounds: their x interval, when drawn in every copy.
        func span(_ copies: Bool, _ b: MapRect?) -> (lo: Double, hi: Double)? {
            guard copies, let b else { return nil }
            return (b.minX, b.maxX)
        }
        switch self {
        case .polyline(let l): return span(l.worldCopies, l.path.bounds)
        case .polygon(let p): return span(p.worldCopies, p.exterior.bounds)
        case .multiPolyline(let l): return span(l.worldCopies, l.paths.bounds)
        case .multiPolygon(let p): return span(p.worldCopies, p.polygons.bounds)
        case .extrusion(let e): return span(true, e.exterior.bounds)
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
                if c.center.isValid, Circle.containsOnePole(c.center, radius: m) { r = 1 }
            }
            return (x(c.center) - r, x(c.center) + r)
        case .marker(let m): return (x(m.position), x(m.position))
        case .cluster(let c):
            guard let first = c.markers.first else { return nil }
            return c.markers.reduce((x(first.position), x(first.position))) { (min($0.0, x($1.position)), max($0.1, x($1.position))) }
        case .label(let l): return l.worldCopies ? (x(l.position), x(l.position)) : nil
        case .sprite(let s): return s.worldCopies ? (x(s.position), x(s.position)) : nil
        case .column(let c): return (x(c.position), x(c.position))
        case .arc(let a):
            // The arc runs from `from` the shorter way round.
            let ends = GeoPath.mapPoints([a.from, a.to], steps: .shorterWay)
            return (min(ends[0].x, ends[1].x), max(ends[0].x, ends[1].x))
        }
    }
}

extension Circle {
    /// Whether a geodesic circle encloses exactly one pole (as `GeodesicCircle` decides it).
    public static func containsOnePole(_ center: LatLng, radius: Double) -> Bool {
        let poles = Geodesic.wgs84.enclosedPoles(center: center, radius: radius)
        return poles.north != poles.south
    }
}
