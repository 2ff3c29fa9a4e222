import Foundation
import GeoKit

extension Camera {
    /// The tiles covering the visible ground, nearest the centre first, the way MapLibre GL
    /// JS's `coveringTiles` picks them.
    ///
    /// The target level is `floor(zoom + log2(512 / tileSize))`, clamped to `maxZoom` (an
    /// empty list below `minZoom`). Below pitch 60° (and with no top padding) every tile is at
    /// that level. Steeper views descend a quadtree from zoom 0 and stop splitting a tile once
    /// its distance from the centre, in target-level tiles, exceeds `3 + 2^(target − z) − 2`, so
    /// tiles towards the horizon come at lower zoom. A tile is kept when it overlaps the
    /// visible ground polygon (the frustum on the ground, far plane included).
    ///
    /// - Parameters:
    ///   - tileSize: The source's tile size in logical pixels (512 for vector tiles, 256 for
    ///     most raster sources).
    ///   - minZoom: The source's lowest level.
    ///   - maxZoom: The source's highest level; deeper views overscale it.
    public func coveringTiles(tileSize: Double = 512, minZoom: Int = 0, maxZoom: Int = 22) -> [CoverTile] {
        guard isFinite, tileSize.isFinite, tileSize > 0 else { return [] }
        let quad = visibleGroundQuad
        guard quad.count == 4 else { return [] }
        let zf = (zoom + log2(512 / tileSize)).rounded(.down)
        guard zf.isFinite, zf < 30 else { return [] }
        var target = max(0, Int(zf))
        if target < minZoom { return [] }
        target = min(target, maxZoom)

        let n = Double(1 << target)
        let quadTiles = quad.map { MapPoint(x: $0.x * n, y: $0.y * n) }  // in target-level tiles
        let c = centerMapPoint
        let centre = MapPoint(x: c.x * n, y: c.y * n)
        let lodFloor = (pitch > 60 || padding.top >= 0.1) ? minZoom : target
        let radius = 3.0

        let minWrap = Int((quad.map(\.x).min() ?? 0).rounded(.down))
        let maxWrap = Int((quad.map(\.x).max() ?? 0).rounded(.down))
        guard maxWrap - minWrap < 64 else { return [] }

        struct Node { var z: Int, x: Int, y: Int, wrap: Int }
        var stack = (minWrap...maxWrap).map { Node(z: 0, x: 0, y: 0, wrap: $0) }
        var result: [(tile: CoverTile, distance: Double)] = []
        while let node = stack.popLast() {
            // The node's box in target-level tile units.
            let scale = Double(1 << (target - node.z))
            let minX = (Double(node.wrap) * Double(1 << node.z) + Double(node.x)) * scale
            let minY = Double(node.y) * scale
            let box = (minX: minX, minY: minY, maxX: minX + scale, maxY: minY + scale)
            // A tile that only touches the view along an edge (a view whose sides fall on tile
            // edges) is not needed: the box is shrunk by a millionth of a tile for the test.
            let e = 1e-6
            guard Camera.quad(quadTiles, intersects: (box.minX + e, box.minY + e, box.maxX - e, box.maxY - e)) else { continue }
            let dx = max(box.minX - centre.x, 0, centre.x - box.maxX)
            let dy = max(box.minY - centre.y, 0, centre.y - box.maxY)
            let longest = max(dx, dy)
            let distanceToSplit = radius + Double(1 << (target - node.z)) - 2
            if node.z == target || (longest > distanceToSplit && node.z >= lodFloor) {
                let mx = (box.minX + box.maxX) / 2 - centre.x, my = (box.minY + box.maxY) / 2 - centre.y
                result.append((CoverTile(z: node.z, x: node.x, y: node.y, wrap: node.wrap), mx * mx + my * my))
                continue
            }
            for i in 0..<4 {
                stack.append(Node(z: node.z + 1, x: node.x * 2 + i % 2, y: node.y * 2 + i / 2, wrap: node.wrap))
            }
        }
        return result.sorted { $0.distance < $1.distance }.map(\.tile)
    }

    /// Separating-axis test between a convex quadrilateral and an axis-aligned box.
    static func quad(_ q: [MapPoint], intersects b: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> Bool {
        if q.allSatisfy({ $0.x < b.minX }) || q.allSatisfy({ $0.x > b.maxX })
            || q.allSatisfy({ $0.y < b.minY }) || q.allSatisfy({ $0.y > b.maxY })
        {
            return false
        }
        let corners = [(b.minX, b.minY), (b.maxX, b.minY), (b.maxX, b.maxY), (b.minX, b.maxY)]
        for i in 0..<q.count {
            let a = q[i], e = q[(i + 1) % q.count]
            let nx = -(e.y - a.y), ny = e.x - a.x  // a normal of the edge
            let qs = q.map { nx * ($0.x - a.x) + ny * ($0.y - a.y) }
            let bs = corners.map { nx * ($0.0 - a.x) + ny * ($0.1 - a.y) }
            if (qs.max() ?? 0) < (bs.min() ?? 0) || (qs.min() ?? 0) > (bs.max() ?? 0) { return false }
        }
        return true
    }
}
