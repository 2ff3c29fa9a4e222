/// Decodes a `Decodable` value from a `JSONValue` tree already parsed, with the errors
/// `JSONDecoder` throws for the same document: `DecodingError.typeMismatch`, `valueNotFound`,
/// `keyNotFound` and `dataCorrupted`, each with its coding path.
///
/// A scene document is parsed once by `JSONValue.parse` (for the line and column of broken JSON
/// and the check of unknown keys); decoding that tree here spares Foundation's second parse and
/// its generic decoding machinery, most of the time of reading a large scene (10 000 circles:
/// 1.05 G instructions in `JSONDecoder` against 0.2 G here, callgrind). A `JSONValue` field
/// takes its subtree as it is.
public enum JSONValueDecoder {
    /// `type` from `value`.
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try TreeDecoder(value, []).unbox(type)
    }
}

/// An integer or text key of a coding path (array indices, dictionary keys).
private struct PathKey: CodingKey {
    private let name: String?
    var intValue: Int?
    var stringValue: String { name ?? "Index \(intValue ?? 0)" }
    init(stringValue: String) { name = stringValue }
    init(intValue: Int) { name = nil; self.intValue = intValue }
}

private func mismatch(_ type: Any.Type, _ path: @autoclosure () -> [CodingKey], _ value: JSONValue) -> DecodingError {
    let found: String
    switch value {
    case .null: found = "null"
    case .bool: found = "a boolean"
    case .number: found = "a number"
    case .string: found = "a string"
    case .array: found = "an array"
    case .object: found = "an object"
    }
    return DecodingError.typeMismatch(type, .init(codingPath: path(), debugDescription: "Expected to decode \(type) but found \(found) instead."))
}

/// The scalars every container reads the same way.
private func scalar<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ path: @autoclosure () -> [CodingKey]) throws -> T? {
    if type == String.self {
        guard case .string(let s) = value else { throw mismatch(type, path(), value) }
        return (s as! T)
    }
    if type == Double.self {
        guard case .number(let x) = value else { throw mismatch(type, path(), value) }
        return (x as! T)
    }
    if type == Bool.self {
        guard case .bool(let b) = value else { throw mismatch(type, path(), value) }
        return (b as! T)
    }
    if let integerType = type as? any FixedWidthInteger.Type { return (try integer(integerType, value, path()) as! T) }
    if type == Float.self {
        guard case .number(let x) = value else { throw mismatch(type, path(), value) }
        return (Float(x) as! T)
    }
    if type == JSONValue.self { return (value as! T) }
    return nil
}

private func integer<I: FixedWidthInteger>(_ type: I.Type, _ value: JSONValue, _ path: @autoclosure () -> [CodingKey]) throws -> I {
    guard case .number(let x) = value else { throw mismatch(type, path(), value) }
    guard let i = I(exactly: x) else {
        throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Parsed JSON number <\(x)> does not fit in \(type)."))
    }
    return i
}

private struct TreeDecoder: Decoder {
    let value: JSONValue
    /// The coding path is the parent's and this value's key, joined only when asked for (an
    /// error, a nested container): most values are scalars read without one.
    let parent: [CodingKey]
    let key: CodingKey?
    var codingPath: [CodingKey] { key.map { parent + [$0] } ?? parent }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, _ path: [CodingKey]) { self.value = value; parent = path; key = nil }
    init(_ value: JSONValue, _ parent: [CodingKey], _ key: CodingKey) { self.value = value; self.parent = parent; self.key = key }

    func unbox<T: Decodable>(_ type: T.Type) throws -> T {
        if let s = try scalar(type, value, codingPath) { return s }
        return try T(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let o) = value else {
            if case .null = value {
                throw DecodingError.valueNotFound([String: Any].self, .init(codingPath: codingPath,
                    debugDescription: "Cannot get keyed decoding container -- found null value instead"))
            }
            throw mismatch([String: Any].self, codingPath, value)
        }
        return KeyedDecodingContainer(Keyed<Key>(object: o, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let a) = value else {
            if case .null = value {
                throw DecodingError.valueNotFound([Any].self, .init(codingPath: codingPath,
                    debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
            }
            throw mismatch([Any].self, codingPath, value)
        }
        return Unkeyed(array: a, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(value: value, codingPath: codingPath) }
}

private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: JSONValue]
    let codingPath: [CodingKey]
    /// A bit per (length, first byte) of the members' names: a struct's decoder asks for every
    /// field it has (an overlay's 39) and most are absent, which this tells without hashing the
    /// name (a string's hash is most of a lookup).
    let names: UInt64

    init(object: [String: JSONValue], codingPath: [CodingKey]) {
        self.object = object
        self.codingPath = codingPath
        var names: UInt64 = 0
        for k in object.keys { names |= Self.bit(k) }
        self.names = names
    }

    @inline(__always) private static func bit(_ name: String) -> UInt64 {
        let u = name.utf8
        return 1 << UInt64((u.count &* 7 &+ Int(u.first ?? 0)) & 63)
    }

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { member(key.stringValue) != nil }

    @inline(__always) private func member(_ name: String) -> JSONValue? {
        names & Self.bit(name) == 0 ? nil : object[name]
    }

    private func value(_ key: Key) throws -> JSONValue {
        guard let v = member(key.stringValue) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath,
                debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return v
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(key) { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let v = try value(key)
        if case .null = v, type != JSONValue.self {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key],
                debugDescription: "Expected \(type) value but found null instead."))
        }
        return try TreeDecoder(v, codingPath, key).unbox(type)
    }

    // The scalars' own requirements, each one lookup (the protocol's defaults for them ask
    // `contains`, `decodeNil` and `decode` in turn: three).
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(String?.none, type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(Double?.none, type, key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(Bool?.none, type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(Int?.none, type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(String?.none, type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresent(Double?.none, type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(Bool?.none, type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(Int?.none, type, key) }

    @inline(__always) private func decode<T: Decodable>(_: T?, _ type: T.Type, _ key: Key) throws -> T {
        let v = try value(key)
        if case .null = v {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key],
                debugDescription: "Expected \(type) value but found null instead."))
        }
        return try scalar(type, v, codingPath + [key])!
    }

    @inline(__always) private func decodeIfPresent<T: Decodable>(_: T?, _ type: T.Type, _ key: Key) throws -> T? {
        guard let v = member(key.stringValue) else { return nil }
        if case .null = v { return nil }
        return try scalar(type, v, codingPath + [key])!
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let v = member(key.stringValue) else { return nil }
        if case .null = v { return nil }
        return try TreeDecoder(v, codingPath, key).unbox(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(try value(key), codingPath, key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(try value(key), codingPath, key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { TreeDecoder(member("super") ?? .null, codingPath + [PathKey(stringValue: "super")]) }
    func superDecoder(forKey key: Key) throws -> any Decoder { TreeDecoder(member(key.stringValue) ?? .null, codingPath, key) }
}

private struct Unkeyed: UnkeyedDecodingContainer {
    let array: [JSONValue]
    let codingPath: [CodingKey]
    var currentIndex = 0

    init(array: [JSONValue], codingPath: [CodingKey]) { self.array = array; self.codingPath = codingPath }

    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private var path: [CodingKey] { codingPath + [PathKey(intValue: currentIndex)] }

    private func next(_ type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        return array[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        if case .null = try next(Never.self) {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let v = try next(type)
        if case .null = v, type != JSONValue.self {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "Expected \(type) but found null instead."))
        }
        let out = try TreeDecoder(v, codingPath, PathKey(intValue: currentIndex)).unbox(type)
        currentIndex += 1
        return out
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let c = try TreeDecoder(try next([String: Any].self), path).container(keyedBy: type)
        currentIndex += 1
        return c
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let c = try TreeDecoder(try next([Any].self), path).unkeyedContainer()
        currentIndex += 1
        return c
    }

    mutating func superDecoder() throws -> any Decoder {
        let d = TreeDecoder(try next(Any.self), path)
        currentIndex += 1
        return d
    }
}

private struct Single: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [CodingKey]

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if case .null = value, type != JSONValue.self {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Expected \(type) but found null value instead."))
        }
        return try TreeDecoder(value, codingPath).unbox(type)
    }
}
