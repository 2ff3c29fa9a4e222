/// Why the embedded basemap could not be loaded: where (a file path or a byte offset in
/// the resource) and why.
public struct BasemapError: Error, CustomStringConvertible, Sendable, Equatable {
    private enum Base: Equatable, Sendable {
        case notFound(tried: [String])
        case unreadable(path: String, reason: String)
        case malformed(offset: Int, reason: String)
    }

    private let base: Base

    private init(_ base: Base) { self.base = base }

    static func notFound(tried: [String]) -> BasemapError { BasemapError(.notFound(tried: tried)) }
    static func unreadable(path: String, reason: String) -> BasemapError {
        BasemapError(.unreadable(path: path, reason: reason))
    }
    static func malformed(offset: Int, _ reason: String) -> BasemapError {
        BasemapError(.malformed(offset: offset, reason: reason))
    }

    /// The byte offset in the resource where decoding failed, when it is a format error.
    public var offset: Int? {
        if case .malformed(let offset, _) = base { return offset }
        return nil
    }

    /// A one-line explanation naming where and why.
    public var description: String {
        switch base {
        case .notFound(let tried):
            return "embedded basemap resource basemap.mwb not found (set MAPWRIGHT_BASEMAP to its path); tried: "
                + tried.joined(separator: ", ")
        case .unreadable(let path, let reason):
            return "cannot read embedded basemap \(path): \(reason)"
        case .malformed(let offset, let reason):
            return "malformed embedded basemap at byte \(offset): \(reason)"
        }
    }
}
