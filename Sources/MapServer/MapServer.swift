import Foundation
import GeoKit
import HTTPTypes
import Hummingbird
import Logging
import MapCamera
import MapFormats
import MapImage
import MapScene
import MapSnapshot
import MapTiles
import Metrics
import ServiceLifecycle

/// The map server: static maps in the Google and Mapbox URL grammars and as posted scenes,
/// rendered tiles, archives served as they are, TileJSON, a slippy page, health and metrics.
///
/// `MapServer` holds what every request shares (the renderer pool, the raster basemap layers, the
/// overlay scenes of the tile layer, the archives, the image cache); `router()` answers requests
/// with it and `run()` serves them over HTTP until SIGTERM or SIGINT, then finishes what is in flight.
public final class MapServer: Sendable {
    public let config: ServerConfig
    public let pool: RenderPool
    let logger: Logger
    let layers: [TileLayer]
    let tileOverlays: [Overlay]
    let archives: [String: any TileSource]
    let cache: ImageCache?
    let basemapStyle: BasemapStyle?
    let leaflet: (js: [UInt8], css: [UInt8])?
    let metrics: ServerMetrics

    typealias CachedImage = ImageCache.Item

    /// Opens the sources and archives, loads the scenes and starts the renderers.
    public init(config: ServerConfig, logger: Logger = Logger(label: "mapwright.serve")) throws {
        try config.validate()
        Observability.bootstrapMetrics()
        metrics = ServerMetrics()
        self.config = config
        self.logger = logger
        var options = HTTPTileOptions()
        options.cacheDirectory = config.cache ? config.tileCache : nil
        options.cacheLimitBytes = config.tileCacheMegabytes << 20
        options.offline = config.offline
        layers = try config.tiles.map { spec in
            do {
                let layer = TileLayer(source: try TileSources.open(spec, options: options))
                // Vector tiles are drawn in the server's style (`--style`), as the embedded basemap is.
                if let style = VectorTileStyle.named(config.style) { layer.vectorStyle = style }
                return layer
            } catch {
                throw ServerConfigError(key: "tiles", reason: "'\(spec)': \(error)")
            }
        }
        var archives: [String: any TileSource] = [:]
        for (name, path) in config.data {
            guard !TileSources.isURL(path) else { throw ServerConfigError(key: "data", reason: "\(name): '\(path)' is a URL; --data serves local archives") }
            do { archives[name] = try TileSources.open(path) } catch {
                throw ServerConfigError(key: "data", reason: "\(name)='\(path)': \(error)")
            }
        }
        self.archives = archives
        var overlays: [Overlay] = []
        for file in config.scenes {
            let url = URL(fileURLWithPath: file)
            let data: Data
            do { data = Data(try InputFile.read(file, limit: InputFile.wholeFileLimit)) } catch {
                throw ServerConfigError(key: "scene", reason: "cannot read '\(file)': \(error.reason)")
            }
            var doc = try SceneDocument.decode(data, file: file)
            doc.camera = SceneDocument.CameraSpec()
            doc.camera?.center = [0, 0]
            doc.camera?.zoom = 0
            doc.size = [256, 256]
            doc.tiles = nil
            do { overlays += try SceneLoader(baseDirectory: url.deletingLastPathComponent()).snapshot(from: doc).overlays } catch {
                throw ServerConfigError(key: "scene", reason: "\(file): \(error)")
            }
        }
        tileOverlays = overlays
        cache = config.cache && config.cacheMegabytes > 0 ? ImageCache(capacityBytes: config.cacheMegabytes << 20) : nil
        basemapStyle = layers.isEmpty ? BasemapStyle.named(config.style) : nil
        let dir = "/usr/share/javascript/leaflet/"
        if let js = FileManager.default.contents(atPath: dir + "leaflet.js"), let css = FileManager.default.contents(atPath: dir + "leaflet.css") {
            leaflet = ([UInt8](js), [UInt8](css))
        } else {
            leaflet = nil
        }
        let workers = config.workers ?? ProcessInfo.processInfo.activeProcessorCount
        pool = try RenderPool(workers: workers, queueLimit: config.queue ?? max(16, 8 * workers)) { try MapSnapshotter() }
        let gauge = metrics.queueDepth
        pool.onDepthChange = { gauge.record($0) }
    }

    /// Stops the renderers (after the jobs already queued).
    public func shutdown() { pool.shutdown() }

    // MARK: - Rendering

    /// A rendered image and the raster tiles it lacks (see `MapSnapshotter.lastTileProblems`).
    struct Rendered: Sendable {
        var bytes: [UInt8]
        var type: String
        var tileProblems: [String] = []
    }

    /// The response for an image: from the cache, or rendered and cached. An image that lacks
    /// raster tiles (the tile source failed or was too slow) is answered as it is, but marked
    /// `no-store` with `X-Mapwright-Missing-Tiles`, logged, and not cached, so that an outage of
    /// the tile source is not kept once it is over.
    func image(key: String, request: Request, render: @escaping @Sendable (MapSnapshotter, Double) throws -> Rendered) async throws -> Response {
        if let hit = cache?[key] {
            metrics.cacheHits.increment()
            return respond(hit, request: request)
        }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(config.deadline * 1e9)
        let renders = metrics.renders
        let rendered = try await pool.run(deadline: deadline) { s in
            let left = max(0.05, Double(deadline &- DispatchTime.now().uptimeNanoseconds) / 1e9)
            let out = try render(s, left)
            renders.increment()
            return out
        }
        let item = CachedImage(body: rendered.bytes, etag: Self.etag(rendered.bytes), contentType: rendered.type)
        let problems = rendered.tileProblems
        guard problems.isEmpty else {
            metrics.incompleteImages.increment()
            logger.warning("image without \(problems.count) raster tile(s), not cached", metadata: [
                "request": "\(request.uri.path.prefix(200))", "first": "\(problems[0].prefix(300))",
            ])
            var response = respond(item, request: request, cacheControl: "no-store")
            response.headers[Self.missingTilesHeader] = "\(problems.count)"
            return response
        }
        if let size = cache?.insert(item, for: key) {
            metrics.cacheBytes.record(size.bytes)
            metrics.cacheEntries.record(size.count)
        }
        return respond(item, request: request)
    }

    /// How many raster tiles an image lacks, on images that lack some.
    static let missingTilesHeader = HTTPField.Name("X-Mapwright-Missing-Tiles")!

    func respond(_ item: CachedImage, request: Request, cacheControl: String? = nil) -> Response {
        let headers: HTTPFields = [.contentType: item.contentType, .eTag: item.etag, .cacheControl: cacheControl ?? self.cacheControl]
        if let inm = request.headers[.ifNoneMatch], inm.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == item.etag || $0.trimmingCharacters(in: .whitespaces) == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: item.body)))
    }

    /// `Cache-Control` of images and archive tiles.
    var cacheControl: String { config.cache ? "public, max-age=\(config.maxAge)" : "no-store" }

    /// A strong validator: FNV-1a 64 of the body.
    static func etag(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return "\"\(String(h, radix: 16))-\(bytes.count)\""
    }

    static func encode(_ bitmap: Bitmap, _ format: ImageFormat, quality: Int) throws -> [UInt8] {
        var o = PNGOptions.fast
        o.threads = 1
        return try bitmap.encoded(as: format, quality: quality, png: o)
    }

    /// Checks a static request against the limits and builds its snapshot.
    func snapshot(for req: StaticRequest) throws -> Snapshot {
        var doc = req.scene
        try Self.refuseFilesAndURLs(doc)
        let limits = config.limits
        if let size = doc.size, size.count == 2 {
            let scale = doc.scale ?? 1
            guard size[0] <= Double(limits.maxSide), size[1] <= Double(limits.maxSide) else {
                throw APIError.bad("size", "\(size[0])x\(size[1]) is over \(limits.maxSide) px a side")
            }
            guard size[0] * scale <= Double(limits.maxPixelSide), size[1] * scale <= Double(limits.maxPixelSide) else {
                throw APIError.bad("scale", "the image is over \(limits.maxPixelSide) output pixels a side")
            }
        }
        // GeoJSON overlays become the overlays they draw first, so that the limits count those.
        // A clustered one stays whole (the loader clusters its Points); the limits count what it
        // draws as if it were not clustered, since past its maxZoom every Point is drawn alone.
        var specs: [SceneDocument.OverlaySpec] = []
        var overlayCount = 0, points = 0
        func count(_ drawn: [SceneDocument.OverlaySpec]) {
            overlayCount += drawn.count
            points += drawn.reduce(0) { $0 + $1.pathPoints }
        }
        for (i, o) in (doc.overlays ?? []).enumerated() {
            guard o.type == "geojson" else { specs.append(o); count([o]); continue }
            guard let data = o.data else { throw APIError.bad("overlays[\(i)].data", "a geojson overlay needs data (the server reads no file)") }
            let drawn: [SceneDocument.OverlaySpec]
            do { drawn = try SimpleStyle.overlays(of: data, base: o, options: TrackReadOptions(maxPoints: limits.maxPathPoints)) } catch {
                throw APIError.bad("overlays[\(i)].data", "\(error)")
            }
            if o.cluster == true { specs.append(o) } else { specs += drawn }
            count(drawn)
            guard overlayCount <= limits.maxOverlays else { throw APIError.bad("overlays", "more than \(limits.maxOverlays) overlays") }
        }
        doc.overlays = specs
        guard overlayCount <= limits.maxOverlays else { throw APIError.bad("overlays", "\(overlayCount) overlays is over the limit of \(limits.maxOverlays)") }
        guard points <= limits.maxPathPoints else { throw APIError.bad("overlays", "\(points) points is over the limit of \(limits.maxPathPoints)") }
        if !layers.isEmpty, doc.basemap == nil { doc.basemap = "none" }
        if doc.basemap == nil, doc.style == nil { doc.style = config.style }
        var snap: Snapshot
        do {
            let loader = SceneLoader(baseDirectory: URL(fileURLWithPath: "/nonexistent"))
            snap = try loader.snapshot(from: doc)
            snap.tileLayers = layers
            if !layers.isEmpty, snap.basemapStyle == nil { snap.background = Color(rgb: 0xF2EFE9) }
            // Vector tiles in the request's style (its `vectorStyle`, Mapbox's dark style ids,
            // Google's theme), else the server's; the ground past them in that style's colour.
            if layers.contains(where: \.isVector) {
                if doc.style == nil, doc.vectorStyle?.base == nil { doc.style = config.style }
                try loader.applyVectorStyle(doc, to: &snap)
            }
        } catch let e as SceneLoadError {
            throw APIError.bad(e.location.isEmpty ? nil : e.location, e.reason)
        } catch {
            throw APIError.bad(nil, "\(error)")
        }
        return snap
    }

    /// A request names no file and no URL: the server reads and fetches only what its operator configured.
    static func refuseFilesAndURLs(_ doc: SceneDocument) throws {
        if doc.tiles != nil { throw APIError.bad("tiles", "tile sources are configured on the server (--tiles), not in requests") }
        if doc.tileCache != nil { throw APIError.bad("tileCache", "not accepted in requests") }
        if doc.tileCacheMegabytes != nil { throw APIError.bad("tileCacheMegabytes", "not accepted in requests") }
        for (i, o) in (doc.overlays ?? []).enumerated() {
            if o.file != nil { throw APIError.bad("overlays[\(i)].file", "the server reads no file a request names") }
            if o.icon != nil { throw APIError.bad("overlays[\(i)].icon", "the server reads no file a request names") }
            if o.type == "image" { throw APIError.bad("overlays[\(i)].type", "image overlays need files; not accepted in requests") }
        }
    }

    func renderStatic(_ req: StaticRequest, request: Request) async throws -> Response {
        let snap = try snapshot(for: req)
        let format = req.format, quality = req.quality
        return try await image(key: req.cacheKey, request: request) { s, left in
            var snap = snap
            if !snap.tileLayers.isEmpty { snap.tileWait = min(snap.tileWait ?? 30, left * 0.8) }
            let bitmap = try s.render(snap)
            return Rendered(bytes: try Self.encode(bitmap, format, quality: quality), type: format.contentType, tileProblems: s.lastTileProblems)
        }
    }

    // MARK: - Tiles

    /// `/tiles/{z}/{x}/{y}[@2x].png`
    func tile(z: String, x: String, y: String, request: Request) async throws -> Response {
        var name = Substring(y)
        guard name.hasSuffix(".png") else { throw APIError(.notFound, "tiles are {z}/{x}/{y}.png or {y}@2x.png", parameter: "y") }
        name = name.dropLast(4)
        let scale = name.hasSuffix("@2x") ? 2 : name.hasSuffix("@4x") ? 4 : 1
        if scale > 1 { name = name.dropLast(3) }
        guard let zi = Int(z), let xi = Int(x), let yi = Int(name) else { throw APIError.bad("z/x/y", "'\(z)/\(x)/\(y)' is not three integers") }
        guard (0 ... config.limits.maxZoom).contains(zi) else { throw APIError(.notFound, "zoom \(zi) is not in 0…\(config.limits.maxZoom)", parameter: "z") }
        let n = 1 << zi
        guard (0 ..< n).contains(xi), (0 ..< n).contains(yi) else { throw APIError(.notFound, "tile \(zi)/\(xi)/\(yi) is outside the world", parameter: "x/y") }
        let key = "tile|\(zi)/\(xi)/\(yi)@\(scale)"
        let overlays = tileOverlays, style = basemapStyle, layers = self.layers
        return try await image(key: key, request: request) { s, left in
            let centre = MapPoint(x: (Double(xi) + 0.5) / Double(n), y: (Double(yi) + 0.5) / Double(n))
            let camera = Camera(center: centre.latLng, zoom: Double(zi) - 1, size: ScreenSize(width: 256, height: 256), pixelRatio: Double(scale))
            let ground: Color = layers.first.map { $0.isVector ? Color($0.vectorStyle.background) : Color(rgb: 0xF2EFE9) } ?? .transparent
            var snap = Snapshot(camera: camera, overlays: overlays, basemapStyle: style,
                                background: style == nil ? ground : .transparent,
                                attribution: false, scaleBar: false, compass: false)
            snap.tileLayers = layers
            snap.tileWait = min(30, left * 0.8)
            let bitmap = try s.render(snap)
            return Rendered(bytes: try Self.encode(bitmap, .png, quality: 85), type: "image/png", tileProblems: s.lastTileProblems)
        }
    }

    /// `/data/{name}/{z}/{x}/{y}.{ext}`: an archive's own tile, as stored.
    func dataTile(name: String, z: String, x: String, y: String) async throws -> Response {
        guard let source = archives[name] else { throw APIError(.notFound, "no archive named '\(name.prefix(64))'", parameter: "name") }
        guard let dot = y.lastIndex(of: ".") else { throw APIError(.notFound, "expected {y}.{ext}", parameter: "y") }
        let ext = y[y.index(after: dot)...].lowercased()
        guard let zi = Int(z), let xi = Int(x), let yi = Int(y[..<dot]) else { throw APIError.bad("z/x/y", "not three integers") }
        let format = (source.info.format ?? "png").lowercased()
        let accepted: Set<String> = format == "jpg" || format == "jpeg" ? ["jpg", "jpeg"] : format == "pbf" || format == "mvt" ? ["pbf", "mvt"] : [format]
        guard accepted.contains(ext) else { throw APIError(.notFound, "this archive holds .\(format) tiles", parameter: "ext") }
        guard let id = try? TileID(z: zi, x: xi, y: yi) else { throw APIError(.notFound, "tile \(zi)/\(xi)/\(yi) is outside the world", parameter: "z/x/y") }
        let data: [UInt8]?
        do { data = try await source.tileData(id) } catch { throw APIError(.internalServerError, "the archive could not be read") }
        guard let data else { throw APIError(.notFound, "no tile \(zi)/\(xi)/\(yi) in '\(name)'", parameter: "z/x/y") }
        var headers: HTTPFields = [.contentType: Self.contentType(format), .eTag: Self.etag(data), .cacheControl: cacheControl]
        if data.count > 2, data[0] == 0x1F, data[1] == 0x8B { headers[.contentEncoding] = "gzip" }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func contentType(_ format: String) -> String {
        switch format {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "pbf", "mvt": "application/vnd.mapbox-vector-tile"
        default: "application/octet-stream"
        }
    }

    /// The URL clients should use for this server, from the Host header when it is a plain host[:port].
    func baseURL(_ request: Request) -> String {
        if let h = request.head.authority, !h.isEmpty, h.count <= 255,
           h.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) }) {
            return "http://\(h)"
        }
        return "http://\(config.host):\(config.port)"
    }

    func tileJSON(_ request: Request) -> Response {
        let base = baseURL(request)
        var attribution = layers.compactMap { $0.attribution ?? $0.source.info.attribution }.joined(separator: " · ")
        if attribution.isEmpty, basemapStyle != nil { attribution = "Natural Earth" }
        let o: [String: Any] = [
            "tilejson": "3.0.0", "name": "Mapwright", "scheme": "xyz", "format": "png",
            "tiles": ["\(base)/tiles/{z}/{x}/{y}.png"], "minzoom": 0, "maxzoom": config.limits.maxZoom,
            "bounds": [-180, -85.051129, 180, 85.051129], "center": [0, 20, 2], "attribution": attribution,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-cache"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The server's metrics, through swift-metrics (exported by `/metrics` in Prometheus text format).
struct ServerMetrics: Sendable {
    let queueDepth = Gauge(label: "mapwright_queue_depth")
    let cacheHits = Counter(label: "mapwright_cache_hits_total")
    /// The image cache's size: bodies, keys and 64 bytes an entry (what `--cache-mb` bounds).
    let cacheBytes = Gauge(label: "mapwright_image_cache_bytes")
    let cacheEntries = Gauge(label: "mapwright_image_cache_entries")
    let renders = Counter(label: "mapwright_renders_total")
    let incompleteImages = Counter(label: "mapwright_incomplete_images_total")
}

extension SceneDocument.OverlaySpec {
    /// The points of its lines and rings that count towards `RequestLimits.maxPathPoints`: its
    /// coordinates, its rings' positions, and an encoded polyline's length over two (a point
    /// takes at least two characters).
    var pathPoints: Int {
        (coordinates?.count ?? 0) + (rings?.reduce(0) { $0 + $1.count } ?? 0) + (polyline?.utf8.count ?? 0) / 2
    }
}
