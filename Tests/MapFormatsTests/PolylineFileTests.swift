import GeoKit
import Testing
@testable import MapFormats

@Suite struct PolylineFileTests {
    /// Google's published example (developers.google.com/maps/documentation/utilities/polylinealgorithm)
    /// on line 1, its first point alone (`_p~iF~ps|U`, the doc's first pair) on line 3.
    @Test func onePartPerLine() throws {
        let track = try readFixture("polyline/two_lines.polyline")
        #expect(track.format == .polyline)
        #expect(
            track.parts.map(coordinates) == [
                [[38.5, -120.2], [40.7, -120.95], [43.252, -126.453]], [[38.5, -120.2]],
            ])
    }

    /// Precision 6 reads the same characters as values ten times smaller.
    @Test func precisionSix() throws {
        let track = try readFixture("polyline/two_lines.polyline", options: TrackReadOptions(polylinePrecision: 6))
        #expect(coordinates(track.parts[1]) == [[3.85, -12.02]])
    }
}
