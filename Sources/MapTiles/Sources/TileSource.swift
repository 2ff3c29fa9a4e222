import Foundation
import GeoKit

/// What a tile source says about itself (MBTiles metadata, a PMTiles header, TileJSON-like).
public struct TileSourceInfo: Sendable, Equatable {
    /// A name for messages (the file, the URL template).
    public var name: String
    /// The tile format (`png`, `jpg`, `webp`, or another the source declares, e.g. `pbf`).
    public var format: String?
    /// The lowest and highest zoom levels the source holds.
    public var minZoom: Int
    public var maxZoom: Int
    /// Where the source has tiles, or nil for the whole world.
    public var bounds: GeoBounds?
    /// Tile size in logical pixels (256 for most raster sources; 512 for @2x-less "retina" sets).
    public var tileSize: Int
    /// Attribution text to show on the map.
    public var attribution: String?

    public init(name: String, format: String? = nil, minZoom: Int = 0, maxZoom: Int = 22, bounds: GeoBounds? = nil,
                tileSize: Int = 256, attribution: String? = nil) {
        self.name = name; self.format = format; self.minZoom = minZoom; self.maxZoom = maxZoom; self.bounds = bounds
        self.tileSize = tileSize; self.attribution = attribution
    }

    /// Whether the source can have the tile (its zoom range and bounds).
    public func mayContain(_ id: TileID) -> Bool {
        guard id.z >= minZoom, id.z <= maxZoom else { return false }
        guard let b = bounds else { return true }
        let t = id.bounds
        return t.south <= b.north && t.north >= b.south && t.west <= b.east && t.east >= b.west
    }
}

/// A source of encoded tiles (PNG, JPEG, WebP bytes) by `z/x/y` (XYZ rows, north first).
///
/// Sources are async and cancellable (a cancelled task stops waiting and throws
/// `CancellationError`), safe to call from many tasks at once.
public protocol TileSource: Sendable {
    /// What the source declares.
    var info: TileSourceInfo { get }
    /// The tile's bytes, or nil when the source has no tile there (an empty area).
    /// Throws `TileError` for a tile that exists but cannot be read.
    func tileData(_ id: TileID) async throws -> [UInt8]?
}

/// Why a tile or an archive could not be read: which one, and why.
public struct TileError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The archive or directory is not usable (bad magic, truncated, a directory out of the file…).
        case invalidArchive
        /// The source could not be opened (no such file, not a tile source).
        case open
        /// A tile request failed (HTTP status, timeout, connection).
        case fetch
        /// The server says the tile does not exist (HTTP 404 or 410): an answer, not an outage.
        case notFound
        /// A tile's bytes are not a decodable image.
        case decode
        /// Offline, and the tile is not in the cache.
        case offline
        /// A value given by the user is wrong (a URL template, a size).
        case usage
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind; self.description = description
    }
}

/// Opens a `--tiles` argument: a URL template (`http…`), `FILE.mbtiles`, `FILE.pmtiles` (or
/// an `http(s)` URL ending in `.pmtiles`, read by range requests) or a directory of
/// `{z}/{x}/{y}.{png,jpg,webp}`.
public enum TileSources {
    /// Whether a source spec is an `http(s)` URL (a template or a remote archive) rather than a path.
    public static func isURL(_ spec: String) -> Bool {
        let lower = spec.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// An attribution as it is drawn on a map: HTML tags dropped (archives' metadata often holds
    /// links, `<a href="…">© OpenStreetMap</a>`), the common entities (`&copy;`, `&amp;`,
    /// `&lt;`, `&gt;`, `&quot;`, `&#39;`, `&nbsp;`, numeric `&#…;`) read, white space collapsed.
    public static func plainText(_ html: String) -> String {
        var out = ""
        var inTag = false
        for c in html {
            if inTag { if c == ">" { inTag = false }; continue }
            if c == "<" { inTag = true; continue }
            out.append(c)
        }
        let named = ["&copy;": "©", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&apos;": "'", "&nbsp;": " "]
        for (k, v) in named { out = out.replacingOccurrences(of: k, with: v) }
        // Numeric references (decimal and hex), then &amp; last so "&amp;copy;" stays "&copy;".
        var result = ""
        var rest = Substring(out)
        while let amp = rest.range(of: "&#") {
            result += rest[..<amp.lowerBound]
            let after = rest[amp.upperBound...]
            if let semi = after.firstIndex(of: ";"), after.distance(from: after.startIndex, to: semi) <= 8 {
                let body = after[..<semi]
                let value = body.first == "x" || body.first == "X" ? UInt32(body.dropFirst(), radix: 16) : UInt32(body)
                if let v = value, let scalar = Unicode.Scalar(v) {
                    result.unicodeScalars.append(scalar)
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            result += "&#"
            rest = after
        }
        result += rest
        result = result.replacingOccurrences(of: "&amp;", with: "&")
        return result.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    public static func open(_ spec: String, options: HTTPTileOptions = HTTPTileOptions()) throws -> any TileSource {
        let lower = spec.lowercased()
        if isURL(spec) {
            if lower.hasSuffix(".pmtiles") {
                return try PMTilesSource(reader: HTTPRangeReader(url: spec, options: options), name: spec)
            }
            return try HTTPTileSource(template: spec, options: options)
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: spec, isDirectory: &isDir) else {
            throw TileError(.open, "\(spec): no such file or directory (a tile source is a URL template, "
                + "an .mbtiles or .pmtiles file, or a directory of z/x/y tiles)")
        }
        if isDir.boolValue { return try DirectoryTileSource(path: spec, tms: options.tms) }
        if lower.hasSuffix(".mbtiles") { return try MBTilesSource(path: spec) }
        if lower.hasSuffix(".pmtiles") { return try PMTilesSource(path: spec) }
        // Tell by content.
        let head = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: spec)).read(upToCount: 16)) ?? Data()
        if head.starts(with: Array("PMTiles".utf8)) { return try PMTilesSource(path: spec) }
        if head.starts(with: Array("SQLite format 3".utf8)) { return try MBTilesSource(path: spec) }
        throw TileError(.open, "\(spec): not an MBTiles or PMTiles archive (by name or content)")
    }
}

/// A bounded least-recently-used cache, safe across threads.
public final class LRUCache<Key: Hashable & Sendable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [Key: (value: Value, tick: UInt64)] = [:]
    private var tick: UInt64 = 0
    /// The most entries kept.
    public let capacity: Int

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    public subscript(key: Key) -> Value? {
        get {
            lock.withLock {
                guard let e = entries[key] else { return nil }
                tick += 1
                entries[key] = (e.value, tick)
                return e.value
            }
        }
        set {
            lock.withLock {
                tick += 1
                if let newValue { entries[key] = (newValue, tick) } else { entries[key] = nil }
                if entries.count > capacity {
                    // Drop the oldest eighth at once (amortised O(1) per insert).
                    let drop = max(1, entries.count - capacity + capacity / 8)
                    let oldest = entries.sorted { $0.value.tick < $1.value.tick }.prefix(drop).map(\.key)
                    for k in oldest { entries[k] = nil }
                }
            }
        }
    }

    /// Looks a value up without refreshing it.
    public func peek(_ key: Key) -> Value? { lock.withLock { entries[key]?.value } }

    public var count: Int { lock.withLock { entries.count } }

    public func removeAll() { lock.withLock { entries.removeAll() } }
}
