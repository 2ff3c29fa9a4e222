import Foundation
import MapFormats
@testable import MapSnapshot

/// What the scene-file suites share: a loader resolving relative paths in the temporary
/// directory, and documents decoded from JSON text as the file `t.json`.
protocol SceneFixture {}

extension SceneFixture {
    var loader: SceneLoader { SceneLoader(baseDirectory: URL(fileURLWithPath: NSTemporaryDirectory())) }

    func doc(_ json: String) throws -> SceneDocument {
        try SceneDocument.decode(Data(json.utf8), file: "t.json")
    }
}
