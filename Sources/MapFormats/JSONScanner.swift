import Foundation

/// A hand-written JSON (RFC 8259) scanner over UTF-8 bytes that reports errors with line,
/// column and the JSON path of the value being read (`features[3].geometry`).
///
/// Callers walk the document: `beginObject` / `nextKey`, `beginArray` / `nextElement`,
/// `readString`, `readNumber`, `readValue` (any value into a `JSONValue`). Nesting deeper
/// than `maxDepth` is an error, so hostile input cannot exhaust the stack.
struct JSONScanner {
    /// One step of a JSON path.
    enum PathComponent: Equatable {
        case key(String)
        case index(Int)
    }

    let p: UnsafeBufferPointer<UInt8>
    let source: SourceText
    let maxDepth: Int
    var i = 0
    var depth = 0
    /// The path to the value being read; callers push and pop around members and elements.
    var path: [PathComponent] = []

    init(_ p: UnsafeBufferPointer<UInt8>, source: SourceText, maxDepth: Int) {
        self.p = p
        self.source = source
        self.maxDepth = maxDepth
        if p.count >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { i = 3 }
    }

    /// A path as text: `features[3].geometry.coordinates[12]`.
    static func pathString(_ path: [PathComponent]) -> String {
        var s = ""
        for c in path {
            switch c {
            case .key(let k):
                if !s.isEmpty { s += "." }
                s += k
            case .index(let n):
                s += "[\(n)]"
            }
        }
        return s
    }

    /// `error` at a byte offset, with the current path.
    func fail(_ error: FormatError, _ offset: Int) -> FormatError {
        fail(error, offset, path: path)
    }

    /// `error` at a byte offset, with a given path.
    func fail(_ error: FormatError, _ offset: Int, path: [PathComponent]) -> FormatError {
        let e = source.locate(error, at: offset)
        return path.isEmpty ? e : e.at(path: Self.pathString(path))
    }

    @inline(__always) mutating func skipWhitespace() {
        while i < p.count {
            let b = p[i]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { return }
        }
    }

    /// The next non-blank byte (not consumed), nil at the end.
    @inline(__always) mutating func peek() -> UInt8? {
        skipWhitespace()
        return i < p.count ? p[i] : nil
    }

    /// What the value starting at `i` is, for "expected X, found Y" messages.
    func foundDescription() -> String {
        guard i < p.count else { return "the end of the file" }
        switch p[i] {
        case 0x7B: return "an object"
        case 0x5B: return "an array"
        case 0x22: return "a string"
        case 0x74 where startsWithWord("true"), 0x66 where startsWithWord("false"): return "a boolean"
        case 0x6E where startsWithWord("null"): return "null"
        case 0x30...0x39: return "a number"
        case 0x2D where i + 1 < p.count && p[i + 1] &- 0x30 < 10: return "a number"
        default:
            let word = wordBytes()
            guard word.count > (p[i] == 0x2D ? 1 : 0) else { return describeByte(p[i]) }
            let text = String(decoding: word, as: UTF8.self)
            let lower = text.lowercased()
            if lower.hasSuffix("nan") || lower.hasSuffix("infinity") || lower.hasSuffix("inf") {
                return "'\(text)' (JSON has no NaN or Infinity)"
            }
            return "'\(text)'"
        }
    }

    private func wordBytes() -> [UInt8] {
        var k = i
        if k < p.count && p[k] == 0x2D { k += 1 }
        while k < p.count && k - i < 12 && (p[k] | 0x20) >= 0x61 && (p[k] | 0x20) <= 0x7A { k += 1 }
        return Array(p[i..<k])
    }

    private func startsWithWord(_ w: String) -> Bool {
        let bytes = Array(w.utf8)
        guard i + bytes.count <= p.count else { return false }
        for (k, b) in bytes.enumerated() where p[i + k] != b { return false }
        return true
    }

    /// A "expected X, found Y" error at the current value (truncation when at the end).
    func unexpected(_ expected: String) -> FormatError {
        if i >= p.count { return fail(.truncated(expected: expected), i) }
        return fail(.unexpected(foundDescription(), expected: expected), i)
    }

    // MARK: objects and arrays

    /// Consumes `{`.
    mutating func beginObject(_ what: String = "an object") throws {
        guard peek() == 0x7B else { throw unexpected(what) }
        depth += 1
        guard depth <= maxDepth else { throw fail(.tooDeep(limit: maxDepth), i) }
        i += 1
    }

    /// The next member's key (the `:` consumed), or nil after the closing `}`.
    /// `first` must start true for each object.
    mutating func nextKey(_ first: inout Bool) throws -> String? {
        let b = peek()
        if b == 0x7D {
            i += 1
            depth -= 1
            return nil
        }
        if !first {
            guard b == 0x2C else { throw unexpected("',' or '}' in an object") }
            i += 1
            guard peek() == 0x22 else { throw unexpected("a member name in double quotes") }
        } else if b != 0x22 {
            throw unexpected("a member name in double quotes or '}'")
        }
        first = false
        let key = try readString()
        guard peek() == 0x3A else { throw unexpected("':' after the member name") }
        i += 1
        return key
    }

    /// Consumes `[`.
    mutating func beginArray(_ what: String = "an array") throws {
        guard peek() == 0x5B else { throw unexpected(what) }
        depth += 1
        guard depth <= maxDepth else { throw fail(.tooDeep(limit: maxDepth), i) }
        i += 1
    }

    /// True when another element follows (the `,` consumed); false after the closing `]`.
    mutating func nextElement(_ first: inout Bool) throws -> Bool {
        let b = peek()
        if b == 0x5D {
            i += 1
            depth -= 1
            return false
        }
        if !first {
            guard b == 0x2C else { throw unexpected("',' or ']' in an array") }
            i += 1
            guard let c = peek(), c != 0x5D else { throw unexpected("a value after ','") }
        } else if b == nil {
            throw unexpected("a value or ']'")
        }
        first = false
        return true
    }

    // MARK: scalars

    /// Reads a string value (escapes resolved).
    mutating func readString() throws -> String {
        guard peek() == 0x22 else { throw unexpected("a string") }
        let open = i
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < p.count {
            let b = p[i]
            if b == 0x22 {
                let s = String(decoding: UnsafeBufferPointer(rebasing: p[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if b == 0x5C { break }
            if b < 0x20 {
                throw fail(
                    .unexpected(describeByte(b), expected: "a closing '\"' (control characters must be escaped)"), i)
            }
            i += 1
        }
        var out = Array(p[start..<min(i, p.count)])
        while true {
            guard i < p.count else { throw fail(.truncated(expected: "the closing '\"' of the string"), open) }
            let b = p[i]
            if b == 0x22 {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 {
                throw fail(
                    .unexpected(describeByte(b), expected: "a closing '\"' (control characters must be escaped)"), i)
            }
            if b != 0x5C {
                out.append(b)
                i += 1
                continue
            }
            guard i + 1 < p.count else { throw fail(.truncated(expected: "an escape after '\\'"), i) }
            let e = p[i + 1]
            i += 2
            switch e {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x2F: out.append(0x2F)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                var code = try hex4()
                if code >= 0xD800 && code < 0xDC00 {
                    if i + 1 < p.count && p[i] == 0x5C && p[i + 1] == 0x75 {
                        i += 2
                        let low = try hex4()
                        if low >= 0xDC00 && low < 0xE000 {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            code = 0xFFFD
                        }
                    } else {
                        code = 0xFFFD
                    }
                } else if code >= 0xDC00 && code < 0xE000 {
                    code = 0xFFFD
                }
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw fail(
                    .unexpected(describeByte(e), expected: "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"),
                    i - 1)
            }
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= p.count else { throw fail(.truncated(expected: "four hex digits after \\u"), i) }
        var v: UInt32 = 0
        for k in 0..<4 {
            let b = p[i + k]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw fail(.unexpected(describeByte(b), expected: "a hex digit"), i + k)
            }
            v = v * 16 + d
        }
        i += 4
        return v
    }

    /// Reads a number (strict JSON grammar); throws for NaN/Infinity words and for numbers
    /// too large for a Double. `what` names the value in messages ("a number", "a latitude").
    @inline(__always) mutating func readNumber(_ what: String = "a number") throws -> Double {
        skipWhitespace()
        let start = i
        var k = i
        let n = p.count
        if k < n && p[k] == 0x2D { k += 1 }
        guard k < n, p[k] &- 0x30 < 10 else { throw unexpected(what) }
        if p[k] == 0x30 {
            k += 1
            if k < n && p[k] &- 0x30 < 10 {
                throw fail(
                    .unexpected("a leading zero", expected: "\(what) (JSON numbers have no leading zeros)"), start)
            }
        } else {
            while k < n && p[k] &- 0x30 < 10 { k += 1 }
        }
        if k < n && p[k] == 0x2E {
            k += 1
            guard k < n, p[k] &- 0x30 < 10 else {
                throw k < n
                    ? fail(.unexpected(describeByte(p[k]), expected: "a digit after '.'"), k)
                    : fail(.truncated(expected: "a digit after '.'"), k)
            }
            while k < n && p[k] &- 0x30 < 10 { k += 1 }
        }
        if k < n && (p[k] | 0x20) == 0x65 {
            k += 1
            if k < n && (p[k] == 0x2B || p[k] == 0x2D) { k += 1 }
            guard k < n, p[k] &- 0x30 < 10 else {
                throw k < n
                    ? fail(.unexpected(describeByte(p[k]), expected: "a digit in the exponent"), k)
                    : fail(.truncated(expected: "a digit in the exponent"), k)
            }
            while k < n && p[k] &- 0x30 < 10 { k += 1 }
        }
        guard let v = DecimalNumber.parse(p, start, k, allowPlus: false) else {
            throw fail(.unexpected(quoted(p, start, k), expected: what), start)
        }
        guard v.isFinite else {
            throw fail(.notFinite("\(quoted(p, start, k)) (too large for a double)"), start)
        }
        i = k
        return v
    }

    /// Reads any value into a `JSONValue`.
    mutating func readValue() throws -> JSONValue {
        guard let b = peek() else { throw unexpected("a value") }
        switch b {
        case 0x7B:
            try beginObject()
            var object: [String: JSONValue] = [:]
            var first = true
            // Room for 8 members at once: growing from none rehashes at 1, 2, 4 and 8.
            if peek() != 0x7D { object.reserveCapacity(8) }
            while let key = try nextKey(&first) {
                path.append(.key(key))
                object[key] = try readValue()
                path.removeLast()
            }
            return .object(object)
        case 0x5B:
            try beginArray()
            var array: [JSONValue] = []
            var first = true
            while try nextElement(&first) {
                path.append(.index(array.count))
                array.append(try readValue())
                path.removeLast()
            }
            return .array(array)
        case 0x22:
            return .string(try readString())
        case 0x74 where startsWithWord("true"):
            i += 4
            return .bool(true)
        case 0x66 where startsWithWord("false"):
            i += 5
            return .bool(false)
        case 0x6E where startsWithWord("null"):
            i += 4
            return .null
        case 0x2D, 0x30...0x39:
            return .number(try readNumber())
        default:
            throw unexpected("a value")
        }
    }

    /// Reads `null` when it is next; false (nothing consumed) otherwise.
    mutating func readNull() -> Bool {
        guard peek() == 0x6E, startsWithWord("null") else { return false }
        i += 4
        return true
    }

    /// Throws unless only white space is left.
    mutating func expectEnd() throws {
        guard peek() == nil else {
            throw fail(.unexpected(foundDescription(), expected: "the end of the file"), i, path: [])
        }
    }
}
