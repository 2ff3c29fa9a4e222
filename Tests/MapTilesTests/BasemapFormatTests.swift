import Foundation
import GeoKit
import Testing
@testable import MapTiles

/// Damaged or foreign resources are typed errors naming the byte offset, never a crash.
@Suite struct BasemapFormatTests {
    static func realBytes() throws -> [UInt8] {
        let url = try #require(
            EmbeddedBasemap.resourceCandidates().first {
                FileManager.default.isReadableFile(atPath: $0.path)
            })
        return [UInt8](try Data(contentsOf: url))
    }

    @Test func resourceIsFoundInTheBuiltBundle() {
        // SwiftPM copies Sources/MapTiles/Resources into Mapwright_MapTiles.resources next to
        // the test runner; the source-checkout fallback must not be the only one that works.
        let found = EmbeddedBasemap.resourceCandidates().dropLast().contains {
            FileManager.default.isReadableFile(atPath: $0.path)
        }
        #expect(found)
    }

    static func header(version: UInt8, levels: UInt8, placesOffset: [UInt8] = [0, 0, 0, 0]) -> [UInt8] {
        var out: [UInt8] = Array("MWBASEMP".utf8)
        out += [version, 0, levels, 0]
        out += placesOffset
        out += [UInt8](repeating: 0, count: 16)
        return out
    }

    static let malformed: [([UInt8], String)] = [
        ([], "8 bytes requested, 0 left"),
        (Array("NOTABASEMAP-----------------------------".utf8), "magic"),
        (header(version: 2, levels: 1), "format version 2"),
        (header(version: 1, levels: 0), "0 levels"),
        (header(version: 1, levels: 1, placesOffset: [0xFF, 0xFF, 0xFF, 0x7F]), "places section"),
    ]

    @Test(arguments: malformed)
    func malformedHeaders(bytes: [UInt8], reason: String) {
        do {
            _ = try EmbeddedBasemap(bytes: bytes)
            Issue.record("accepted a malformed header")
        } catch {
            #expect(error.description.contains(reason), "\(error)")
            #expect(error.offset != nil)
        }
    }

    @Test func truncatedResourceIsAnError() throws {
        let bytes = try Self.realBytes()
        for length in [31, 40, 100, 5000, bytes.count / 2, bytes.count - 1] {
            #expect(throws: BasemapError.self, "truncated to \(length) bytes") {
                _ = try EmbeddedBasemap(bytes: Array(bytes[..<length]))
            }
        }
    }

    @Test func missingFileIsAnError() {
        let url = URL(fileURLWithPath: "/nonexistent/basemap.mwb")
        do {
            _ = try EmbeddedBasemap(contentsOf: url)
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.description.contains("/nonexistent/basemap.mwb"))
        }
    }

    /// A damaged tile is reported by `validate()` and skipped by queries.
    @Test func damagedTileIsSkipped() throws {
        var bytes = try Self.realBytes()
        let clean = try EmbeddedBasemap(bytes: bytes)
        let tile = try #require(clean.levels[0].tiles.values.first)
        for i in tile.lowerBound..<min(tile.upperBound, tile.lowerBound + 64) { bytes[i] = 0xFF }
        let damaged = try EmbeddedBasemap(bytes: bytes)
        #expect(throws: BasemapError.self) { try damaged.validate() }
        let f = damaged.features(in: .world, zoom: 0)
        #expect(f.polygons.isEmpty && f.places.count == clean.features(in: .world, zoom: 0).places.count)
    }

    /// Deterministic byte flips (a 64-bit LCG, Knuth's MMIX constants) anywhere in the file:
    /// loading either throws or gives a basemap whose queries return without trapping.
    @Test func randomDamageNeverTraps() throws {
        let original = try Self.realBytes()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        var loaded = 0
        for _ in 0..<40 {
            var bytes = original
            // Half the runs hit the header and indexes, half anywhere.
            let span = next() % 2 == 0 ? 80_000 : bytes.count
            for _ in 0..<8 { bytes[next() % span] = UInt8(truncatingIfNeeded: next()) }
            guard let map = try? EmbeddedBasemap(bytes: bytes) else { continue }
            loaded += 1
            _ = map.features(in: .world, zoom: 0)
            _ = map.features(in: viewRect(center: LatLng(lat: 50, lon: 10), zoom: 4), zoom: 4)
            _ = map.features(in: viewRect(center: LatLng(lat: 60, lon: 180), zoom: 7), zoom: 7)
        }
        #expect(loaded > 0, "some damaged copies still load (damage inside tiles is only found on decode)")
    }
}
