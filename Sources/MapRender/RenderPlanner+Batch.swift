import GeoKit
import MapCamera
import MapScene

extension RenderPlanner {
    /// The most vertices one merged ground command holds.
    static let maxBatchVertices = 1 << 20
    /// Meshes with more vertices than this are drawn alone: merging pays for many small meshes,
    /// and a large one merged would be copied again whenever a neighbour changes (a live
    /// track's growing tail beside its sealed pieces).
    static let maxBatchedMeshVertices = 4096

    /// Merges runs of consecutive opaque ground commands that differ only in their meshes —
    /// the same colour, coverage (fills or strokes, no dashes, no fade), width and flags — into
    /// one command each, so that a vector tile's thousands of buildings or streets of one kind
    /// cost one draw call instead of thousands (a 1024×768 view of central Florence: 170 → 45 ms
    /// of drawing on llvmpipe). Strokes keep their order, so they draw the same pixels; fills
    /// draw every interior first and then every antialiased fringe, and an opaque colour blended
    /// over itself is itself, so they do too but for rounding where thin fringes of neighbours
    /// overlap (a few levels on one pixel in 10 000 there; the bench scenes are byte-identical).
    /// Screen-anchored shapes (pixel discs, dots) and large meshes stay alone. A
    /// merged mesh is cached by its parts' identities and offsets, so an unchanged view re-uses it.
    func batchGround(_ commands: [DrawCommand], worldSize: Double) -> [DrawCommand] {
        func mergeable(_ c: DrawCommand) -> Bool {
            c.mesh.layout == .ground && c.color.a == 255 && c.texture == nil && c.dash.isEmpty && c.fadeLength == 0
                && (c.coverage == .fill ? c.mesh.fringeStart != nil : c.coverage == .stroke && c.mesh.fringeStart == nil)
                && c.raster == .none && !c.mesh.indices.isEmpty && c.mesh.vertexCount <= Self.maxBatchedMeshVertices
                && !c.mesh.isAnchored && c.ranges == nil
        }
        func alike(_ a: DrawCommand, _ b: DrawCommand) -> Bool {
            a.color == b.color && a.coverage == b.coverage && a.extrudeScale == b.extrudeScale && a.blendOnce == b.blendOnce
                && a.widthOnGround == b.widthOnGround && a.group == b.group
        }
        // Offsets from the run's first origin past this many world pixels start a new run (the
        // merged positions are Floats relative to that origin: 1e5 px keeps them within 0.01 px).
        let reach = 1e5 / max(worldSize, 1)
        // Nothing to merge (a plan of markers and circles): the commands as they are, not copied
        // one by one (each copy retains its mesh, dashes, texture and ranges).
        let any = commands.indices.dropLast().contains { k in
            mergeable(commands[k]) && mergeable(commands[k + 1]) && alike(commands[k], commands[k + 1])
        }
        guard any else { return commands }
        var out: [DrawCommand] = []
        out.reserveCapacity(commands.count)
        var i = 0
        while i < commands.count {
            let first = commands[i]
            guard mergeable(first) else { out.append(first); i += 1; continue }
            var j = i + 1
            var vertices = first.mesh.vertexCount
            while j < commands.count {
                let c = commands[j]
                guard alike(first, c), mergeable(c), abs(c.origin.x - first.origin.x) <= reach,
                      abs(c.origin.y - first.origin.y) <= reach, vertices + c.mesh.vertexCount <= Self.maxBatchVertices else { break }
                vertices += c.mesh.vertexCount
                j += 1
            }
            if j - i == 1 { out.append(first); i = j; continue }
            let run = commands[i ..< j]
            var offsets: [Double] = []
            offsets.reserveCapacity(run.count * 2)
            for c in run { offsets.append(c.origin.x - first.origin.x); offsets.append(c.origin.y - first.origin.y) }
            let key = MeshKey(source: .groundBatch(run.map { ObjectIdentifier($0.mesh) }, offsets: offsets), bucket: 0, cell: nil)
            let (mesh, origin) = cachedBatch(key, retain: run.map { $0.mesh }) {
                (Self.merge(Array(run), base: first.origin), first.origin)
            }
            var merged = first
            merged.mesh = mesh
            merged.origin = origin
            merged.screenBox = ScreenBox.union(of: run.map(\.screenBox))
            out.append(merged)
            i = j
        }
        return out
    }
}
