/// What went wrong in Canvas2D: which parameter or Cairo call, and why.
public struct CanvasError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The parameter or operation involved (`"width"`, `"scale"`, `"cairo"` …).
    public let parameter: String
    /// Why it failed.
    public let reason: String

    /// `parameter: reason`.
    public var description: String { "\(parameter): \(reason)" }

    static func invalidArgument(_ parameter: String, _ reason: String) -> Self {
        CanvasError(parameter: parameter, reason: reason)
    }
}
