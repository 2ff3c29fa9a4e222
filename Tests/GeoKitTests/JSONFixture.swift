import Foundation

/// `Fixtures/<name>.json` of this test target decoded as `T`; a stop naming the file when it is
/// missing or does not decode (every test that reads it would be meaningless).
func jsonFixture<T: Decodable>(_ name: String, as type: T.Type = T.self) -> T {
    do {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures")
        else { throw CocoaError(.fileNoSuchFile) }
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    } catch {
        preconditionFailure("\(name).json fixture unreadable: \(error)")
    }
}
