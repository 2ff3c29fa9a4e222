import Foundation
import GeoKit
import MapScene

/// What a cached 3D mesh was made from.
enum SolidKey: Hashable {
    case column(lat: Double, lon: Double, height: Double, radius: Double, base: Double, sides: Int)
    case cylinder(lat: Double, lon: Double, height: Double, radius: Double, base: Double)
    case extrusion([ObjectIdentifier], height: Double, base: Double)
    case arc(from: LatLng, to: LatLng, apex: Double, fromColor: Color, toColor: Color, count: Int)
    /// Opaque solids of one colour in one batch cell, merged (the meshes' identities, in order).
    case batch([ObjectIdentifier])
}

extension RenderPlanner {
    /// A column: one cached mesh per column (position, size, sides). Round ones (12 sides or
    /// more) are ray-cast cylinders (`VertexLayout.cylinder`) unless `columnImpostors` is off:
    /// a prism's tall, thin side triangles are what a CPU rasteriser pays most for.
    func addColumn(_ c: Column, _ view: PlanView, _ out: inout [DrawCommand]) {
        guard c.color.a > 0, c.height > c.base else { return }
        let p = MapPoint(c.position)
        let r = c.radius * MapPoint.unitsPerMeter(atLatitude: c.position.lat)
        let foot = MapRect(origin: MapPoint(x: p.x - r, y: p.y - r), width: 2 * r, height: 2 * r)
        guard view.mayBeVisible(foot, marginPx: reach(c.height, view)) else { return }
        if c.sides >= 12 && _columnImpostors {
            let key = MeshKey(
                source: .solid(
                    .cylinder(lat: c.position.lat, lon: c.position.lon, height: c.height, radius: c.radius, base: c.base)),
                bucket: 0, cell: nil)
            let (mesh, origin) = cached(key) { SolidMeshes.cylinder(c) }
            out.append(DrawCommand(mesh: mesh, origin: origin, color: c.color))
            return
        }
        // Level of detail for round columns: one side per ~6 px of circumference at the zoom
        // bucket, at least 12 (smooth shading hides the facets), at most the column's own.
        var shape = c
        if c.sides >= 12 {
            let perimeter = 2 * Double.pi * r * view.bucketWorldSize
            shape.sides = max(12, min(c.sides, Int((perimeter / 6).rounded(.up))))
        }
        let key = MeshKey(
            source: .solid(
                .column(
                    lat: c.position.lat, lon: c.position.lon, height: c.height,
                    radius: c.radius, base: c.base, sides: shape.sides)),
            bucket: 0, cell: nil)
        let (mesh, origin) = cached(key) { SolidMeshes.column(shape) }
        out.append(DrawCommand(mesh: mesh, origin: origin, color: c.color))
    }

    /// An extrusion: rings simplified to the zoom bucket (like polygons), roof, walls, floor.
    func addExtrusion(_ e: Extrusion, _ view: PlanView, _ out: inout [DrawCommand]) {
        guard e.color.a > 0, let bounds = e.exterior.bounds else { return }
        guard view.mayBeVisible(bounds, marginPx: reach(e.height, view)) else { return }
        let rings = [e.exterior] + e.holes
        let key = MeshKey(
            source: .solid(.extrusion(rings.map { ObjectIdentifier($0) }, height: e.height, base: e.base)),
            bucket: view.bucket, cell: nil)
        let tolerance = view.tolerance
        let (mesh, origin) = cached(key, retain: rings) {
            var prepared: [[MapPoint]] = []
            for (k, ring) in rings.enumerated() {
                var pts = ring.points
                if pts.count > 1, pts.first == pts.last { pts.removeLast() }
                var simple: [MapPoint] = []
                if pts.count >= 3 { simple = Array(Simplify.simplify(pts + [pts[0]], tolerance: tolerance).dropLast()) }
                if simple.count >= 3 {
                    prepared.append(simple)
                } else if k == 0 {
                    return (SolidMeshes.Builder(origin: bounds.mid).build(), bounds.mid)
                }
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
        let key = MeshKey(
            source: .solid(
                .arc(
                    from: a.from, to: a.to, apex: a.apex, fromColor: a.fromColor,
                    toColor: a.toColor, count: count)), bucket: 0, cell: nil)
        let (mesh, origin) = cached(key) { SolidMeshes.arc(a, count: count) }
        guard
            let bounds = MapRect(
                bounding: stride(from: 0, to: mesh.vertices.count, by: SolidMeshes.ribbonStride).map {
                    MapPoint(x: origin.x + Double(mesh.vertices[$0]), y: origin.y + Double(mesh.vertices[$0 + 1]))
                }), view.mayBeVisible(bounds, marginPx: reach(a.apex, view) + a.width)
        else { return }
        out.append(DrawCommand(mesh: mesh, origin: origin, color: .white, extrudeScale: a.width / 2))
    }

    /// Side of the cells opaque solids are batched in, map units (about 10 km at the equator):
    /// small enough that Float32 offsets inside a cell stay far below a pixel at zoom 22.
    static let batchCell = 1.0 / 4096

    /// Merges opaque solids (columns, extrusions; ray-cast cylinders in batches of their own) of
    /// the same colour whose origins share a batch cell into one command (drawn where the first
    /// of them was; the depth buffer makes their order irrelevant to the image), so thousands of
    /// buildings cost a few draw calls. Prisms go nearest first for the bearing, so hidden
    /// fragments are rejected early; cylinders farthest first, so their antialiased outlines
    /// blend over what is behind them (their fragments set their own depth, which no early test
    /// can use anyway). The merged
    /// mesh is cached by the identities of its parts, so an unchanged view re-uses it.
    func batchSolids(_ commands: [DrawCommand], bearing: Double) -> [DrawCommand] {
        struct Group: Hashable {
            var color: Color
            var cx: Int
            var cy: Int
            var cylinders: Bool
        }
        let cell = Self.batchCell
        var groups: [Group: [Int]] = [:]
        var order: [Group] = []
        for (i, c) in commands.enumerated()
        where (c.mesh.layout == .solid || c.mesh.layout == .cylinder) && c.color.a == 255 {
            let gx = (c.origin.x / cell).rounded(.down), gy = (c.origin.y / cell).rounded(.down)
            guard gx.isFinite, gy.isFinite, abs(gx) < 1e9, abs(gy) < 1e9 else { continue }
            let g = Group(color: c.color, cx: Int(gx), cy: Int(gy), cylinders: c.mesh.layout == .cylinder)
            if groups[g] == nil { order.append(g) }
            groups[g, default: []].append(i)
        }
        guard groups.values.contains(where: { $0.count > 1 }) else { return commands }
        // Each merged group is drawn where its first command was; the others are dropped.
        var replacement: [Int: DrawCommand] = [:]
        var dropped = [Bool](repeating: false, count: commands.count)
        for g in order {
            guard let idx = groups[g], idx.count > 1 else { continue }
            // Nearest first for the view's bearing (in 45° sectors, so the merged mesh is shared
            // by nearby bearings): the depth test then rejects hidden fragments early. Cylinders
            // the other way round (see above).
            let sector = Int(((bearing.isFinite ? bearing : 0) / 45).rounded()) & 7
            let a = Double(sector) * 45 * .pi / 180
            let s: Double = g.cylinders ? -1 : 1
            let away = (s * sin(a), -s * cos(a))
            // Sorted by index and key, not by moving the (large) commands around.
            let keys = idx.map { commands[$0].origin.x * away.0 + commands[$0].origin.y * away.1 }
            let sorted = (0 ..< idx.count).sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
                .map { idx[$0] }
            let base = MapPoint(x: (Double(g.cx) + 0.5) * cell, y: (Double(g.cy) + 0.5) * cell)
            let key = MeshKey(source: .solid(.batch(sorted.map { ObjectIdentifier(commands[$0].mesh) })), bucket: 0, cell: nil)
            let (mesh, origin) = cached(key, retain: sorted.map { commands[$0].mesh }) {
                (Self.merge(sorted.map { commands[$0] }, base: base), base)
            }
            replacement[idx[0]] = DrawCommand(mesh: mesh, origin: origin, color: g.color)
            for i in idx.dropFirst() { dropped[i] = true }
        }
        var out: [DrawCommand] = []
        out.reserveCapacity(commands.count)
        for (i, c) in commands.enumerated() where !dropped[i] { out.append(replacement[i] ?? c) }
        return out
    }

    /// Meshes of one layout with `x, y` in the first two of six floats (solids, cylinders,
    /// ground) re-based onto one origin and concatenated. Fills (`fringeStart` set) keep every
    /// part's interior before every part's fringe.
    static func merge(_ parts: [DrawCommand], base: MapPoint) -> Mesh {
        merge(parts.map { ($0.mesh, $0.origin.x - base.x, $0.origin.y - base.y) })
    }

    /// Meshes of one layout (6 floats a vertex) merged into one, each moved by its offset (map
    /// units); fills' interiors first, then their fringes. `bins`, when given, groups the parts
    /// (already in its order) into the mesh's bins: the interiors' and then the fringes' (a
    /// bin's bounds twice), so that a frame draws both of the bins near the view.
    static func merge(_ parts: [(mesh: Mesh, dx: Double, dy: Double)], bins: SetBins? = nil) -> Mesh {
        var v: [Float] = []
        v.reserveCapacity(parts.reduce(0) { $0 + $1.mesh.vertices.count })
        var starts: [UInt32] = []
        for p in parts {
            starts.append(UInt32(v.count / 6))
            let dx = p.dx, dy = p.dy
            let m = p.mesh.vertices
            for i in stride(from: 0, to: m.count, by: 6) {
                v.append(Float(Double(m[i]) + dx)); v.append(Float(Double(m[i + 1]) + dy))
                v.append(m[i + 2]); v.append(m[i + 3]); v.append(m[i + 4]); v.append(m[i + 5])
            }
        }
        var idx: [UInt32] = []
        idx.reserveCapacity(parts.reduce(0) { $0 + $1.mesh.indices.count })
        let layout = parts.first?.mesh.layout ?? .solid
        let fills = parts.first?.mesh.fringeStart != nil
        var interiors = SetBins.Recorder(bins)
        for (k, (p, s)) in zip(parts, starts).enumerated() {
            interiors.reach(part: k, indexCount: idx.count)
            for k in 0 ..< (p.mesh.fringeStart ?? p.mesh.indices.count) { idx.append(s + p.mesh.indices[k]) }
        }
        interiors.reach(part: .max, indexCount: idx.count)
        guard fills else { return Mesh(layout: layout, vertices: v, indices: idx, bins: interiors.result) }
        let fringeStart = idx.count
        var fringes = SetBins.Recorder(bins)
        for (k, (p, s)) in zip(parts, starts).enumerated() {
            fringes.reach(part: k, indexCount: idx.count)
            for k in (p.mesh.fringeStart ?? p.mesh.indices.count) ..< p.mesh.indices.count { idx.append(s + p.mesh.indices[k]) }
        }
        fringes.reach(part: .max, indexCount: idx.count)
        let binned = interiors.result.isEmpty ? [] : interiors.result + fringes.result
        return Mesh(layout: layout, vertices: v, indices: idx, fringeStart: fringeStart, bins: binned)
    }

    /// How far up the screen something `height` metres tall can reach, logical pixels.
    private func reach(_ height: Double, _ view: PlanView) -> Double {
        min(max(height * view.pixelsPerMeter, 0), 1e7) + 4
    }
}
