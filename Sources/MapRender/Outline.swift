/// Geometry shared by the antialiasing fringes of fills (`RenderPlanner.fillMesh`) and of flat
/// screen shapes (`RenderPlanner.shapeMesh`): planes with y growing downwards (map units, screen
/// pixels).
enum Outline {
    /// Twice the signed area of a closed ring: positive when it runs clockwise on screen.
    static func doubleArea(_ ring: [(Double, Double)]) -> Double {
        var area2 = 0.0
        for i in ring.indices {
            let p = ring[i], q = ring[(i + 1) % ring.count]
            area2 += p.0 * q.1 - q.0 * p.1
        }
        return area2
    }

    /// The unit normal of the edge from `p` to `q`: with `sign` 1 the left normal (dy, −dx), which
    /// points out of a ring of positive area; −1 the other side. Nil for a zero-length edge.
    static func normal(from p: (Double, Double), to q: (Double, Double), sign: Double) -> (Double, Double)? {
        let dx = q.0 - p.0, dy = q.1 - p.1, len = (dx * dx + dy * dy).squareRoot()
        return len > 0 ? (sign * dy / len, -sign * dx / len) : nil
    }

    /// The offset of a vertex between edges with unit normals `a` and `c` that moves both edges
    /// by one unit along their normals (the miter), at most 4 long (sharp spikes).
    static func miter(_ a: (Double, Double), _ c: (Double, Double)) -> (Double, Double) {
        let k = 1 + a.0 * c.0 + a.1 * c.1
        var m = k > 1.0 / 8 ? ((a.0 + c.0) / k, (a.1 + c.1) / k) : (a.0 + c.0, a.1 + c.1)
        let len = (m.0 * m.0 + m.1 * m.1).squareRoot()
        if len > 4 { m = (m.0 * 4 / len, m.1 * 4 / len) }
        return m
    }
}

extension Outline {
    /// Per ring and edge (ring[i] → ring[i+1]): whether an edge of any ring runs back along it,
    /// on the same axis-aligned line, over part of its length. Clippers (ours, or a tile cutter
    /// upstream) leave such zero-width corridors along their borders; the fill lies on both
    /// sides of them or on neither, so they are not edges of the shape. Only axis-aligned edges
    /// are compared (exactly), which is where clipping puts them.
    static func retracedEdges(_ rings: [[(Double, Double)]]) -> [[Bool]] {
        struct Span { var lo: Double, hi: Double, forward: Bool, ring: Int, edge: Int }
        // Lines keyed by axis (0: x constant, 1: y constant) and coordinate.
        var lines: [Int: [Double: [Span]]] = [0: [:], 1: [:]]
        for (r, ring) in rings.enumerated() {
            for i in ring.indices {
                let p = ring[i], q = ring[(i + 1) % ring.count]
                if p.0 == q.0, p.1 != q.1 {
                    lines[0]![p.0, default: []].append(Span(lo: min(p.1, q.1), hi: max(p.1, q.1), forward: q.1 > p.1, ring: r, edge: i))
                } else if p.1 == q.1, p.0 != q.0 {
                    lines[1]![p.1, default: []].append(Span(lo: min(p.0, q.0), hi: max(p.0, q.0), forward: q.0 > p.0, ring: r, edge: i))
                }
            }
        }
        var out = rings.map { [Bool](repeating: false, count: $0.count) }
        for axis in lines.values {
            for spans in axis.values where spans.count > 1 {
                // Each direction's spans merged into sorted disjoint intervals; an edge is retraced
                // when it overlaps the other direction's union.
                func union(_ forward: Bool) -> [(Double, Double)] {
                    var merged: [(Double, Double)] = []
                    for s in spans.filter({ $0.forward == forward }).sorted(by: { $0.lo < $1.lo }) {
                        if let last = merged.last, s.lo <= last.1 {
                            merged[merged.count - 1].1 = max(last.1, s.hi)
                        } else {
                            merged.append((s.lo, s.hi))
                        }
                    }
                    return merged
                }
                let unions = [true: union(true), false: union(false)]
                for s in spans {
                    let other = unions[!s.forward]!
                    // The first interval ending after s.lo (binary search), then overlap.
                    var a = 0, b = other.count
                    while a < b {
                        let m = (a + b) / 2
                        if other[m].1 <= s.lo { a = m + 1 } else { b = m }
                    }
                    if a < other.count, other[a].0 < s.hi { out[s.ring][s.edge] = true }
                }
            }
        }
        return out
    }
}
