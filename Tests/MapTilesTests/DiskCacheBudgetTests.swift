import Foundation
import MapTestSupport
import Testing
@testable import MapTiles

/// The tile disk cache stays under its limit: the tiles stored longest ago go first, a tile's
/// two files together, until a fifth of the limit is free.
@Suite struct DiskCacheBudgetTests {
    /// Writes tile z/x/y (a `.tile` of `bytes` and a 100-byte `.json`) stored `age` seconds ago.
    func tile(_ root: String, _ name: String, bytes: Int, age: Double) throws {
        let base = root + "/" + name
        try FileManager.default.createDirectory(atPath: (base as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(count: bytes).write(to: URL(fileURLWithPath: base + ".tile"))
        try Data(count: 100).write(to: URL(fileURLWithPath: base + ".json"))
        let t = Date().timeIntervalSince1970 - age
        var times = [timeval(tv_sec: Int(t), tv_usec: 0), timeval(tv_sec: Int(t), tv_usec: 0)]
        #expect(utimes(base + ".tile", &times) == 0)
    }

    @Test func theOldestTilesGoUntilAFifthIsFree() throws {
        let dir = try ScratchDirectory("disk-budget")
        let root = dir.url.path
        // Ten tiles of 1000 + 100 bytes, stored 10, 9, … 1 minutes ago: 11,000 bytes.
        for i in 0 ..< 10 { try tile(root, "3/\(i)/1", bytes: 1000, age: Double(10 - i) * 60) }
        try Data("t".utf8).write(to: URL(fileURLWithPath: root + "/template.txt"))
        let budget = DiskCacheBudget.of(root, limit: 8000)
        budget.trim()
        // 80 % of 8000 = 6400 bytes: five tiles of 1100 stay (5500), the five oldest went.
        #expect(DiskCacheBudget.scan(root).count == 5)
        for i in 0 ..< 10 {
            let exists = FileManager.default.fileExists(atPath: "\(root)/3/\(i)/1.tile")
            #expect(exists == (i >= 5), "tile 3/\(i)/1")
            #expect(FileManager.default.fileExists(atPath: "\(root)/3/\(i)/1.json") == exists, "both files of 3/\(i)/1")
        }
        #expect(FileManager.default.fileExists(atPath: root + "/template.txt"))
    }

    /// Through `stored`: the first store measures the directory in the background and trims it
    /// when it is over; later stores count their bytes and trim when they pass the limit.
    @Test func storesAreCountedAndTrimmedInTheBackground() throws {
        let dir = try ScratchDirectory("disk-budget-stores")
        let root = dir.url.path
        for i in 0 ..< 6 { try tile(root, "4/\(i)/2", bytes: 1900, age: Double(100 - i)) }  // 12,000 bytes
        let budget = DiskCacheBudget.of(root, limit: 20_000)
        budget.stored(2000)
        func total() -> Int { DiskCacheBudget.scan(root).reduce(0) { $0 + $1.bytes } }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(total() == 12_000, "under the limit: nothing removed")
        // Six more tiles written, then their stores counted (so no file lands after the trim).
        for i in 6 ..< 12 { try tile(root, "4/\(i)/2", bytes: 1900, age: 0) }
        for _ in 6 ..< 12 { budget.stored(2000) }
        var waited = 0.0
        while total() > 16_000, waited < 5 { Thread.sleep(forTimeInterval: 0.05); waited += 0.05 }
        #expect(total() <= 16_000, "trimmed to 80 % of the limit: \(total())")
        #expect(!FileManager.default.fileExists(atPath: "\(root)/4/0/2.tile"), "the oldest went first")
        #expect(FileManager.default.fileExists(atPath: "\(root)/4/11/2.tile"), "the newest stayed")
    }

    /// Two processes sharing one cache directory (two budgets of their own, storing in turn):
    /// each measures the directory again after a tenth of the limit, so together they keep it
    /// near the limit. Counting only its own stores, each would let it grow to twice the limit.
    @Test func processesSharingADirectorySeeEachOthersTiles() throws {
        let dir = try ScratchDirectory("disk-budget-shared")
        let root = dir.url.path
        let limit = 20_000
        let a = DiskCacheBudget(root: root, limit: limit), b = DiskCacheBudget(root: root, limit: limit)
        func settle() {
            var waited = 0.0
            while !(a.isIdle && b.isIdle), waited < 5 { Thread.sleep(forTimeInterval: 0.01); waited += 0.01 }
        }
        var largest = 0
        for i in 0 ..< 60 {
            // Each tile is 1000 + 100 bytes; older tiles first (a second apart, oldest 60 s ago).
            try tile(root, "5/\(i)/3", bytes: 1000, age: Double(60 - i))
            (i % 2 == 0 ? a : b).stored(1100)
            settle()
            largest = max(largest, DiskCacheBudget.scan(root).reduce(0) { $0 + $1.bytes })
        }
        // 60 tiles, 66,000 bytes stored: the directory never held more than the limit, a tenth of
        // it for each process, and a tile.
        #expect(largest <= limit + 2 * limit / 10 + 1100, "the shared directory grew to \(largest) bytes")
        #expect(largest > limit * 3 / 4, "\(largest)")
        #expect(FileManager.default.fileExists(atPath: "\(root)/5/59/3.tile"), "the newest stayed")
        #expect(!FileManager.default.fileExists(atPath: "\(root)/5/0/3.tile"), "the oldest went")
    }
}
