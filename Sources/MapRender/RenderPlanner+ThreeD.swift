import Foundation
import GeoKit
import MapScene

/// What a cached 3D mesh was made from.
enum SolidKey: Hashable {
    case column(lat: Double, lon: Double, height: Double, radius: Double, base: Double, sides: Int)
    case extrusion([ObjectIdentifier], height: Double, base: Double)
    case arc(from: LatLng, to: LatLng, apex: Double, fromColor: Color, toColor: Color, count: Int)
}

extension RenderPlanner {
    /// A column: one cached solid mesh per column (position, size, sides).
    func addColumn(_ c: Column, _ view: PlanView, _ out: inout [DrawCommand]) {
        guard c.color.a > 0, c.height > c.base else { return }
        let p = MapPoint(c.position)
        let r = c.radius * MapPoint.unitsPerMeter(atLatitude: c.position.lat)
        let foot = MapRect(origin: MapPoint(x: p.x - r, y: p.y - r), width: 2 * r, height: 2 * r)
        guard view.mayBeVisible(foot, marginPx: reach(c.height, view)) else { return }
        let key = MeshKey(source: .solid(.column(lat: c.position.lat, lon: c.position.lon, height: c.height,
                                                 radius: c.radius, base: c.base, sides: c.sides)),
                          bucket: 0, cell: nil)
        let (mesh, origin) = cached(key) { SolidMeshes.column(c) }
        out.append(DrawCommand(mesh: mesh, origin: origin, color: c.color))
    }

    /// An extrusion: rings simplified to the zoom bucket (like polygons), roof, walls, floor.
    func addExtrusion(_ e: Extrusion, _ view: PlanView, _ out: inout [DrawCommand]) {
        guard e.color.a > 0, let bounds = e.exterior.bounds else { return }
        guard view.mayBeVisible(bounds, marginPx: reach(e.height, view)) else { return }
        let rings = [e.exterior] + e.holes
        let key = MeshKey(source: .solid(.extrusion(rings.map { ObjectIdentifier($0) }, height: e.height, base: e.base)),
                          bucket: view.bucket, cell: nil)
        let tolerance = view.tolerance
        let (mesh, origin) = cached(key, retain: rings) {
            var prepared: [[MapPoint]] = []
            for (k, ring) in rings.enumerated() {
                var pts = ring.points
                if pts.count > 1, pts.first == pts.last { pts.removeLast() }
                var simple: [MapPoint] = []
                if pts.count >= 3 { simple = Array(Simplify.simplify(pts + [pts[0]], tolerance: tolerance).dropLast()) }
                if simple.count >= 3 { prepared.append(simple) } else if k == 0 { return (SolidMeshes.Builder(origin: bounds.mid).build(), bounds.mid) }
            }
            return (SolidMeshes.extrusion(prepared, base: e.base, height: e.height, origin: bounds.mid), bounds.mid)
        }
        guard !mesh.indices.isEmpty else { return }
        out.append(DrawCommand(mesh: mesh, origin: origin, color: e.color))
    }

    /// An arc: a ribbon along the geodesic, one sample per ~1/64 of its length (16…256).
    func addArc(_ a: Arc, _ view: PlanView, _ out: inout [DrawCommand]) {
        let d = a.from.geodesicDistance(to: a.to)
        guard d.isFinite, d > 0 else { return }
        let count = max(16, min(256, Int(d / 20_000)))
        let key = MeshKey(source: .solid(.arc(from: a.from, to: a.to, apex: a.apex, fromColor: a.fromColor,
                                              toColor: a.toColor, count: count)), bucket: 0, cell: nil)
        let (mesh, origin) = cached(key) { SolidMeshes.arc(a, count: count) }
        guard let bounds = MapRect(bounding: stride(from: 0, to: mesh.vertices.count, by: SolidMeshes.ribbonStride).map {
            MapPoint(x: origin.x + Double(mesh.vertices[$0]), y: origin.y + Double(mesh.vertices[$0 + 1]))
        }), view.mayBeVisible(bounds, marginPx: reach(a.apex, view) + a.width) else { return }
        out.append(DrawCommand(mesh: mesh, origin: origin, color: .white, extrudeScale: a.width / 2))
    }

    /// How far up the screen something `height` metres tall can reach, logical pixels.
    private func reach(_ height: Double, _ view: PlanView) -> Double {
        min(max(height * view.pixelsPerMeter, 0), 1e7) + 4
    }
}
