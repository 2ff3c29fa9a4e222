import Testing
@testable import MapFormats

/// Every broken fixture gives a located, specific message. Lines and columns are counted by
/// hand in the fixture files (1-based; columns in characters).
@Suite struct BrokenFixtureTests {
    @Test(arguments: [
        // the opening quote after `40.7,-120.95,`
        (
            "csv/truncated_quote.csv",
            "csv/truncated_quote.csv:3:14: unexpected end of file, expected the closing quote of the field opened here"
        ),
        // `west` after `40.7,`
        ("csv/wrong_type.csv", "csv/wrong_type.csv:3:6: expected a longitude in degrees, found 'west'"),
        ("csv/nan.csv", "csv/nan.csv:3:1: Latitude 'NaN' is not a finite number"),
        // the field is ` 91`: the number starts at column 2
        ("csv/lat91.csv", "csv/lat91.csv:3:2: latitude 91 is outside [-90, 90]"),
        ("csv/empty.csv", "csv/empty.csv: no points: the file is empty"),
        ("csv/header_only.csv", "csv/header_only.csv: no points: the file has a header but no rows"),
        ("csv/field_count.csv", "csv/field_count.csv:2:1: expected 2 fields as in the header, found 3 fields"),
        (
            "csv/no_lat_lon.csv",
            "csv/no_lat_lon.csv:1:1: expected a header naming latitude and longitude columns, or LAT,LON numbers, found 'when,where'"
        ),
        // the file stops after `<ele>43` (4 spaces + 28-char trkpt tag + 5 + 2)
        (
            "gpx/truncated.gpx",
            "gpx/truncated.gpx:5:40: unexpected end of file, expected </ele> to close <ele> from line 5"
        ),
        // after the 28-char `<trkpt …>` and `<ele>`
        ("gpx/wrong_type.gpx", "gpx/wrong_type.gpx:4:34: expected an elevation in metres, found 'high'"),
        // the attribute value after `  <trkpt lat="47.1" lon="`
        ("gpx/nan.gpx", "gpx/nan.gpx:4:26: Longitude 'NaN' is not a finite number"),
        // the value after `<wpt lat="`
        ("gpx/lat91.gpx", "gpx/lat91.gpx:2:11: latitude 91 is outside [-90, 90]"),
        ("gpx/empty.gpx", "gpx/empty.gpx: no points: the GPX has no track, route or waypoint points"),
        // the end tag right after the 28-char start tag
        (
            "gpx/mismatched.gpx",
            "gpx/mismatched.gpx:3:29: expected </trkpt> to close <trkpt> from line 3, found </trkseg>"
        ),
        ("gpx/binary.gpx", "gpx/binary.gpx: binary data, not a text track file"),
        (
            "geojson/truncated.geojson",
            "geojson/truncated.geojson:2:114: features[0].geometry.coordinates[1]: unexpected end of file, expected a digit after '.'"
        ),
        (
            "geojson/wrong_type.geojson",
            "geojson/wrong_type.geojson:3:111: features[1].geometry.coordinates[1]: expected a latitude (number), found a string"
        ),
        // `  "coordinates": [[8.0, 47.0], [` is 32 characters
        (
            "geojson/nan.geojson",
            "geojson/nan.geojson:3:33: geometry.coordinates[1]: expected a longitude (number), found 'NaN' (JSON has no NaN or Infinity)"
        ),
        // the 13th position's latitude, on the 4th feature's line
        (
            "geojson/lat91.geojson",
            "geojson/lat91.geojson:5:274: features[3].geometry.coordinates[12]: latitude 91 is outside [-90, 90]"
        ),
        ("geojson/empty.geojson", "geojson/empty.geojson: no points: the GeoJSON has no coordinates"),
        (
            "geojson/wrong_nesting.geojson",
            "geojson/wrong_nesting.geojson:1:86: geometry.coordinates: expected an array of rings (arrays of positions) for a Polygon, found an array of positions"
        ),
        // the space after `_p~iF~ps|U_ulLnn`
        (
            "polyline/bad_char.polyline",
            "polyline/bad_char.polyline:2:17: invalid encoded polyline: ' ' is not a polyline character (expected '?' to '~')"
        ),
    ])
    func locatedMessage(_ file: String, _ expected: String) throws {
        let error = try #require(try fixtureError(file))
        #expect(error.description == expected)
    }
}
