import Foundation
import Testing
@testable import MapFormats

@Suite struct FormatDetectionTests {
    @Test(arguments: [
        ("a.gpx", "x", TrackFormat.gpx), ("A.GPX", "x", .gpx), ("a.csv", "<", .csv), ("a.tsv", "", .csv),
        ("a.geojson", "", .geojson), ("dir.v2/a.json", "", .geojson), ("a.polyline", "", .polyline),
        ("a.txt", "  \n<?xml version='1.0'?><gpx/>", .gpx), ("noext", "\u{FEFF}{\"type\":1}", .geojson),
        ("a.dat", "_p~iF~ps|U_ulLnnqC\n", .polyline), ("a.dat", "lat,lon\n1,2", .csv), ("a.dat", "38.5 -120.2", .csv),
    ])
    func detects(_ name: String, _ content: String, _ expected: TrackFormat) {
        #expect(TrackFormat.detect(path: name, bytes: Array(content.utf8)) == expected)
    }

    @Test func sniffingEmptyGivesNil() {
        #expect(TrackFormat.sniff([UInt8]()) == nil)
        #expect(TrackFormat.sniff(Array(" \n".utf8)) == nil)
    }

    @Test func readsByContentWhenTheExtensionSaysNothing() throws {
        let track = try readText("<gpx><wpt lat='1' lon='2'/></gpx>", name: "track.txt")
        #expect(track.format == .gpx)
    }

    @Test func fileErrorsNameTheFile() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/track.gpx")
        #expect(throws: FormatError.self) { try TrackReader.read(contentsOf: missing) }
        do {
            _ = try TrackReader.read(contentsOf: missing)
        } catch {
            #expect(error.description == "/nonexistent/track.gpx: cannot read: no such file")
        }
        let url = try fixtureURL("csv/nan.csv")
        do {
            _ = try TrackReader.read(contentsOf: url)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == url.path + ":3:1: Latitude 'NaN' is not a finite number")
        }
    }

    @Test func sizeLimit() {
        let e = textError("1,2\n", name: "t.csv", options: TrackReadOptions(maxBytes: 3))
        #expect(e?.description == "t.csv: file is 4 bytes, more than the limit of 3")
    }
}
