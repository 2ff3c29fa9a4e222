import Foundation
import GeoKit
import Testing
@testable import MapFormats

@Suite struct GPXReaderTests {
    /// Namespace prefixes, both quote styles, attributes in any order and across lines,
    /// entities, CDATA, comments, a DOCTYPE, extensions, time zones.
    @Test func fullFile() throws {
        let track = try readFixture("gpx/full.gpx")
        #expect(track.format == .gpx)
        #expect(track.name == "Fish & Chips \u{2014} day 1")
        #expect(track.waypoints.count == 1)
        let w = try #require(track.waypoints.first)
        #expect(w.coordinate == LatLng(lat: 38.5, lon: -120.2))
        #expect(w.elevation == 12.5)
        #expect(w.name == "Camp <1>")

        #expect(track.parts.map(\.kind) == [.route, .line, .line])
        #expect(track.parts.map(\.name) == ["plan", "Morning <loop>", "Morning <loop>"])
        #expect(track.parts.map(\.feature) == [0, 1, 1])
        #expect(coordinates(track.parts[0]) == [[40.7, -120.95], [43.252, -126.453]])
        #expect(coordinates(track.parts[1]) == [[47, 8], [47.001, 8.001]])
        #expect(track.parts[1].properties["desc"] == .string("first \"track\""))
        // The <ele> inside <extensions> is ignored.
        #expect(track.parts[1].points.map(\.elevation) == [432.5, nil])
        // 12:00:01.5+02:00 is 10:00:01.5Z; 2024-05-01T10:00:00Z = 1714557600 (Python datetime).
        #expect(track.parts[1].points.map { $0.time?.timeIntervalSince1970 } == [1_714_557_600, 1_714_557_601.5])
        #expect(track.parts[2].points.map(\.elevation) == [-10])
        #expect(track.pointCount == 5)
    }

    @Test(arguments: [
        ("<kml/>", "t.gpx:1:1: expected a <gpx> root element, found <kml>"),
        ("<gpx><wpt lat=1 lon=2/></gpx>", "t.gpx:1:15: expected a quoted value for the attribute lat, found '1'"),
        ("<gpx><wpt lat='1'/></gpx>", "t.gpx:1:6: <wpt> has no lon attribute"),
        (
            "<gpx><wpt lat='1' lon='2'><name>a &nbsp; b</name></wpt></gpx>",
            "t.gpx:1:35: expected a known entity (&lt; &gt; &amp; &quot; &apos; &#N;), found '&nbsp;'"
        ),
        ("<gpx><wpt lat='1' lon='2'/></gpx>junk", "t.gpx:1:34: expected nothing after the root element, found 'j'"),
        (
            "<gpx><wpt lat='1' lon='2'><time>noon</time></wpt></gpx>",
            "t.gpx:1:33: expected an ISO 8601 time, found 'noon'"
        ),
        (
            "<gpx><trkpt lat='1' lon='2'/></gpx>",
            "t.gpx:1:6: expected <trkpt> inside <trkseg>, found <trkpt> inside <gpx>"
        ),
        ("<gpx><!-- never closed", "t.gpx:1:6: unexpected end of file, expected '-->' to end the comment"),
        ("<gpx><wpt lat='1' lon='2'", "t.gpx:1:6: unexpected end of file, expected '>' to end the <wpt> tag"),
        (
            "<gpx><wpt lat='1' lon='2'/>",
            "t.gpx:1:28: unexpected end of file, expected </gpx> to close <gpx> from line 1"
        ),
    ])
    func errors(_ text: String, _ expected: String) {
        #expect(textError(text, name: "t.gpx")?.description == expected)
    }

    /// Element nesting beyond the depth limit is refused, not recursed into.
    @Test func depthLimit() {
        let text = "<gpx>" + String(repeating: "<a>", count: 300)
        #expect(textError(text, name: "t.gpx")?.description == "t.gpx:1:771: nesting deeper than 256 levels")
    }

    @Test func numericCharacterReferences() throws {
        let track = try readText(
            "<gpx><wpt lat='1' lon='2'><name>&#65;&#x42;&#x1F600;</name></wpt></gpx>", name: "t.gpx")
        #expect(track.waypoints.first?.name == "AB\u{1F600}")
    }
}
