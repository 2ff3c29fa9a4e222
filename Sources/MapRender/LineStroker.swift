import Foundation
import GeoKit
import MapScene

/// Strokes polylines into ground triangles with MapLibre-style extrusion: every vertex sits on
/// the line's centre and carries a unit normal (or a join/cap direction) that the shader scales
/// by half the line width in pixels, so one mesh serves any pixel width and every zoom in its
/// bucket. Each segment is its own quad and each vertex adds a bounded join patch on the outer
/// side (round: a fan of at most 12 triangles, or with `discJoins` one triangle, round the
/// sector of the join's disc the segments leave open or round the whole disc, that the shader
/// cuts to the disc; miter: 2 triangles, bevel beyond a miter length of `miterLimit`
/// half-widths; bevel: 1), or none where a gentle turn lets both quads end on shared miter
/// points, so self-intersecting input costs the same per point as a tidy route. Overlaps are
/// blended once per pixel by the backend (stencil), not here.
struct LineStroker {
    var join: LineJoin
    var cap: LineCap
    /// Longest miter, in half-widths, before a miter join becomes a bevel (MapLibre's default 2).
    var miterLimit = 2.0
    /// The across coordinate of the corners of a round join's triangle (see `Shaders`): beyond
    /// every true across value (−1…1), it tells the vertex shader to lay the corner out on screen
    /// and the fragment shaders to take coverage from the distance to the centre alone.
    static let discMark = 4.0
    /// The across coordinates of the corners (0, 1, 2) of a round join's sector triangle: the
    /// join's centre and two corners on the line tangent to the disc where the outer wedge's
    /// bisector crosses it, which hold the sector of the disc the two segments leave open (a
    /// fifth of the area of the triangle round the whole disc at a right-angle turn). It is laid
    /// out with the map's bearing at pitch 0; at other pitches, where the segments' directions on
    /// screen are no longer the map's turned, each corner stands in for the corresponding corner
    /// of the triangle round the whole disc.
    static let sectorMark = 5.0
    /// Turns up to this (radians) get a sector triangle; sharper ones (the sector's corners run
    /// far out along the tangent) the triangle round the whole disc.
    static let maxSectorTurn = 150 * Double.pi / 180
    /// Round joins as one triangle around the join's disc (for shader coverage, which cuts the
    /// disc out) instead of a fan on the outer side.
    var discJoins = false
    /// Angle step of round joins and caps, radians.
    var roundStep = Double.pi / 12
    /// Joins turning by less than this (radians) are skipped: their gap is invisibly small.
    var minJoinAngle = 0.0
    /// Round and miter joins turning by up to this (radians) are drawn by ending both segments'
    /// quads on the miter points instead of adding a join patch: exact for miters, and for round
    /// joins the miter's tip passes the arc by under 0.1 px. 0 turns it off.
    var sharedMiterAngle = 0.0
    /// Map units per pixel at the mesh's scale (or less), with `maxHalfWidth` the widest half
    /// width drawn: a shared miter needs both segments longer than its inner point's retreat.
    var unitsPerPixel = 0.0
    var maxHalfWidth = 0.0

    /// A stroker whose round joins and caps are fine enough for a half width of up to
    /// `maxHalfWidth` pixels (arc error ≤ 0.2 px, at most 12 steps per half turn), and which skips
    /// joins whose outer gap would be under 0.2 px.
    init(join: LineJoin, cap: LineCap, maxHalfWidth: Double) {
        self.join = join
        self.cap = cap
        let h = max(maxHalfWidth, 0.5)
        roundStep = min(Double.pi / 3, max(Double.pi / 12, 2 * acos(max(-1, 1 - 0.2 / h))))
        minJoinAngle = min(0.2 / h, 0.2)
        self.maxHalfWidth = h
    }

    /// Also shares miters at joins turning by little enough that a round join's arc and the
    /// miter differ by under 0.1 px at the widest half width plus the half pixel that shader
    /// coverage adds (`unitsPerPixel`: map units per pixel at the mesh's scale or less).
    init(join: LineJoin, cap: LineCap, maxHalfWidth: Double, unitsPerPixel: Double) {
        self.init(join: join, cap: cap, maxHalfWidth: maxHalfWidth)
        guard unitsPerPixel > 0, unitsPerPixel.isFinite else { return }
        self.unitsPerPixel = unitsPerPixel
        // The miter passes the arc by h (1 / cos(θ/2) − 1).
        sharedMiterAngle = 2 * acos(1 / (1 + 0.1 / (self.maxHalfWidth + 0.5)))
    }

    init(join: LineJoin, cap: LineCap) {
        self.join = join
        self.cap = cap
    }

    /// Appends the stroke of `points` (map units) to `mesh`. `closed` joins the last point to the first.
    /// `startDistance` is the along-line distance (map units) of the first point.
    /// `keep`, when given for an open line without consecutive duplicates, says per segment
    /// whether to draw it (see `OverdrawCuller`); joins are drawn only between kept segments and
    /// caps only on kept end segments.
    func stroke(_ points: [MapPoint], closed: Bool, into mesh: inout GroundMeshBuilder, startDistance: Double = 0,
                keep keepIn: [Bool]? = nil) {
        // Drop consecutive duplicates (no copy when there are none: the overdraw culler hands in
        // a million cut points at a time, most of them in segments it does not keep).
        var pts = points
        if points.count > 1, (1 ..< points.count).contains(where: { points[$0] == points[$0 - 1] }) {
            pts = []
            pts.reserveCapacity(points.count + 1)
            for p in points where pts.last != p { pts.append(p) }
        }
        if closed, pts.count > 1, pts.first == pts.last { pts.removeLast() }
        guard pts.count >= 2 else {
            if let p = pts.first, cap != .butt { dot(p, into: &mesh, distance: startDistance) }
            return
        }
        if closed { pts.append(pts[0]) }
        let n = pts.count
        let keep: [Bool]? = (keepIn?.count == n - 1 && !closed) ? keepIn : nil
        // Unit direction of segment i, worked out where it is needed rather than stored per
        // point. In map units y grows south, like the screen: a left-hand normal of direction
        // (dx, dy) is (dy, -dx).
        func dir(_ i: Int) -> (Double, Double) {
            let dx = pts[i + 1].x - pts[i].x, dy = pts[i + 1].y - pts[i].y
            let len = (dx * dx + dy * dy).squareRoot()
            return len > 0 ? (dx / len, dy / len) : (1, 0)
        }
        // Shared miters (see `sharedMiterAngle`): at point j, the left-hand miter vector where
        // both segments end on it instead of meeting in a join patch, or nil.
        let sharing = sharedMiterAngle > 0 && (join == .round || join == .miter)
        let cosMax = sharing ? cos(sharedMiterAngle) : 0
        func sharedMiter(_ point: Int) -> (Double, Double)? {
            guard sharing else { return nil }
            // A closed line's last point is its first.
            let j = closed && point == n - 1 ? 0 : point
            let (pi, ni) = j > 0 ? (j - 1, j) : (n - 2, 0)
            guard j > 0 && j < n - 1 || closed && j == 0, keep.map({ $0[pi] && $0[ni] }) ?? true else { return nil }
            let d1 = dir(pi), d2 = dir(ni)
            let cosTurn = d1.0 * d2.0 + d1.1 * d2.1
            guard cosTurn >= cosMax else { return nil }
            // Left normals; the miter m = (n1 + n2) / (1 + n1·n2) reaches each edge at one half width.
            let k = 1 + cosTurn
            let m = ((d1.1 + d2.1) / k, (-d1.0 - d2.0) / k)
            // Its inner point retreats tan(θ/2) half widths (plus shader coverage's half pixel)
            // along both segments; they must be twice as long, so that segments shortened on
            // screen (up to 2× at the far side of a pitched view) still do not fold.
            let retreat = (max(0, 1 - cosTurn) / k).squareRoot() * (maxHalfWidth + 0.5) * unitsPerPixel
            let l1 = hypot(pts[pi + 1].x - pts[pi].x, pts[pi + 1].y - pts[pi].y)
            let l2 = hypot(pts[ni + 1].x - pts[ni].x, pts[ni + 1].y - pts[ni].y)
            guard l1 > 2 * retreat, l2 > 2 * retreat else { return nil }
            return m
        }
        // The end of one drawn segment is the start of the next: its miter is worked out once.
        var miterPoint = -1, miterThere: (Double, Double)? = nil
        func miter(_ j: Int) -> (Double, Double)? {
            if j != miterPoint { miterPoint = j; miterThere = sharedMiter(j) }
            return miterThere
        }
        var dist = startDistance
        for i in 0 ..< n - 1 {
            let a = pts[i], b = pts[i + 1]
            let segLen = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            let d0 = dist, d1 = dist + segLen
            if let keep, !keep[i] {
                dist = d1
                continue
            }
            let (dx, dy) = dir(i)
            let nx = dy, ny = -dx
            var sx = 0.0, sy = 0.0, tx = 0.0, ty = 0.0
            if !closed && cap == .square {
                if i == 0 { sx = -dx; sy = -dy }
                if i == n - 2 { tx = dx; ty = dy }
            }
            let (ax, ay) = miter(i) ?? (nx, ny)
            let endMiter = miter(i + 1)
            let (bx, by) = endMiter ?? (nx, ny)
            let v0 = mesh.add(a.x, a.y, ax + sx, ay + sy, d0, 1)
            let v1 = mesh.add(a.x, a.y, -ax + sx, -ay + sy, d0, -1)
            let v2 = mesh.add(b.x, b.y, bx + tx, by + ty, d1, 1)
            let v3 = mesh.add(b.x, b.y, -bx + tx, -by + ty, d1, -1)
            mesh.triangle(v0, v1, v2)
            mesh.triangle(v1, v3, v2)
            dist = d1
            // Join at b with the next segment.
            if i < n - 2 || closed, keep.map({ $0[i + 1] }) ?? true, endMiter == nil {
                let nextDir = i < n - 2 ? dir(i + 1) : dir(0)
                joinPatch(at: b, from: (dx, dy), to: nextDir, distance: d1, into: &mesh)
            }
        }
        if !closed && cap == .round {
            if keep?[0] ?? true {
                let (dx0, dy0) = dir(0)
                fan(center: pts[0], fromAngle: atan2(dy0, dx0) + .pi / 2, sweep: .pi, distance: startDistance, into: &mesh)
            }
            if keep?[n - 2] ?? true {
                let (dx1, dy1) = dir(n - 2)
                fan(center: pts[n - 1], fromAngle: atan2(dy1, dx1) - .pi / 2, sweep: .pi, distance: dist, into: &mesh)
            }
        }
    }

    private func joinPatch(at p: MapPoint, from d1: (Double, Double), to d2: (Double, Double), distance: Double,
                           into mesh: inout GroundMeshBuilder) {
        let crossZ = d1.0 * d2.1 - d1.1 * d2.0
        let dot = d1.0 * d2.0 + d1.1 * d2.1
        if abs(crossZ) < 1e-12 && dot > 0 { return } // straight on
        if dot > 0, atan2(abs(crossZ), dot) < minJoinAngle { return }
        // Outer side: the side away from the turn. Left normal n = (dy, -dx).
        // (y grows south) crossZ > 0 turns toward -normal, so the outer side is +normal.
        let s: Double = crossZ > 0 ? 1 : -1
        let n1 = (s * d1.1, -s * d1.0), n2 = (s * d2.1, -s * d2.0)
        switch join {
        case .bevel:
            let c = mesh.add(p.x, p.y, 0, 0, distance, 0)
            let a = mesh.add(p.x, p.y, n1.0, n1.1, distance, 1)
            let b = mesh.add(p.x, p.y, n2.0, n2.1, distance, 1)
            mesh.triangle(c, a, b)
        case .miter:
            let mx = n1.0 + n2.0, my = n1.1 + n2.1
            let k = 1 + (n1.0 * n2.0 + n1.1 * n2.1) // = 2 cos²(θ/2)
            let c = mesh.add(p.x, p.y, 0, 0, distance, 0)
            let a = mesh.add(p.x, p.y, n1.0, n1.1, distance, 1)
            let b = mesh.add(p.x, p.y, n2.0, n2.1, distance, 1)
            if k > 1e-9, (mx * mx + my * my) / (k * k) <= miterLimit * miterLimit {
                let m = mesh.add(p.x, p.y, mx / k, my / k, distance, 1)
                mesh.triangle(c, a, m)
                mesh.triangle(c, m, b)
            } else {
                mesh.triangle(c, a, b)
            }
        case .round where discJoins && atan2(abs(crossZ), dot) <= Self.maxSectorTurn:
            // The sector between the two outer normals (turned by the turn θ): the centre and the
            // points on the tangent at the bisector, tan(θ/2) half widths either side.
            let bx = n1.0 + n2.0, by = n1.1 + n2.1, bl = (bx * bx + by * by).squareRoot()
            let bis = (bx / bl, by / bl), t = tan(atan2(abs(crossZ), dot) / 2)
            _ = mesh.add(p.x, p.y, 0, 0, distance, Self.sectorMark)
            _ = mesh.add(p.x, p.y, bis.0 - t * bis.1, bis.1 + t * bis.0, distance, Self.sectorMark + 1)
            _ = mesh.add(p.x, p.y, bis.0 + t * bis.1, bis.1 - t * bis.0, distance, Self.sectorMark + 2)
            let first = mesh.count - 3
            mesh.triangle(first, first + 1, first + 2)
        case .round where discJoins:
            // One triangle around the join whose inscribed circle is the line's half width; the
            // shader's coverage (distance from the centre) rounds it. Marked with an across
            // coordinate of `discMark` so that screen-width lines lay it out on screen.
            for k in 0 ..< 3 {
                let a = Double.pi / 2 + Double(k) * 2 * Double.pi / 3
                _ = mesh.add(p.x, p.y, 2 * cos(a), 2 * sin(a), distance, Self.discMark)
            }
            let first = mesh.count - 3
            mesh.triangle(first, first + 1, first + 2)
        case .round:
            let a1 = atan2(n1.1, n1.0)
            var sweep = atan2(n2.1, n2.0) - a1
            while sweep > .pi { sweep -= 2 * .pi }
            while sweep < -.pi { sweep += 2 * .pi }
            fan(center: p, fromAngle: a1, sweep: sweep, distance: distance, into: &mesh)
        }
    }

    /// A fan of unit extrusions around `center` from `fromAngle` over `sweep` radians.
    private func fan(center p: MapPoint, fromAngle a0: Double, sweep: Double, distance: Double,
                     into mesh: inout GroundMeshBuilder) {
        let steps = max(1, Int((abs(sweep) / roundStep).rounded(.up)))
        let c = mesh.add(p.x, p.y, 0, 0, distance, 0)
        var prevV = mesh.add(p.x, p.y, cos(a0), sin(a0), distance, 1)
        for k in 1 ... steps {
            let a = a0 + sweep * Double(k) / Double(steps)
            let v = mesh.add(p.x, p.y, cos(a), sin(a), distance, 1)
            mesh.triangle(c, prevV, v)
            prevV = v
        }
    }

    /// A lone point: a disc for round caps, a square for square caps.
    private func dot(_ p: MapPoint, into mesh: inout GroundMeshBuilder, distance: Double) {
        if cap == .round {
            fan(center: p, fromAngle: 0, sweep: 2 * .pi, distance: distance, into: &mesh)
        } else {
            let a = mesh.add(p.x, p.y, -1, -1, distance, 1), b = mesh.add(p.x, p.y, 1, -1, distance, 1)
            let c = mesh.add(p.x, p.y, 1, 1, distance, 1), d = mesh.add(p.x, p.y, -1, 1, distance, 1)
            mesh.triangle(a, b, c); mesh.triangle(a, c, d)
        }
    }
}
