import GeoKit
import MapScene

/// Small convex polygons (a vector basemap's buildings are mostly quadrilaterals) drawn without
/// an antialiasing fringe. A fill's fringe is two thin triangles per edge, and on a CPU
/// rasteriser thin triangles cost by the 4×4 pixel blocks they touch, not by their area. A convex
/// polygon's coverage is instead computed in its own triangles, moved out by half a device
/// pixel, from the distances to its edges' lines (see `VertexLayout.convexFill`). The result is
/// the fringe's: pixels whose centre is inside are fully covered, those within half a pixel
/// outside fade from ½ on the edge to 0, and corners are mitered. The price is blending the
/// whole polygon, where a fringed one writes its interior unblended: a gain for many small
/// polygons, even for large ones (Documentation/PERFORMANCE.md, *Convex fills*).
extension RenderPlanner {
    /// The most corners a convex fill has (four distances per vertex).
    static let convexFillCorners = 4

    /// Whether a `MultiPolygon`'s polygon is drawn as a convex fill: no holes, an exterior of
    /// three or four corners (its closing point aside) that turns one way only, with no corner
    /// sharper than the fringe's miter limit (about 29°). Decided on the polygon as given, so
    /// that every zoom bucket draws it the same way (simplification only removes corners, and a
    /// convex polygon stays convex).
    static func isConvexFill(_ polygon: PolygonRings) -> Bool {
        guard polygon.holes.isEmpty else { return false }
        // (The closing point left out by the count, not by a copy without it.)
        let pts = polygon.exterior.points
        var n = pts.count
        if n > 1, pts[0] == pts[n - 1] { n -= 1 }
        guard n >= 3, n <= convexFillCorners else { return false }
        var turn = 0.0
        for i in 0 ..< n {
            let a = pts[i], b = pts[(i + 1) % n], c = pts[(i + 2) % n]
            let ux = b.x - a.x, uy = b.y - a.y, vx = c.x - b.x, vy = c.y - b.y
            let cross = ux * vy - uy * vx
            guard cross.isFinite, ux * ux + uy * uy > 0 else { return false }
            if cross == 0 { continue }
            if turn == 0 { turn = cross } else if (cross > 0) != (turn > 0) { return false }
            // The corner at b: its interior angle is 180° less the turn; a miter 1/sin(angle/2)
            // up to 4 long (sin ≥ ¼) is what `Outline.miter` allows:
            // sin²(angle/2) = (1 − cos angle) / 2 = (1 + cos turn) / 2 ≥ 1/16.
            let lu = (ux * ux + uy * uy).squareRoot(), lv = (vx * vx + vy * vy).squareRoot()
            let cosTurn = (ux * vx + uy * vy) / (lu * lv)
            guard (1 + cosTurn) / 2 >= 1.0 / 16 else { return false }
        }
        return turn != 0
    }

    /// Fans of convex rings (three or four corners each, see `isConvexFill`) in the
    /// `VertexLayout.convexFill` layout. Rings with fewer than three corners or no area are
    /// skipped. `bins`, when given, groups `rings` (already in its order) into the mesh's bins.
    static func convexFillMesh(_ rings: [[MapPoint]], origin: MapPoint, bins: SetBins? = nil) -> Mesh {
        var mesh = ConvexFillBuilder(parts: rings.count, bins: bins)
        for (part, ring) in rings.enumerated() {
            mesh.reach(part)
            mesh.add(ring.map { ($0.x - origin.x, $0.y - origin.y) })
        }
        return mesh.build()
    }

    /// Polygons of any shape (each its rings, as `preparedRings` gives them) for a layer whose
    /// parts are apart (`DrawGroup.partsApart`): every triangle of a polygon's triangulation as a
    /// convex fill of three corners, whose coverage in such a layer is shared on both sides of
    /// each edge (`Shaders.convexFillSumFragment`). Two triangles beside an inner edge share its
    /// pixels as two neighbouring polygons share theirs, and the layer's saturating blend keeps
    /// the whole polygon at most one coverage; beside a neighbour of another colour each side of
    /// an edge takes its share of the pixels on it, where a wedge fill (whole inside, the fringe
    /// outside) takes all the pixels on its side. Triangles thinner than 1/16 px at
    /// `pixelsPerUnit` (collinear corners) are left out: the triangles beside them meet along
    /// the same line. `bins`, when given, groups `polygons` (already in its order).
    static func triangleFillMesh(_ polygons: [[[MapPoint]]], origin: MapPoint, pixelsPerUnit: Double = .infinity,
                                 bins: SetBins? = nil) -> Mesh {
        let corners = polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
        var mesh = ConvexFillBuilder(parts: corners, bins: bins)
        var coords: [Double] = [], holeStarts: [Int] = []
        for (part, rings) in polygons.enumerated() {
            mesh.reach(part)
            coords.removeAll(keepingCapacity: true); holeStarts.removeAll(keepingCapacity: true)
            for (k, ring) in rings.enumerated() where ring.count >= 3 {
                if k > 0 { holeStarts.append(coords.count / 2) }
                for p in ring { coords.append(p.x - origin.x); coords.append(p.y - origin.y) }
            }
            guard coords.count >= 6 else { continue }
            let indices = Triangulator.triangulate(coords, holeStarts: holeStarts)
            var t = 0
            while t + 2 < indices.count {
                let c = (Int(indices[t]), Int(indices[t + 1]), Int(indices[t + 2]))
                t += 3
                let a = (coords[2 * c.0], coords[2 * c.0 + 1]), b = (coords[2 * c.1], coords[2 * c.1 + 1])
                let d = (coords[2 * c.2], coords[2 * c.2 + 1])
                let area2 = (b.0 - a.0) * (d.1 - a.1) - (b.1 - a.1) * (d.0 - a.0)
                guard area2.isFinite, area2 != 0, !Self.isSliver(a, b, d, doubleArea: area2, pixelsPerUnit: pixelsPerUnit) else { continue }
                mesh.addTriangle(a, b, d)
            }
        }
        return mesh.build()
    }
}

/// The vertices of convex fills (`VertexLayout.convexFill`): each corner of a ring carries all
/// of the ring's corners (up to four) and its own number, and the ring is a fan.
struct ConvexFillBuilder {
    private let stride = VertexLayout.convexFill.stride
    private var v: [Float] = []
    private var idx: [UInt32] = []
    private var recorder: SetBins.Recorder

    init(parts: Int, bins: SetBins?) {
        v.reserveCapacity(parts * 4 * stride)
        idx.reserveCapacity(parts * 6)
        recorder = SetBins.Recorder(bins)
    }

    /// Starts part `part` (in the order of the bins).
    mutating func reach(_ part: Int) { recorder.reach(part: part, indexCount: idx.count) }

    /// A convex ring of three or four corners, relative to the origin; skipped when it has fewer
    /// or more, or no area.
    mutating func add(_ points: [(Double, Double)]) {
        let n = points.count
        guard n >= 3, n <= RenderPlanner.convexFillCorners else { return }
        let area2 = Outline.doubleArea(points)
        guard area2 != 0, area2.isFinite else { return }
        let base = UInt32(v.count / stride)
        for k in 0 ..< n {
            for c in 0 ..< RenderPlanner.convexFillCorners {
                let p = points[c < n ? c : 0]
                v.append(Float(p.0)); v.append(Float(p.1))
            }
            v.append(Float(k))
        }
        for j in 1 ..< n - 1 {
            idx.append(base); idx.append(base + UInt32(j)); idx.append(base + UInt32(j + 1))
        }
    }

    /// A triangle of a layer's polygon (see `RenderPlanner.triangleFillMesh`). A convex fill's
    /// corner moves out along its miter, which the layer's vertex shader stops at 16 long (a
    /// corner of about 7° on screen): at a sharper corner the moved edges would come in towards
    /// it, less than half a pixel out along much of their length, and the pixels just across
    /// them, which take the rest of their coverage from the triangle beyond, would miss this
    /// one's share (light dots along the diagonals). A corner sharper than 15° (`sharpCosine`)
    /// is given twice, a zero-length edge between: each copy moves out across one of its edges
    /// and slides along it past the corner, so both edges move out half a pixel all along. A
    /// triangle with two such corners is split at the foot of the perpendicular from its
    /// third, into two with one each.
    mutating func addTriangle(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double)) {
        let corners = [a, b, c]
        // Each corner's cosine.
        func cosine(_ i: Int) -> Double {
            let p = corners[i], q = corners[(i + 1) % 3], r = corners[(i + 2) % 3]
            let ux = q.0 - p.0, uy = q.1 - p.1, vx = r.0 - p.0, vy = r.1 - p.1
            let l = ((ux * ux + uy * uy) * (vx * vx + vy * vy)).squareRoot()
            return l > 0 ? (ux * vx + uy * vy) / l : 1
        }
        let cosines = (0 ..< 3).map(cosine)
        let sharpCorners = (0 ..< 3).filter { cosines[$0] > Self.sharpCosine }
        if sharpCorners.count >= 2 {
            // The foot of the perpendicular from the third corner onto the edge between the two.
            let k = (0 ..< 3).first { !sharpCorners.contains($0) } ?? 0
            let p = corners[(k + 1) % 3], q = corners[(k + 2) % 3], top = corners[k]
            let ux = q.0 - p.0, uy = q.1 - p.1
            let t = ((top.0 - p.0) * ux + (top.1 - p.1) * uy) / (ux * ux + uy * uy)
            guard t.isFinite, t > 0, t < 1 else { return add(corners) }
            let foot = (p.0 + t * ux, p.1 + t * uy)
            add([p, p, foot, top])
            add([q, q, top, foot])
            return
        }
        guard let s = sharpCorners.first else { return add(corners) }
        add([corners[s], corners[s], corners[(s + 1) % 3], corners[(s + 2) % 3]])
    }

    /// The cosine above which a triangle's corner is given twice: 15°, a miter of 3.8 against
    /// the shader's 16, leaving room for a pitched view to sharpen it. (At 30° the concave test
    /// choropleth drew 127 468 triangles at zoom 12 against 85 610, for the same image:
    /// Documentation/PERFORMANCE.md, *Concave parts in a layer*.)
    static let sharpCosine = 0.965_925_826_289_068_3

    mutating func build() -> Mesh {
        recorder.reach(part: .max, indexCount: idx.count)
        return Mesh(layout: .convexFill, vertices: v, indices: idx, bins: recorder.result)
    }
}
