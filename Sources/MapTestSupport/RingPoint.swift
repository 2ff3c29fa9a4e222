/// Whether the point (`x`, `y`) lies inside `ring` (a polygon's corners on screen, either way
/// round, by the even–odd rule) and how far it is from the nearest of its edges (edges of no
/// length left out): what tests of fills check pixel centres against.
public func insideAndDistance(_ ring: [(x: Double, y: Double)], _ x: Double, _ y: Double) -> (inside: Bool, distance: Double) {
    var inside = false, nearest = Double.infinity
    for i in ring.indices {
        let a = ring[i], b = ring[(i + 1) % ring.count]
        if (a.y > y) != (b.y > y), x < a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
        let dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy
        guard len2 > 0 else { continue }
        let t = max(0, min(1, ((x - a.x) * dx + (y - a.y) * dy) / len2))
        let ex = a.x + t * dx - x, ey = a.y + t * dy - y
        nearest = min(nearest, (ex * ex + ey * ey).squareRoot())
    }
    return (inside, nearest)
}
