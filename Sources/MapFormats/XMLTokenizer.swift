import Foundation

/// A small streaming XML tokenizer over UTF-8 bytes, enough for GPX and fast on big files.
///
/// It checks well-formedness that matters for reading (tags balance, attributes are quoted,
/// one root element, nothing cut off) and skips the XML declaration, processing
/// instructions, comments and the DOCTYPE (its internal subset is not interpreted, so no
/// entity expansion attacks). Names keep their namespace prefix; `localName` drops it.
/// Text and attribute values are byte spans; `decode` resolves the five predefined
/// entities and character references.
struct XMLTokenizer {
    /// One step through the document.
    enum Event: Equatable {
        /// A start tag: the span of its qualified name and the offset of its `<`.
        /// Its attributes are in `attributes` until the next call.
        case start(name: Range<Int>, at: Int)
        /// An end tag (also emitted right after the start of an empty-element tag `<a/>`).
        case end(name: Range<Int>)
        /// Character data (entities not yet decoded).
        case text(Range<Int>)
        /// A CDATA section's content (taken literally).
        case cdata(Range<Int>)
        /// The end of the document.
        case eof
    }

    /// An attribute's name and value spans.
    struct Attribute {
        var name: Range<Int>
        var value: Range<Int>
    }

    let p: UnsafeBufferPointer<UInt8>
    let source: SourceText
    let maxDepth: Int
    private(set) var i = 0
    /// Attributes of the last start tag.
    private(set) var attributes: [Attribute] = []
    /// Open elements: name span and the offset of the start tag.
    private var stack: [(name: Range<Int>, at: Int)] = []
    private var pendingEnd = false
    private var sawRoot = false

    init(_ p: UnsafeBufferPointer<UInt8>, source: SourceText, maxDepth: Int) {
        self.p = p
        self.source = source
        self.maxDepth = maxDepth
        if p.count >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { i = 3 }
        attributes.reserveCapacity(8)
        stack.reserveCapacity(16)
    }

    private func fail(_ e: FormatError, _ offset: Int) -> FormatError { source.locate(e, at: offset) }

    /// The number of open elements.
    var depth: Int { stack.count }

    /// The name span without a namespace prefix.
    func localName(_ r: Range<Int>) -> Range<Int> {
        var s = r.upperBound
        while s > r.lowerBound && p[s - 1] != 0x3A { s -= 1 }
        return s..<r.upperBound
    }

    /// The qualified name as a String (for messages).
    func string(_ r: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: p[r]), as: UTF8.self)
    }

    @inline(__always) private func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
    }

    /// Offset of the first `needle` (1–3 bytes) at or after `from`, or nil.
    private func find(_ needle: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, let base = p.baseAddress else { return nil }
        var k = from
        while k < p.count {
            guard let hit = memchr(base + k, Int32(first), p.count - k) else { return nil }
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if at + needle.count > p.count { return nil }
            var ok = true
            for m in 1..<needle.count where p[at + m] != needle[m] {
                ok = false
                break
            }
            if ok { return at }
            k = at + 1
        }
        return nil
    }

    @inline(__always) private func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        var k = 0
        while k < a.count {
            if p[a.lowerBound + k] != p[b.lowerBound + k] { return false }
            k += 1
        }
        return true
    }

    private func startsWith(_ s: [UInt8], at k: Int) -> Bool {
        guard k + s.count <= p.count else { return false }
        for m in 0..<s.count where p[k + m] != s[m] { return false }
        return true
    }

    private func unclosedError() -> FormatError {
        guard let top = stack.last else { return fail(.truncated(expected: "a root element"), p.count) }
        let (line, _) = source.location(of: top.at)
        return fail(
            .truncated(expected: "</\(string(top.name))> to close <\(string(top.name))> from line \(line)"), p.count)
    }

    /// The next event.
    mutating func next() throws -> Event {
        if pendingEnd {
            pendingEnd = false
            let top = stack.removeLast()
            return .end(name: top.name)
        }
        let n = p.count
        while true {
            guard i < n else {
                if !stack.isEmpty || !sawRoot { throw unclosedError() }
                return .eof
            }
            if p[i] != 0x3C {
                let start = i
                if let base = p.baseAddress, let hit = memchr(base + i, 0x3C, n - i) {
                    i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                } else {
                    i = n
                }
                if stack.isEmpty {
                    var k = start
                    while k < i && isSpace(p[k]) { k += 1 }
                    if k < i {
                        throw fail(
                            .unexpected(
                                describeByte(p[k]), expected: sawRoot ? "nothing after the root element" : "'<'"), k)
                    }
                    continue
                }
                return .text(start..<i)
            }
            let lt = i
            guard i + 1 < n else { throw fail(.truncated(expected: "a tag after '<'"), i) }
            switch p[i + 1] {
            case 0x3F:  // <? … ?>
                guard let e = find([0x3F, 0x3E], from: i + 2) else {
                    throw fail(.truncated(expected: "'?>' to end the processing instruction"), lt)
                }
                i = e + 2
            case 0x21:  // <!
                if startsWith([0x3C, 0x21, 0x2D, 0x2D], at: i) {
                    guard let e = find([0x2D, 0x2D, 0x3E], from: i + 4) else {
                        throw fail(.truncated(expected: "'-->' to end the comment"), lt)
                    }
                    i = e + 3
                } else if startsWith(Array("<![CDATA[".utf8), at: i) {
                    guard !stack.isEmpty else { throw fail(.unexpected("CDATA", expected: "the root element"), lt) }
                    guard let e = find([0x5D, 0x5D, 0x3E], from: i + 9) else {
                        throw fail(.truncated(expected: "']]>' to end the CDATA section"), lt)
                    }
                    let r = (i + 9)..<e
                    i = e + 3
                    return .cdata(r)
                } else if startsWith(Array("<!DOCTYPE".utf8), at: i) && stack.isEmpty && !sawRoot {
                    var k = i + 9
                    var brackets = 0
                    var quote: UInt8 = 0
                    while k < n {
                        let b = p[k]
                        if quote != 0 {
                            if b == quote { quote = 0 }
                        } else if b == 0x22 || b == 0x27 {
                            quote = b
                        } else if b == 0x5B {
                            brackets += 1
                        } else if b == 0x5D {
                            brackets -= 1
                        } else if b == 0x3E && brackets <= 0 {
                            break
                        }
                        k += 1
                    }
                    guard k < n else { throw fail(.truncated(expected: "'>' to end the DOCTYPE"), lt) }
                    i = k + 1
                } else {
                    throw fail(
                        .unexpected(quoted(p, i, min(n, i + 9)), expected: "a comment, CDATA section or tag"), lt)
                }
            case 0x2F:  // </name>
                var k = i + 2
                let nameStart = k
                while k < n && !isSpace(p[k]) && p[k] != 0x3E && p[k] != 0x3C { k += 1 }
                let name = nameStart..<k
                while k < n && isSpace(p[k]) { k += 1 }
                guard k < n else { throw fail(.truncated(expected: "'>' to end the end tag"), lt) }
                guard p[k] == 0x3E, !name.isEmpty else {
                    throw fail(.unexpected(describeByte(p[k]), expected: "'>' to end the end tag"), k)
                }
                guard let top = stack.last else {
                    throw fail(.unexpected("</\(string(name))>", expected: "no end tag (no element is open)"), lt)
                }
                guard sameBytes(top.name, name) else {
                    let (line, _) = source.location(of: top.at)
                    throw fail(
                        .unexpected(
                            "</\(string(name))>",
                            expected: "</\(string(top.name))> to close <\(string(top.name))> from line \(line)"), lt)
                }
                stack.removeLast()
                i = k + 1
                return .end(name: name)
            default:
                return try startTag(lt)
            }
        }
    }

    private mutating func startTag(_ lt: Int) throws -> Event {
        let n = p.count
        var k = lt + 1
        let nameStart = k
        while k < n {
            let b = p[k]
            if isSpace(b) || b == 0x3E || b == 0x2F || b == 0x3D || b == 0x22 || b == 0x27 || b == 0x3C { break }
            k += 1
        }
        let name = nameStart..<k
        guard !name.isEmpty else {
            guard k < n else { throw fail(.truncated(expected: "an element name after '<'"), lt) }
            throw fail(.unexpected(describeByte(p[k]), expected: "an element name after '<'"), k)
        }
        if stack.isEmpty && sawRoot {
            throw fail(.unexpected("<\(string(name))>", expected: "nothing after the root element"), lt)
        }
        attributes.removeAll(keepingCapacity: true)
        var selfClosing = false
        while true {
            while k < n && isSpace(p[k]) { k += 1 }
            guard k < n else { throw fail(.truncated(expected: "'>' to end the <\(string(name))> tag"), lt) }
            let b = p[k]
            if b == 0x3E {
                k += 1
                break
            }
            if b == 0x2F {
                guard k + 1 < n else { throw fail(.truncated(expected: "'>' to end the <\(string(name))> tag"), lt) }
                guard p[k + 1] == 0x3E else {
                    throw fail(.unexpected(describeByte(p[k + 1]), expected: "'>' after '/'"), k + 1)
                }
                k += 2
                selfClosing = true
                break
            }
            let attrStart = k
            while k < n {
                let c = p[k]
                if isSpace(c) || c == 0x3D || c == 0x3E || c == 0x2F || c == 0x22 || c == 0x27 || c == 0x3C { break }
                k += 1
            }
            let attrName = attrStart..<k
            guard !attrName.isEmpty else {
                throw fail(
                    .unexpected(describeByte(b), expected: "an attribute name, '>' or '/>' in <\(string(name))>"), k)
            }
            while k < n && isSpace(p[k]) { k += 1 }
            guard k < n else { throw fail(.truncated(expected: "'>' to end the <\(string(name))> tag"), lt) }
            guard p[k] == 0x3D else {
                throw fail(.unexpected(describeByte(p[k]), expected: "'=' after the attribute \(string(attrName))"), k)
            }
            k += 1
            while k < n && isSpace(p[k]) { k += 1 }
            guard k < n else { throw fail(.truncated(expected: "'>' to end the <\(string(name))> tag"), lt) }
            let quote = p[k]
            guard quote == 0x22 || quote == 0x27 else {
                throw fail(
                    .unexpected(describeByte(quote), expected: "a quoted value for the attribute \(string(attrName))"),
                    k)
            }
            k += 1
            let valueStart = k
            while k < n && p[k] != quote {
                if p[k] == 0x3C {
                    throw fail(
                        .unexpected("'<'", expected: "the closing quote of the attribute \(string(attrName))"), k)
                }
                k += 1
            }
            guard k < n else {
                throw fail(
                    .truncated(expected: "the closing quote of the attribute \(string(attrName))"), valueStart - 1)
            }
            attributes.append(Attribute(name: attrName, value: valueStart..<k))
            k += 1
            if k < n && !isSpace(p[k]) && p[k] != 0x3E && p[k] != 0x2F {
                throw fail(.unexpected(describeByte(p[k]), expected: "a space between attributes"), k)
            }
        }
        guard stack.count < maxDepth else { throw fail(.tooDeep(limit: maxDepth), lt) }
        stack.append((name, lt))
        sawRoot = true
        pendingEnd = selfClosing
        i = k
        return .start(name: name, at: lt)
    }

    /// Appends the span's text to `out`, resolving `&lt;` `&gt;` `&amp;` `&quot;` `&apos;`
    /// and `&#N;`/`&#xH;`; throws for anything else after `&`.
    func decode(_ r: Range<Int>, into out: inout [UInt8]) throws {
        var k = r.lowerBound
        // Fast path: no '&' at all, copy the span in one go.
        if let base = p.baseAddress, memchr(base + r.lowerBound, 0x26, r.count) == nil {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[r]))
            return
        }
        while k < r.upperBound {
            let b = p[k]
            if b != 0x26 {
                out.append(b)
                k += 1
                continue
            }
            var e = k + 1
            while e < r.upperBound && p[e] != 0x3B && e - k < 12 { e += 1 }
            guard e < r.upperBound && p[e] == 0x3B else {
                throw fail(
                    .unexpected(
                        quoted(p, k, min(r.upperBound, k + 12)), expected: "an entity like &amp; ending in ';'"), k)
            }
            let name = Array(p[(k + 1)..<e])
            switch String(decoding: name, as: UTF8.self) {
            case "lt": out.append(0x3C)
            case "gt": out.append(0x3E)
            case "amp": out.append(0x26)
            case "quot": out.append(0x22)
            case "apos": out.append(0x27)
            default:
                var value: UInt32?
                if name.first == 0x23 {
                    let digits = name.dropFirst()
                    if digits.first == 0x78 || digits.first == 0x58 {
                        value = UInt32(String(decoding: digits.dropFirst(), as: UTF8.self), radix: 16)
                    } else {
                        value = UInt32(String(decoding: digits, as: UTF8.self), radix: 10)
                    }
                }
                guard let v = value, v != 0, let scalar = Unicode.Scalar(v) else {
                    throw fail(
                        .unexpected(
                            quoted(p, k, e + 1), expected: "a known entity (&lt; &gt; &amp; &quot; &apos; &#N;)"), k)
                }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            k = e + 1
        }
    }
}
