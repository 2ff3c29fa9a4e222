import CSQLite
import Foundation
import GeoKit
import MapImage

/// A small wrapper over one SQLite connection (serialised by a lock).
final class SQLiteDatabase: @unchecked Sendable {
    private var db: OpaquePointer?
    let path: String
    private let lock = NSLock()

    init(path: String, readOnly: Bool) throws {
        self.path = path
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK else {
            let why = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(db)
            db = nil
            throw TileError(.open, "\(path): \(why)")
        }
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { sqlite3_close(db) }

    enum Value { case int(Int64), text(String), blob([UInt8]), null }

    /// Runs a statement and returns its rows.
    func query(_ sql: String, _ args: [Value] = [], limit: Int = .max) throws -> [[Value]] {
        try lock.withLock {
            var stmt: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else { throw error() }
            defer { sqlite3_finalize(stmt) }
            let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
            for (i, a) in args.enumerated() {
                let idx = Int32(i + 1)
                switch a {
                case .int(let v): sqlite3_bind_int64(stmt, idx, v)
                case .text(let s): sqlite3_bind_text(stmt, idx, s, -1, transient)
                case .blob(let b): b.withUnsafeBytes { _ = sqlite3_bind_blob(stmt, idx, $0.baseAddress, Int32($0.count), transient) }
                case .null: sqlite3_bind_null(stmt, idx)
                }
            }
            var rows: [[Value]] = []
            while rows.count < limit {
                let rc = sqlite3_step(stmt)
                if rc == SQLITE_DONE { break }
                guard rc == SQLITE_ROW else { throw error() }
                var row: [Value] = []
                for c in 0 ..< sqlite3_column_count(stmt) {
                    switch sqlite3_column_type(stmt, c) {
                    case SQLITE_INTEGER: row.append(.int(sqlite3_column_int64(stmt, c)))
                    case SQLITE_NULL: row.append(.null)
                    case SQLITE_BLOB:
                        let n = Int(sqlite3_column_bytes(stmt, c))
                        if n > 0, let p = sqlite3_column_blob(stmt, c) {
                            row.append(.blob([UInt8](UnsafeRawBufferPointer(start: p, count: n))))
                        } else { row.append(.blob([])) }
                    default:
                        row.append(.text(sqlite3_column_text(stmt, c).map { String(cString: $0) } ?? ""))
                    }
                }
                rows.append(row)
            }
            return rows
        }
    }

    func execute(_ sql: String) throws {
        try lock.withLock {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw error() }
        }
    }

    private func error() -> TileError {
        TileError(.invalidArchive, "\(path): SQLite: \(String(cString: sqlite3_errmsg(db)))")
    }
}

extension SQLiteDatabase.Value {
    var int: Int? { if case .int(let v) = self { Int(v) } else if case .text(let s) = self { Int(s) } else { nil } }
    var text: String? {
        switch self {
        case .text(let s): s
        case .int(let v): String(v)
        case .blob(let b): String(decoding: b, as: UTF8.self)
        case .null: nil
        }
    }
}

/// An MBTiles 1.3 archive (SQLite: `metadata` and `tiles`, rows in TMS order, flipped here).
public struct MBTilesSource: TileSource {
    public let info: TileSourceInfo
    /// Every metadata row.
    public let metadata: [String: String]
    private let db: SQLiteDatabase

    public init(path: String) throws {
        guard FileManager.default.isReadableFile(atPath: path) else { throw TileError(.open, "\(path): cannot read the file") }
        db = try SQLiteDatabase(path: path, readOnly: true)
        var meta: [String: String] = [:]
        do {
            for row in try db.query("SELECT name, value FROM metadata") where row.count == 2 {
                if let k = row[0].text, let v = row[1].text { meta[k] = v }
            }
            _ = try db.query("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles LIMIT 0")
        } catch let e as TileError {
            throw TileError(.invalidArchive, "\(path): not an MBTiles archive (\(e.description))")
        }
        metadata = meta
        var minZ = meta["minzoom"].flatMap { Int($0) }, maxZ = meta["maxzoom"].flatMap { Int($0) }
        if minZ == nil || maxZ == nil {
            let r = try db.query("SELECT min(zoom_level), max(zoom_level) FROM tiles")
            minZ = minZ ?? r.first?[0].int
            maxZ = maxZ ?? r.first?[1].int
        }
        var bounds: GeoBounds?
        if let b = meta["bounds"] {
            let v = b.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            if v.count == 4 { bounds = try? GeoBounds(south: v[1], west: v[0], north: v[3], east: v[2]) }
        }
        info = TileSourceInfo(name: meta["name"].map { "\($0) (\(path))" } ?? path, format: meta["format"]?.lowercased(),
                              minZoom: max(0, min(30, minZ ?? 0)), maxZoom: max(0, min(30, maxZ ?? 22)), bounds: bounds,
                              attribution: meta["attribution"])
    }

    public func tileData(_ id: TileID) async throws -> [UInt8]? {
        try Task.checkCancellation()
        let row = (1 << id.z) - 1 - id.y
        let rows = try db.query("SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                                [.int(Int64(id.z)), .int(Int64(id.x)), .int(Int64(row))], limit: 1)
        guard let first = rows.first?.first, case .blob(let b) = first else { return nil }
        return b
    }

    /// Tile counts per zoom level.
    public func tileCounts() throws -> [Int: Int] {
        var out: [Int: Int] = [:]
        for r in try db.query("SELECT zoom_level, count(*) FROM tiles GROUP BY zoom_level") {
            if let z = r[0].int, let n = r[1].int { out[z] = n }
        }
        return out
    }
}

/// Writes an MBTiles 1.3 archive: tiles de-duplicated (`map` + `images`, with a `tiles` view,
/// as mb-util's compressed layout), metadata rows, written to a temporary file and renamed
/// into place when finished (nothing half-written at the destination).
public final class MBTilesWriter: @unchecked Sendable {
    private let db: SQLiteDatabase
    private let path: String
    private let temp: String
    /// Written images by content hash (compared byte for byte on a hash match).
    private var ids: [Int: [(name: String, data: [UInt8])]] = [:]
    private var pending = 0
    private var finished = false

    public init(path: String) throws {
        self.path = path
        temp = path + ".partial-\(getpid())"
        try? FileManager.default.removeItem(atPath: temp)
        InterruptCleanup.add(temp)
        db = try SQLiteDatabase(path: temp, readOnly: false)
        try db.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE UNIQUE INDEX name ON metadata (name);
            CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT);
            CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row);
            CREATE TABLE images (tile_data BLOB, tile_id TEXT);
            CREATE UNIQUE INDEX images_id ON images (tile_id);
            CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column,
                map.tile_row AS tile_row, images.tile_data AS tile_data
                FROM map JOIN images ON images.tile_id = map.tile_id;
            BEGIN;
            """)
    }

    /// Adds a metadata row.
    public func setMetadata(_ name: String, _ value: String) throws {
        _ = try db.query("INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)", [.text(name), .text(value)])
    }

    /// Adds a tile (XYZ address; the TMS row is written).
    public func add(_ id: TileID, data: [UInt8]) throws {
        var hasher = Hasher()
        hasher.combine(data)
        let key = hasher.finalize()
        var tileID = ids[key]?.first(where: { $0.data == data })?.name
        if tileID == nil {
            let name = "\(id.z)_\(id.x)_\(id.y)"
            _ = try db.query("INSERT INTO images (tile_data, tile_id) VALUES (?, ?)", [.blob(data), .text(name)])
            ids[key, default: []].append((name, data))
            tileID = name
        }
        _ = try db.query("INSERT OR REPLACE INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?, ?, ?, ?)",
                         [.int(Int64(id.z)), .int(Int64(id.x)), .int(Int64((1 << id.z) - 1 - id.y)), .text(tileID!)])
    }

    /// Commits and moves the archive into place.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        try db.execute("COMMIT;")
        defer { InterruptCleanup.remove(temp) }
        try FileManager.default.moveItemReplacing(at: temp, to: path)
    }

    deinit {
        if !finished { try? FileManager.default.removeItem(atPath: temp) }
        InterruptCleanup.remove(temp)
    }
}

extension FileManager {
    func moveItemReplacing(at from: String, to: String) throws {
        if rename(from, to) != 0 {
            let why = String(cString: strerror(errno))
            try? removeItem(atPath: from)
            throw TileError(.open, "cannot write \(to): \(why)")
        }
    }
}
