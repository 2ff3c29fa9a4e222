/// Why a track file could not be read, and where: the file, the 1-based line and column
/// (columns count Unicode scalars), and for JSON the path to the offending value
/// (`features[3].geometry.coordinates[12]`).
///
/// `description` reads `file:line:column: path: message`, leaving out what is unknown.
public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file name as given to the reader, if any.
    public internal(set) var file: String?
    /// 1-based line of the problem, when it has one.
    public internal(set) var line: Int?
    /// 1-based column (in Unicode scalars) of the problem, when it has one.
    public internal(set) var column: Int?
    /// For JSON input: the path to the offending value, e.g. `features[3].geometry`.
    public internal(set) var path: String?
    private let reason: Reason

    private enum Reason: Sendable, Equatable {
        case noPoints(String)
        case truncated(expected: String)
        case unexpected(found: String, expected: String)
        case notFinite(String)
        case latitudeOutOfRange(Double)
        case invalid(String)
        case tooLarge(bytes: Int, limit: Int)
        case tooManyPoints(limit: Int)
        case tooDeep(limit: Int)
        case binary
        case unreadable(String)
    }

    private init(_ reason: Reason) {
        self.reason = reason
    }

    /// The file has no points at all.
    static func noPoints(_ what: String = "the file has no points") -> FormatError { FormatError(.noPoints(what)) }
    /// The input ends where `expected` should follow.
    static func truncated(expected: String) -> FormatError { FormatError(.truncated(expected: expected)) }
    /// Something else than `expected` was found.
    static func unexpected(_ found: String, expected: String) -> FormatError {
        FormatError(.unexpected(found: found, expected: expected))
    }
    /// A value that must be a finite number is NaN or infinite (`what` names it).
    static func notFinite(_ what: String) -> FormatError { FormatError(.notFinite(what)) }
    /// A latitude outside [-90, 90].
    static func latitudeOutOfRange(_ lat: Double) -> FormatError { FormatError(.latitudeOutOfRange(lat)) }
    /// Any other content problem, in words.
    static func invalid(_ why: String) -> FormatError { FormatError(.invalid(why)) }
    static func tooLarge(bytes: Int, limit: Int) -> FormatError { FormatError(.tooLarge(bytes: bytes, limit: limit)) }
    static func tooManyPoints(limit: Int) -> FormatError { FormatError(.tooManyPoints(limit: limit)) }
    static func tooDeep(limit: Int) -> FormatError { FormatError(.tooDeep(limit: limit)) }
    static func binary() -> FormatError { FormatError(.binary) }
    static func unreadable(_ why: String) -> FormatError { FormatError(.unreadable(why)) }

    /// The same error placed at a line and column.
    func at(line: Int, column: Int) -> FormatError {
        var e = self
        e.line = line
        e.column = column
        return e
    }

    /// The same error with a JSON path.
    func at(path: String) -> FormatError {
        var e = self
        e.path = path
        return e
    }

    /// True when the problem is that the input holds no points.
    public var isNoPoints: Bool {
        if case .noPoints = reason { return true }
        return false
    }

    /// What went wrong, without the location.
    public var message: String {
        switch reason {
        case .noPoints(let what): return "no points: \(what)"
        case .truncated(let expected): return "unexpected end of file, expected \(expected)"
        case .unexpected(let found, let expected): return "expected \(expected), found \(found)"
        case .notFinite(let what): return "\(what) is not a finite number"
        case .latitudeOutOfRange(let lat): return "latitude \(shortNumber(lat)) is outside [-90, 90]"
        case .invalid(let why): return why
        case .tooLarge(let bytes, let limit): return "file is \(bytes) bytes, more than the limit of \(limit)"
        case .tooManyPoints(let limit): return "more than \(limit) points (the limit)"
        case .tooDeep(let limit): return "nesting deeper than \(limit) levels"
        case .binary: return "binary data, not a text track file"
        case .unreadable(let why): return "cannot read: \(why)"
        }
    }

    /// `file:line:column: path: message`, leaving out what is unknown.
    public var description: String {
        var prefix = ""
        if let file { prefix += file + ":" }
        if let line {
            prefix += "\(line):"
            if let column { prefix += "\(column):" }
        }
        if !prefix.isEmpty { prefix += " " }
        if let path, !path.isEmpty { prefix += Self.shortened(path) + ": " }
        return prefix + message
    }

    /// A JSON path with long runs of one step written once with a count
    /// (`a[0][0]…[0]` → `a[0]×256`), so an error about deep nesting stays one readable line.
    static func shortened(_ path: String) -> String {
        guard path.count > 120 else { return path }
        var out = ""
        var rest = Substring(path)
        while !rest.isEmpty {
            // The next step: `[…]`, `.name` or a leading name.
            var end = rest.index(after: rest.startIndex)
            if rest.first == "[" {
                end = rest.firstIndex(of: "]").map { rest.index(after: $0) } ?? rest.endIndex
            } else {
                while end < rest.endIndex, rest[end] != ".", rest[end] != "[" { end = rest.index(after: end) }
            }
            let step = rest[rest.startIndex ..< end]
            var count = 1
            rest = rest[end...]
            while rest.hasPrefix(step) { rest = rest.dropFirst(step.count); count += 1 }
            out += step
            if count > 1 { out += count > 3 ? "×\(count)" : String(repeating: String(step), count: count - 1) }
        }
        return out
    }
}

/// A number as Swift prints it, without a trailing `.0` for integers.
func shortNumber(_ x: Double) -> String {
    if x.isFinite && x == x.rounded() && abs(x) < 1e15 { return String(Int64(x)) }
    return "\(x)"
}
