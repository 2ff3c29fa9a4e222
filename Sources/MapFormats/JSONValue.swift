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
