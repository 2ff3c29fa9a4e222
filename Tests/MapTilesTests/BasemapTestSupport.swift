import Foundation
import GeoKit
@testable import MapTiles

/// Even-odd point-in-polygon over every ring of the polygons of one kind.
func contains(_ features: BasemapFeatures, _ kind: BasemapPolygon.Kind, _ p: MapPoint) -> Bool {
    features.polygons.contains { poly in
        poly.kind == kind
            && {
                var inside = false
                for ring in poly.rings {
                    var j = ring.count - 1
                    for i in 0..<ring.count {
                        let a = ring[i], b = ring[j]
                        if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
                            inside.toggle()
                        }
                        j = i
                    }
                }
                return inside
            }()
    }
}

/// A rectangle of `width`×`height` px centred on a position at a zoom (world = 512·2^zoom px).
func viewRect(center: LatLng, zoom: Double, width: Double = 1024, height: Double = 768) -> MapRect {
    let c = MapPoint(center)
    let world = 512 * pow(2, zoom)
    return MapRect(
        origin: MapPoint(x: c.x - width / world / 2, y: c.y - height / world / 2),
        width: width / world, height: height / world)
}

/// Distance in degrees (planar in lat/lon, longitude scaled by cos lat) from a position to
/// the nearest segment of the lines of one kind.
func nearestDistance(_ features: BasemapFeatures, _ kind: BasemapLine.Kind, to q: LatLng) -> Double {
    let k = cos(q.lat * .pi / 180)
    var best = Double.infinity
    for line in features.lines where line.kind == kind {
        let pts = line.points.map { $0.latLng }
        for i in 1..<pts.count {
            let ax = (pts[i - 1].lon - q.lon) * k, ay = pts[i - 1].lat - q.lat
            let bx = (pts[i].lon - q.lon) * k, by = pts[i].lat - q.lat
            let dx = bx - ax, dy = by - ay
            let dd = dx * dx + dy * dy
            let t = dd == 0 ? 0 : max(0, min(1, -(ax * dx + ay * dy) / dd))
            let x = ax + t * dx, y = ay + t * dy
            best = min(best, (x * x + y * y).squareRoot())
        }
    }
    return best
}
