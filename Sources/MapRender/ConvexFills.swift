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
        var pts = polygon.exterior.points
        if pts.count > 1, pts.first == pts.last { pts.removeLast() }
        let n = pts.count
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
        let stride = VertexLayout.convexFill.stride
        var v: [Float] = []
        var idx: [UInt32] = []
        v.reserveCapacity(rings.count * 4 * stride)
        idx.reserveCapacity(rings.count * 6)
        var recorder = SetBins.Recorder(bins)
        for (part, ring) in rings.enumerated() {
            recorder.reach(part: part, indexCount: idx.count)
            let n = ring.count
            guard n >= 3, n <= convexFillCorners else { continue }
            let points = ring.map { ($0.x - origin.x, $0.y - origin.y) }
            let area2 = Outline.doubleArea(points)
            guard area2 != 0, area2.isFinite else { continue }
            let base = UInt32(v.count / stride)
            for k in 0 ..< n {
                for c in 0 ..< convexFillCorners {
                    let p = points[c < n ? c : 0]
                    v.append(Float(p.0)); v.append(Float(p.1))
                }
                v.append(Float(k))
            }
            for j in 1 ..< n - 1 {
                idx.append(base); idx.append(base + UInt32(j)); idx.append(base + UInt32(j + 1))
            }
        }
        recorder.reach(part: .max, indexCount: idx.count)
        return Mesh(layout: .convexFill, vertices: v, indices: idx, bins: recorder.result)
    }
}
