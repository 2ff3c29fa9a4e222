import Foundation
import GeoKit

/// The offline world basemap embedded in the package: Natural Earth land, lakes, country
/// borders and populated places, pre-tiled in four levels of detail (see
/// `scripts/basemap/README.md` for the file layout and how it is built).
///
/// Load it once with `EmbeddedBasemap.shared()` and query it from any thread: it is
/// immutable after loading. Each query decodes only the tiles its rectangle touches at
/// the level of detail for its zoom, so a city view and a world view are both cheap.
public final class EmbeddedBasemap: Sendable {
    /// One level of detail of the tile pyramid.
    struct Level: Sendable {
        /// Tiles are `2^tileZoom` per world side.
        var tileZoom: Int
        /// Coordinates are integers on a grid of `2^gridBits` per world side.
        var gridBits: Int
        /// The smallest render zoom this level is meant for.
        var minZoom: Int
        /// Natural Earth scale, metres per map metre divided by 10^6 ("110m" → 110).
        var scale: Int
        /// Tile key `y << 16 | x` → byte range in the resource.
        var tiles: [UInt32: Range<Int>]
    }

    /// The bytes of the resource (a file is mapped, not read: a query touches only its tiles' pages).
    let bytes: Data
    let levels: [Level]
    /// Places sorted by `minZoom`, then rank, then population (descending).
    let places: [BasemapPlace]

    /// The attribution to show with any map drawn from this basemap.
    public let attribution: String
    /// The size of the loaded resource in bytes.
    public var byteCount: Int { bytes.count }

    /// The most tiles one query reads; a query that would need more at its zoom's level
    /// falls back to a coarser level (a huge rectangle at a high zoom stays bounded).
    public static let maxTilesPerQuery = 128
    /// The most world copies one query returns for a rectangle wider than the world.
    public static let maxWorldCopies = 8

    /// The file name of the resource inside the package's `Resources` folder.
    public static let resourceName = "basemap.mwb"

    /// Parses a basemap resource held in memory.
    public convenience init(bytes: [UInt8]) throws(BasemapError) {
        try self.init(data: Data(bytes))
    }

    private init(data bytes: Data) throws(BasemapError) {
        self.bytes = bytes
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(BasemapError) in try EmbeddedBasemap.parse(raw) }
        }
        let parsed = try result.get()
        levels = parsed.levels
        places = parsed.places
        attribution = parsed.attribution
    }

    /// Loads a basemap resource from a file.
    public convenience init(contentsOf url: URL) throws(BasemapError) {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw .unreadable(path: url.path, reason: "\(error.localizedDescription)")
        }
        try self.init(data: data)
    }

    private static let loaded: Result<EmbeddedBasemap, BasemapError> = {
        let candidates = resourceCandidates()
        for url in candidates where FileManager.default.isReadableFile(atPath: url.path) {
            return Result { () throws(BasemapError) in try EmbeddedBasemap(contentsOf: url) }
        }
        return .failure(.notFound(tried: candidates.map(\.path)))
    }()

    /// The package's embedded basemap, loaded on first use (thread-safe, once per process).
    /// Throws when the resource cannot be found or read; the same error on every call.
    public static func shared() throws(BasemapError) -> EmbeddedBasemap {
        try loaded.get()
    }

    /// Where the resource may be: `$MAPWRIGHT_BASEMAP`, the SwiftPM resource bundle next to
    /// the executable (or the test bundle), then the source checkout this file was built from.
    static func resourceCandidates() -> [URL] {
        var out: [URL] = []
        if let env = ProcessInfo.processInfo.environment["MAPWRIGHT_BASEMAP"], !env.isEmpty {
            out.append(URL(fileURLWithPath: env))
        }
        var dirs: [URL] = [Bundle.main.bundleURL]
        if let exe = Bundle.main.executableURL {
            dirs.append(exe.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for dir in dirs {
            for bundle in ["Mapwright_MapTiles.resources", "Mapwright_MapTiles.bundle"] {
                let b = dir.appendingPathComponent(bundle)
                out.append(b.appendingPathComponent("Resources").appendingPathComponent(resourceName))
                out.append(
                    b.appendingPathComponent("Contents/Resources/Resources").appendingPathComponent(resourceName))
            }
        }
        out.append(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Resources").appendingPathComponent(resourceName))
        return out
    }

    // MARK: Queries

    /// The features to draw a view of `rect` (normalised Web Mercator; x may lie outside
    /// [0, 1] for views that wrap across the antimeridian) at `zoom` (world = 512·2^zoom px).
    ///
    /// Returns whole tiles touching `rect` at the level of detail for `zoom`: Natural Earth
    /// 1:110m below zoom 3, 1:50m for zooms 3–5, 1:10m simplified for 5–7, 1:10m from 7.
    /// Geometry may extend past `rect` up to the tile edges. Places are those inside `rect`
    /// with `minZoom ≤ zoom`. A non-finite or negative-size rectangle or a non-finite zoom
    /// gives no features; `y` is clamped to the world, at most `maxWorldCopies` copies are
    /// returned and at most `maxTilesPerQuery` tiles read. The same as the features of each of
    /// `tiles(in:zoom:)` in turn, land before lakes, with `places(in:zoom:)`.
    public func features(in rect: MapRect, zoom: Double) -> BasemapFeatures {
        guard let q = Query(self, rect, zoom) else { return BasemapFeatures() }
        let level = levels[q.level]
        var out = BasemapFeatures(sourceScale: "\(level.scale)m", level: q.level)
        for t in q.tiles { decode(t, into: &out) }
        out.polygons.sort { $0.kind.rawValue < $1.kind.rawValue }
        out.places = places(q, zoom: zoom)
        return out
    }

    /// The stored tiles a view of `rect` at `zoom` reads, in the order `features(in:zoom:)`
    /// reads them (row by row within each world copy, copies west first): the same level, tile
    /// cap and world copies. Tiles of open ocean hold nothing and are not listed.
    public func tiles(in rect: MapRect, zoom: Double) -> [BasemapTile] {
        Query(self, rect, zoom)?.tiles ?? []
    }

    /// The land and lake polygons (land first) and the lines of one tile of `tiles(in:zoom:)`,
    /// placed in its world copy; no places. A tile that is not stored, or fails to decode,
    /// has none (`validate()` checks every tile).
    public func features(of tile: BasemapTile) -> BasemapFeatures {
        guard levels.indices.contains(tile.level) else { return BasemapFeatures() }
        let level = levels[tile.level]
        var out = BasemapFeatures(sourceScale: "\(level.scale)m", level: tile.level)
        decode(tile, into: &out)
        out.polygons.sort { $0.kind.rawValue < $1.kind.rawValue }
        return out
    }

    /// The square a tile covers (normalised Web Mercator, in its world copy): its features lie
    /// in it, cut along its sides. Nil for a level that does not exist.
    public func rect(of tile: BasemapTile) -> MapRect? {
        guard levels.indices.contains(tile.level) else { return nil }
        let side = 1 / Double(1 << levels[tile.level].tileZoom)
        return MapRect(origin: MapPoint(x: Double(tile.copy) + Double(tile.x) * side, y: Double(tile.y) * side),
                       width: side, height: side)
    }

    /// The places `features(in:zoom:)` gives for `rect` at `zoom`, most important first.
    public func places(in rect: MapRect, zoom: Double) -> [BasemapPlace] {
        guard let q = Query(self, rect, zoom) else { return [] }
        return places(q, zoom: zoom)
    }

    /// Appends the tile's features to `out` (counting it in `tileCount` when it is stored).
    private func decode(_ t: BasemapTile, into out: inout BasemapFeatures) {
        let level = levels[t.level]
        guard let range = level.tiles[UInt32(t.y) << 16 | UInt32(t.x)] else { return }
        out.tileCount += 1
        bytes.withUnsafeBytes { raw in
            // A tile that fails to decode is skipped; `validate()` checks every tile.
            try? TileDecoder.decode(raw, range: range, level: level, x: t.x, y: t.y, shiftX: Double(t.copy), into: &out)
        }
    }

    /// A query's rectangle clamped to the world and its copies, its level of detail (coarser
    /// where the zoom's level would read more than `maxTilesPerQuery` tiles) and stored tiles.
    private struct Query {
        var x0: Double, x1: Double, y0: Double, y1: Double
        var firstCopy: Int, lastCopy: Int
        var level: Int
        var tiles: [BasemapTile]

        init?(_ map: EmbeddedBasemap, _ rect: MapRect, _ zoom: Double) {
            guard rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite,
                rect.width >= 0, rect.height >= 0, zoom.isFinite, !map.levels.isEmpty
            else { return nil }
            y0 = max(0, rect.minY)
            y1 = min(1, rect.maxY)
            guard y0 <= y1 else { return nil }
            let first = Int(floor(max(-1e6, min(1e6, rect.minX))))
            // World copies k with k < maxX and k + 1 > minX.
            let last = max(first, min(Int(ceil(max(-1e6, min(1e6, rect.maxX)))) - 1, first + EmbeddedBasemap.maxWorldCopies - 1))
            firstCopy = first
            lastCopy = last
            x0 = rect.minX
            x1 = min(rect.maxX, Double(last + 1))
            var index = map.levelIndex(forZoom: zoom)
            var refs = map.tileRanges(x0: x0, x1: x1, y0: y0, y1: y1, firstCopy: first, lastCopy: last,
                                      tileZoom: map.levels[index].tileZoom)
            while index > 0, refs.count > EmbeddedBasemap.maxTilesPerQuery {
                index -= 1
                refs = map.tileRanges(x0: x0, x1: x1, y0: y0, y1: y1, firstCopy: first, lastCopy: last,
                                      tileZoom: map.levels[index].tileZoom)
            }
            level = index
            let stored = map.levels[index].tiles
            tiles = refs.compactMap { t in
                stored[UInt32(t.y) << 16 | UInt32(t.x)] == nil ? nil : BasemapTile(level: index, x: t.x, y: t.y, copy: t.copy)
            }
        }
    }

    /// The index into the levels of detail used for a render zoom, before the tile cap.
    func levelIndex(forZoom zoom: Double) -> Int {
        var index = 0
        for (i, level) in levels.enumerated() where Double(level.minZoom) <= zoom { index = i }
        return index
    }

    struct TileRef: Hashable { var x: Int; var y: Int; var copy: Int }

    fileprivate func tileRanges(
        x0: Double, x1: Double, y0: Double, y1: Double, firstCopy: Int, lastCopy: Int,
        tileZoom: Int
    ) -> [TileRef] {
        let n = 1 << tileZoom
        let dn = Double(n)
        let ty0 = max(0, min(n - 1, Int(floor(y0 * dn))))
        let ty1 = max(0, min(n - 1, Int(floor(y1 * dn))))
        var out: [TileRef] = []
        guard firstCopy <= lastCopy else { return out }
        for copy in firstCopy...lastCopy {
            let lx0 = max(0, x0 - Double(copy)), lx1 = min(1, x1 - Double(copy))
            guard lx0 <= lx1 else { continue }
            let tx0 = max(0, min(n - 1, Int(floor(lx0 * dn))))
            let tx1 = max(0, min(n - 1, Int(floor(lx1 * dn))))
            for ty in ty0...ty1 {
                for tx in tx0...tx1 {
                    out.append(TileRef(x: tx, y: ty, copy: copy))
                    if out.count > Self.maxTilesPerQuery * 4 { return out }
                }
            }
        }
        return out
    }

    private func places(_ q: Query, zoom: Double) -> [BasemapPlace] {
        let (x0, x1, y0, y1, firstCopy, lastCopy) = (q.x0, q.x1, q.y0, q.y1, q.firstCopy, q.lastCopy)
        var out: [BasemapPlace] = []
        guard firstCopy <= lastCopy else { return out }
        for stored in places {
            if Double(stored.minZoom) > zoom { break }  // sorted by minZoom
            let p = stored.point
            guard p.y >= y0, p.y <= y1, !stored.isCountry || zoom < BasemapPlace.countryLabelMaxZoom else { continue }
            for copy in firstCopy...lastCopy {
                let x = p.x + Double(copy)
                if x >= x0 && x <= x1 {
                    var place = stored
                    place.point = MapPoint(x: x, y: p.y)
                    out.append(place)
                }
            }
        }
        return out
    }

    /// Decodes every tile of every level; throws the first format error. For tests and
    /// tools: queries skip a damaged tile silently instead.
    public func validate() throws(BasemapError) -> (tiles: Int, vertices: Int) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(BasemapError) -> (tiles: Int, vertices: Int) in
                var tiles = 0, vertices = 0
                for level in levels {
                    for (key, range) in level.tiles {
                        var f = BasemapFeatures()
                        try TileDecoder.decode(
                            raw, range: range, level: level, x: Int(key & 0xFFFF),
                            y: Int(key >> 16), shiftX: 0, into: &f)
                        tiles += 1
                        vertices += f.vertexCount
                    }
                }
                return (tiles, vertices)
            }
        }
        return try result.get()
    }
}
