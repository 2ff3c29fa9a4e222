import GeoKit
import MapScene

/// Polygons of any shape (concave, with holes) drawn without an antialiasing fringe: each of
/// their triangles computes its own coverage, as convex fills do (see `ConvexFills.swift`), from
/// the polygon's corners it touches.
///
/// A triangle of a polygon's triangulation has real edges (the polygon's) and inner ones (the
/// diagonals the triangulation added). On screen its vertices move out half a device pixel across
/// its real edges and only 1/128 px across its inner ones, so that neighbouring triangles still
/// meet (overlapping by a hair: drawing an opaque colour twice changes nothing) and every pixel
/// inside the polygon is drawn. The coverage of a pixel is
/// taken from the wedges of the triangle's three corners. Each of a corner's two polygon edges,
/// as a line, gives the fringe's coverage: 1 where the pixel's centre is inside, else ½ less its
/// distance outside, down to 0. A convex corner's inside is inside both lines (the lesser of
/// the two coverages, a mitered corner as the fringe's), a reflex corner's inside either of them
/// (1 − (1 − a)(1 − b): the pixel's part outside both, for edges at right angles); the pixel
/// takes the least over the three corners. A triangle lies inside all its corners' wedges, so
/// pixels whose centre is inside stay fully covered, and outside an edge of the polygon the
/// coverage fades from ½ on the edge to 0 half a pixel out: the fringe's coverage, from the
/// polygon's own triangles, with no fringe triangles (two per edge) to set up.
extension RenderPlanner {
    /// How a `MultiPolygon`'s polygon is filled: a translucent set's all with fringes; an opaque
    /// set's small convex ones as convex fills, those with clipper corridors with fringes (but
    /// for corridors along the sides of the set's `frame`), the others as wedge fills. Decided
    /// on the polygon as given, the same for every zoom bucket.
    enum FillKind { case fringed, convex, wedge }

    static func fillKind(_ polygon: PolygonRings, opaque: Bool, frame: MapRect? = nil) -> FillKind {
        guard opaque else { return .fringed }
        if isConvexFill(polygon) { return .convex }
        return hasRetracedEdges(polygon, frame: frame) ? .fringed : .wedge
    }

    /// Whether an edge of the polygon (as given) has another running back along it: the
    /// zero-width corridors clippers leave, where the fill may lie on both sides (see
    /// `Outline.retracedEdges`). Such polygons keep their fringes, which leave those edges out.
    /// Edges on a side of `frame` (the rectangle the polygon was cut to, `PolygonSet.frame`)
    /// do not count: the fill lies on one side of those at most, and a wedge fill covers it as
    /// it covers any edge. Simplification keeps axis-aligned edges, so the answer holds for
    /// every zoom bucket.
    static func hasRetracedEdges(_ polygon: PolygonRings, frame: MapRect? = nil) -> Bool {
        /// Whether the axis-aligned line (vertical at x, or horizontal at y) is a side of the frame.
        func onFrame(_ vertical: Bool, _ at: Double) -> Bool {
            guard let f = frame else { return false }
            return vertical ? at == f.minX || at == f.maxX : at == f.minY || at == f.maxY
        }
        // Only axis-aligned edges on a line another axis-aligned edge is on can be retraced.
        var lines: [(Bool, Double)] = []
        for ring in [polygon.exterior] + polygon.holes {
            let pts = ring.points
            for i in pts.indices {
                let p = pts[i], q = pts[(i + 1) % pts.count]
                if p.x == q.x, p.y != q.y, !onFrame(true, p.x) {
                    lines.append((true, p.x))
                } else if p.y == q.y, p.x != q.x, !onFrame(false, p.y) {
                    lines.append((false, p.y))
                }
            }
        }
        guard lines.count > 1 else { return false }
        lines.sort { $0.0 != $1.0 ? $0.0 : $0.1 < $1.1 }
        guard zip(lines, lines.dropFirst()).contains(where: { $0.0 == $1.0 && $0.1 == $1.1 }) else { return false }
        let rings = ([polygon.exterior] + polygon.holes).map { ring -> [(Double, Double)] in
            var pts = ring.points
            if pts.count > 1, pts.first == pts.last { pts.removeLast() }
            return pts.map { ($0.x, $0.y) }
        }
        let retraced = Outline.retracedEdges(rings)
        for (ring, edges) in zip(rings, retraced) {
            for i in edges.indices where edges[i] {
                let p = ring[i], q = ring[(i + 1) % ring.count]
                if !onFrame(p.0 == q.0, p.0 == q.0 ? p.0 : p.1) { return true }
            }
        }
        return false
    }

    /// Whether the triangle a, b, c (of twice the signed area `doubleArea`) is thinner than 1/16
    /// pixel at `pixelsPerUnit`: its height over its longest edge. Such a triangle's corners lie
    /// on one line but for rounding (ear clipping makes them of collinear corners).
    static func isSliver(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double),
                         doubleArea: Double, pixelsPerUnit: Double) -> Bool {
        var longest = 0.0
        for (p, q) in [(a, b), (b, c), (c, a)] {
            longest = max(longest, ((q.0 - p.0) * (q.0 - p.0) + (q.1 - p.1) * (q.1 - p.1)).squareRoot())
        }
        return abs(doubleArea) / longest * pixelsPerUnit < 1.0 / 16
    }

    /// The triangles of polygons (each its rings: exterior, then holes, as `preparedRings`
    /// gives them) in the `VertexLayout.wedgeFill` layout, three vertices of their own each.
    /// Polygons that do not triangulate add nothing.
    ///
    /// A triangle thinner than 1/16 pixel at `pixelsPerUnit` (collinear corners: ear clipping
    /// makes them where a chain of corners lies on one line, as a comb's notches do) cannot move
    /// its edges out. The polygon edges it has are handed to the triangle across its longest
    /// edge, which moves that edge out instead: its half pixel covers the thin triangle and the
    /// half pixel beyond it (and so on, across a run of thin triangles).
    /// `bins`, when given, groups `polygons` (already in its order) into the mesh's bins.
    static func wedgeFillMesh(_ polygons: [[[MapPoint]]], origin: MapPoint, pixelsPerUnit: Double = .infinity,
                              bins: SetBins? = nil) -> Mesh {
        let stride = VertexLayout.wedgeFill.stride
        var v: [Float] = []
        var idx: [UInt32] = []
        // About one triangle per corner (n − 2 a ring, two more a hole), three vertices each.
        let corners = polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
        v.reserveCapacity(corners * 3 * stride)
        idx.reserveCapacity(corners * 3)
        var recorder = SetBins.Recorder(bins)
        // A triangle of the polygon: its corners (counter-clockwise after the swap below), which
        // of its edges are the polygon's (bit i: corner i to i + 1), and whether it is thin.
        struct Tri { var c: SIMD3<Int>; var own: UInt8; var thin: Bool }
        // Scratch reused from polygon to polygon (a set has thousands of small ones).
        var xs: [Double] = [], ys: [Double] = []
        var pred: [Int] = [], succ: [Int] = []
        var holeStarts: [Int] = []
        var coords: [Double] = []
        var tris: [Tri] = []
        for (part, rings) in polygons.enumerated() {
            recorder.reach(part: part, indexCount: idx.count)
            guard let first = rings.first, first.count >= 3 else { continue }
            // Every vertex, relative to the origin, and for each its ring's neighbours ordered so
            // that the polygon's inside is on the left of pred → vertex → succ (cross product
            // positive): an exterior ring of negative area and a hole of positive area are
            // walked backwards.
            xs.removeAll(keepingCapacity: true); ys.removeAll(keepingCapacity: true)
            pred.removeAll(keepingCapacity: true); succ.removeAll(keepingCapacity: true)
            holeStarts.removeAll(keepingCapacity: true)
            for (k, ring) in rings.enumerated() where ring.count >= 3 {
                let start = xs.count
                if k > 0 { holeStarts.append(start) }
                for p in ring { xs.append(p.x - origin.x); ys.append(p.y - origin.y) }
                let n = ring.count
                // (`Outline.doubleArea` of the ring, summed in the same order.)
                var area2 = 0.0
                for i in 0 ..< n {
                    let j = start + (i + 1) % n
                    area2 += xs[start + i] * ys[j] - xs[j] * ys[start + i]
                }
                let forward = (area2 >= 0) == (k == 0)
                for i in 0 ..< n {
                    let before = start + (i + n - 1) % n, after = start + (i + 1) % n
                    pred.append(forward ? before : after)
                    succ.append(forward ? after : before)
                }
            }
            coords.removeAll(keepingCapacity: true)
            for i in xs.indices { coords.append(xs[i]); coords.append(ys[i]) }
            let indices = Triangulator.triangulate(coords, holeStarts: holeStarts)
            tris.removeAll(keepingCapacity: true)
            var t = 0
            while t + 2 < indices.count {
                var c = SIMD3<Int>(Int(indices[t]), Int(indices[t + 1]), Int(indices[t + 2]))
                t += 3
                let area = (xs[c[1]] - xs[c[0]]) * (ys[c[2]] - ys[c[0]]) - (ys[c[1]] - ys[c[0]]) * (xs[c[2]] - xs[c[0]])
                guard area.isFinite else { continue }
                if area < 0 { (c[1], c[2]) = (c[2], c[1]) }
                let thin = area == 0 || Self.isSliver((xs[c[0]], ys[c[0]]), (xs[c[1]], ys[c[1]]), (xs[c[2]], ys[c[2]]),
                                                      doubleArea: area, pixelsPerUnit: pixelsPerUnit)
                // A thin triangle's orientation may be rounding: its polygon edges either way.
                var own: UInt8 = 0
                for i in 0 ..< 3 where succ[c[i]] == c[(i + 1) % 3] || (thin && succ[c[(i + 1) % 3]] == c[i]) {
                    own |= 1 << i
                }
                tris.append(Tri(c: c, own: own, thin: thin))
            }
            // Thin triangles hand their polygon edges on across their longest edge.
            if tris.contains(where: { $0.thin && $0.own != 0 }) {
                struct Edge: Hashable { var a: Int, b: Int }
                func edge(_ a: Int, _ b: Int) -> Edge { Edge(a: min(a, b), b: max(a, b)) }
                // The triangles by edge: looked up in a dictionary for a large polygon, searched
                // for in a small one (most: a dictionary would cost more than the search).
                var byEdge: [Edge: [Int]] = [:]
                let searched = tris.count <= 48
                if !searched {
                    for (k, tri) in tris.enumerated() {
                        for i in 0 ..< 3 { byEdge[edge(tri.c[i], tri.c[(i + 1) % 3]), default: []].append(k) }
                    }
                }
                func across(_ e: Edge, from k: Int) -> Int? {
                    guard searched else { return byEdge[e]?.first(where: { $0 != k }) }
                    for (n, tri) in tris.enumerated() where n != k {
                        for i in 0 ..< 3 where edge(tri.c[i], tri.c[(i + 1) % 3]) == e { return n }
                    }
                    return nil
                }
                var work = tris.indices.filter { tris[$0].thin && tris[$0].own != 0 }
                var handed = [Bool](repeating: false, count: tris.count)
                while let k = work.popLast() {
                    guard !handed[k] else { continue }
                    handed[k] = true
                    let c = tris[k].c
                    var li = 0, best = -1.0
                    for i in 0 ..< 3 {
                        let a = c[i], b = c[(i + 1) % 3]
                        let d = (xs[b] - xs[a]) * (xs[b] - xs[a]) + (ys[b] - ys[a]) * (ys[b] - ys[a])
                        if d > best { best = d; li = i }
                    }
                    let e = edge(c[li], c[(li + 1) % 3])
                    guard tris[k].own & (1 << li) == 0, let n = across(e, from: k) else { continue }
                    for j in 0 ..< 3 where edge(tris[n].c[j], tris[n].c[(j + 1) % 3]) == e { tris[n].own |= 1 << j }
                    tris[k].own = 0
                    if tris[n].thin { handed[n] = false; work.append(n) }
                }
            }
            for tri in tris {
                let c = tri.c
                let area = (xs[c[1]] - xs[c[0]]) * (ys[c[2]] - ys[c[0]]) - (ys[c[1]] - ys[c[0]]) * (xs[c[2]] - xs[c[0]])
                guard area != 0 else { continue }
                var flags = Int(tri.own) << 3
                for i in 0 ..< 3 {
                    let a = c[i], p = pred[a], s = succ[a]
                    let turn = (xs[a] - xs[p]) * (ys[s] - ys[a]) - (ys[a] - ys[p]) * (xs[s] - xs[a])
                    if turn < 0 { flags |= 1 << i }
                }
                let base = UInt32(v.count / stride)
                for k in 0 ..< 3 {
                    for i in 0 ..< 2 { v.append(Float(xs[c[i]])); v.append(Float(ys[c[i]])) }
                    v.append(Float(xs[c[2]])); v.append(Float(ys[c[2]]))
                    v.append(Float(k)); v.append(Float(flags))
                    for i in 0 ..< 3 {
                        let a = c[i]
                        v.append(Float(xs[pred[a]])); v.append(Float(ys[pred[a]]))
                        v.append(Float(xs[succ[a]])); v.append(Float(ys[succ[a]]))
                    }
                }
                idx.append(base); idx.append(base + 1); idx.append(base + 2)
            }
        }
        recorder.reach(part: .max, indexCount: idx.count)
        return Mesh(layout: .wedgeFill, vertices: v, indices: idx, bins: recorder.result)
    }
}
