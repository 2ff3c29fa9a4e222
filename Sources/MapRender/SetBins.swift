import GeoKit

/// A group of a mesh's triangles (see `Mesh.bins`): those from the previous bin's `indexEnd`
/// (0 for the first) up to `indexEnd` in the mesh's indices, made from parts within `bounds`
/// (map units; strokes and fringes reach past it by their widths).
public struct MeshBin: Sendable, Hashable {
    /// Where the bin's triangles end in `Mesh.indices`.
    public let indexEnd: Int
    /// The bounds of the parts whose triangles these are.
    public let bounds: MapRect

    public init(indexEnd: Int, bounds: MapRect) {
        self.indexEnd = indexEnd; self.bounds = bounds
    }
}

/// The parts of a large set (a vector tile's buildings, or its streets of one kind) grouped by
/// where they lie: a `grid`×`grid` grid over the set's bounds, each part in the cell holding its
/// bounds' middle, row by row. Meshed in this order, a set's mesh has one bin per non-empty
/// cell, with the bounds of the cell's parts, and a frame draws only the bins that reach the
/// view (`PlanView.visibleRanges`): a vector tile seen from between its zoom and ~2.5 levels
/// past it shows a part of itself, and llvmpipe shades every vertex drawn, on screen or not.
struct SetBins {
    /// Cells on each side of the grid.
    static let grid = 8
    /// Sets with fewer parts are meshed as they are (one bin).
    static let minParts = 64

    /// The parts' indices in mesh order.
    let order: [Int]
    /// Per non-empty cell in order: how many of `order` it ends at (exclusive) and the union of
    /// its parts' bounds.
    let groups: [(end: Int, bounds: MapRect)]

    /// Groups parts by their `bounds` (nil: a part with nothing to mesh, kept with the first
    /// cell); fewer than `minParts` parts, or no extent, give one group in the given order.
    init(_ bounds: [MapRect?]) {
        var total: MapRect?
        for b in bounds { if let b { total = total.map { $0.union(b) } ?? b } }
        guard bounds.count >= Self.minParts, let total, total.width > 0 || total.height > 0 else {
            order = Array(bounds.indices)
            groups = total.map { [(bounds.count, $0)] } ?? []
            return
        }
        let g = Self.grid
        func cell(_ b: MapRect?) -> Int {
            guard let b else { return 0 }
            let fx = total.width > 0 ? (b.mid.x - total.minX) / total.width : 0
            let fy = total.height > 0 ? (b.mid.y - total.minY) / total.height : 0
            // (Bounds so large that their extent overflows give no fraction: the first cell.)
            guard fx.isFinite, fy.isFinite else { return 0 }
            let cx = min(g - 1, max(0, Int(fx * Double(g)))), cy = min(g - 1, max(0, Int(fy * Double(g))))
            return cy * g + cx
        }
        let cells = bounds.map(cell)
        var counts = [Int](repeating: 0, count: g * g)
        for c in cells { counts[c] += 1 }
        // A counting sort: stable, so parts keep their order within a cell.
        var starts = [Int](repeating: 0, count: g * g)
        var running = 0
        for c in 0 ..< g * g { starts[c] = running; running += counts[c] }
        var next = starts
        var order = [Int](repeating: 0, count: bounds.count)
        var cellBounds = [MapRect?](repeating: nil, count: g * g)
        for (i, c) in cells.enumerated() {
            order[next[c]] = i
            next[c] += 1
            if let b = bounds[i] { cellBounds[c] = cellBounds[c].map { $0.union(b) } ?? b }
        }
        self.order = order
        var groups: [(end: Int, bounds: MapRect)] = []
        for c in 0 ..< g * g where counts[c] > 0 {
            groups.append((starts[c] + counts[c], cellBounds[c] ?? MapRect(origin: total.origin, width: 0, height: 0)))
        }
        self.groups = groups
    }

    /// Meshes `parts` grouped by their `bounds`: `mesh` is called with each part in bin order,
    /// and `indexCount` (the mesh's indices so far) before each part and after the last; returns
    /// the mesh's bins.
    static func mesh<Part>(_ parts: [Part], bounds: (Part) -> MapRect?, indexCount: () -> Int,
                           _ mesh: (Part) -> Void) -> [MeshBin] {
        let bins = SetBins(parts.map(bounds))
        var recorder = Recorder(bins)
        for (position, i) in bins.order.enumerated() {
            recorder.reach(part: position, indexCount: indexCount())
            mesh(parts[i])
        }
        recorder.reach(part: .max, indexCount: indexCount())
        return recorder.result
    }

    /// Records the bins while a mesh is built part by part in `order`.
    struct Recorder {
        let groups: [(end: Int, bounds: MapRect)]
        private var next = 0
        private(set) var bins: [MeshBin] = []

        init(_ bins: SetBins?) { groups = bins?.groups ?? [] }

        /// Called before part `part` (its position in `order`) is meshed, and with `Int.max` after
        /// the last, with the mesh's index count so far: closes the bins that end there.
        mutating func reach(part: Int, indexCount: Int) {
            while next < groups.count, groups[next].end <= part {
                bins.append(MeshBin(indexEnd: indexCount, bounds: groups[next].bounds))
                next += 1
            }
        }

        /// The bins, or none where there is only one (nothing to choose between).
        var result: [MeshBin] { bins.count > 1 ? bins : [] }
    }
}
