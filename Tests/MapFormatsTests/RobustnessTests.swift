import Foundation
import MapTestSupport
import Testing
@testable import MapFormats

/// Bad input never crashes or hangs: every prefix of every fixture (a truncated file), and
/// fixtures with bytes replaced at random, either read or throw a located `FormatError`.
@Suite struct RobustnessTests {
    static let fixtures = [
        "csv/header_any_order_crlf.csv", "csv/segments_semicolon.csv", "gpx/full.gpx", "geojson/all_types.geojson",
        "geojson/lat91.geojson", "polyline/two_lines.polyline", "route/route.gpx", "route/route.csv",
        "route/route.geojson",
    ]

    @Test(arguments: fixtures)
    func everyPrefixReadsOrFailsCleanly(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: fixtureURL(name)))
        for n in 0...bytes.count {
            do {
                let track = try TrackReader.read(Array(bytes[..<n]), name: name)
                #expect(!track.parts.isEmpty || !track.waypoints.isEmpty)
            } catch {
                // Only whole-file problems may lack a line number.
                #expect(
                    error.line != nil || error.isNoPoints || error.message.hasPrefix("binary"),
                    "\(name)[..<\(n)]: \(error)")
            }
        }
    }

    @Test(arguments: fixtures)
    func randomByteChanges(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: fixtureURL(name)))
        var rng = SplitMix64(seed: UInt64(name.utf8.count))
        let specials: [UInt8] = Array("<>\"'&;[]{},:.-eE0123456789\n\r\t /!?=".utf8) + [0, 0xFF, 0xC3]
        for _ in 0..<400 {
            var b = bytes
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let at = Int(rng.next() % UInt64(b.count))
                b[at] = specials[Int(rng.next() % UInt64(specials.count))]
            }
            do {
                _ = try TrackReader.read(b, name: name)
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }
}
