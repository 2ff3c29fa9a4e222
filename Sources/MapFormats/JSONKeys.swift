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
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath + [key],
                                                                    debugDescription: "unknown key\(hint(for: key.stringValue, among: allowed))"))
        }
    }

    /// ` (did you mean 'port'?)` for the known key closest to `key` when it is at most two edits
    /// away; empty otherwise. Scene files and the server's configuration say the same.
    public static func hint(for key: String, among allowed: some Collection<String>) -> String {
        guard let near = allowed.min(by: { editDistance($0, key) < editDistance($1, key) }), editDistance(near, key) <= 2 else {
            return ""
        }
        return " (did you mean '\(near)'?)"
    }

    /// Levenshtein distance, for suggesting the key a typo meant.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var prev = row[0]
            row[0] = i
            for j in 1...b.count {
                let cur = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
                prev = cur
            }
        }
        return row[b.count]
    }
}
