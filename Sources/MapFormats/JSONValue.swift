/// A JSON value, as GeoJSON `properties` hold them.
public enum JSONValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    /// A number; JSON has no NaN or infinities, so it is always finite when read.
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// An object; member order is not kept (the writer sorts keys).
    case object([String: JSONValue])

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number, when this is a number.
    public var numberValue: Double? {
        if case .number(let x) = self { return x }
        return nil
    }
}

extension JSONValue {
    /// Parses one JSON text with the strict scanner the readers use (no NaN, no leading zeros,
    /// numbers that fit a Double, nesting at most `maxDepth`); the `FormatError` says where
    /// and what was found.
    public static func parse(_ text: String, name: String? = nil, maxDepth: Int = 64) throws -> JSONValue {
        let source = SourceText(bytes: Array(text.utf8), name: name)
        return try source.bytes.withUnsafeBufferPointer { p in
            var scanner = JSONScanner(p, source: source, maxDepth: maxDepth)
            let value = try scanner.readValue()
            try scanner.expectEnd()
            return value
        }
    }
}
