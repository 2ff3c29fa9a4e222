/// Hex colour digits read straight from a string's bytes: the common case of the colour
/// parsers (`SimpleStyle`'s, and `Color(parsing:)` in MapScene), which otherwise trim by
/// grapheme and read `Character`s — a GeoJSON file gives a colour or two per feature.
package enum HexDigits {
    /// The values (0…15) of `text`'s digits when it is ASCII only: ASCII whitespace (space,
    /// tab, line feed, vertical tab, form feed, carriage return: those `Character.isWhitespace`
    /// holds) round at most one leading `#` and hex digits of either case. Nil for anything else
    /// (a name, other whitespace, a character that is not a hex digit), which the caller's
    /// general path reads.
    package static func ascii(_ text: String) -> [UInt8]? {
        var copy = text
        return copy.withUTF8 { bytes -> [UInt8]? in
            var lo = 0, hi = bytes.count
            func space(_ b: UInt8) -> Bool { b == 0x20 || (0x09 ... 0x0D).contains(b) }
            while lo < hi, space(bytes[lo]) { lo += 1 }
            while hi > lo, space(bytes[hi - 1]) { hi -= 1 }
            if lo < hi, bytes[lo] == UInt8(ascii: "#") { lo += 1 }
            var digits: [UInt8] = []
            digits.reserveCapacity(hi - lo)
            for b in bytes[lo ..< hi] {
                switch b {
                case 0x30 ... 0x39: digits.append(b - 0x30)
                case 0x41 ... 0x46: digits.append(b - 0x41 + 10)
                case 0x61 ... 0x66: digits.append(b - 0x61 + 10)
                default: return nil
                }
            }
            return digits
        }
    }
}
