import Foundation
import GeoKit
import MapCamera
import MapImage
import MapScene
import MapTiles

/// A tile source drawn on the ground under the overlays: raster tiles (PNG, JPEG, WebP) as
/// images, vector tiles (MVT, `pbf`) as areas and lines in `vectorStyle`, with their places
/// labelled among the basemap's.
///
/// Decoded tiles are kept in an LRU memory cache. For every view the layer draws the tiles of
/// the camera's cover (farther tiles at lower zoom in pitched views; deeper zooms than the
/// source's `maxZoom` over-zoom it); a tile that is missing or failed is stood in for by the
/// nearest loaded ancestor (the matching part of it) and by whatever children are loaded, so a
/// frame never shows a hole where anything better is known and refines as tiles arrive.
///
/// Headless renders `load(for:timeout:)` the view's tiles first (and, where one fails, its
/// ancestors); a window calls `request(for:)`, which returns at once and calls `onChange` as
/// each tile lands. Failures are kept as warnings naming the tile (`takeWarnings()`); a failed
/// tile is asked for again once `retryFailuresAfter` seconds have passed, so a long-running
/// server or window recovers when its tile source does. `problems(for:)` names the tiles of a
/// view that are not drawn as themselves.
public final class TileLayer: @unchecked Sendable {
    /// Where the tiles come from.
    public let source: any TileSource
    /// 0…1.
    public var opacity: Double
    /// Colour adjustments (MapLibre's raster paint properties).
    public var adjustments: RasterAdjustments
    /// Logical pixels one tile covers (256 for most raster sources; 512 for 512-px tiles).
    public let tileSize: Int
    /// Attribution shown on the map (the source's, unless replaced; markup is dropped).
    public var attribution: String?
    /// Whether the tiles are vector tiles (the source's format is `pbf` or `mvt`).
    public let isVector: Bool
    /// How vector tiles are drawn (light unless set; the CLI and scene files follow `style`).
    public var vectorStyle: VectorTileStyle {
        get { lock.withLock { _vectorStyle } }
        set { lock.withLock { _vectorStyle = newValue } }
    }
    private var _vectorStyle = VectorTileStyle.light
    /// The language of vector tiles' place names (`en` reads `name:en` or `name_en` where a
    /// place has it), else nil for the local `name`; `Snapshot.placeLanguage` overrides it.
    public var language: String? {
        get { lock.withLock { _language } }
        set { lock.withLock { _language = newValue } }
    }
    private var _language: String?
    /// The last view's vector ground, with the tile contents it was made of (kept alive so their
    /// identities in the key stay theirs).
    private var vectorGroundMemo: (key: VectorGroundKey, contents: [VectorTileContent], ground: VectorGround)?

    func lastVectorGround(_ key: VectorGroundKey) -> VectorGround? {
        lock.withLock {
            guard let m = vectorGroundMemo, m.key == key else { return nil }
            return m.ground
        }
    }

    /// The last set of drawn tiles' merged shapes, with the contents they come from.
    private var mergedMemo: (tiles: [VectorGroundKey.Tile], contents: [VectorTileContent], shapes: MergedVectorShapes)?

    func lastMergedShapes(_ tiles: [VectorGroundKey.Tile]) -> MergedVectorShapes? {
        lock.withLock { mergedMemo?.tiles == tiles ? mergedMemo?.shapes : nil }
    }

    func keepMergedShapes(_ tiles: [VectorGroundKey.Tile], contents: [VectorTileContent], _ shapes: MergedVectorShapes) {
        lock.withLock { mergedMemo = (tiles, contents, shapes) }
    }

    func keepVectorGround(_ key: VectorGroundKey, contents: [VectorTileContent], _ ground: VectorGround) {
        lock.withLock { vectorGroundMemo = (key, contents, ground) }
    }
    /// Called (on any thread) when a requested tile has arrived or failed.
    public var onChange: (@Sendable () -> Void)? {
        get { lock.withLock { _onChange } }
        set { lock.withLock { _onChange = newValue } }
    }
    /// How many ancestor levels are searched for a stand-in.
    public static let maxStandInLevels = 10
    /// Tiles fetched at once.
    public static let concurrency = 12

    /// A failed tile keeps why and when it may be fetched again (`UInt64.max`: never, for a tile
    /// the server says does not exist).
    enum Entry {
        case image(SpriteImage), vector(VectorTileContent), empty, failed(String, retryAt: UInt64)

        /// A tile that can be drawn (itself or as a stand-in).
        var isDrawable: Bool {
            switch self {
            case .image, .vector: true
            case .empty, .failed: false
            }
        }
    }

    /// Seconds after which a failed tile is fetched again when a view needs it (default 30).
    public var retryFailuresAfter: Double {
        get { lock.withLock { _retryFailuresAfter } }
        set { lock.withLock { _retryFailuresAfter = newValue.isFinite ? min(max(0, newValue), 1e9) : 30 } }
    }
    private var _retryFailuresAfter = 30.0

    private let cache = LRUCache<TileID, Entry>(capacity: 768)
    private let lock = NSLock()
    private var inflight: [TileID: Task<Void, Never>] = [:]
    private var warnings: [String] = []
    private var warned = Set<TileID>()
    private var _onChange: (@Sendable () -> Void)?

    /// `tileSize` defaults to the source's for raster tiles and to 512 for vector tiles (as
    /// MapLibre draws them: a z14 tile covers a 512-px square at zoom 14).
    public init(source: any TileSource, tileSize: Int? = nil, opacity: Double = 1, adjustments: RasterAdjustments = .none,
                attribution: String? = nil) {
        self.source = source
        let format = source.info.format?.lowercased()
        isVector = format == "pbf" || format == "mvt"
        self.tileSize = tileSize ?? (isVector ? 512 : source.info.tileSize)
        self.opacity = opacity
        self.adjustments = adjustments
        self.attribution = attribution ?? source.info.attribution.map(TileSources.plainText)
    }

    /// The tiles the camera needs (nearest the centre first).
    public func cover(for camera: Camera) -> [CoverTile] {
        let info = source.info
        return camera.coveringTiles(tileSize: Double(tileSize), minZoom: info.minZoom, maxZoom: info.maxZoom)
            .filter { $0.tileID.map(info.mayContain) ?? false }
    }

    /// Fetches the view's tiles (and the ancestors of any that fail) and waits for them, at most
    /// `timeout` seconds. Returns the warnings of this load (also kept for `takeWarnings()`).
    /// Blocks the calling thread (the work runs on MapTiles' loader threads, see `blockingAwait`).
    @discardableResult
    public func load(for camera: Camera, timeout: Double) -> [String] { load(cover(for: camera), timeout: timeout) }

    @discardableResult
    func load(_ cover: [CoverTile], timeout: Double) -> [String] {
        let now = DispatchTime.now().uptimeNanoseconds
        let missing = Set(cover.compactMap(\.tileID)).filter { needsFetch($0, now: now) }.sorted()
        guard !missing.isEmpty else { return [] }
        let before = lock.withLock { warnings.count }
        let deadline = max(0.01, timeout)
        let timedOut = fetchAll(missing, within: deadline)
        for id in timedOut where cache.peek(id) == nil {
            warn(id, "tile \(id): not loaded within \(SceneLoader.fmt(deadline)) s (\(source.info.name))")
        }
        // Stand-ins for the tiles that ran out of time: their parents, for a short grace.
        let orphans = Set(timedOut.compactMap { id -> TileID? in
            guard cache.peek(id) == nil, let parent = id.parent, parent.z >= source.info.minZoom else { return nil }
            if cache.peek(parent)?.isDrawable == true { return nil }
            return parent
        })
        if !orphans.isEmpty { _ = fetchAll(orphans.sorted(), within: min(2, deadline / 2)) }
        return lock.withLock { Array(warnings[before...]) }
    }

    /// Fetches the tiles (each with its stand-in search), `concurrency` at a time, for at most
    /// `seconds`; returns the ones still pending when time ran out (their fetches are cancelled).
    private func fetchAll(_ ids: [TileID], within seconds: Double) -> [TileID] {
        (try? blockingAwait { [self] in
            await withTaskGroup(of: TileID?.self) { group in
                group.addTask {
                    try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                    return nil
                }
                var pending = Set(ids)
                var next = 0
                func startMore() {
                    while next < ids.count, pending.count - (ids.count - next) < Self.concurrency {
                        let id = ids[next]
                        next += 1
                        group.addTask { await self.fetchWithStandIn(id); return id }
                    }
                }
                startMore()
                while let done = await group.next() {
                    guard let id = done else { break }
                    pending.remove(id)
                    if pending.isEmpty { break }
                    startMore()
                }
                group.cancelAll()
                return pending.sorted()
            }
        }) ?? ids
    }

    /// Starts fetching the view's missing tiles in the background; returns at once.
    public func request(for camera: Camera) { request(cover(for: camera)) }

    func request(_ cover: [CoverTile]) {
        let now = DispatchTime.now().uptimeNanoseconds
        for tile in cover {
            guard let id = tile.tileID, needsFetch(id, now: now) else { continue }
            lock.withLock {
                guard inflight[id] == nil else { return }
                inflight[id] = Task.detached { [self] in
                    await fetchWithStandIn(id)
                    let callback = lock.withLock { () -> (@Sendable () -> Void)? in
                        inflight[id] = nil
                        return _onChange
                    }
                    callback?()
                }
            }
        }
    }

    /// Warnings since the last call (each failed tile named once).
    public func takeWarnings() -> [String] {
        lock.withLock {
            defer { warnings.removeAll() }
            return warnings
        }
    }

    /// Fetches one tile; when it fails, fetches ancestors until one is there to stand in.
    private func fetchWithStandIn(_ id: TileID) async {
        if await fetch(id) { return }
        var p = id.parent
        var levels = 0
        while let parent = p, levels < Self.maxStandInLevels, parent.z >= source.info.minZoom {
            if Task.isCancelled { return }
            if cache.peek(parent)?.isDrawable == true { return }
            if needsFetch(parent, now: DispatchTime.now().uptimeNanoseconds), await fetch(parent) { return }
            p = parent.parent
            levels += 1
        }
    }

    /// Whether a tile is to be fetched: never asked for (or evicted), or failed long enough ago.
    private func needsFetch(_ id: TileID, now: UInt64) -> Bool {
        switch cache.peek(id) {
        case nil: return true
        case .failed(_, let retryAt)?: return now >= retryAt
        case .image?, .vector?, .empty?: return false
        }
    }

    /// The tiles of a view that are not drawn as themselves: each failed one with why, and those
    /// not loaded yet (stood in for by ancestors or children, or left out). Empty when the view
    /// is complete; a tile the server says does not exist (HTTP 404) counts as complete.
    public func problems(for camera: Camera) -> [String] { problems(cover(for: camera)) }

    func problems(_ cover: [CoverTile]) -> [String] {
        var seen = Set<TileID>()
        var out: [String] = []
        for tile in cover {
            guard let id = tile.tileID, seen.insert(id).inserted else { continue }
            switch cache.peek(id) {
            case .image?, .vector?, .empty?: continue
            case .failed(_, UInt64.max)?: continue  // the source has no such tile: as complete as it can be
            case .failed(let why, _)?: out.append(why)
            case nil: out.append("tile \(id): not loaded (\(source.info.name))")
            }
        }
        return out
    }

    /// Fetches and decodes a tile into the cache; true when it can be drawn.
    private func fetch(_ id: TileID) async -> Bool {
        // A tile fetched again after failing may warn again.
        if case .failed? = cache.peek(id) { lock.withLock { _ = warned.remove(id) } }
        do {
            guard let bytes = try await source.tileData(id) else {
                cache[id] = .empty
                return false
            }
            if isVector {
                let tile = try VectorTile(data: bytes)
                cache[id] = .vector(VectorTileContent(tile: tile, id: id))
                return true
            }
            let bitmap = try Bitmap(imageData: bytes)
            guard let image = SpriteImage(width: bitmap.width, height: bitmap.height, pixels: bitmap.premultipliedPixels(),
                                          pixelRatio: Double(bitmap.width) / Double(tileSize)) else {
                throw TileError(.decode, "a \(bitmap.width)x\(bitmap.height) image cannot be a tile")
            }
            cache[id] = .image(image)
            return true
        } catch is CancellationError {
            return false
        } catch {
            if Task.isCancelled { return false }
            let why = String(describing: error)
            let message = why.hasPrefix("tile ") ? why : "tile \(id): \(why) (\(source.info.name))"
            let retry = UInt64(retryFailuresAfter * 1e9)
            let notFound = (error as? TileError)?.kind == .notFound
            cache[id] = .failed(message, retryAt: notFound ? .max : DispatchTime.now().uptimeNanoseconds &+ retry)
            warn(id, message)
            return false
        }
    }

    private func warn(_ id: TileID, _ message: String) {
        lock.withLock {
            if warned.insert(id).inserted { warnings.append(message) }
        }
    }

    /// Whether the source has no tile `id` (empty, or missing for good): nothing to stand in for.
    func hasNoTile(_ id: TileID) -> Bool {
        switch cache.peek(id) {
        case .empty?, .failed(_, UInt64.max)?: true
        default: false
        }
    }

    /// The loaded vector tiles that draw `id`, each with the part of it drawn: itself; or its
    /// loaded children and, unless all four are there, its nearest loaded ancestor (its part
    /// `id`). Only tiles `usable` for the part count; an ancestor that is not, but is whole,
    /// stands in whole.
    func vectorStandIns(for id: TileID, usable: (VectorTileContent, _ part: TileID) -> Bool = { _, _ in true })
        -> [(content: VectorTileContent, part: TileID)] {
        if case .vector(let c) = cache[id] {
            if usable(c, id) { return [(c, id)] }
        } else if case .empty = cache.peek(id) {
            return []
        }
        var out: [(content: VectorTileContent, part: TileID)] = []
        for child in id.children {
            if case .vector(let c) = cache.peek(child), usable(c, child) { out.append((c, child)) }
        }
        if out.count == 4 { return out }
        var p = id.parent
        var levels = 0
        while let parent = p, levels < Self.maxStandInLevels {
            if case .vector(let c) = cache[parent] {
                if usable(c, id) { return [(c, id)] + out }
                if usable(c, parent) { return [(c, parent)] + out }
            }
            p = parent.parent
            levels += 1
        }
        return out
    }

    /// The ground images for the view: each cover tile's own image, or its stand-ins (the
    /// nearest loaded ancestor's matching part, under whatever children are loaded), coarser
    /// levels first so finer ones are drawn over them.
    public func groundImages(for camera: Camera, zIndex: Int? = nil) -> [GroundImage] {
        groundImages(cover(for: camera), zIndex: zIndex)
    }

    func groundImages(_ cover: [CoverTile], zIndex: Int? = nil) -> [GroundImage] {
        var out: [(z: Int, image: GroundImage)] = []
        var seen = Set<CoverTile>()
        func place(_ id: TileID, wrap: Int, image: SpriteImage, part: TileID) {
            // `part` is the area drawn (the cover tile or a child), `id` the tile whose image is used.
            let r = part.mapRect
            let dx = Double(wrap)
            let corners = [MapPoint(x: r.minX + dx, y: r.minY), MapPoint(x: r.maxX + dx, y: r.minY),
                           MapPoint(x: r.maxX + dx, y: r.maxY), MapPoint(x: r.minX + dx, y: r.maxY)]
            let k = Double(1 << (part.z - id.z))
            let u0 = (Double(part.x) / k - Double(id.x)), v0 = (Double(part.y) / k - Double(id.y))
            var g = GroundImage(corners: corners, image: image, textureRect: (u0, v0, u0 + 1 / k, v0 + 1 / k), opacity: opacity,
                                adjustments: adjustments, zIndex: zIndex)
            g.worldCopies = false  // the cover already holds each copy (`wrap`)
            out.append((id.z, g))
        }
        for tile in cover {
            guard let id = tile.tileID, seen.insert(tile).inserted else { continue }
            if case .image(let img) = cache[id] {
                place(id, wrap: tile.wrap, image: img, part: id)
                continue
            }
            if case .empty = cache.peek(id) { continue }
            // Children that are here, drawn over the ancestor.
            var childrenFound = 0
            for child in id.children {
                if case .image(let img) = cache.peek(child) {
                    place(child, wrap: tile.wrap, image: img, part: child)
                    childrenFound += 1
                }
            }
            if childrenFound == 4 { continue }
            var p = id.parent
            var levels = 0
            while let parent = p, levels < Self.maxStandInLevels {
                if case .image(let img) = cache[parent] {
                    place(parent, wrap: tile.wrap, image: img, part: id)
                    break
                }
                p = parent.parent
                levels += 1
            }
        }
        return out.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }.map(\.element.image)
    }
}

/// The tile layer, by its name from before it drew vector tiles.
@available(*, deprecated, renamed: "TileLayer")
public typealias RasterTileLayer = TileLayer
