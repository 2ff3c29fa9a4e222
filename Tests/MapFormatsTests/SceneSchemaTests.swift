import Foundation
import MapTestSupport
import Testing
@testable import MapFormats

/// `Documentation/scene.schema.json` names every key the scene format reads, and no other:
/// an editor validating against the schema accepts what `mapwright render --scene` accepts.
@Suite struct SceneSchemaTests {
    func schema() throws -> [String: Any] {
        let url = repositoryRoot.appendingPathComponent("Documentation/scene.schema.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    func keys(_ object: Any?) -> Set<String> {
        Set(((object as? [String: Any])?["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
    }

    func fields(_ value: Any) -> Set<String> {
        Set(Mirror(reflecting: value).children.compactMap(\.label).map { $0.hasPrefix("`") ? String($0.dropFirst().dropLast()) : $0 })
    }

    @Test func everyObjectListsTheKeysTheDecoderReads() throws {
        let s = try schema()
        let top = s["properties"] as? [String: Any]
        let defs = s["$defs"] as? [String: Any]
        let overlay = defs?["overlay"] as? [String: Any]
        let tiles = (top?["tiles"] as? [String: Any])?["items"]
        let casing = (overlay?["properties"] as? [String: Any])?["casing"]
        for (name, schemaKeys, swiftKeys) in [
            ("scene", keys(s), fields(SceneDocument())),
            ("camera", keys(top?["camera"]), fields(SceneDocument.CameraSpec())),
            ("tiles[]", keys(tiles), fields(SceneDocument.TilesSpec(source: ""))),
            ("overlay", keys(overlay), fields(SceneDocument.OverlaySpec(type: ""))),
            ("casing", keys(casing), fields(SceneDocument.CasingSpec(color: ""))),
            ("animation", keys(defs?["animation"]), fields(SceneDocument.AnimationSpec())),
        ] {
            #expect(!swiftKeys.isEmpty)
            #expect(swiftKeys.subtracting(schemaKeys).isEmpty, "\(name): the schema lacks \(swiftKeys.subtracting(schemaKeys).sorted())")
            #expect(schemaKeys.subtracting(swiftKeys).isEmpty, "\(name): the format has no \(schemaKeys.subtracting(swiftKeys).sorted())")
        }
    }
}
