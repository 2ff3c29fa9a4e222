import Foundation
import MapFormats
import MapTiles

/// What `mapwright serve` runs with: flags, or a JSON file with the same keys
/// (`{"port": 8080, "tiles": ["base.mbtiles"], "data": {"osm": "osm.pmtiles"}, …}`).
public struct ServerConfig: Codable, Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Raster basemap sources under everything rendered (files, URL templates).
    public var tiles: [String] = []
    /// Archives served as they are under `/data/NAME/…`: name → MBTiles/PMTiles/directory path.
    public var data: [String: String] = [:]
    /// Scene files whose overlays are drawn on `/tiles`.
    public var scenes: [String] = []
    /// Renderer threads (default: one per core).
    public var workers: Int?
    /// Requests that may wait for a renderer before the server answers 503.
    public var queue: Int?
    /// Seconds a request may take, waiting and rendering (tiles of `--tiles` included).
    public var deadline = 10.0
    /// The rendered-image cache, megabytes (0 turns it off).
    public var cacheMegabytes = 256
    /// `false` turns every cache off: rendered images, and HTTP caching headers say `no-store`.
    public var cache = true
    /// `Cache-Control: max-age` of rendered images, seconds.
    public var maxAge = 3600
    /// The embedded basemap's style for tiles: `light` or `dark`.
    public var style = "light"
    /// A disk cache for HTTP tile sources.
    public var tileCache: String?
    /// The most megabytes each tile source keeps in `tileCache` (0: no limit).
    public var tileCacheMegabytes = 1024
    /// Read HTTP tile sources from their disk cache only.
    public var offline = false
    /// `text` or `json` (one JSON object per line).
    public var logFormat = "text"
    /// `trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical`.
    public var logLevel = "info"
    /// Per-request limits.
    public var limits = RequestLimits()
    /// `Access-Control-Allow-Origin` for browsers' cross-origin requests (MapLibre GL JS loads
    /// tiles and TileJSON with `fetch`): `*` (default), one origin (`https://maps.example.org`),
    /// or `none` for no CORS headers.
    public var cors = "*"

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case host, port, tiles, data, scenes, workers, queue, deadline, cacheMegabytes, cache, maxAge, style, tileCache, tileCacheMegabytes, offline
        case logFormat, logLevel, limits, cors
    }

    public init(from decoder: Decoder) throws {
        try JSONKeys.refuseUnknown(in: decoder, CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = ServerConfig()
        host = try c.decodeIfPresent(String.self, forKey: .host) ?? d.host
        port = try c.decodeIfPresent(Int.self, forKey: .port) ?? d.port
        tiles = try c.decodeIfPresent([String].self, forKey: .tiles) ?? d.tiles
        data = try c.decodeIfPresent([String: String].self, forKey: .data) ?? d.data
        scenes = try c.decodeIfPresent([String].self, forKey: .scenes) ?? d.scenes
        workers = try c.decodeIfPresent(Int.self, forKey: .workers)
        queue = try c.decodeIfPresent(Int.self, forKey: .queue)
        deadline = try c.decodeIfPresent(Double.self, forKey: .deadline) ?? d.deadline
        cacheMegabytes = try c.decodeIfPresent(Int.self, forKey: .cacheMegabytes) ?? d.cacheMegabytes
        cache = try c.decodeIfPresent(Bool.self, forKey: .cache) ?? d.cache
        maxAge = try c.decodeIfPresent(Int.self, forKey: .maxAge) ?? d.maxAge
        style = try c.decodeIfPresent(String.self, forKey: .style) ?? d.style
        tileCache = try c.decodeIfPresent(String.self, forKey: .tileCache)
        tileCacheMegabytes = try c.decodeIfPresent(Int.self, forKey: .tileCacheMegabytes) ?? d.tileCacheMegabytes
        offline = try c.decodeIfPresent(Bool.self, forKey: .offline) ?? d.offline
        logFormat = try c.decodeIfPresent(String.self, forKey: .logFormat) ?? d.logFormat
        logLevel = try c.decodeIfPresent(String.self, forKey: .logLevel) ?? d.logLevel
        limits = try c.decodeIfPresent(RequestLimits.self, forKey: .limits) ?? d.limits
        cors = try c.decodeIfPresent(String.self, forKey: .cors) ?? d.cors
    }

    /// Checks the values, naming the first bad one.
    public func validate() throws {
        func bad(_ key: String, _ why: String) -> ServerConfigError { ServerConfigError(key: key, reason: why) }
        guard (0 ... 65535).contains(port) else { throw bad("port", "\(port) is not in 0…65535") }
        guard !host.isEmpty else { throw bad("host", "empty") }
        if let w = workers, !(1 ... 64).contains(w) { throw bad("workers", "\(w) is not in 1…64") }
        if let q = queue, !(1 ... 100_000).contains(q) { throw bad("queue", "\(q) is not in 1…100000") }
        guard deadline.isFinite, deadline > 0, deadline <= 600 else { throw bad("deadline", "\(deadline) is not in (0, 600] s") }
        guard (0 ... 65536).contains(cacheMegabytes) else { throw bad("cacheMegabytes", "\(cacheMegabytes) is not in 0…65536") }
        let cacheRange = HTTPTileOptions.cacheMegabytesRange
        guard cacheRange.contains(tileCacheMegabytes) else {
            throw bad("tileCacheMegabytes", "\(tileCacheMegabytes) is not in \(cacheRange.lowerBound)…\(cacheRange.upperBound)")
        }
        guard (0 ... 31_536_000).contains(maxAge) else { throw bad("maxAge", "\(maxAge) is not in 0…31536000 s") }
        guard style == "light" || style == "dark" else { throw bad("style", "'\(style)' is not light or dark") }
        guard logFormat == "text" || logFormat == "json" else { throw bad("logFormat", "'\(logFormat)' is not text or json") }
        if cors != "*", cors != "none" {
            // One origin: scheme://host[:port], nothing a header could be split on.
            let parts = cors.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == "http" || parts[0] == "https", !parts[1].isEmpty, cors.count <= 255,
                  parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) }) else {
                throw bad("cors", "'\(cors.prefix(80))' is not *, none or an origin such as https://maps.example.org")
            }
        }
        let l = limits
        guard (256 ... 1 << 20).contains(l.maxURLLength) else { throw bad("limits.maxURLLength", "\(l.maxURLLength) is not in 256…1048576") }
        guard (1024 ... 64 << 20).contains(l.maxBodyBytes) else { throw bad("limits.maxBodyBytes", "\(l.maxBodyBytes) is not in 1024…67108864") }
        guard (1 ... 8192).contains(l.maxSide) else { throw bad("limits.maxSide", "\(l.maxSide) is not in 1…8192") }
        guard (1 ... 8192).contains(l.maxPixelSide) else { throw bad("limits.maxPixelSide", "\(l.maxPixelSide) is not in 1…8192") }
        guard (1 ... 100_000).contains(l.maxOverlays) else { throw bad("limits.maxOverlays", "\(l.maxOverlays) is not in 1…100000") }
        guard (2 ... 1_000_000).contains(l.maxPathPoints) else { throw bad("limits.maxPathPoints", "\(l.maxPathPoints) is not in 2…1000000") }
        guard (0 ... 24).contains(l.maxZoom) else { throw bad("limits.maxZoom", "\(l.maxZoom) is not in 0…24") }
        for name in data.keys {
            guard !name.isEmpty, name.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw bad("data", "the name '\(name)' must be 1–64 letters, digits, - or _")
            }
        }
    }
}

public struct ServerConfigError: Error, CustomStringConvertible {
    public let key: String
    public let reason: String
    public var description: String { "\(key): \(reason)" }
}
