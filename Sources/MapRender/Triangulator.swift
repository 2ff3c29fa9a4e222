/// Polygon triangulation by ear clipping, written for Mapwright from the published
/// descriptions of the method: holes are joined to the outer ring by bridges
/// (D. Eberly, "Triangulation by Ear Clipping", 2002), and for rings of more than 80
/// points the ear test only visits vertices whose Morton (z-order) code lies within the
/// candidate triangle's bounding box (the idea popularised by Mapbox's earcut). When no ear
/// is found the ring is cleaned (duplicates, collinear points), local self-intersections are
/// cut off, and as a last resort the ring is split along a valid diagonal.
///
/// Input is flat `x, y` pairs; `holeStarts` gives the vertex index where each hole begins.
/// Output is vertex indices, three per triangle. Degenerate or wildly self-intersecting
/// input yields fewer triangles, never a crash or a hang.
///
/// The work is bounded. Ear clipping is linear-ish on proper rings, but on a ring that crosses
/// itself everywhere (100,000 random points) or winds like a spiral strip the fallbacks (curing,
/// splitting along diagonals) and the ear search turn quadratic to cubic, and joining h holes
/// scans the outer ring h times. Every loop step is charged to a budget: `bridgeBudget` steps
/// for joining holes (once spent, the holes not yet joined are left out) and
/// `earBudget(vertices:)` for clipping (once spent, clipping stops with the triangles found so
/// far, leaving part of the polygon unfilled). Each is about half a second at most. Proper
/// polygons — the basemap's land, a 100k-vertex comb with 1,000 holes — stay well inside.
struct Triangulator {
    /// Loop steps allowed for joining holes to the outer ring (sequential scans).
    static let bridgeBudget = 120_000_000
    /// Loop steps allowed for clipping ears of `n` vertices (scattered visits).
    static func earBudget(vertices n: Int) -> Int { 30_000_000 + 100 * n }

    /// Steps left; shared by the non-mutating predicates.
    private final class Budget {
        var left: Int
        init(_ left: Int) { self.left = left }
        /// Charges one step; false once the budget is spent.
        @inline(__always) func step() -> Bool {
            left -= 1
            return left >= 0
        }
        var spent: Bool { left < 0 }
    }
    private var budget = Budget(0)
    /// Steps used by the last run (for tests and measurements).
    private(set) var stepsUsed = 0
    private var xs: [Double] = []
    private var ys: [Double] = []
    private var idx: [Int32] = []
    private var prev: [Int32] = []
    private var next: [Int32] = []
    private var z: [Int32] = []
    private var prevZ: [Int32] = []
    private var nextZ: [Int32] = []
    private var hashing = false
    private var minX = 0.0, minY = 0.0, invSize = 0.0
    private var triangles: [UInt32] = []

    /// Triangulates a polygon; returns indices into the input vertices.
    static func triangulate(_ coords: [Double], holeStarts: [Int] = []) -> [UInt32] {
        triangulateCounting(coords, holeStarts: holeStarts).indices
    }

    /// Triangulates and tells how many budgeted steps it took and whether the budget ran out.
    /// `budgets` replace `bridgeBudget` and `earBudget` (for tests).
    static func triangulateCounting(_ coords: [Double], holeStarts: [Int] = [],
                                    budgets: (bridge: Int, ears: Int)? = nil) -> (indices: [UInt32], steps: Int, exhausted: Bool) {
        var t = Triangulator()
        t.budgets = budgets ?? (bridgeBudget, earBudget(vertices: coords.count / 2))
        let out = t.run(coords, holeStarts: holeStarts)
        t.settle()
        return (out, t.stepsUsed, t.exhausted)
    }

    private var budgets = (bridge: 0, ears: 0)
    private var exhausted = false
    private var allotted = 0

    /// Starts a budget of `steps`, settling the last one.
    private mutating func allot(_ steps: Int) {
        settle()
        budget = Budget(steps)
        allotted = steps
    }

    private mutating func settle() {
        stepsUsed += allotted - max(budget.left, 0)
        exhausted = exhausted || budget.spent
        allotted = 0
        budget = Budget(0)
    }

    private mutating func run(_ coords: [Double], holeStarts: [Int]) -> [UInt32] {
        let n = coords.count / 2
        guard n >= 3 else { return [] }
        for v in coords where !v.isFinite { return [] }
        xs.reserveCapacity(n * 2); ys.reserveCapacity(n * 2)
        let outerEnd = holeStarts.first.map { min($0, n) } ?? n
        guard var outer = linkedRing(coords, from: 0, to: outerEnd, counterClockwise: true) else { return [] }
        if outer == next[Int(outer)] { return [] }
        if !holeStarts.isEmpty {
            allot(budgets.bridge)
            outer = eliminateHoles(coords, holeStarts: holeStarts, outer: outer, n: n)
        }
        allot(budgets.ears)
        if n > 80 {
            var maxX = -Double.infinity, maxY = -Double.infinity
            minX = .infinity; minY = .infinity
            for i in 0 ..< outerEnd {
                let x = coords[2 * i], y = coords[2 * i + 1]
                minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
            }
            let size = max(maxX - minX, maxY - minY)
            invSize = size > 0 ? 32767 / size : 0
            hashing = invSize > 0
        }
        triangles.reserveCapacity((n + 2 * holeStarts.count) * 3)
        clipEars(outer, pass: 0)
        return triangles
    }

    // MARK: linked list

    private mutating func newNode(_ i: Int, _ x: Double, _ y: Double) -> Int32 {
        let k = Int32(xs.count)
        xs.append(x); ys.append(y); idx.append(Int32(i))
        prev.append(k); next.append(k); z.append(0); prevZ.append(-1); nextZ.append(-1)
        return k
    }

    private mutating func insertAfter(_ k: Int32, _ last: Int32?) {
        guard let l = last else { return }
        let ln = next[Int(l)]
        next[Int(k)] = ln; prev[Int(k)] = l
        prev[Int(ln)] = k; next[Int(l)] = k
    }

    private mutating func removeNode(_ p: Int32) {
        let pi = Int(p)
        next[Int(prev[pi])] = next[pi]
        prev[Int(next[pi])] = prev[pi]
        if prevZ[pi] >= 0 { nextZ[Int(prevZ[pi])] = nextZ[pi] }
        if nextZ[pi] >= 0 { prevZ[Int(nextZ[pi])] = prevZ[pi] }
    }

    /// Builds a circular list for vertices `from..<to` with the requested orientation
    /// (counter-clockwise in a y-up frame: positive shoelace area). Returns nil for an empty ring.
    private mutating func linkedRing(_ c: [Double], from: Int, to: Int, counterClockwise: Bool) -> Int32? {
        guard to - from >= 1 else { return nil }
        var area = 0.0
        var j = to - 1
        for i in from ..< to {
            area += c[2 * j] * c[2 * i + 1] - c[2 * i] * c[2 * j + 1]
            j = i
        }
        var last: Int32? = nil
        if (area > 0) == counterClockwise {
            for i in from ..< to {
                let k = newNode(i, c[2 * i], c[2 * i + 1]); insertAfter(k, last); last = k
            }
        } else {
            for i in stride(from: to - 1, through: from, by: -1) {
                let k = newNode(i, c[2 * i], c[2 * i + 1]); insertAfter(k, last); last = k
            }
        }
        if let l = last, l != next[Int(l)], same(l, next[Int(l)]) {
            let n = next[Int(l)]
            removeNode(l)
            last = n
        }
        return last
    }

    @inline(__always) private func same(_ a: Int32, _ b: Int32) -> Bool {
        xs[Int(a)] == xs[Int(b)] && ys[Int(a)] == ys[Int(b)]
    }

    /// Twice the signed area of triangle a b c; positive for a left (counter-clockwise) turn.
    @inline(__always) private func cross(_ a: Int32, _ b: Int32, _ c: Int32) -> Double {
        let ax = xs[Int(a)], ay = ys[Int(a)]
        return (xs[Int(b)] - ax) * (ys[Int(c)] - ay) - (ys[Int(b)] - ay) * (xs[Int(c)] - ax)
    }

    @inline(__always) private func crossPoint(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                              _ cx: Double, _ cy: Double) -> Double {
        (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    }

    /// True when p is inside or on the counter-clockwise triangle a b c.
    @inline(__always) private func inTriangle(_ a: Int32, _ b: Int32, _ c: Int32, _ p: Int32) -> Bool {
        cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0
    }

    // MARK: ear clipping

    private mutating func clipEars(_ start: Int32, pass: Int) {
        var ear = start
        if pass == 0 && hashing { indexCurve(ear) }
        var stop = ear
        var guardCount = 0
        while prev[Int(ear)] != next[Int(ear)] {
            guardCount += 1
            if guardCount > 50_000_000 || !budget.step() { return }
            let p = prev[Int(ear)], n = next[Int(ear)]
            if hashing ? isEarHashed(ear) : isEar(ear) {
                triangles.append(UInt32(idx[Int(p)])); triangles.append(UInt32(idx[Int(ear)]))
                triangles.append(UInt32(idx[Int(n)]))
                removeNode(ear)
                ear = next[Int(n)]
                stop = ear
                continue
            }
            ear = n
            if ear == stop {
                switch pass {
                case 0: clipEars(filterPoints(ear, nil), pass: 1)
                case 1: clipEars(cureLocalIntersections(filterPoints(ear, nil)), pass: 2)
                default: splitAndClip(ear)
                }
                return
            }
        }
    }

    private func isEar(_ ear: Int32) -> Bool {
        let a = prev[Int(ear)], c = next[Int(ear)]
        if cross(a, ear, c) <= 0 { return false }
        var p = next[Int(c)]
        while p != a {
            guard budget.step() else { return false }
            if inTriangle(a, ear, c, p) && cross(prev[Int(p)], p, next[Int(p)]) <= 0 { return false }
            p = next[Int(p)]
        }
        return true
    }

    private func isEarHashed(_ ear: Int32) -> Bool {
        let a = prev[Int(ear)], c = next[Int(ear)]
        if cross(a, ear, c) <= 0 { return false }
        let ax = xs[Int(a)], bx = xs[Int(ear)], cx = xs[Int(c)]
        let ay = ys[Int(a)], by = ys[Int(ear)], cy = ys[Int(c)]
        let lo = zOrder(min(ax, bx, cx), min(ay, by, cy))
        let hi = zOrder(max(ax, bx, cx), max(ay, by, cy))
        var p = nextZ[Int(ear)]
        while p >= 0 && z[Int(p)] <= hi {
            guard budget.step() else { return false }
            if p != a && p != c && inTriangle(a, ear, c, p) && cross(prev[Int(p)], p, next[Int(p)]) <= 0 { return false }
            p = nextZ[Int(p)]
        }
        p = prevZ[Int(ear)]
        while p >= 0 && z[Int(p)] >= lo {
            guard budget.step() else { return false }
            if p != a && p != c && inTriangle(a, ear, c, p) && cross(prev[Int(p)], p, next[Int(p)]) <= 0 { return false }
            p = prevZ[Int(p)]
        }
        return true
    }

    /// Morton code of a point quantised to 15 bits per axis.
    private func zOrder(_ x: Double, _ y: Double) -> Int32 {
        func spread(_ v: Double) -> UInt32 {
            var t = UInt32(max(0, min(32767, (v * invSize).rounded(.down))))
            t = (t | (t << 8)) & 0x00FF_00FF
            t = (t | (t << 4)) & 0x0F0F_0F0F
            t = (t | (t << 2)) & 0x3333_3333
            t = (t | (t << 1)) & 0x5555_5555
            return t
        }
        return Int32(bitPattern: spread(x - minX) | (spread(y - minY) << 1))
    }

    /// Computes z codes for the ring and links its nodes in z order.
    private mutating func indexCurve(_ start: Int32) {
        var nodes: [Int32] = []
        var p = start
        repeat {
            z[Int(p)] = zOrder(xs[Int(p)], ys[Int(p)])
            nodes.append(p)
            p = next[Int(p)]
        } while p != start
        nodes.sort { z[Int($0)] < z[Int($1)] }
        for (k, node) in nodes.enumerated() {
            prevZ[Int(node)] = k > 0 ? nodes[k - 1] : -1
            nextZ[Int(node)] = k + 1 < nodes.count ? nodes[k + 1] : -1
        }
    }

    /// Removes duplicate and collinear points; returns a node still in the ring.
    private mutating func filterPoints(_ start: Int32, _ endIn: Int32?) -> Int32 {
        var end = endIn ?? start
        var p = start
        var again: Bool
        repeat {
            guard budget.step() else { break }
            again = false
            let n = next[Int(p)]
            if n != p && (same(p, n) || cross(prev[Int(p)], p, n) == 0) {
                removeNode(p)
                p = prev[Int(p)]
                end = p
                if p == next[Int(p)] { break }
                again = true
            } else {
                p = n
            }
        } while again || p != end
        return end
    }

    private mutating func cureLocalIntersections(_ startIn: Int32) -> Int32 {
        var start = startIn
        var p = start
        var steps = 0
        repeat {
            steps += 1
            if steps > 10_000_000 || !budget.step() { break }
            let a = prev[Int(p)], pn = next[Int(p)], b = next[Int(pn)]
            if !same(a, b) && segmentsIntersect(a, p, pn, b) && locallyInside(a, b) && locallyInside(b, a) {
                triangles.append(UInt32(idx[Int(a)])); triangles.append(UInt32(idx[Int(p)]))
                triangles.append(UInt32(idx[Int(b)]))
                removeNode(p); removeNode(pn)
                p = b; start = b
            }
            p = next[Int(p)]
        } while p != start
        return filterPoints(p, nil)
    }

    private mutating func splitAndClip(_ start: Int32) {
        var a = start
        repeat {
            var b = next[Int(next[Int(a)])]
            while b != prev[Int(a)] {
                guard budget.step() else { return }
                if idx[Int(a)] != idx[Int(b)] && isValidDiagonal(a, b) {
                    var c = splitPolygon(a, b)
                    a = filterPoints(a, next[Int(a)])
                    c = filterPoints(c, next[Int(c)])
                    clipEars(a, pass: 0)
                    clipEars(c, pass: 0)
                    return
                }
                b = next[Int(b)]
            }
            a = next[Int(a)]
        } while a != start
    }

    // MARK: holes

    private mutating func eliminateHoles(_ c: [Double], holeStarts: [Int], outer: Int32, n: Int) -> Int32 {
        var holes: [Int32] = []
        for (k, s) in holeStarts.enumerated() {
            let e = k + 1 < holeStarts.count ? min(holeStarts[k + 1], n) : n
            guard s < e, let ring = linkedRing(c, from: s, to: e, counterClockwise: false) else { continue }
            // The leftmost node (smallest x, then smallest y).
            var left = ring, p = ring
            repeat {
                if xs[Int(p)] < xs[Int(left)] || (xs[Int(p)] == xs[Int(left)] && ys[Int(p)] < ys[Int(left)]) { left = p }
                p = next[Int(p)]
            } while p != ring
            holes.append(left)
        }
        holes.sort { xs[Int($0)] < xs[Int($1)] || (xs[Int($0)] == xs[Int($1)] && ys[Int($0)] < ys[Int($1)]) }
        var outerNode = outer
        for h in holes {
            guard !budget.spent else { break }
            if let bridge = findBridge(h, outerNode) {
                let b2 = splitPolygon(bridge, h)
                _ = filterPoints(b2, next[Int(b2)])
                outerNode = filterPoints(bridge, next[Int(bridge)])
            }
        }
        return outerNode
    }

    /// A vertex of the outer ring visible from hole vertex `m` (the hole's leftmost point):
    /// cast a ray to the left, take the nearest edge it hits, then the endpoint of that
    /// edge or the vertex inside the triangle (m, hit, endpoint) closest in angle to the ray.
    private func findBridge(_ m: Int32, _ outer: Int32) -> Int32? {
        let hx = xs[Int(m)], hy = ys[Int(m)]
        var qx = -Double.infinity
        var best: Int32? = nil
        var p = outer
        repeat {
            guard budget.step() else { return nil }
            let pn = next[Int(p)]
            let py = ys[Int(p)], ny = ys[Int(pn)]
            if (py <= hy && hy <= ny) || (ny <= hy && hy <= py), py != ny {
                let x = xs[Int(p)] + (hy - py) * (xs[Int(pn)] - xs[Int(p)]) / (ny - py)
                if x <= hx && x > qx {
                    qx = x
                    best = xs[Int(p)] < xs[Int(pn)] ? p : pn
                    if x == hx { return hy == py ? p : (hy == ny ? pn : best) }
                }
            }
            p = pn
        } while p != outer
        guard var m0 = best else { return nil }
        // Any vertex strictly inside the triangle (m, hit, m0) could block the view: pick the
        // one with the smallest angle to the leftward ray (ties: the nearest).
        let stop = m0
        let mx = xs[Int(m0)], my = ys[Int(m0)]
        var bestTan = Double.infinity
        p = m0
        repeat {
            guard budget.step() else { return nil }
            let px = xs[Int(p)], py = ys[Int(p)]
            if hx >= px && px >= mx && hx != px
                && pointInTriangleXY(hy < my ? hx : qx, hy, mx, my, hy < my ? qx : hx, hy, px, py) {
                let tanA = abs(hy - py) / (hx - px)
                if tanA < bestTan || (tanA == bestTan && px > xs[Int(m0)]) {
                    if locallyInside(p, m) {
                        m0 = p; bestTan = tanA
                    }
                }
            }
            p = next[Int(p)]
        } while p != stop
        return m0
    }

    /// Point-in-triangle test that accepts either orientation (inclusive edges).
    private func pointInTriangleXY(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double,
                                   _ px: Double, _ py: Double) -> Bool {
        let d1 = crossPoint(ax, ay, bx, by, px, py)
        let d2 = crossPoint(bx, by, cx, cy, px, py)
        let d3 = crossPoint(cx, cy, ax, ay, px, py)
        return (d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0)
    }

    /// Links a to b with a doubled bridge; returns the copy of b. Splits one ring in two, or
    /// joins two rings into one.
    private mutating func splitPolygon(_ a: Int32, _ b: Int32) -> Int32 {
        let a2 = newNode(Int(idx[Int(a)]), xs[Int(a)], ys[Int(a)])
        let b2 = newNode(Int(idx[Int(b)]), xs[Int(b)], ys[Int(b)])
        let an = next[Int(a)], bp = prev[Int(b)]
        next[Int(a)] = b; prev[Int(b)] = a
        next[Int(a2)] = an; prev[Int(an)] = a2
        next[Int(b2)] = a2; prev[Int(a2)] = b2
        next[Int(bp)] = b2; prev[Int(b2)] = bp
        return b2
    }

    // MARK: geometric predicates

    private func isValidDiagonal(_ a: Int32, _ b: Int32) -> Bool {
        idx[Int(next[Int(a)])] != idx[Int(b)] && idx[Int(prev[Int(a)])] != idx[Int(b)]
            && !intersectsRing(a, b) && locallyInside(a, b) && locallyInside(b, a) && middleInside(a, b)
    }

    /// True when b lies inside the polygon's angle at a.
    private func locallyInside(_ a: Int32, _ b: Int32) -> Bool {
        let ap = prev[Int(a)], an = next[Int(a)]
        if cross(ap, a, an) >= 0 {
            return cross(a, an, b) >= 0 && cross(ap, a, b) >= 0
        }
        return cross(a, an, b) >= 0 || cross(ap, a, b) >= 0
    }

    private func middleInside(_ a: Int32, _ b: Int32) -> Bool {
        var inside = false
        let mx = (xs[Int(a)] + xs[Int(b)]) / 2, my = (ys[Int(a)] + ys[Int(b)]) / 2
        var p = a
        repeat {
            guard budget.step() else { return false }
            let pn = next[Int(p)]
            let px = xs[Int(p)], py = ys[Int(p)], nx = xs[Int(pn)], ny = ys[Int(pn)]
            if (py > my) != (ny > my) && ny != py && mx < (nx - px) * (my - py) / (ny - py) + px { inside.toggle() }
            p = pn
        } while p != a
        return inside
    }

    private func intersectsRing(_ a: Int32, _ b: Int32) -> Bool {
        var p = a
        repeat {
            guard budget.step() else { return true }
            let pn = next[Int(p)]
            let ia = idx[Int(a)], ib = idx[Int(b)]
            if idx[Int(p)] != ia && idx[Int(pn)] != ia && idx[Int(p)] != ib && idx[Int(pn)] != ib
                && segmentsIntersect(p, pn, a, b) { return true }
            p = pn
        } while p != a
        return false
    }

    private func segmentsIntersect(_ p1: Int32, _ q1: Int32, _ p2: Int32, _ q2: Int32) -> Bool {
        func sign(_ v: Double) -> Int { v > 0 ? 1 : (v < 0 ? -1 : 0) }
        let o1 = sign(cross(p1, q1, p2)), o2 = sign(cross(p1, q1, q2))
        let o3 = sign(cross(p2, q2, p1)), o4 = sign(cross(p2, q2, q1))
        if o1 != o2 && o3 != o4 { return true }
        if o1 == 0 && onSegment(p1, p2, q1) { return true }
        if o2 == 0 && onSegment(p1, q2, q1) { return true }
        if o3 == 0 && onSegment(p2, p1, q2) { return true }
        if o4 == 0 && onSegment(p2, q1, q2) { return true }
        return false
    }

    /// For collinear p q r: true when q lies within the box of p r.
    private func onSegment(_ p: Int32, _ q: Int32, _ r: Int32) -> Bool {
        xs[Int(q)] <= max(xs[Int(p)], xs[Int(r)]) && xs[Int(q)] >= min(xs[Int(p)], xs[Int(r)])
            && ys[Int(q)] <= max(ys[Int(p)], ys[Int(r)]) && ys[Int(q)] >= min(ys[Int(p)], ys[Int(r)])
    }
}
