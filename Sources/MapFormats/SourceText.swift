/// The bytes of one input and its name, for turning byte offsets into `file:line:column`.
struct SourceText: Sendable {
    /// The raw bytes (UTF-8 expected).
    let bytes: [UInt8]
    /// The file name shown in errors, if any.
    let name: String?

    /// The 1-based line and column (in Unicode scalars) of a byte offset.
    /// A CR LF pair counts as one line break; offsets past the end give the end position.
    func location(of offset: Int) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        var i = 0
        while i < end {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            } else if bytes[i] == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A) {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        var column = 1
        var j = lineStart
        while j < end {
            if bytes[j] & 0xC0 != 0x80 { column += 1 }
            j += 1
        }
        return (line, column)
    }

    /// `error` placed at a byte offset in this file.
    func locate(_ error: FormatError, at offset: Int) -> FormatError {
        let (line, column) = location(of: offset)
        var e = error.at(line: line, column: column)
        e.file = name
        return e
    }

    /// `error` with this file's name but no position (for whole-file problems).
    func named(_ error: FormatError) -> FormatError {
        var e = error
        e.file = name
        return e
    }
}

/// Text of a byte span for an error message: at most 40 characters, quoted.
func quoted(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
    let stop = min(end, start + 40)
    let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
    return "'" + s + (stop < end ? "…'" : "'")
}

/// A byte as shown in an error message.
func describeByte(_ b: UInt8) -> String {
    if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
    switch b {
    case 0x20: return "a space"
    case 0x0A, 0x0D: return "a line break"
    case 0x09: return "a tab"
    default: return "byte 0x" + String(b, radix: 16)
    }
}

/// True when the start of the input looks like binary data rather than text: a NUL byte, a
/// control character other than tab/CR/LF/FF, or invalid UTF-8 within the first 4 KiB.
func looksBinary(_ bytes: [UInt8]) -> Bool {
    let n = min(bytes.count, 4096)
    var i = 0
    while i < n {
        let b = bytes[i]
        if b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D && b != 0x0C { return true }
        if b == 0x7F { return true }
        if b >= 0x80 {
            let len: Int
            if b & 0xE0 == 0xC0 && b >= 0xC2 {
                len = 2
            } else if b & 0xF0 == 0xE0 {
                len = 3
            } else if b & 0xF8 == 0xF0 && b <= 0xF4 {
                len = 4
            } else {
                return true
            }
            if i + len > bytes.count { return i + len <= n }  // cut at the sniff window: fine
            for k in 1..<len where bytes[i + k] & 0xC0 != 0x80 { return true }
            i += len
            continue
        }
        i += 1
    }
    return false
}
