import Foundation
import GeoKit
import MapImage

/// Reads byte ranges of an archive (a file, or a URL through HTTP range requests).
public protocol ByteRangeReader: Sendable {
    /// The archive's length in bytes, when known.
    var length: UInt64? { get }
    /// Exactly `count` bytes at `offset`; throws when they are not all there.
    func read(offset: UInt64, count: Int) async throws -> [UInt8]
}

/// A reader that can also read without suspending (a local file): opening an archive on it
/// never blocks a thread waiting for a task.
public protocol SyncByteRangeReader: ByteRangeReader {
    func readNow(offset: UInt64, count: Int) throws -> [UInt8]
}

extension SyncByteRangeReader {
    public func read(offset: UInt64, count: Int) async throws -> [UInt8] { try readNow(offset: offset, count: count) }
}

/// A file read with `pread` (thread-safe, no shared cursor).
public final class FileRangeReader: SyncByteRangeReader, @unchecked Sendable {
    private let fd: Int32
    public let path: String
    public let length: UInt64?

    public init(path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw TileError(.open, "\(path): \(String(cString: strerror(errno)))") }
        var st = stat()
        fstat(fd, &st)
        length = UInt64(max(0, st.st_size))
    }

    deinit { close(fd) }

    public func readNow(offset: UInt64, count: Int) throws -> [UInt8] {
        guard count >= 0, let length, offset <= length, UInt64(count) <= length - offset else {
            throw TileError(.invalidArchive, "\(path): range \(offset)+\(count) is outside the file (\(length ?? 0) bytes)")
        }
        var buf = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            guard n > 0 else { throw TileError(.invalidArchive, "\(path): short read at \(offset + UInt64(done))") }
            done += n
        }
        return buf
    }
}

/// PMTiles version 3: header, directories and Hilbert tile IDs, from the specification
/// (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md).
public enum PMTiles {
    public static let headerLength = 127

    /// Compression codes of the header.
    public enum Compression: UInt8, Sendable { case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4 }
    /// Tile types of the header.
    public enum TileType: UInt8, Sendable { case unknown = 0, mvt = 1, png = 2, jpeg = 3, webp = 4, avif = 5 }

    public struct Header: Sendable, Equatable {
        public var rootOffset: UInt64 = 0, rootLength: UInt64 = 0
        public var metadataOffset: UInt64 = 0, metadataLength: UInt64 = 0
        public var leafOffset: UInt64 = 0, leafLength: UInt64 = 0
        public var dataOffset: UInt64 = 0, dataLength: UInt64 = 0
        public var addressedTiles: UInt64 = 0, tileEntries: UInt64 = 0, tileContents: UInt64 = 0
        public var clustered = false
        public var internalCompression = Compression.gzip
        public var tileCompression = Compression.none
        public var tileType = TileType.png
        public var minZoom = 0, maxZoom = 0
        public var minLon = -180.0, minLat = -85.0, maxLon = 180.0, maxLat = 85.0
        public var centerZoom = 0
        public var centerLon = 0.0, centerLat = 0.0

        public init() {}

        /// Parses the 127-byte header; throws for a bad magic, version or value.
        public init(_ b: [UInt8], name: String) throws {
            guard b.count >= PMTiles.headerLength else {
                throw TileError(.invalidArchive, "\(name): \(b.count) bytes, shorter than a PMTiles header (127)")
            }
            guard b[0 ..< 7].elementsEqual(Array("PMTiles".utf8)) else {
                throw TileError(.invalidArchive, "\(name): bad magic (not a PMTiles archive)")
            }
            guard b[7] == 3 else { throw TileError(.invalidArchive, "\(name): PMTiles version \(b[7]), only version 3 is read") }
            func u64(_ o: Int) -> UInt64 { (0 ..< 8).reduce(0) { $0 | UInt64(b[o + $1]) << (8 * UInt64($1)) } }
            func i32(_ o: Int) -> Double {
                Double(Int32(bitPattern: (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(b[o + $1]) << (8 * UInt32($1)) })) / 1e7
            }
            rootOffset = u64(8); rootLength = u64(16); metadataOffset = u64(24); metadataLength = u64(32)
            leafOffset = u64(40); leafLength = u64(48); dataOffset = u64(56); dataLength = u64(64)
            addressedTiles = u64(72); tileEntries = u64(80); tileContents = u64(88)
            clustered = b[96] == 1
            guard let ic = Compression(rawValue: b[97]), let tc = Compression(rawValue: b[98]),
                  let tt = TileType(rawValue: b[99]) else {
                throw TileError(.invalidArchive, "\(name): unknown compression or tile type code in the header")
            }
            internalCompression = ic; tileCompression = tc; tileType = tt
            minZoom = Int(b[100]); maxZoom = Int(b[101])
            minLon = i32(102); minLat = i32(106); maxLon = i32(110); maxLat = i32(114)
            centerZoom = Int(b[118]); centerLon = i32(119); centerLat = i32(123)
            guard minZoom <= maxZoom, maxZoom <= 30 else {
                throw TileError(.invalidArchive, "\(name): zoom range \(minZoom)…\(maxZoom) is not valid")
            }
        }

        /// The 127 header bytes.
        public var bytes: [UInt8] {
            var b = Array("PMTiles".utf8) + [3]
            func u64(_ v: UInt64) { for i in 0 ..< 8 { b.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
            func i32(_ v: Double) {
                let x = UInt32(bitPattern: Int32(max(-2_000_000_000, min(2_000_000_000, (v * 1e7).rounded()))))
                for i in 0 ..< 4 { b.append(UInt8(truncatingIfNeeded: x >> (8 * UInt32(i)))) }
            }
            for v in [rootOffset, rootLength, metadataOffset, metadataLength, leafOffset, leafLength, dataOffset, dataLength,
                      addressedTiles, tileEntries, tileContents] { u64(v) }
            b += [clustered ? 1 : 0, internalCompression.rawValue, tileCompression.rawValue, tileType.rawValue,
                  UInt8(minZoom), UInt8(maxZoom)]
            i32(minLon); i32(minLat); i32(maxLon); i32(maxLat)
            b.append(UInt8(centerZoom))
            i32(centerLon); i32(centerLat)
            return b
        }
    }

    /// One directory entry: a run of tiles (`runLength ≥ 1`) or a leaf directory (`runLength == 0`).
    public struct Entry: Sendable, Equatable {
        public var tileID: UInt64
        public var offset: UInt64
        public var length: UInt32
        public var runLength: UInt32

        public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
            self.tileID = tileID; self.offset = offset; self.length = length; self.runLength = runLength
        }
    }

    /// The Hilbert tile ID: tiles of lower zooms first, then the position along the zoom's Hilbert curve.
    public static func tileID(_ t: TileID) -> UInt64 {
        let z = UInt64(t.z)
        let base: UInt64 = z == 0 ? 0 : ((1 << (2 * z)) - 1) / 3
        let n = UInt64(1) << z
        var x = UInt64(t.x), y = UInt64(t.y), d: UInt64 = 0
        var s = n / 2
        while s > 0 {
            let rx: UInt64 = (x & s) > 0 ? 1 : 0
            let ry: UInt64 = (y & s) > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 { x = n - 1 - x; y = n - 1 - y }
                swap(&x, &y)
            }
            s /= 2
        }
        return base + d
    }

    /// The tile address of a Hilbert tile ID (the inverse of `tileID(_:)`).
    public static func tile(_ id: UInt64) -> TileID? {
        var z: UInt64 = 0, base: UInt64 = 0
        while z < 31 {
            let count = UInt64(1) << (2 * z)
            if id < base + count { break }
            base += count
            z += 1
        }
        guard z <= 30 else { return nil }
        let n = UInt64(1) << z
        var t = id - base, x: UInt64 = 0, y: UInt64 = 0
        var s: UInt64 = 1
        while s < n {
            let rx = 1 & (t / 2)
            let ry = 1 & (t ^ rx)
            if ry == 0 {
                if rx == 1 { x = s - 1 - x; y = s - 1 - y }
                swap(&x, &y)
            }
            x += s * rx
            y += s * ry
            t /= 4
            s *= 2
        }
        return try? TileID(z: Int(z), x: Int(x), y: Int(y))
    }

    /// Decodes a directory (already decompressed).
    public static func decodeDirectory(_ b: [UInt8], name: String) throws -> [Entry] {
        var pos = 0
        func varint() throws -> UInt64 {
            var v: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard pos < b.count else { throw TileError(.invalidArchive, "\(name): directory ends inside a varint") }
                let byte = b[pos]
                pos += 1
                guard shift < 64 else { throw TileError(.invalidArchive, "\(name): varint longer than 64 bits") }
                v |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return v }
                shift += 7
            }
        }
        let n = try varint()
        // Every entry takes at least 4 bytes: a count beyond that is a lie.
        guard n <= UInt64(b.count) else { throw TileError(.invalidArchive, "\(name): directory claims \(n) entries in \(b.count) bytes") }
        var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(n))
        var last: UInt64 = 0
        for i in 0 ..< entries.count {
            let (sum, overflow) = last.addingReportingOverflow(try varint())
            guard !overflow else { throw TileError(.invalidArchive, "\(name): tile IDs overflow") }
            last = sum
            entries[i].tileID = sum
        }
        for i in 0 ..< entries.count {
            let v = try varint()
            guard v <= UInt64(UInt32.max) else { throw TileError(.invalidArchive, "\(name): run length too large") }
            entries[i].runLength = UInt32(v)
        }
        for i in 0 ..< entries.count {
            let v = try varint()
            guard v <= UInt64(UInt32.max) else { throw TileError(.invalidArchive, "\(name): entry length too large") }
            entries[i].length = UInt32(v)
        }
        for i in 0 ..< entries.count {
            let v = try varint()
            if v == 0, i > 0 {
                entries[i].offset = entries[i - 1].offset &+ UInt64(entries[i - 1].length)
            } else {
                guard v > 0 else { throw TileError(.invalidArchive, "\(name): first entry has no offset") }
                entries[i].offset = v - 1
            }
        }
        return entries
    }

    /// Encodes a directory (before compression).
    public static func encodeDirectory(_ entries: [Entry]) -> [UInt8] {
        var b: [UInt8] = []
        func varint(_ v: UInt64) {
            var v = v
            while v >= 0x80 { b.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
            b.append(UInt8(v))
        }
        varint(UInt64(entries.count))
        var last: UInt64 = 0
        for e in entries { varint(e.tileID - last); last = e.tileID }
        for e in entries { varint(UInt64(e.runLength)) }
        for e in entries { varint(UInt64(e.length)) }
        for (i, e) in entries.enumerated() {
            if i > 0, e.offset == entries[i - 1].offset + UInt64(entries[i - 1].length) { varint(0) } else { varint(e.offset + 1) }
        }
        return b
    }

    /// The entry holding `id`: the last with `tileID ≤ id`, when its run covers `id` or it is a leaf.
    static func find(_ id: UInt64, in entries: [Entry]) -> Entry? {
        var lo = 0, hi = entries.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if entries[mid].tileID < id { lo = mid + 1 } else if entries[mid].tileID > id { hi = mid - 1 } else { return entries[mid] }
        }
        guard hi >= 0 else { return nil }
        let e = entries[hi]
        if e.runLength == 0 { return e }
        return id - e.tileID < UInt64(e.runLength) ? e : nil
    }
}

/// A PMTiles v3 archive read by byte ranges (a file, or a URL by HTTP range requests).
/// Directories are read and decompressed once and kept.
public final class PMTilesSource: TileSource, @unchecked Sendable {
    public let info: TileSourceInfo
    public let header: PMTiles.Header
    /// The archive's JSON metadata (decompressed), or empty.
    public let metadata: [UInt8]
    private let reader: any ByteRangeReader
    private let root: [PMTiles.Entry]
    private let leaves = LRUCache<UInt64, [PMTiles.Entry]>(capacity: 64)
    private let name: String
    private let readNow: (UInt64, Int) throws -> [UInt8]
    /// The largest directory read (decompressed), and the deepest chain of leaves followed.
    public static let maxDirectoryBytes = 16 << 20
    public static let maxDepth = 4

    public convenience init(path: String) throws {
        try self.init(reader: FileRangeReader(path: path), name: path)
    }

    /// Reads the header, root directory and metadata (blocking: an archive is opened once).
    public init(reader: any ByteRangeReader, name: String) throws {
        self.reader = reader
        self.name = name
        // Opening reads a few ranges: directly from a local file, else waiting on the requests.
        let read: (UInt64, Int) throws -> [UInt8] = { offset, count in
            if let sync = reader as? any SyncByteRangeReader { return try sync.readNow(offset: offset, count: count) }
            return try blockingAwait { try await reader.read(offset: offset, count: count) }
        }
        self.readNow = read
        let head = try read(0, min(Int(reader.length ?? 16384), 16384))
        let h = try PMTiles.Header(head, name: name)
        try Self.checkSection(h.rootOffset, h.rootLength, "root directory", h, reader.length, name, directoryLimit: true)
        try Self.checkSection(h.metadataOffset, h.metadataLength, "metadata", h, reader.length, name, directoryLimit: true)
        try Self.checkSection(h.leafOffset, h.leafLength, "leaf directories", h, reader.length, name, directoryLimit: true)
        try Self.checkSection(h.dataOffset, h.dataLength, "tile data", h, reader.length, name, directoryLimit: false)
        let rootBytes: [UInt8]
        if h.rootOffset + h.rootLength <= UInt64(head.count) {
            rootBytes = Array(head[Int(h.rootOffset) ..< Int(h.rootOffset + h.rootLength)])
        } else {
            rootBytes = try read(h.rootOffset, Int(h.rootLength))
        }
        let rootDir = try PMTiles.decodeDirectory(try Self.inflate(rootBytes, h.internalCompression, name), name: name)
        var meta: [UInt8] = []
        if h.metadataLength > 0 {
            meta = try Self.inflate(try read(h.metadataOffset, Int(h.metadataLength)), h.internalCompression, name)
        }
        let loaded = (h, rootDir, meta)
        header = loaded.0; root = loaded.1; metadata = loaded.2
        let obj = (try? JSONSerialization.jsonObject(with: Data(metadata))) as? [String: Any]
        let format: String? = switch header.tileType {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        case .mvt: "pbf"
        case .avif: "avif"
        case .unknown: nil
        }
        let bounds = try? GeoBounds(south: max(-85.06, header.minLat), west: header.minLon, north: min(85.06, header.maxLat),
                                    east: header.maxLon)
        info = TileSourceInfo(name: (obj?["name"] as? String).map { "\($0) (\(name))" } ?? name, format: format,
                              minZoom: header.minZoom, maxZoom: header.maxZoom, bounds: bounds,
                              attribution: obj?["attribution"] as? String)
        // A local archive's leaf directories are checked when it is opened (a loop, or a leaf
        // outside its section, is an error now rather than a warning per tile later).
        if reader is FileRangeReader, header.leafLength > 0, header.leafLength <= UInt64(Self.maxDirectoryBytes) {
            _ = try allEntries()
        }
    }

    /// Whether an entry's bytes lie within a section of `size` bytes, without overflowing on the
    /// offsets a damaged directory may hold (found by fuzzing: offset + length past 2⁶⁴ trapped).
    static func fits(_ e: PMTiles.Entry, in size: UInt64) -> Bool {
        UInt64(e.length) <= size && e.offset <= size - UInt64(e.length)
    }

    private static func checkSection(_ offset: UInt64, _ length: UInt64, _ what: String, _ h: PMTiles.Header,
                                     _ fileLength: UInt64?, _ name: String,
                                     directoryLimit: Bool) throws {
        let (end, overflow) = offset.addingReportingOverflow(length)
        if overflow || (fileLength.map { end > $0 } ?? false) {
            throw TileError(.invalidArchive, "\(name): the \(what) (\(offset)+\(length)) points outside the file (\(fileLength ?? 0) bytes)")
        }
        // The directory sections and the metadata are held to the directory size limit; tile data
        // is read a tile at a time, whatever its size.
        if directoryLimit, length > UInt64(maxDirectoryBytes) {
            throw TileError(.invalidArchive, "\(name): the \(what) is \(length) bytes, over the \(maxDirectoryBytes) limit")
        }
    }

    private static func inflate(_ b: [UInt8], _ c: PMTiles.Compression, _ name: String) throws -> [UInt8] {
        switch c {
        case .none, .unknown: return b
        case .gzip:
            do { return try Gzip.decompress(b, limit: maxDirectoryBytes) } catch {
                throw TileError(.invalidArchive, "\(name): \(error.description)")
            }
        case .brotli, .zstd:
            throw TileError(.invalidArchive, "\(name): \(c) compression is not supported (gzip or none)")
        }
    }

    public func tileData(_ id: TileID) async throws -> [UInt8]? {
        guard id.z >= header.minZoom, id.z <= header.maxZoom else { return nil }
        let target = PMTiles.tileID(id)
        var dir = root
        for depth in 0 ... Self.maxDepth {
            try Task.checkCancellation()
            guard let e = PMTiles.find(target, in: dir) else { return nil }
            if e.runLength > 0 {
                guard Self.fits(e, in: header.dataLength) else {
                    throw TileError(.invalidArchive, "\(name): tile \(id) points outside the tile data")
                }
                let raw = try await reader.read(offset: header.dataOffset + e.offset, count: Int(e.length))
                switch header.tileCompression {
                case .gzip:
                    do { return try Gzip.decompress(raw) } catch { throw TileError(.decode, "\(name): tile \(id): \(error.description)") }
                case .none, .unknown: return raw
                default: throw TileError(.decode, "\(name): tile \(id): \(header.tileCompression) compression is not supported")
                }
            }
            guard depth < Self.maxDepth else { break }
            guard Self.fits(e, in: header.leafLength), e.length > 0 else {
                throw TileError(.invalidArchive, "\(name): a leaf directory (\(e.offset)+\(e.length)) points outside the leaf section")
            }
            let key = e.offset
            if let cached = leaves[key] {
                dir = cached
            } else {
                let raw = try await reader.read(offset: header.leafOffset + e.offset, count: Int(e.length))
                let leaf = try PMTiles.decodeDirectory(try Self.inflate(raw, header.internalCompression, name), name: name)
                leaves[key] = leaf
                dir = leaf
            }
        }
        throw TileError(.invalidArchive, "\(name): leaf directories nest deeper than \(Self.maxDepth) levels (a loop?)")
    }

    /// Every tile entry (leaves expanded), for `mapwright tiles inspect`.
    public func allEntries() throws -> [PMTiles.Entry] {
        var out: [PMTiles.Entry] = []
        func walk(_ dir: [PMTiles.Entry], depth: Int) throws {
            for e in dir {
                if e.runLength > 0 { out.append(e); continue }
                guard depth < Self.maxDepth else {
                    throw TileError(.invalidArchive, "\(name): leaf directories nest deeper than \(Self.maxDepth) levels (a loop?)")
                }
                guard Self.fits(e, in: header.leafLength) else {
                    throw TileError(.invalidArchive, "\(name): a leaf directory points outside the leaf section")
                }
                let raw = try readNow(header.leafOffset + e.offset, Int(e.length))
                try walk(try PMTiles.decodeDirectory(try Self.inflate(raw, header.internalCompression, name), name: name),
                         depth: depth + 1)
            }
        }
        try walk(root, depth: 0)
        return out
    }
}

/// Runs async work to completion from synchronous code (opening remote archives, headless
/// renders waiting for tiles). The work runs on Mapwright's own loader threads (a task
/// executor), not on Swift's cooperative pool, so this is safe to call from inside a task too
/// (it blocks the calling thread, never the threads the work needs).
public func blockingAwait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task(executorPreference: LoaderExecutor.shared) {
        do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

/// A task executor of two dedicated threads for tile loading (see `blockingAwait`).
final class LoaderExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = LoaderExecutor(threads: 2)
    private let lock = NSCondition()
    private var jobs: [UnownedJob] = []

    init(threads: Int) {
        for i in 0 ..< threads {
            let t = Thread { [self] in loop() }
            t.name = "mapwright-loader-\(i)"
            t.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        lock.withLock {
            jobs.append(unowned)
            lock.signal()
        }
    }

    private func loop() {
        while true {
            lock.lock()
            while jobs.isEmpty { lock.wait() }
            let job = jobs.removeFirst()
            lock.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
    init() {}
}
