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
