import Foundation

/// Refuses keys a JSON object's type does not have, for hand-written configuration decoded with
/// `Codable` (a typo such as `prot` for `port` would otherwise be ignored silently).
public enum JSONKeys {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Throws `DecodingError.dataCorrupted` at the first key (in sorted order) of the object being
    /// decoded that `Keys` does not have, with the closest known key as a hint when it is near.
    /// `SceneDocument.describe` then reads `prot: unknown key (did you mean 'port'?)`.
    public static func refuseUnknown<Keys: CodingKey & CaseIterable>(in decoder: Decoder, _: Keys.Type) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        let allowed = Keys.allCases.map(\.stringValue)
        for key in all.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where !allowed.contains(key.stringValue) {
            let near = allowed.min { SceneDocument.editDistance($0, key.stringValue) < SceneDocument.editDistance($1, key.stringValue) }
            let hint = near.map { SceneDocument.editDistance($0, key.stringValue) <= 2 ? " (did you mean '\($0)'?)" : "" } ?? ""
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath + [key],
                                                                    debugDescription: "unknown key\(hint)"))
        }
    }
}
