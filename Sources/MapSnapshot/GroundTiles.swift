import Foundation
import GeoKit
import MapCamera
import MapScene

/// Pictures of the ground cut along the tile grid (`MapSnapshotter.pictureGround(_:tile:)`), kept
/// to stand in for the ground while a view moves: what a raster basemap is to a vector one. A
/// view's tiles are those of its cover at its rounded zoom (`cover(for:)`: magnified up to √2 or
/// shrunk to 1/√2; towards the horizon of a steep view, coarser levels, as for any tiles), so a
/// pan only needs the tiles coming into view drawn and a turn or a tilt none; `images(for:)`
/// stands each tile's picture in, else an ancestor's part or its children, as raster tiles do.
///
/// A picture drawn while some of its tiles or meshes were missing (`GroundPicture.complete`) is
/// drawn again once the ground has changed (`generation`, counted by the caller). Pictures are
/// kept up to `capacityBytes`, the least recently used dropped first. Not thread-safe: one
/// caller (a window's render thread).
public final class GroundTiles: @unchecked Sendable {
    struct Key: Hashable { var z: Int, x: Int, y: Int }
    struct Entry {
        var picture: GroundPicture
        var generation: Int
        var lastUsed: Int
    }

    private var entries: [Key: Entry] = [:]
    private var use = 0
    private var bytes = 0
    /// The most pixel memory the pictures may hold.
    public var capacityBytes = 160 << 20
    /// Pictures drawn so far.
    public private(set) var drawn = 0

    public init() {}

    /// The tiles a view's pictures are cut along: its cover at its zoom rounded (the cover's
    /// level is `floor(zoom + ½)` for 512/√2-px tiles), nearest the centre first. `grownBy`
    /// widens the view by that share of its longer side beyond each edge (the tiles to have
    /// ready before a pan reaches them).
    public static func cover(for camera: Camera, grownBy margin: Double = 0) -> [CoverTile] {
        var c = camera
        if margin > 0, margin.isFinite {
            let m = margin * max(c.size.width, c.size.height)
            c.size = ScreenSize(width: c.size.width + 2 * m, height: c.size.height + 2 * m)
        }
        return c.coveringTiles(tileSize: 512 / 2.0.squareRoot())
    }

    /// The tiles of `cover` to draw: those without a picture, then the `stale` ones; in the
    /// cover's order within each.
    public func wanted(_ cover: [CoverTile], generation: Int) -> [CoverTile] {
        let (missing, stale) = sorted(cover, generation: generation)
        return missing + stale
    }

    /// The tiles of `cover` whose picture lacked something (tiles or meshes still arriving, see
    /// `GroundPicture.complete`) and was drawn before `generation`: the ground has changed since.
    public func stale(_ cover: [CoverTile], generation: Int) -> [CoverTile] {
        sorted(cover, generation: generation).stale
    }

    private func sorted(_ cover: [CoverTile], generation: Int) -> (missing: [CoverTile], stale: [CoverTile]) {
        var missing: [CoverTile] = [], stale: [CoverTile] = []
        var seen = Set<Key>()
        for t in cover {
            let k = Key(z: t.z, x: t.x, y: t.y)
            guard seen.insert(k).inserted else { continue }
            if let e = entries[k] {
                if !e.picture.complete && e.generation != generation { stale.append(t) }
            } else {
                missing.append(t)
            }
        }
        return (missing, stale)
    }

    /// The tiles of `cover` a moving view cannot do without: those with no picture whose parent
    /// has none either and whose four children do not all have one (the rest are stood in for,
    /// magnified at most twice or shrunk by half, until the view is still). In the cover's order.
    public func urgent(_ cover: [CoverTile]) -> [CoverTile] {
        var out: [CoverTile] = []
        var seen = Set<Key>()
        for t in cover {
            let k = Key(z: t.z, x: t.x, y: t.y)
            guard seen.insert(k).inserted, entries[k] == nil else { continue }
            if t.z > 0, entries[Key(z: t.z - 1, x: t.x / 2, y: t.y / 2)] != nil { continue }
            if t.z < 30, (0 ..< 4).allSatisfy({ entries[Key(z: t.z + 1, x: 2 * t.x + $0 % 2, y: 2 * t.y + $0 / 2)] != nil }) { continue }
            out.append(t)
        }
        return out
    }

    /// Draws tile `tile`'s picture of `snapshot`'s ground with `snapshotter`. False when there is
    /// no ground to picture.
    @discardableResult
    public func draw(_ tile: CoverTile, of snapshot: Snapshot, with snapshotter: MapSnapshotter, generation: Int) throws -> Bool {
        guard let id = tile.tileID, let picture = try snapshotter.pictureGround(snapshot, tile: id) else { return false }
        drawn += 1
        let k = Key(z: tile.z, x: tile.x, y: tile.y)
        if let old = entries[k] { bytes -= old.picture.image.pixels.count }
        use += 1
        entries[k] = Entry(picture: picture, generation: generation, lastUsed: use)
        bytes += picture.image.pixels.count
        evict()
        return true
    }

    /// The pictures standing in for the ground of a view with this cover, as images on the
    /// ground in drawing order: for each tile its own picture, else the nearest ancestor's
    /// (up to four levels up) part for it under whichever of its children have pictures.
    /// Coarser pictures first, so that finer ones lie over them.
    public func images(for cover: [CoverTile]) -> [GroundImage] {
        use += 1
        var placed: [(z: Int, image: GroundImage)] = []
        var seen = Set<CoverTile>()
        func place(_ k: Key, wrap: Int, part: (z: Int, x: Int, y: Int)? = nil) -> Bool {
            guard var e = entries[k] else { return false }
            e.lastUsed = use
            entries[k] = e
            // The part of the picture over tile `part` (a descendant of k), else all of it.
            let n = Double(1 << k.z)
            var rect = (u0: 0.0, v0: 0.0, u1: 1.0, v1: 1.0)
            var (x0, y0, x1, y1) = (Double(k.x) / n, Double(k.y) / n, Double(k.x + 1) / n, Double(k.y + 1) / n)
            if let p = part {
                let s = Double(1 << (p.z - k.z)), pn = Double(1 << p.z)
                let ox = Double(p.x) - Double(k.x) * s, oy = Double(p.y) - Double(k.y) * s
                rect = (ox / s, oy / s, (ox + 1) / s, (oy + 1) / s)
                (x0, y0, x1, y1) = (Double(p.x) / pn, Double(p.y) / pn, Double(p.x + 1) / pn, Double(p.y + 1) / pn)
            }
            let w = Double(wrap)
            var g = GroundImage(corners: [MapPoint(x: x0 + w, y: y0), MapPoint(x: x1 + w, y: y0),
                                          MapPoint(x: x1 + w, y: y1), MapPoint(x: x0 + w, y: y1)],
                                image: e.picture.image, textureRect: rect)
            g.worldCopies = false
            placed.append((k.z, g))
            return true
        }
        for t in cover where seen.insert(t).inserted {
            if place(Key(z: t.z, x: t.x, y: t.y), wrap: t.wrap) { continue }
            // Children drawn over the ancestor standing in.
            var children = 0
            if t.z < 30 {
                for i in 0 ..< 4 where place(Key(z: t.z + 1, x: 2 * t.x + i % 2, y: 2 * t.y + i / 2), wrap: t.wrap) { children += 1 }
            }
            guard children < 4 else { continue }
            var z = t.z - 1, x = t.x / 2, y = t.y / 2
            while z >= max(0, t.z - 4) {
                if place(Key(z: z, x: x, y: y), wrap: t.wrap, part: (t.z, t.x, t.y)) { break }
                z -= 1; x /= 2; y /= 2
            }
        }
        // (A stable sort: within a level, the cover's order.)
        return placed.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }.map(\.element.image)
    }

    private func evict() {
        guard bytes > capacityBytes else { return }
        for (k, e) in entries.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            guard bytes > capacityBytes else { break }
            // Never what the last view used.
            if e.lastUsed >= use - 1 { break }
            entries[k] = nil
            bytes -= e.picture.image.pixels.count
        }
    }
}
