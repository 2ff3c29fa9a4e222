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

extension JSONValue: Codable {
    /// Decodes any JSON value (a number as a `Double`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let x = try? c.decode(Double.self) { self = .number(x) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    /// Encodes the value as the JSON it was read from.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let x): try c.encode(x)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}
