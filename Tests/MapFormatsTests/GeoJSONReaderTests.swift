import Foundation
import GeoKit
import Testing
@testable import MapFormats

@Suite struct GeoJSONReaderTests {
    /// Every geometry type, members in any order, null geometry, foreign members.
    @Test func allGeometryTypes() throws {
        let track = try readFixture("geojson/all_types.geojson")
        #expect(track.format == .geojson)
        #expect(track.name == "all types")
        // Point, MultiPoint (2), the GeometryCollection's Point.
        #expect(
            track.waypoints.map { [$0.coordinate.lat, $0.coordinate.lon] } == [
                [38.5, -120.2], [2, 1], [4, 3], [-45, 100],
            ])
        #expect(track.waypoints.map(\.feature) == [0, 1, 1, 6])
        let camp = track.waypoints[0]
        #expect(camp.name == "camp")
        #expect(camp.elevation == 12.5)
        #expect(
            camp.properties == [
                "name": .string("camp"), "n": .number(1), "ok": .bool(true),
                "tags": .array([.string("a"), .string("b\u{e9}")]),
                "none": .null, "nested": .object(["x": .number(-150)]),
            ])
        // LineString, MultiLineString (2), Polygon (2 rings), MultiPolygon (2 rings), GC LineString.
        #expect(track.parts.map(\.kind) == [.line, .line, .line, .ring, .ring, .ring, .ring, .line])
        #expect(track.parts.map(\.feature) == [2, 3, 3, 4, 4, 5, 5, 6])
        #expect(track.parts.map(\.points.count) == [3, 2, 3, 4, 4, 4, 4, 2])
        #expect(track.parts[0].name == "line \"one\"")
        #expect(coordinates(track.parts[0]) == [[38.5, -120.2], [40.7, -120.95], [43.252, -126.453]])
        #expect(track.parts[7].points.map(\.elevation) == [nil, 7])
        #expect(track.parts[7].properties == ["kind": .string("gc")])
    }

    @Test func bareGeometry() throws {
        let track = try readFixture("geojson/bare_linestring.geojson")
        #expect(track.parts.map(coordinates) == [[[47, 8], [47.1, 8.1]]])
    }

    @Test(arguments: [
        (
            "{\"type\":\"LineString\",\"coordinates\":[[1,2],[3,4],]}",
            "t.geojson:1:49: coordinates[1]: expected a value after ',', found ']'"
        ),
        ("{\"coordinates\":[1,2]}", "t.geojson:1:1: the object has no \"type\" member"),
        ("{\"type\":\"Circle\",\"coordinates\":[1,2]}", "t.geojson:1:9: type: unknown GeoJSON type 'Circle'"),
        (
            "{\"type\":\"Point\",\"coordinates\":[1,1e999]}",
            "t.geojson:1:34: coordinates: '1e999' (too large for a double) is not a finite number"
        ),
        (
            "{\"type\":\"Point\",\"coordinates\":[1]}",
            "t.geojson:1:32: coordinates: a position needs a longitude and a latitude, found 1 number"
        ),
        (
            "{\"type\":\"Point\",\"coordinates\":[01,2]}",
            "t.geojson:1:32: coordinates: expected a longitude (number) (JSON numbers have no leading zeros), found a leading zero"
        ),
        (
            "{\"type\":\"FeatureCollection\",\"features\":{}}",
            "t.geojson:1:40: features: expected an array of features, found an object"
        ),
        (
            "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Point\",\"coordinates\":[1,2]}]}",
            "t.geojson:1:49: features[0].type: expected a Feature in the features array, found 'Point'"
        ),
        (
            "{\"type\":\"Feature\",\"properties\":{}}",
            "t.geojson:1:1: a Feature needs a \"geometry\" member (an object or null)"
        ),
        (
            "{\"type\":\"Feature\",\"geometry\":null,\"properties\":3}",
            "t.geojson:1:48: properties: expected an object or null, found a number"
        ),
        (
            "{\"type\":\"MultiLineString\",\"coordinates\":[[[1,2]],[3,4]]}",
            "t.geojson:1:50: coordinates[1]: expected an array of positions like its siblings, found a position"
        ),
        (
            "{\"type\":\"Point\",\"coordinates\":[1,2]} {}",
            "t.geojson:1:38: expected the end of the file, found an object"
        ),
        // The raw line break follows `{"type":"Point","name": "a` (26 characters).
        (
            "{\"type\":\"Point\",\"name\": \"a\nb\"}",
            "t.geojson:1:27: name: expected a closing '\"' (control characters must be escaped), found a line break"
        ),
        (
            "{\"type\":\"Point\",\"coordinates\":[-Infinity,2]}",
            "t.geojson:1:32: coordinates: expected a longitude (number), found '-Infinity' (JSON has no NaN or Infinity)"
        ),
        ("{\"type\":\"GeometryCollection\"}", "t.geojson:1:1: a GeometryCollection needs a \"geometries\" array"),
    ])
    func errors(_ text: String, _ expected: String) {
        #expect(textError(text, name: "t.geojson")?.description == expected)
    }

    /// Hostile nesting is refused at the depth limit, not recursed into.
    @Test func depthLimit() {
        let text = "{\"type\":\"Point\",\"coordinates\":" + String(repeating: "[", count: 100_000)
        let e = textError(text, name: "t.geojson")
        #expect(e?.message == "nesting deeper than 256 levels")
    }

    @Test func stringEscapes() throws {
        let text =
            #"{"type":"Feature","properties":{"name":"a\"b\\c\/d\n\u00e9\ud83d\ude00"},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let track = try readText(text, name: "t.geojson")
        #expect(track.waypoints.first?.name == "a\"b\\c/d\n\u{e9}\u{1F600}")
    }
}
