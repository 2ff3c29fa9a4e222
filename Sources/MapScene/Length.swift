/// A length on the map: on-screen logical pixels, or metres on the ground.
public enum Length: Hashable, Sendable, CustomStringConvertible {
    /// Logical pixels on the screen (constant under zoom).
    case pixels(Double)
    /// Metres on the ground (scales with zoom).
    case meters(Double)

    /// The numeric value, whatever the unit.
    public var value: Double {
        switch self {
        case .pixels(let v), .meters(let v): return v
        }
    }

    /// `4px` or `120m`.
    public var description: String {
        switch self {
        case .pixels(let v): return "\(v)px"
        case .meters(let v): return "\(v)m"
        }
    }

    /// Parses `12`, `12px`, `120m` or `1.5km`; a bare number is `defaultUnit`.
    public init(parsing text: String, defaultUnit: (Double) -> Length = { .pixels($0) }) throws(SceneError) {
        let t = text.trimmingWhitespace().lowercased()
        var number = Substring(t)
        var make = defaultUnit
        if t.hasSuffix("km") {
            number = number.dropLast(2); make = { .meters($0 * 1000) }
        } else if t.hasSuffix("px") {
            number = number.dropLast(2); make = { .pixels($0) }
        } else if t.hasSuffix("m") {
            number = number.dropLast(1); make = { .meters($0) }
        }
        guard let v = Double(String(number).trimmingWhitespace()), v.isFinite, v >= 0 else {
            throw SceneError(parameter: "length", reason: "\"\(text)\" is not a non-negative number with unit px, m or km")
        }
        self = make(v)
    }
}
