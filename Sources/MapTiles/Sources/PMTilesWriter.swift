import Foundation
import GeoKit
import MapImage

/// Writes a clustered PMTiles v3 archive: tiles may be added in any order from one thread at
/// a time; identical tiles are stored once (and consecutive identical ones become runs);
/// directories are gzip-compressed, with leaf directories when the root would exceed 16 KiB.
/// Written to a temporary file and renamed into place by `finish`.
public final class PMTilesWriter: @unchecked Sendable {
    private let path: String
    private let dataPath: String
    private let data: FileHandle
    private var dataLength: UInt64 = 0
    /// Stored contents by hash: (offset, length) in the temporary data file.
    private var contents: [Int: [(offset: UInt64, length: UInt32)]] = [:]
    private var tiles: [(id: UInt64, offset: UInt64, length: UInt32)] = []
    private var finished = false

    public init(path: String) throws {
        self.path = path
        dataPath = path + ".data-\(getpid())"
        guard FileManager.default.createFile(atPath: dataPath, contents: nil),
              let h = FileHandle(forUpdatingAtPath: dataPath) else {
            throw TileError(.open, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        data = h
        InterruptCleanup.add(dataPath)
    }

    deinit {
        try? data.close()
        try? FileManager.default.removeItem(atPath: dataPath)
        InterruptCleanup.remove(dataPath)
    }

    /// Adds a tile.
    public func add(_ id: TileID, data bytes: [UInt8]) throws {
        var hasher = Hasher()
        hasher.combine(bytes)
        let key = hasher.finalize()
        for c in contents[key] ?? [] where c.length == UInt32(bytes.count) {
            try data.seek(toOffset: c.offset)
            if let old = try data.read(upToCount: Int(c.length)), [UInt8](old) == bytes {
                tiles.append((PMTiles.tileID(id), c.offset, c.length))
                try data.seekToEnd()
                return
            }
        }
        try data.seekToEnd()
        try data.write(contentsOf: Data(bytes))
        contents[key, default: []].append((dataLength, UInt32(bytes.count)))
        tiles.append((PMTiles.tileID(id), dataLength, UInt32(bytes.count)))
        dataLength += UInt64(bytes.count)
    }

    /// Writes the archive. `header` supplies the tile type, zooms, bounds and centre; offsets and counts are filled in.
    public func finish(header template: PMTiles.Header, metadata: [String: Any]) throws {
        guard !finished else { return }
        finished = true
        let sorted = tiles.sorted { $0.id < $1.id }
        // Cluster: tile data rewritten in tile-ID order, each content once.
        var newOffset: [UInt64: UInt64] = [:]
        var clustered = Data()
        var entries: [PMTiles.Entry] = []
        for t in sorted {
            let off: UInt64
            if let o = newOffset[t.offset] {
                off = o
            } else {
                try data.seek(toOffset: t.offset)
                let bytes = try data.read(upToCount: Int(t.length)) ?? Data()
                off = UInt64(clustered.count)
                clustered.append(bytes)
                newOffset[t.offset] = off
            }
            if var last = entries.last, last.offset == off, last.length == t.length, last.tileID + UInt64(last.runLength) == t.id {
                last.runLength += 1
                entries[entries.count - 1] = last
            } else if let last = entries.last, last.tileID == t.id {
                continue  // the same tile added twice: the first wins
            } else {
                entries.append(PMTiles.Entry(tileID: t.id, offset: off, length: t.length, runLength: 1))
            }
        }
        // Directories.
        let headerLength = UInt64(PMTiles.headerLength)
        var root = try Gzip.compress(PMTiles.encodeDirectory(entries))
        var leafBytes: [UInt8] = []
        if root.count > 16384 - Int(headerLength) {
            var perLeaf = 4096
            while true {
                leafBytes = []
                var rootEntries: [PMTiles.Entry] = []
                for start in stride(from: 0, to: entries.count, by: perLeaf) {
                    let chunk = Array(entries[start ..< min(entries.count, start + perLeaf)])
                    let leaf = try Gzip.compress(PMTiles.encodeDirectory(chunk))
                    rootEntries.append(PMTiles.Entry(tileID: chunk[0].tileID, offset: UInt64(leafBytes.count),
                                                     length: UInt32(leaf.count), runLength: 0))
                    leafBytes += leaf
                }
                root = try Gzip.compress(PMTiles.encodeDirectory(rootEntries))
                if root.count <= 16384 - Int(headerLength) { break }
                perLeaf *= 2
            }
        }
        let meta = try Gzip.compress([UInt8](JSONSerialization.data(withJSONObject: metadata, options: [.sortedKeys, .withoutEscapingSlashes])))
        var h = template
        h.rootOffset = headerLength
        h.rootLength = UInt64(root.count)
        h.metadataOffset = h.rootOffset + h.rootLength
        h.metadataLength = UInt64(meta.count)
        h.leafOffset = h.metadataOffset + h.metadataLength
        h.leafLength = UInt64(leafBytes.count)
        h.dataOffset = h.leafOffset + h.leafLength
        h.dataLength = UInt64(clustered.count)
        h.addressedTiles = UInt64(Set(sorted.map(\.id)).count)
        h.tileEntries = UInt64(entries.count)
        h.tileContents = UInt64(newOffset.count)
        h.clustered = true
        h.internalCompression = .gzip
        h.tileCompression = .none
        var out = Data(h.bytes)
        out.append(contentsOf: root)
        out.append(contentsOf: meta)
        out.append(contentsOf: leafBytes)
        out.append(clustered)
        do { try AtomicFile.write([UInt8](out), to: path) } catch { throw TileError(.open, error.description) }
    }
}
