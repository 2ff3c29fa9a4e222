import Foundation
import GeoKit
import MapScene

/// Tessellation of 3D overlays: columns and extrusions as lit solids (`VertexLayout.solid`),
/// arcs as screen-width ribbons (`VertexLayout.ribbon`). Positions are map units relative to an
/// origin with heights in metres, as `Camera.viewProjectionMatrix(relativeTo:)` takes them.
enum SolidMeshes {
    /// Accumulates solid vertices: `x, y` (map units from the origin), `z` (metres), normal.
    struct Builder {
        var vertices: [Float] = []
        var indices: [UInt32] = []
        let origin: MapPoint

        var count: UInt32 { UInt32(vertices.count / 6) }

        mutating func add(_ p: MapPoint, _ z: Double, _ n: (Double, Double, Double)) -> UInt32 {
            let i = count
            vertices += [Float(p.x - origin.x), Float(p.y - origin.y), Float(z), Float(n.0), Float(n.1), Float(n.2)]
            return i
        }

        /// Adds a triangle wound so that its face points along the normal of its first vertex
        /// (`(b − a) × (c − a) · n > 0` in the map frame x east, y south, z up): backends cull
        /// back faces by that winding.
        mutating func triangle(_ a: UInt32, _ b: UInt32, _ c: UInt32) {
            let v = vertices
            func p(_ i: UInt32) -> (Double, Double, Double) {
                let k = Int(i) * 6
                return (Double(v[k]), Double(v[k + 1]), Double(v[k + 2]))
            }
            let pa = p(a), pb = p(b), pc = p(c)
            let u = (pb.0 - pa.0, pb.1 - pa.1, pb.2 - pa.2), w = (pc.0 - pa.0, pc.1 - pa.1, pc.2 - pa.2)
            let cross = (u.1 * w.2 - u.2 * w.1, u.2 * w.0 - u.0 * w.2, u.0 * w.1 - u.1 * w.0)
            let k = Int(a) * 6
            let dot = cross.0 * Double(v[k + 3]) + cross.1 * Double(v[k + 4]) + cross.2 * Double(v[k + 5])
            if dot < 0 { indices += [a, c, b] } else { indices += [a, b, c] }
        }

        /// A wall quad from `a` to `b` between heights `z0` and `z1` facing `n` (x east, y south).
        mutating func wall(_ a: MapPoint, _ b: MapPoint, _ z0: Double, _ z1: Double, _ n: (Double, Double, Double)) {
            let i0 = add(a, z0, n), i1 = add(b, z0, n), i2 = add(b, z1, n), i3 = add(a, z1, n)
            triangle(i0, i1, i2); triangle(i0, i2, i3)
        }

        func build() -> Mesh { Mesh(layout: .solid, vertices: vertices, indices: indices) }
    }

    /// A column: `sides` walls with smooth (radial) normals, a top and, when it floats, a bottom.
    static func column(_ c: Column) -> (Mesh, MapPoint) {
        let origin = MapPoint(c.position)
        let r = c.radius * MapPoint.unitsPerMeter(atLatitude: c.position.lat)
        var b = Builder(origin: origin)
        let n = c.sides
        // Flat faces for few sides (a box), smooth normals for a cylinder.
        let smooth = n >= 12
        var rim: [(MapPoint, Double, Double)] = []
        for k in 0...n {
            let a = 2 * Double.pi * Double(k % n) / Double(n)
            // x east, y south: angle measured from east towards south.
            rim.append((MapPoint(x: origin.x + r * cos(a), y: origin.y + r * sin(a)), cos(a), sin(a)))
        }
        for k in 0..<n {
            let (p, cx, cy) = rim[k], (q, dx, dy) = rim[k + 1]
            if smooth {
                let i0 = b.add(p, c.base, (cx, cy, 0)), i1 = b.add(q, c.base, (dx, dy, 0))
                let i2 = b.add(q, c.height, (dx, dy, 0)), i3 = b.add(p, c.height, (cx, cy, 0))
                b.triangle(i0, i1, i2); b.triangle(i0, i2, i3)
            } else {
                let mx = cx + dx, my = cy + dy, l = (mx * mx + my * my).squareRoot()
                b.wall(p, q, c.base, c.height, (mx / l, my / l, 0))
            }
        }
        let top = b.add(origin, c.height, (0, 0, 1))
        var first: UInt32 = 0
        for k in 0..<n {
            let v = b.add(rim[k].0, c.height, (0, 0, 1))
            if k == 0 { first = v } else { b.triangle(top, v - 1, v) }
        }
        b.triangle(top, first + UInt32(n - 1), first)
        if c.base > 0 {
            let bottom = b.add(origin, c.base, (0, 0, -1))
            let f = b.count
            for k in 0..<n { _ = b.add(rim[k].0, c.base, (0, 0, -1)) }
            for k in 0..<UInt32(n) { b.triangle(bottom, f + (k + 1) % UInt32(n), f + k) }
        }
        return (b.build(), origin)
    }

    /// A round column as an impostor (`VertexLayout.cylinder`): four vertices carrying the axis,
    /// radius and heights, one quad that the shader places around the silhouette.
    static func cylinder(_ c: Column) -> (Mesh, MapPoint) {
        let origin = MapPoint(c.position)
        let r = Float(c.radius * MapPoint.unitsPerMeter(atLatitude: c.position.lat))
        var v: [Float] = []
        v.reserveCapacity(24)
        for corner in 0..<4 { v += [0, 0, r, Float(c.base), Float(c.height), Float(corner)] }
        return (Mesh(layout: .cylinder, vertices: v, indices: [0, 1, 2, 0, 2, 3]), origin)
    }

    /// An extrusion of rings (first the exterior, then holes; closing points removed) from
    /// `base` to `height` metres: a triangulated roof (holes respected), walls with outward
    /// normals round every ring, and a floor when it floats.
    static func extrusion(_ rings: [[MapPoint]], base: Double, height: Double, origin: MapPoint) -> Mesh {
        var b = Builder(origin: origin)
        guard let outer = rings.first, outer.count >= 3 else { return b.build() }
        // Roof and floor: triangulate in scaled coordinates (map units are tiny at building size).
        let scale = 16_777_216.0
        var coords: [Double] = []
        var holeStarts: [Int] = []
        for (k, ring) in rings.enumerated() {
            if k > 0 { holeStarts.append(coords.count / 2) }
            for p in ring { coords += [(p.x - origin.x) * scale, (p.y - origin.y) * scale] }
        }
        let tris = Triangulator.triangulate(coords, holeStarts: holeStarts)
        let all = rings.flatMap { $0 }
        let roof0 = b.count
        for p in all { _ = b.add(p, height, (0, 0, 1)) }
        // Wind the roof so it faces up whatever the input orientation (back faces are not culled,
        // but a consistent winding keeps the mesh tidy).
        for t in stride(from: 0, to: tris.count - 2, by: 3) {
            b.triangle(roof0 + tris[t], roof0 + tris[t + 1], roof0 + tris[t + 2])
        }
        if base > 0 {
            let floor0 = b.count
            for p in all { _ = b.add(p, base, (0, 0, -1)) }
            for t in stride(from: 0, to: tris.count - 2, by: 3) {
                b.triangle(floor0 + tris[t], floor0 + tris[t + 2], floor0 + tris[t + 1])
            }
        }
        guard height > base else { return b.build() }
        for (k, ring) in rings.enumerated() where ring.count >= 3 {
            // Signed area > 0: the interior lies to the algebraic left of each edge, so the outward
            // normal of edge (dx, dy) is (dy, −dx). Holes face into the hole (away from the solid).
            var area = 0.0
            for i in 0..<ring.count {
                let p = ring[i], q = ring[(i + 1) % ring.count]
                area += p.x * q.y - q.x * p.y
            }
            let sign: Double = (area > 0) == (k == 0) ? 1 : -1
            for i in 0..<ring.count {
                let p = ring[i], q = ring[(i + 1) % ring.count]
                let dx = q.x - p.x, dy = q.y - p.y
                let l = (dx * dx + dy * dy).squareRoot()
                guard l > 0 else { continue }
                b.wall(p, q, base, height, (sign * dy / l, -sign * dx / l, 0))
            }
        }
        return b.build()
    }

    /// Floats per ribbon vertex (see `VertexLayout.ribbon`).
    static let ribbonStride = 14

    /// An arc as a ribbon: per sample two vertices (sides −1, +1) carrying the sample, its
    /// neighbours (for the screen direction) and the premultiplied colour at that point.
    static func arc(_ arc: Arc, count: Int) -> (Mesh, MapPoint) {
        let samples = arc.samples(count: count)
        let origin = MapPoint(arc.from)
        let pts = samples.map { (MapPoint($0.position), $0.height) }
        var v: [Float] = []
        var idx: [UInt32] = []
        v.reserveCapacity(pts.count * 2 * ribbonStride)
        let c0 = arc.fromColor.premultiplied, c1 = arc.toColor.premultiplied
        let m = pts.count
        for i in 0..<m {
            let t = m > 1 ? Float(i) / Float(m - 1) : 0
            let (p, z) = pts[i]
            let (pp, pz) = pts[max(0, i - 1)]
            let (np, nz) = pts[min(m - 1, i + 1)]
            let col = [
                c0.0 + (c1.0 - c0.0) * t, c0.1 + (c1.1 - c0.1) * t, c0.2 + (c1.2 - c0.2) * t, c0.3 + (c1.3 - c0.3) * t,
            ]
            for side: Float in [-1, 1] {
                v += [
                    Float(p.x - origin.x), Float(p.y - origin.y), Float(z),
                    Float(pp.x - origin.x), Float(pp.y - origin.y), Float(pz),
                    Float(np.x - origin.x), Float(np.y - origin.y), Float(nz), side,
                ]
                v += col
            }
            if i > 0 {
                let a = UInt32(2 * (i - 1))
                idx += [a, a + 1, a + 3, a, a + 3, a + 2]
            }
        }
        return (Mesh(layout: .ribbon, vertices: v, indices: idx), origin)
    }
}
