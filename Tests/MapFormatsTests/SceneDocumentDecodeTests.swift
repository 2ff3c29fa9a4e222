import Foundation
import Testing
@testable import MapFormats

/// Inline geojson `data` is taken from the document's own parse, the rest decoded as written:
/// the result must be what decoding the whole text gives.
@Suite struct SceneDocumentDecodeTests {
    static let data = #"""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"title": "Caf\u00e9 \"Z\" \\ /", "n": 1e300, "tiny": 5e-324, "neg": -0.0,
                                             "big": 12345678901234567890, "list": [true, false, null, 1.5]},
           "geometry": {"type": "Point", "coordinates": [2.35, 48.8566]}}]}
        """#

    static func scene(_ extra: String = "") -> String {
        #"{"size": [300, 200], "scale": 2, "camera": {"center": [48.85, 2.35], "zoom": 12.5},"#
            + #""overlays": [{"type": "route", "coordinates": [[1, 2], [3, 4.25]], "color": "1f6feb", "dash": [2, 1]},"#
            + #"{"type": "geojson", "width": 3, "cluster": true, "clusterMaxZoom": 14\#(extra), "data": \#(data)}]}"#
    }

    @Test func inlineDataAndTheRestDecodeAsWritten() throws {
        let doc = try SceneDocument.decode(Data(Self.scene().utf8), file: "t.json")
        // Through Codable alone, the slow way, as the reference.
        let whole = try JSONDecoder().decode(SceneDocument.self, from: Data(Self.scene().utf8))
        #expect(doc == whole)
        #expect(doc.overlays?[1].data == (try JSONValue.parse(Self.data, maxDepth: 64)))
        #expect(doc.overlays?[1].clusterMaxZoom == 14 && doc.overlays?[0].coordinates == [[1, 2], [3, 4.25]])
    }

    @Test func errorsBesideInlineDataStillSayWhere() {
        #expect {
            try SceneDocument.decode(Data(Self.scene(#", "clusterRadius": "wide""#).utf8), file: "t.json")
        } throws: { error in
            "\(error)".contains("overlays[1].clusterRadius")
        }
    }
}

/// `JSONValueDecoder` (a scene decoded from the tree `JSONValue.parse` made) against Foundation's
/// `JSONDecoder` over the same text, the reference: the same documents, and for broken ones the
/// same error (kind, coding path, and so the message `SceneDocument.decode` gives).
@Suite struct JSONValueDecoderTests {
    /// The fuzz corpus's scenes (motion, clusters, fit, GeoJSON, choropleth) and a few more
    /// covering keyframes, repeat counts, tiles with subdomains and colour maps, a styled
    /// vector basemap and integer fields.
    static func documents() throws -> [String] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/Corpus/scene").standardizedFileURL
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 5, "\(dir.path): \(files)")
        return try files.map { try String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8) } + [
            #"{"version": 1, "size": [640, 480], "camera": {"center": [0, 0], "zoom": 3, "bearing": -20.5, "pitch": 30},"#
                + #""tiles": [{"source": "https://{s}.t/{z}/{x}/{y}.png", "subdomains": ["a", "b"], "opacity": 0.5}],"#
                + #""overlays": [{"type": "marker", "position": [1, 2], "style": "pin", "sides": 3, "size": 1.5},"#
                + #"{"type": "circle", "position": [3, 4], "radius": 5, "radiusUnit": "px", "fill": null, "strokeWidth": 0},"#
                + #"{"type": "route", "coordinates": [[1, 2], [3, 4], [5.5, -6e-3]], "animation": {"repeat": "forever","#
                + #""progress": [0, {"offset": 0.5, "value": 0.25, "easing": "ease-in"}, 1], "duration": 2}}]}"#,
            #"{"overlays": [{"type": "route", "coordinates": [[1, 2], [3, 4]], "animation": {"repeat": 3, "#
                + #""position": [[1, 2], {"value": [3, 4]}], "color": ["ff0000", "00ff00"]}}]}"#,
            #"{"overlays": []}"#,
            #"{}"#,
        ]
    }

    @Test func decodesAsFoundationDoes() throws {
        for text in try Self.documents() {
            let reference = try JSONDecoder().decode(SceneDocument.self, from: Data(text.utf8))
            let tree = try JSONValue.parse(text, maxDepth: SceneDocument.maxNesting)
            let decoded = try JSONValueDecoder.decode(SceneDocument.self, from: tree)
            #expect(decoded == reference, "\(text.prefix(120))")
            #expect(try SceneDocument.decode(Data(text.utf8), file: "t.json") == reference)
        }
    }

    /// Wrong types, nulls and missing keys at the top, in the camera, in overlays, in arrays of
    /// positions, in keyframes and in a colour map: the same `DecodingError` path and reason.
    @Test(arguments: [
        #"{"size": "big"}"#,
        #"{"size": [300, "a"]}"#,
        #"{"camera": 3}"#,
        #"{"camera": {"zoom": true}}"#,
        #"{"camera": {"center": [1, null]}}"#,
        #"{"overlays": {}}"#,
        #"{"overlays": [3]}"#,
        #"{"overlays": [{"position": [1, 2]}]}"#,
        #"{"overlays": [{"type": null}]}"#,
        #"{"overlays": [{"type": "circle", "radius": "wide"}]}"#,
        #"{"overlays": [{"type": "route", "coordinates": [[1, 2], [3, "x"]]}]}"#,
        #"{"overlays": [{"type": "route", "coordinates": [[1, 2], 3]}]}"#,
        #"{"overlays": [{"type": "route", "animation": {"repeat": "sometimes"}}]}"#,
        #"{"overlays": [{"type": "route", "animation": {"progress": [0, {"offset": 1}]}}]}"#,
        #"{"overlays": [{"type": "route", "animation": {"progress": [0, "half"]}}]}"#,
        #"{"tiles": [{"subdomains": ["a"]}]}"#,
        #"{"tiles": [{"source": "x", "subdomains": "abc"}]}"#,
        #"{"overlays": [{"type": "polygon", "sides": "many"}]}"#,
    ])
    func errorsAsFoundation(text: String) throws {
        var reference: DecodingError?
        do { _ = try JSONDecoder().decode(SceneDocument.self, from: Data(text.utf8)) } catch let e as DecodingError { reference = e }
        let expected = try #require(reference, "Foundation decodes \(text)")
        var mine: DecodingError?
        do {
            _ = try JSONValueDecoder.decode(SceneDocument.self, from: try JSONValue.parse(text, maxDepth: 64))
        } catch let e as DecodingError { mine = e }
        let got = try #require(mine, "JSONValueDecoder decodes \(text)")
        #expect(SceneDocument.path(of: got) == SceneDocument.path(of: expected), "\(text)")
        #expect(SceneDocument.reason(of: got) == SceneDocument.reason(of: expected), "\(text)")
    }

    /// A fraction or a huge number where a whole one is due: Foundation says only "not valid
    /// JSON", with no path (which is why `SceneDocument.decode` checks such keys itself first);
    /// here the error says where and which number.
    @Test func wholeNumbersSayWhere() throws {
        for (text, path, number) in [(#"{"overlays": [{"type": "polygon", "sides": 2.5}]}"#, "overlays[0].sides", "2.5"),
                                     (#"{"version": 1e300}"#, "version", "1e+300")] {
            do {
                _ = try JSONValueDecoder.decode(SceneDocument.self, from: try JSONValue.parse(text, maxDepth: 64))
                Issue.record("\(text) decoded")
            } catch let e as DecodingError {
                #expect(SceneDocument.path(of: e) == path)
                #expect(SceneDocument.reason(of: e) == "Parsed JSON number <\(number)> does not fit in Int.")
            }
        }
    }
}
