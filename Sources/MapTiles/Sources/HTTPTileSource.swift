import AsyncHTTPClient
import Foundation
import GeoKit
import NIOCore
import NIOHTTP1

/// How XYZ tiles are fetched over HTTP(S).
public struct HTTPTileOptions: Sendable {
    /// Rows counted from the south (TMS), as `{-y}` in a template does.
    public var tms = false
    /// Subdomains for `{s}`, chosen per tile.
    public var subdomains = ["a", "b", "c"]
    /// Pixel ratio: 2 or more turns `{r}` into `@2x`.
    public var scale = 1.0
    /// A disk cache directory (made when missing), or nil for none.
    public var cacheDirectory: String?
    /// The most bytes this source's disk cache keeps (default 1 GiB; 0: no limit). Past it, the
    /// tiles stored longest ago are removed until a fifth of it is free.
    public var cacheLimitBytes = 1 << 30
    /// The megabytes a user may give as the cache limit (`--tile-cache-mb`, `tileCacheMegabytes`).
    public static let cacheMegabytesRange = 0 ... 1 << 20
    /// Use the disk cache only, never the network (a missing tile is an error).
    public var offline = false
    /// The longest wait for one tile request, seconds.
    public var timeout = 10.0
    /// Attempts per tile for 5xx answers, timeouts and connection errors.
    public var attempts = 3
    /// The first back-off between attempts, seconds (doubled each time).
    public var backoff = 0.25
    /// Connections kept per host.
    public var connectionsPerHost = 6
    /// The largest tile body read, bytes.
    public var maxTileBytes = 8 << 20
    /// Tile size in logical pixels the source's tiles cover.
    public var tileSize = 256
    /// The zoom range to ask for (over-zoomed past `maxZoom`).
    public var minZoom = 0
    public var maxZoom = 19
    /// Attribution to show.
    public var attribution: String?

    public init() {}

    /// `Mapwright/VERSION (+https://…)`: what tile servers see.
    public static let userAgent = "Mapwright/0.5 (Swift map renderer; https://github.com/mapwright/mapwright)"
}

/// One HTTP client for the process: connection pools are shared by every source.
enum SharedHTTP {
    static let client: HTTPClient = {
        var config = HTTPClient.Configuration()
        config.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 6)
        // A refused or failed connection fails the requests waiting for it at once; the sources
        // retry with their own back-off (`attempts`, `backoff`). Left on, the pool would retry
        // until each request's timeout, so a wrong port cost `attempts` × `timeout` per tile.
        config.connectionPool.retryConnectionEstablishment = false
        config.timeout = .init(connect: .seconds(5), read: .seconds(15))
        config.redirectConfiguration = .follow(max: 5, allowCycles: false)
        config.decompression = .enabled(limit: .ratio(20))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: config)
    }()
}

/// An XYZ URL template over HTTP(S): `{z}`, `{x}`, `{y}`, `{-y}` (TMS rows), `{s}` (subdomains),
/// `{r}` (`@2x` for a scale of 2 or more) and `{quadkey}` (Bing). Sends a User-Agent naming
/// Mapwright, bounds connections per host, retries 5xx answers and timeouts with back-off,
/// and keeps a disk cache honouring `Cache-Control` (`max-age`, `no-store`, `no-cache`),
/// `Expires`, `ETag` and `Last-Modified` (conditional requests); `offline` reads the cache only.
public final class HTTPTileSource: TileSource, @unchecked Sendable {
    public let info: TileSourceInfo
    public let template: String
    public let options: HTTPTileOptions
    private let cacheRoot: String?
    private let budget: DiskCacheBudget?
    private let gate: AsyncGate

    public init(template: String, options: HTTPTileOptions = HTTPTileOptions()) throws {
        guard template.contains("{z}"),
              (template.contains("{x}") && (template.contains("{y}") || template.contains("{-y}"))) || template.contains("{quadkey}")
        else {
            throw TileError(.usage, "tile URL template \(template) needs {z}, {x} and {y} (or {-y}), or {quadkey}")
        }
        guard URL(string: template.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")) != nil else {
            throw TileError(.usage, "tile URL template \(template) is not a URL")
        }
        self.template = template
        self.options = options
        gate = AsyncGate(limit: max(1, options.connectionsPerHost))
        if let dir = options.cacheDirectory {
            // One folder per template (its hash), so several sources share a cache directory.
            var h: UInt64 = 0xcbf29ce484222325
            for b in template.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
            let root = "\(dir)/\(String(h, radix: 16))"
            do { try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true) } catch {
                throw TileError(.open, "cannot create the tile cache \(dir): \(error.localizedDescription)")
            }
            try? Data(template.utf8).write(to: URL(fileURLWithPath: "\(root)/template.txt"))
            cacheRoot = root
            budget = options.offline || options.cacheLimitBytes <= 0 ? nil : DiskCacheBudget.of(root, limit: options.cacheLimitBytes)
        } else {
            cacheRoot = nil
            budget = nil
        }
        info = TileSourceInfo(name: template, format: Self.format(ofTemplate: template), minZoom: options.minZoom,
                              maxZoom: options.maxZoom, tileSize: options.tileSize, attribution: options.attribution)
    }

    /// The tile format a template's path names by its extension (`…/{y}.pbf`, `{y}.mvt?key=…`:
    /// vector tiles; `.png`, `.jpg`, `.webp`), or nil when it names none (images, told apart by
    /// their bytes).
    static func format(ofTemplate template: String) -> String? {
        let path = template.split(separator: "?", maxSplits: 1).first.map(String.init) ?? template
        let ext = (path as NSString).pathExtension.lowercased()
        switch ext {
        case "pbf", "mvt": return "pbf"
        case "png", "webp": return ext
        case "jpg", "jpeg": return "jpg"
        default: return nil
        }
    }

    /// The URL of a tile.
    public func url(for id: TileID) -> String {
        let subs = options.subdomains.isEmpty ? [""] : options.subdomains
        return template
            .replacingOccurrences(of: "{z}", with: String(id.z))
            .replacingOccurrences(of: "{x}", with: String(id.x))
            .replacingOccurrences(of: "{-y}", with: String((1 << id.z) - 1 - id.y))
            .replacingOccurrences(of: "{y}", with: String(options.tms ? (1 << id.z) - 1 - id.y : id.y))
            .replacingOccurrences(of: "{s}", with: subs[(id.x + id.y) % subs.count])
            .replacingOccurrences(of: "{r}", with: options.scale >= 2 ? "@2x" : "")
            .replacingOccurrences(of: "{quadkey}", with: id.quadkey)
    }

    struct CacheMeta: Codable { var etag: String?; var lastModified: String?; var expires: Double; var empty: Bool? }

    public func tileData(_ id: TileID) async throws -> [UInt8]? {
        let url = url(for: id)
        let file = cacheRoot.map { "\($0)/\(id.z)/\(id.x)/\(id.y)" }
        var cached: (data: [UInt8], meta: CacheMeta)?
        if let file, let d = FileManager.default.contents(atPath: file + ".tile"),
           let m = FileManager.default.contents(atPath: file + ".json"), let meta = try? JSONDecoder().decode(CacheMeta.self, from: m) {
            cached = ([UInt8](d), meta)
        }
        if let cached, options.offline || cached.meta.expires > Date().timeIntervalSince1970 {
            return cached.meta.empty == true ? nil : cached.data
        }
        if options.offline { throw TileError(.offline, "tile \(id): offline, and not in the tile cache (\(url))") }
        var attempt = 0
        var delay = options.backoff
        while true {
            attempt += 1
            try Task.checkCancellation()
            do {
                return try await fetch(id, url: url, file: file, cached: cached)
            } catch let e as RetryableError {
                if attempt >= options.attempts {
                    throw TileError(.fetch, "tile \(id): \(e.message) (\(url)), after \(attempt) attempts")
                }
            }
            try await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            delay *= 2
        }
    }

    struct RetryableError: Error { let message: String }

    private func fetch(_ id: TileID, url: String, file: String?, cached: (data: [UInt8], meta: CacheMeta)?) async throws -> [UInt8]? {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: HTTPTileOptions.userAgent)
        request.headers.add(name: "Accept", value: info.format == "pbf"
            ? "application/vnd.mapbox-vector-tile,application/x-protobuf,application/octet-stream;q=0.8"
            : "image/webp,image/png,image/jpeg,image/*;q=0.8")
        if let etag = cached?.meta.etag { request.headers.add(name: "If-None-Match", value: etag) }
        if let lm = cached?.meta.lastModified { request.headers.add(name: "If-Modified-Since", value: lm) }
        let response: HTTPClientResponse
        let body: ByteBuffer
        // At most `connectionsPerHost` requests at once pass the gate; it is left whatever happens.
        await gate.enter()
        let outcome: Result<(HTTPClientResponse, ByteBuffer), Error>
        do {
            let r = try await SharedHTTP.client.execute(request, timeout: .milliseconds(Int64(options.timeout * 1000)))
            outcome = .success((r, try await r.body.collect(upTo: options.maxTileBytes)))
        } catch {
            outcome = .failure(error)
        }
        await gate.leave()
        do {
            (response, body) = try outcome.get()
        } catch let e as HTTPClientError where e == .deadlineExceeded || e == .readTimeout || e == .connectTimeout {
            throw RetryableError(message: "timed out after \(options.timeout) s")
        } catch is CancellationError {
            throw CancellationError()
        } catch let e as NIOTooManyBytesError {
            throw TileError(.fetch, "tile \(id): body over \(options.maxTileBytes) bytes (\(url)) \(e)")
        } catch {
            throw RetryableError(message: Self.reason(error))
        }
        let status = response.status.code
        let expires = Self.expiry(response.headers)
        if status == 304, let cached {
            if let file { store(file, data: cached.data, meta: CacheMeta(etag: cached.meta.etag, lastModified: cached.meta.lastModified,
                                                                       expires: expires ?? 0, empty: cached.meta.empty)) }
            return cached.meta.empty == true ? nil : cached.data
        }
        if status >= 500 { throw RetryableError(message: "HTTP \(status)") }
        if status == 204 {
            if let file, let expires { store(file, data: [], meta: CacheMeta(expires: expires, empty: true)) }
            return nil
        }
        if status == 404 || status == 410 { throw TileError(.notFound, "tile \(id): HTTP \(status) (\(url))") }
        guard status == 200 else { throw TileError(.fetch, "tile \(id): HTTP \(status) (\(url))") }
        let type = response.headers.first(name: "Content-Type")?.lowercased() ?? ""
        if !type.isEmpty, !type.hasPrefix("image/"), !type.hasPrefix("application/octet-stream"),
           !type.hasPrefix("application/x-protobuf"), !type.hasPrefix("application/vnd.mapbox-vector-tile") {
            throw TileError(.fetch, "tile \(id): content type \(type) is not an image or a vector tile (\(url))")
        }
        let bytes = [UInt8](body.readableBytesView)
        if let file, !Self.noStore(response.headers) {
            store(file, data: bytes, meta: CacheMeta(etag: response.headers.first(name: "ETag"),
                                                     lastModified: response.headers.first(name: "Last-Modified"),
                                                     expires: expires ?? 0))
        }
        return bytes
    }

    private func store(_ file: String, data: [UInt8], meta: CacheMeta) {
        let dir = (file as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let tmp = file + ".tmp\(UInt32.random(in: 0 ... .max))"
        guard let m = try? JSONEncoder().encode(meta) else { return }
        guard FileManager.default.createFile(atPath: tmp + "t", contents: Data(data)),
              FileManager.default.createFile(atPath: tmp + "j", contents: m) else {
            unlink(tmp + "t")
            unlink(tmp + "j")
            return
        }
        rename(tmp + "t", file + ".tile")
        rename(tmp + "j", file + ".json")
        budget?.stored(data.count + m.count)
    }

    static func noStore(_ h: HTTPHeaders) -> Bool {
        h[canonicalForm: "Cache-Control"].contains { $0.lowercased().trimmingCharacters(in: .whitespaces) == "no-store" }
    }

    /// When a response stops being fresh (seconds since 1970), from `Cache-Control` or `Expires`; nil: not cacheable.
    static func expiry(_ h: HTTPHeaders, now: Double = Date().timeIntervalSince1970) -> Double? {
        let directives = h[canonicalForm: "Cache-Control"].map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
        if directives.contains("no-store") { return nil }
        if directives.contains(where: { $0 == "no-cache" || $0.hasPrefix("no-cache=") }) { return now }
        for d in directives where d.hasPrefix("max-age=") {
            // RFC 9111 §1.2.2: delta-seconds are digits, and a value too large to hold is taken as
            // 2^31 s; any other value (a sign, a fraction, "inf", "nan") makes the response stale.
            var digits = Substring(d.dropFirst(8))
            if digits.count >= 2, digits.first == "\"", digits.last == "\"" { digits = digits.dropFirst().dropLast() }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return now }
            return now + min(Double(digits) ?? Self.maxAgeLimit, Self.maxAgeLimit)
        }
        if let e = h.first(name: "Expires") {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = TimeZone(identifier: "GMT")
            f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
            return f.date(from: e)?.timeIntervalSince1970 ?? now
        }
        return now
    }

    /// A transport error in a few words, e.g. "Connection refused" (NIO's own descriptions name
    /// its internals).
    static func reason(_ error: Error) -> String {
        if let e = error as? IOError { return String(cString: strerror(e.errnoCode)) }
        if let e = error as? HTTPClientError {
            switch e {
            case .connectTimeout: return "the connection timed out"
            case .readTimeout, .deadlineExceeded: return "timed out"
            case .remoteConnectionClosed: return "the server closed the connection"
            default: return "\(e)"
            }
        }
        return "\(error)"
    }

    /// The longest freshness a response may claim, seconds (RFC 9111's 2^31).
    static let maxAgeLimit = 2_147_483_648.0
}

/// Reads byte ranges of a URL with HTTP range requests (`Range: bytes=a-b`, answered 206).
public struct HTTPRangeReader: ByteRangeReader {
    public let url: String
    public let options: HTTPTileOptions
    public var length: UInt64? { nil }

    public init(url: String, options: HTTPTileOptions) { self.url = url; self.options = options }

    public func read(offset: UInt64, count: Int) async throws -> [UInt8] {
        guard count > 0 else { return [] }
        let (last, overflow) = offset.addingReportingOverflow(UInt64(count) - 1)
        guard !overflow else { throw TileError(.invalidArchive, "\(url): range \(offset)+\(count) is outside any archive") }
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: HTTPTileOptions.userAgent)
        request.headers.add(name: "Range", value: "bytes=\(offset)-\(last)")
        let response: HTTPClientResponse
        do {
            response = try await SharedHTTP.client.execute(request, timeout: .milliseconds(Int64(options.timeout * 1000)))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw TileError(.fetch, "\(url): \(HTTPTileSource.reason(error))")
        }
        let code = response.status.code
        guard code == 200 || code == 206 else {
            throw TileError(.fetch, "\(url): HTTP \(code) for bytes \(offset)+\(count)")
        }
        var bytes: [UInt8]
        do {
            bytes = [UInt8](try await response.body.collect(upTo: count + 1024).readableBytesView)
        } catch is NIOTooManyBytesError {
            if code == 200 {
                // As the pmtiles reference client does: a server that answers a range with the whole
                // file cannot serve an archive piecewise (Python's http.server is one).
                throw TileError(.fetch, "\(url): the server ignores Range requests (it answered 200 with the whole "
                                + "file); reading PMTiles over HTTP needs one that answers them with 206 Partial Content "
                                + "(nginx, Apache, object stores), or give the downloaded file")
            }
            throw TileError(.invalidArchive, "\(url): the server sent more than the \(count) bytes asked for (bytes \(offset)+\(count))")
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw TileError(.fetch, "\(url): \(HTTPTileSource.reason(error))")
        }
        if code == 200 {
            // A server that ignores ranges sends the whole file: take the range out of a small one.
            guard offset + UInt64(count) <= UInt64(bytes.count) else {
                if offset == 0 { return bytes }
                throw TileError(.invalidArchive, "\(url): range \(offset)+\(count) is outside the archive")
            }
            bytes = Array(bytes[Int(offset) ..< Int(offset) + count])
        }
        guard bytes.count >= count else {
            if offset == 0 { return bytes }  // the header read asks for more than a small archive holds
            throw TileError(.invalidArchive, "\(url): range \(offset)+\(count) is outside the archive")
        }
        return bytes
    }
}

/// An async counting semaphore (bounds concurrent requests per source).
actor AsyncGate {
    private var free: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { free = limit }

    func enter() async {
        if free > 0 { free -= 1; return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func leave() {
        if waiters.isEmpty { free += 1 } else { waiters.removeFirst().resume() }
    }
}
