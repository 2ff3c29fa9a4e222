import Foundation
import GeoKit
import MapImage
import MapTestSupport
import Testing
@testable import MapTiles

@Suite struct PMTilesTests {
    struct Fixture: Decodable { let cases: [[UInt64]] }

    /// Hilbert tile IDs against the PyPI pmtiles package's `zxy_to_tileid` (zooms 0…30).
    @Test func tileIDsMatchTheReferenceImplementation() throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/pmtiles_tileids", withExtension: "json"))
        let f = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
        #expect(f.cases.count > 100)
        for c in f.cases {
            let t = try TileID(z: Int(c[0]), x: Int(c[1]), y: Int(c[2]))
            #expect(PMTiles.tileID(t) == c[3], "\(t)")
            #expect(PMTiles.tile(c[3]) == t, "\(c[3])")
        }
    }

    @Test func directoriesRoundTripWithRunsAndContiguousOffsets() throws {
        let entries = [PMTiles.Entry(tileID: 0, offset: 0, length: 10, runLength: 1),
                       PMTiles.Entry(tileID: 1, offset: 10, length: 20, runLength: 3),
                       PMTiles.Entry(tileID: 9, offset: 5, length: 7, runLength: 1),
                       PMTiles.Entry(tileID: 300, offset: 0, length: 99, runLength: 0)]
        let bytes = PMTiles.encodeDirectory(entries)
        #expect(try PMTiles.decodeDirectory(bytes, name: "t") == entries)
        // Offsets written as 0 mean "right after the previous entry" (the spec's delta rule):
        // entry 1 is contiguous with entry 0, so its offset is encoded as a single 0 byte.
        #expect(PMTiles.find(2, in: entries)?.tileID == 1)
        #expect(PMTiles.find(4, in: entries) == nil)
        #expect(PMTiles.find(500, in: entries)?.runLength == 0)
    }

    func writeArchive(_ path: String, tiles: [(TileID, [UInt8])]) throws {
        let w = try PMTilesWriter(path: path)
        for (id, data) in tiles { try w.add(id, data: data) }
        var h = PMTiles.Header()
        h.tileType = .png
        h.minZoom = tiles.map(\.0.z).min() ?? 0
        h.maxZoom = tiles.map(\.0.z).max() ?? 0
        try w.finish(header: h, metadata: ["name": "test"])
    }

    @Test func ourArchivesReadBackAndDeduplicate() async throws {
        let scratch = try ScratchDirectory("pm"), dir = scratch.path
        var tiles: [(TileID, [UInt8])] = []
        // 2 + 4 + 16 + 64 + 256 + 1024 + 4096 tiles, most of them the same bytes (runs and dedup),
        // enough entries for leaf directories.
        for z in 0 ... 6 {
            for y in 0 ..< (1 << z) {
                for x in 0 ..< (1 << z) {
                    let unique = (x * 7 + y) % 5 == 0
                    tiles.append((try TileID(z: z, x: x, y: y), unique ? Array("\(z)/\(x)/\(y)".utf8) : [1, 2, 3]))
                }
            }
        }
        let path = dir + "/t.pmtiles"
        try writeArchive(path, tiles: tiles.reversed())
        let src = try PMTilesSource(path: path)
        #expect(src.header.clustered)
        #expect(src.header.addressedTiles == UInt64(tiles.count))
        #expect(src.header.tileContents < UInt64(tiles.count / 3))
        for (id, data) in tiles where id.z >= 5 || id.x % 3 == 0 {
            #expect(try await src.tileData(id) == data, "\(id)")
        }
        #expect(try await src.tileData(try TileID(z: 7, x: 0, y: 0)) == nil)
    }

    /// Found by `scripts/fuzz.sh pmtiles` (Fuzz/Crashers/pmtiles/offset-overflow): a directory
    /// entry whose offset plus length passes 2⁶⁴ trapped on arithmetic overflow when a tile was
    /// looked up (and when a local archive's leaves were checked). Now it is a clear error.
    @Test func entryOffsetsNearTwoToTheSixtyFourAreRefused() async throws {
        let hex =
            "504d54696c6573037f000000000000002100000000000000a0000000000000002100000000000000c100000000000000" +
            "1000000000000000c1000000000000005100000000000000040000000000000003000000000000000100008b00000000" +
            "01000000040c00000000000000cd00000203ab56ca4bcc4d55b252502a51aa0100000effffffffffffffffff537562ff" +
            "ffcf0601157c0000556e736166654d756061620003000008ffffffffffffffffffffffffffffffffffffffffffffffff" +
            "ff00000000000000d1fffffffffffffffffffffffffffffffffffffffffff7ffffffffff00001216f14d000000184944" +
            "415478502a51ff0000000000000000ffffffffffffffffffffffff537562ffffcf06e15d3c887ecf0000504d0000546e" +
            "6c6549"
        let bytes = stride(from: 0, to: hex.count, by: 2).map { i -> UInt8 in
            let a = hex.index(hex.startIndex, offsetBy: i)
            return UInt8(hex[a ..< hex.index(a, offsetBy: 2)], radix: 16)!
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID().uuidString).pmtiles").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Opening checks the leaves of a local archive: refused, or opened and every lookup refused.
        do {
            let src = try PMTilesSource(path: path)
            for (z, x, y) in [(0, 0, 0), (1, 1, 0), (3, 4, 2), (7, 66, 43), (12, 2200, 1400), (14, 0, 16383)] {
                do { _ = try await src.tileData(try TileID(z: z, x: x, y: y)) } catch let e as TileError {
                    #expect("\(e)".contains("points outside"), "\(e)")
                }
            }
        } catch let e as TileError {
            #expect("\(e)".contains("outside") || "\(e)".contains("deeper"), "\(e)")
        }
        #expect(!PMTilesSource.fits(PMTiles.Entry(tileID: 0, offset: UInt64.max - 3, length: 8, runLength: 1), in: 100))
        #expect(PMTilesSource.fits(PMTiles.Entry(tileID: 0, offset: 92, length: 8, runLength: 1), in: 100))
        #expect(!PMTilesSource.fits(PMTiles.Entry(tileID: 0, offset: 93, length: 8, runLength: 1), in: 100))
    }

    @Test func corruptArchivesGiveClearErrors() async throws {
        let scratch = try ScratchDirectory("pmc"), dir = scratch.path
        let good = dir + "/good.pmtiles"
        try writeArchive(good, tiles: [(try TileID(z: 0, x: 0, y: 0), [9, 9, 9])])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        func write(_ name: String, _ b: [UInt8]) throws -> String {
            let p = dir + "/" + name
            try Data(b).write(to: URL(fileURLWithPath: p))
            return p
        }
        func message(_ path: String) -> String {
            do { _ = try PMTilesSource(path: path); return "" } catch { return "\(error)" }
        }
        #expect(message(try write("short.pmtiles", Array(bytes.prefix(60)))).contains("shorter than a PMTiles header"))
        var magic = bytes; magic[0] = UInt8(ascii: "X")
        #expect(message(try write("magic.pmtiles", magic)).contains("bad magic"))
        var outside = bytes; outside[8] = 0xFF; outside[9] = 0xFF; outside[10] = 0xFF
        #expect(message(try write("outside.pmtiles", outside)).contains("points outside the file"))
        #expect(message(try write("truncated.pmtiles", Array(bytes.dropLast(2)))).contains("outside the file"))
        // A leaf directory that points to itself: refused when opened (leaves are checked).
        var h = PMTiles.Header()
        let leaf = try Gzip.compress(PMTiles.encodeDirectory([PMTiles.Entry(tileID: 0, offset: 0, length: 0, runLength: 0)]))
        // The leaf's own length goes in its entry: encode until it is stable.
        var loopLeaf = leaf
        for _ in 0 ..< 4 {
            loopLeaf = try Gzip.compress(PMTiles.encodeDirectory([PMTiles.Entry(tileID: 0, offset: 0, length: UInt32(loopLeaf.count), runLength: 0)]))
        }
        let root = try Gzip.compress(PMTiles.encodeDirectory([PMTiles.Entry(tileID: 0, offset: 0, length: UInt32(loopLeaf.count), runLength: 0)]))
        h.rootOffset = 127; h.rootLength = UInt64(root.count)
        h.metadataOffset = h.rootOffset + h.rootLength; h.metadataLength = 0
        h.leafOffset = h.metadataOffset; h.leafLength = UInt64(loopLeaf.count)
        h.dataOffset = h.leafOffset + h.leafLength; h.dataLength = 0
        let looped = try write("loop.pmtiles", h.bytes + root + loopLeaf)
        #expect(message(looped).contains("deeper than"), "\(message(looped))")
    }
}

@Suite struct MBTilesTests {
    @Test func ourArchivesReadBackWithTMSRowsAndMetadata() async throws {
        let scratch = try ScratchDirectory("mb"), path = scratch.path("t.mbtiles")
        let w = try MBTilesWriter(path: path)
        try w.setMetadata("name", "t")
        try w.setMetadata("format", "png")
        try w.setMetadata("minzoom", "1")
        try w.setMetadata("maxzoom", "2")
        try w.setMetadata("bounds", "-10,-20,30,40")
        try w.add(try TileID(z: 1, x: 0, y: 0), data: [1])
        try w.add(try TileID(z: 2, x: 3, y: 0), data: [2])
        try w.add(try TileID(z: 2, x: 3, y: 1), data: [1])
        #expect(!FileManager.default.fileExists(atPath: path), "nothing at the destination before finish")
        try w.finish()
        let src = try MBTilesSource(path: path)
        #expect(src.info.minZoom == 1 && src.info.maxZoom == 2)
        #expect(src.info.bounds?.west == -10 && src.info.bounds?.north == 40)
        #expect(try await src.tileData(try TileID(z: 2, x: 3, y: 0)) == [2])
        #expect(try await src.tileData(try TileID(z: 2, x: 3, y: 1)) == [1])
        #expect(try await src.tileData(try TileID(z: 2, x: 3, y: 3)) == nil)
        #expect(try src.tileCounts() == [1: 1, 2: 2])
    }

    @Test func aFileThatIsNotAnArchiveIsAClearError() throws {
        let scratch = try ScratchDirectory("bad"), path = scratch.path("bad.mbtiles")
        try Data("this is not sqlite at all, just text".utf8).write(to: URL(fileURLWithPath: path))
        do { _ = try MBTilesSource(path: path); Issue.record("opened") } catch {
            #expect("\(error)".contains(path) && "\(error)".contains("not an MBTiles archive"), "\(error)")
        }
    }
}
