import Testing
@testable import MapScene

@Suite struct ColorTests {
    // Expected channels are the hex digits read by hand (0x1f = 31, 0x6f = 111, 0xeb = 235).
    @Test(arguments: [
        ("1f6feb", Color(r: 31, g: 111, b: 235, a: 255)),
        ("#1f6feb", Color(r: 31, g: 111, b: 235, a: 255)),
        ("#FF000040", Color(r: 255, g: 0, b: 0, a: 64)),
        ("  00ff0080 ", Color(r: 0, g: 255, b: 0, a: 128)),
        ("red", Color(r: 255, g: 0, b: 0, a: 255)),
        ("White", Color(r: 255, g: 255, b: 255, a: 255)),
        ("transparent", Color(r: 0, g: 0, b: 0, a: 0)),
        // ASCII whitespace of every kind round the digits (read from the bytes), and a no-break
        // space (U+00A0, whitespace but not ASCII: read by the general path).
        ("\t#1F6feb\r\n\u{0B}\u{0C} ", Color(r: 31, g: 111, b: 235, a: 255)),
        ("\u{00A0}#1f6feb80", Color(r: 31, g: 111, b: 235, a: 128)),
        // Full-width digits are hex digits to `Character.hexDigitValue` (the general path).
        ("\u{FF11}\u{FF10}0000", Color(r: 16, g: 0, b: 0, a: 255)),
    ])
    func parses(_ text: String, _ expected: Color) throws {
        #expect(try Color(parsing: text) == expected)
    }

    @Test(arguments: ["", "#", "12345", "1234567", "gg0000", "#12345678a", "chartreuse", "ff 000", "##ff0000",
                      "ff000\u{0301}0"])
    func rejectsWithReason(_ text: String) {
        #expect(throws: ColorError.self) { try Color(parsing: text) }
        do {
            _ = try Color(parsing: text)
        } catch {
            #expect(error.description.contains("unknown colour"))
            #expect(error.input == text)
        }
    }

    /// The bytes' reading takes only ASCII hex with ASCII whitespace, and leaves names, other
    /// whitespace and anything it cannot read to the general path.
    @Test func theBytesReadOnlyAsciiHex() {
        #expect(Color.asciiHex(" #0a0B0c ") == Color(r: 10, g: 11, b: 12, a: 255))
        #expect(Color.asciiHex("0a0b0cff") == Color(r: 10, g: 11, b: 12, a: 255))
        for text in ["red", "White", "\u{00A0}0a0b0c", "0a0b0c\u{2003}", "0a0b0", "0a 0b0c", "#", "", "\u{FF10}a0b0c"] {
            #expect(Color.asciiHex(text) == nil, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func premultipliedHalvesChannels() {
        // 0x80 = 128 → alpha 128/255; red 255 premultiplied = alpha.
        let c = Color(r: 255, g: 0, b: 0, a: 128).premultiplied
        #expect(abs(c.0 - 128.0 / 255) < 1e-6)
        #expect(c.1 == 0 && c.3 == c.0)
    }

    @Test func descriptionRoundTrips() throws {
        let c = Color(r: 1, g: 171, b: 205, a: 239)
        #expect(c.description == "#01abcdef")
        #expect(try Color(parsing: c.description) == c)
    }

    /// Translucent: seen through, neither transparent (alpha 0) nor opaque (255).
    @Test func translucentIsStrictlyBetweenTransparentAndOpaque() {
        #expect([0, 1, 128, 254, 255].map { Color(r: 9, g: 9, b: 9, a: $0).isTranslucent } == [false, true, true, true, false])
    }
}
