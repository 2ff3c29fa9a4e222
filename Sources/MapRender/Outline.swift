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
