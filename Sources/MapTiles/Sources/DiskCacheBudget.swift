import Foundation

/// Keeps one tile source's disk cache (a directory of `z/x/y.tile` + `.json` pairs) under a size
/// limit: the first store of a process measures the directory (in the background), every store
/// adds its bytes, and once the total passes the limit the tiles stored longest ago (their
/// files' modification times: a tile revalidated with a 304 is stored again) are removed
/// until a fifth of the limit is free. One budget per directory and process; the directory is
/// measured again after every tenth of the limit a process stores, so that processes sharing
/// it see each other's tiles: N of them keep it under about (1 + N/10) × the limit.
final class DiskCacheBudget: @unchecked Sendable {
    let root: String
    let limit: Int
    private let lock = NSLock()
    /// Bytes in the directory as last measured, plus those stored since (nil until measured).
    private var total: Int?
    /// A measurement (and trim) is under way.
    private var busy = false
    /// Bytes stored while it is: added to what it measured (counted twice at worst, which only
    /// brings the next measurement sooner).
    private var storedDuringPass = 0
    /// Bytes this process stored since the directory was last measured.
    private var storedSinceMeasured = 0

    private static let lock = NSLock()
    nonisolated(unsafe) private static var budgets: [String: DiskCacheBudget] = [:]

    /// The budget of `root` (made on first use; the first caller's limit holds).
    static func of(_ root: String, limit: Int) -> DiskCacheBudget {
        lock.withLock {
            if let b = budgets[root] { return b }
            let b = DiskCacheBudget(root: root, limit: limit)
            budgets[root] = b
            return b
        }
    }

    /// A budget of its own (`of` shares one per directory; tests make two to stand for two processes).
    init(root: String, limit: Int) {
        self.root = root
        self.limit = limit
    }

    /// `bytes` were stored (tile and metadata together). The first store, and any that takes the
    /// count past the limit, start `trim()` in the background.
    func stored(_ bytes: Int) {
        guard limit > 0 else { return }
        let start: Bool = lock.withLock {
            if busy {
                storedDuringPass += bytes
                return false
            }
            if let t = total {
                total = t + bytes
                storedSinceMeasured += bytes
                guard t + bytes > limit || storedSinceMeasured > limit / 10 else { return false }
            }
            busy = true
            storedDuringPass = 0
            return true
        }
        if start { DispatchQueue.global(qos: .utility).async { [self] in trim() } }
    }

    /// Measures the directory and, when it holds more than the limit, removes the oldest tiles
    /// until it holds at most 80 % of it. Synchronous (tests call it directly); `stored` runs it
    /// in the background.
    func trim() {
        while true {
            var tiles = Self.scan(root)
            var size = tiles.reduce(0) { $0 + $1.bytes }
            if size > limit {
                let goal = limit / 5 * 4
                tiles.sort { $0.modified < $1.modified }
                for t in tiles where size > goal {
                    unlink(t.base + ".tile")
                    unlink(t.base + ".json")
                    size -= t.bytes
                }
            }
            // Stores made during the pass may have passed the limit again: measure once more.
            let again: Bool = lock.withLock {
                let t = size + storedDuringPass
                total = t
                storedSinceMeasured = storedDuringPass
                storedDuringPass = 0
                if t > limit { return true }
                busy = false
                return false
            }
            if !again { return }
        }
    }

    /// No measurement or trim is under way (for tests).
    var isIdle: Bool { lock.withLock { !busy } }

    /// The tiles in `root`: path without extension, bytes of both files, the tile's modification time.
    static func scan(_ root: String) -> [(base: String, bytes: Int, modified: Double)] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var byBase: [String: (bytes: Int, modified: Double)] = [:]
        while let name = walker.nextObject() as? String {
            let isTile = name.hasSuffix(".tile")
            guard isTile || name.hasSuffix(".json") else { continue }
            let path = root + "/" + name
            var st = stat()
            guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            let base = String(path.dropLast(5))
            var e = byBase[base] ?? (0, 0)
            e.bytes += Int(st.st_size)
            if isTile { e.modified = Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9 }
            byBase[base] = e
        }
        return byBase.map { ($0.key, $0.value.bytes, $0.value.modified) }
    }
}
