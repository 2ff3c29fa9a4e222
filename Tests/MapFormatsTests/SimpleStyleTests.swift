import GeoKit
import MapFormats
import Testing

/// GeoJSON features → overlay specs, styled as simplestyle-spec 1.1.0 says
/// (https://github.com/mapbox/simplestyle-spec/tree/master/1.1.0).
@Suite struct SimpleStyleTests {
    func specs(_ geojson: String, base: SceneDocument.OverlaySpec = .init(type: "geojson")) throws -> [SceneDocument.OverlaySpec] {
        try SimpleStyle.overlays(ofGeoJSON: Array(geojson.utf8), base: base)
    }

    static let mixed = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"stroke": "#f00", "stroke-opacity": 0.5, "stroke-width": 6},
           "geometry": {"type": "LineString", "coordinates": [[14.5, 46.05], [14.52, 46.06]]}},
          {"type": "Feature", "properties": {"fill": "#00ff00", "fill-opacity": 0.3, "stroke": "000080", "stroke-width": 0},
           "geometry": {"type": "Polygon", "coordinates": [[[14.49, 46.03], [14.53, 46.03], [14.53, 46.045], [14.49, 46.03]]]}},
          {"type": "Feature", "properties": {"name": "N", "title": "Start", "marker-color": "#0000FF", "marker-size": "large"},
           "geometry": {"type": "Point", "coordinates": [14.5, 46.05]}},
          {"type": "Feature", "properties": null,
           "geometry": {"type": "MultiLineString", "coordinates": [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]}},
          {"type": "Feature", "properties": {"name": "plain"}, "geometry": {"type": "Point", "coordinates": [1, 2]}}]}
        """

    /// Each geometry gives its overlay; colours from the properties, opacities as a byte
    /// (0.5 × 255 = 127.5 → 0x80, 0.3 × 255 = 76.5 → 0x4d), `#rgb` widened; pins labelled by
    /// `title` before `name`; positions turned to [lat, lon].
    @Test func propertiesStyleEachGeometry() throws {
        let s = try specs(Self.mixed)
        #expect(s.map(\.type) == ["polygon", "route", "route", "route", "marker", "marker"])
        let polygon = s[0], line = s[1], pin = s[4], plain = s[5]
        #expect(polygon.fill == "#00ff004d" && polygon.stroke == "#000080" && polygon.strokeWidth == 0)
        #expect(polygon.rings == [[[46.03, 14.49], [46.03, 14.53], [46.045, 14.53], [46.03, 14.49]]])
        #expect(line.color == "#ff000080" && line.width == 6 && line.coordinates == [[46.05, 14.5], [46.06, 14.52]])
        #expect(pin.color == "#0000ff" && pin.label == "Start" && pin.style == "pin" && pin.position == [46.05, 14.5])
        // The spec's defaults: stroke #555555 width 2, markers #7e7e7e.
        #expect(s[2].color == "#555555" && s[2].width == 2 && s[3].coordinates == [[6, 5], [8, 7]])
        #expect(plain.color == "#7e7e7e" && plain.label == "plain")
    }

    /// `marker-size` names a scale (small 0.7, large 1.25; medium the normal size); a
    /// `marker-symbol` that is a letter or a number 0…99 is the pin's glyph (letters in
    /// capitals), a Maki icon name its symbol; anything else is an error naming the feature.
    @Test func markerSizeAndSymbol() throws {
        func pin(_ props: String) throws -> SceneDocument.OverlaySpec {
            try #require(try specs(#"{"type": "Feature", "properties": {\#(props)}, "geometry": {"type": "Point", "coordinates": [1, 2]}}"#).first)
        }
        #expect(try pin(#""marker-size": "small""#).size == 0.7)
        #expect(try pin(#""marker-size": "medium""#).size == 1)
        #expect(try pin(#""marker-size": "large""#).size == 1.25)
        #expect(try pin("").size == nil)
        #expect(try pin(#""marker-symbol": "a""#).glyph == "A")
        #expect(try pin(#""marker-symbol": "42""#).glyph == "42")
        #expect(try pin(#""marker-symbol": 7"#).glyph == "7")
        let metro = try pin(#""marker-symbol": "rail-metro""#)
        #expect(metro.glyph == nil && metro.symbol == "rail-metro")
        #expect(try pin(#""marker-symbol": """#).glyph == nil)
        #expect(try pin(#""marker-symbol": null"#).symbol == nil)
        for bad in [#""100""#, "100", "2.5", #""bsu""#, #""ab""#, "true"] {
            #expect(throws: SimpleStyleError.self, "\(bad)") { try pin(#""marker-symbol": \#(bad)"#) }
        }
        do {
            _ = try pin(#""marker-symbol": "bsu""#)
        } catch {
            #expect("\(error)" == "feature 0: property 'marker-symbol': 'bsu' is not a Maki icon (did you mean 'bus'?)")
        }
        #expect(throws: SimpleStyleError.self) { try pin(#""marker-size": "huge""#) }
        #expect(throws: SimpleStyleError.self) { try pin(#""marker-size": 2"#) }
    }

    /// Without properties a polygon is filled #555555 at 0.6 (153 = 0x99) and outlined #555555
    /// 2 px wide; the overlay's own values take the defaults' place, under the features' properties.
    @Test func theOverlayGivesTheDefaults() throws {
        let polygon = #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}"#
        let bare = try specs(polygon)
        #expect(bare[0].fill == "#55555599" && bare[0].stroke == "#555555" && bare[0].strokeWidth == 2)
        // Each property's default holds alone: a feature's own fill without `fill-opacity` is at
        // 0.6 too; its own stroke without `stroke-opacity` at 1.
        let coloured = try specs(##"{"type": "Feature", "properties": {"fill": "#00ff00", "stroke": "#123"}, "geometry": {"type": "Polygon", "coordinates": [[[1, 2], [3, 2], [3, 4], [1, 2]]]}}"##)
        #expect(coloured[0].fill == "#00ff0099" && coloured[0].stroke == "#112233")
        var base = SceneDocument.OverlaySpec(type: "geojson")
        base.fill = "ff000040"
        base.stroke = "red"
        base.strokeWidth = 3
        base.color = "1f6feb"
        base.width = 5
        base.dash = [2, 1]
        base.z = 7
        let mine = try specs(polygon, base: base)
        #expect(mine[0].fill == "ff000040" && mine[0].stroke == "red" && mine[0].strokeWidth == 3 && mine[0].z == 7)
        let lines = try specs("""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}},
              {"type": "Feature", "properties": {"stroke-opacity": 0.5}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}},
              {"type": "Feature", "properties": {"stroke": "#0f0", "stroke-width": 1}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}]}
            """, base: base)
        #expect(lines.map(\.color) == ["1f6feb", "#1f6feb80", "#00ff00"])
        #expect(lines.map(\.width) == [5, 5, 1] && lines.allSatisfy { $0.dash == [2, 1] && $0.z == 7 })
    }

    /// A MultiPolygon's second polygon starts a new polygon; a ring inside the first is its hole.
    @Test func multiPolygonsKeepTheirHoles() throws {
        let s = try specs("""
            {"type": "MultiPolygon", "coordinates": [
              [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[2, 2], [4, 2], [4, 4], [2, 4], [2, 2]]],
              [[[20, 0], [30, 0], [30, 10], [20, 0]]]]}
            """)
        #expect(s.map { $0.rings?.count } == [2, 1])
    }

    /// Colour spellings: the three-digit form doubled, upper case lowered, ASCII whitespace round
    /// them (read from the bytes) or a no-break space and full-width digits (read by the general
    /// path, as `Character` takes them).
    @Test(arguments: [
        ("#ABC", "#aabbcc"), (" 00FF80\t\r\n", "#00ff80"), ("#AbCdEf", "#abcdef"), ("123", "#112233"),
        ("\u{00A0}#1a2b3c", "#1a2b3c"), ("#\u{FF11}\u{FF12}\u{FF13}", "#\u{FF11}\u{FF11}\u{FF12}\u{FF12}\u{FF13}\u{FF13}"),
    ])
    func colourSpellings(stroke: String, expected: String) throws {
        // (Control characters escaped as JSON needs them.)
        let escaped = stroke.unicodeScalars.map { c -> String in
            switch c { case "\t": "\\t"; case "\n": "\\n"; case "\r": "\\r"; default: String(c) }
        }.joined()
        let text = #"{"type": "Feature", "properties": {"stroke": ""# + escaped
            + #""}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}"#
        #expect(try specs(text).first?.color == expected)
    }

    @Test(arguments: [
        (##"{"stroke": "#abcd"}"##, "feature 0: property 'stroke': '#abcd' is not a colour (#rgb or #rrggbb)"),
        (##"{"stroke": "#12g"}"##, "feature 0: property 'stroke': '#12g' is not a colour (#rgb or #rrggbb)"),
        (#"{"stroke": "blu"}"#, "feature 0: property 'stroke': 'blu' is not a colour (#rgb or #rrggbb)"),
        (#"{"stroke": 5}"#, "feature 0: property 'stroke': 5.0 is not a colour (#rgb or #rrggbb)"),
        (#"{"stroke-opacity": 1.5}"#, "feature 0: property 'stroke-opacity': 1.5 is not a number in 0…1"),
        (#"{"stroke-width": -1}"#, "feature 0: property 'stroke-width': -1.0 is not a number in (0…100] (pixels)"),
        (#"{"stroke-width": "4"}"#, "feature 0: property 'stroke-width': '4' is not a number in (0…100] (pixels)"),
    ])
    func aPropertyThatCannotBeDrawnIsAnError(properties: String, message: String) throws {
        let text = #"{"type": "Feature", "properties": "# + properties + #", "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}"#
        #expect { try specs(text) } throws: { "\($0)" == message }
    }

    /// Inline data: the reader's errors name the JSON path only (the text was written here).
    @Test func inlineDataErrorsNameThePath() throws {
        let data = try JSONValue.parse(#"{"type": "LineString", "coordinates": [[0, 0], [1, "x"]]}"#)
        #expect { try SimpleStyle.overlays(of: data, base: .init(type: "geojson")) } throws: {
            "\($0)" == "coordinates[1]: expected a latitude (number), found a string"
        }
    }
}
