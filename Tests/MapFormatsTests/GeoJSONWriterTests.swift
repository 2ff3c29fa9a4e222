import Foundation
import GeoKit
import MapTestSupport
import Testing
@testable import MapFormats

@Suite struct GeoJSONWriterTests {
    /// Writing and reading back gives the same coordinates, elevations, names and properties.
    @Test func roundTrip() throws {
        let track = try readFixture("geojson/all_types.geojson")
        let text = GeoJSONWriter.featureCollection(track)
        let back = try readText(text, name: "out.geojson")
        #expect(back.parts.map(\.points) == track.parts.map(\.points))
        #expect(back.parts.map(\.name) == track.parts.map(\.name))
        #expect(back.waypoints.map(\.coordinate) == track.waypoints.map(\.coordinate))
        #expect(back.waypoints[0].properties == track.waypoints[0].properties)
    }

    /// Shortest round-trip numbers: the printed text parses (by Swift's own `Double(String)`,
    /// an independent parser) to exactly the same Double, for random and edge values.
    @Test func numbersRoundTrip() {
        var rng = SplitMix64(seed: 7)
        var values: [Double] = [
            0.1, -0.0, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 123_456_789_012_345_680, 38.5, -120.95,
        ]
        for _ in 0..<2000 {
            let x = Double(bitPattern: rng.next())
            if x.isFinite { values.append(x) }
        }
        for _ in 0..<2000 { values.append(Double(Int64(bitPattern: rng.next()) % 36_000_000_000) / 1e8) }
        for x in values where x.isFinite {
            let s = GeoJSONWriter.number(x)
            #expect(Double(s) == x, "\(x) printed as \(s)")
        }
        #expect(GeoJSONWriter.number(.nan) == "null")
        #expect(GeoJSONWriter.number(38.5) == "38.5")
        #expect(GeoJSONWriter.number(-120) == "-120")
    }

    /// Our decimal parser agrees bit for bit with the C library's strtod (via `Double(String)`).
    @Test func decimalParserMatchesStrtod() {
        var rng = SplitMix64(seed: 11)
        var texts = [
            "0", "-0", "1e22", "1e23", "9007199254740993", "0.1", "2.2250738585072014e-308", "4.9e-324",
            "123456789012345678901234567890", "1.00000000000000011102230246251565", "-120.95", "43.252",
        ]
        for _ in 0..<3000 {
            let digits = String(rng.next() % 100_000_000_000_000_000)
            let dot = Int(rng.next() % UInt64(digits.count + 1))
            var t = String(digits.prefix(dot)) + "." + String(digits.dropFirst(dot))
            if t.hasPrefix(".") { t = "0" + t }
            if t.hasSuffix(".") { t += "0" }
            if rng.next() % 3 == 0 { t += "e\(Int(rng.next() % 40) - 20)" }
            texts.append(rng.next() % 2 == 0 ? "-" + t : t)
        }
        for t in texts {
            let bytes = Array(t.utf8)
            let ours = bytes.withUnsafeBufferPointer { DecimalNumber.parse($0, 0, $0.count) }
            #expect(ours?.bitPattern == Double(t)?.bitPattern, "\(t)")
        }
    }
}

