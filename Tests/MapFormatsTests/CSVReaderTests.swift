import Foundation
import GeoKit
import Testing
@testable import MapFormats

@Suite struct CSVReaderTests {
    /// Columns in any order and case, CRLF, RFC 4180 quotes (comma, doubled quote, line
    /// break inside quotes), empty cells, ISO 8601 and epoch-second times.
    @Test func headerInAnyOrderWithQuotesAndCRLF() throws {
        let track = try readFixture("csv/header_any_order_crlf.csv")
        #expect(track.format == .csv)
        #expect(track.parts.count == 1)
        let part = try #require(track.parts.first)
        #expect(coordinates(part) == [[38.5, -120.2], [40.7, -120.95], [43.252, -126.453]])
        #expect(part.points.map(\.elevation) == [12.5, nil, -3])
        // 2024-05-01T10:00:00Z is 1714557600 s after 1970 (Python: datetime(2024,5,1,10,tzinfo=utc).timestamp()).
        #expect(part.points.map { $0.time?.timeIntervalSince1970 } == [1_714_557_600, 1_714_557_630.5, 1_714_557_660])
        #expect(part.points[0].properties == ["name": .string("start"), "note": .string("quoted, with comma")])
        #expect(part.points[1].properties == ["name": .string("say \"hi\"")])
        #expect(part.points[2].properties == ["name": .string("end"), "note": .string("multi\r\nline")])
    }

    @Test func headerlessPairsSkipBlankLines() throws {
        let track = try readFixture("csv/headerless.csv")
        #expect(track.parts.map(coordinates) == [[[38.5, -120.2], [40.7, -120.95], [43.252, -126.453]]])
    }

    @Test func segmentColumnSplitsPartsAndSemicolonsAreSniffed() throws {
        let track = try readFixture("csv/segments_semicolon.csv")
        #expect(track.parts.map(\.points.count) == [2, 3])
        #expect(track.parts.map(\.name) == ["a", "b"])
        #expect(coordinates(track.parts[1]).first == [3, 4])
    }

    @Test(arguments: ["lat,lon", "LATITUDE,LONGITUDE", "Lat,Lng", "lon,lat", "long,latitude", "x,lat,y,lon"])
    func headerNames(_ header: String) throws {
        let names = header.split(separator: ",").map { $0.lowercased() }
        let lonNames: Set = ["lon", "lng", "long", "longitude"]
        let row = names.map { $0.hasPrefix("lat") ? "10.5" : lonNames.contains($0) ? "-20.25" : "z" }.joined(
            separator: ",")
        let track = try readText("\(header)\n\(row)\n", name: "t.csv")
        #expect(coordinates(track.parts[0]) == [[10.5, -20.25]])
    }

    @Test func tabSeparated() throws {
        let track = try readText("lat\tlon\tele\n1\t2\t3\n", name: "t.tsv")
        #expect(track.parts[0].points[0].elevation == 3)
    }

    @Test(arguments: [
        ("lat,lon\n1,inf\n", "t.csv:2:3: Longitude 'inf' is not a finite number"),
        ("lat,lon\n1,1e999\n", "t.csv:2:3: Longitude is not a finite number"),
        ("lat,lon\n,2\n", "t.csv:2:1: expected a latitude in degrees, found an empty field"),
        ("lat,lon,ele\n1,2,high\n", "t.csv:2:5: expected a elevation in metres, found 'high'"),
        (
            "lat,lon,time\n1,2,yesterday\n",
            "t.csv:2:5: expected an ISO 8601 time or seconds since 1970, found 'yesterday'"
        ),
        (
            "lat,lon,time\n1,2,2024-02-30T00:00:00Z\n",
            "t.csv:2:5: expected an ISO 8601 time or seconds since 1970, found '2024-02-30T00:00:00Z'"
        ),
        ("lat,lon\n\"1\"x,2\n", "t.csv:2:4: expected a separator or line end after the closing quote, found 'x'"),
        (
            "lat\n1\n",
            "t.csv:1:1: the header has a latitude column but no longitude column (lon, lng, long or longitude)"
        ),
        ("-90.5,2\n", "t.csv:1:1: latitude -90.5 is outside [-90, 90]"),
        ("\n\n  \n", "t.csv: no points: the file is empty"),
    ])
    func errors(_ text: String, _ expected: String) {
        #expect(textError(text, name: "t.csv")?.description == expected)
    }

    @Test func pointLimit() {
        let e = textError("1,2\n3,4\n5,6\n", name: "t.csv", options: TrackReadOptions(maxPoints: 2))
        #expect(e?.description == "t.csv:3:1: more than 2 points (the limit)")
    }
}
