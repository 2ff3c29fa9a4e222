import MapFormats

/// An sRGB colour with straight (not premultiplied) alpha, 8 bits per channel.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0…255.
    public var r: UInt8
    /// Green, 0…255.
    public var g: UInt8
    /// Blue, 0…255.
    public var b: UInt8
    /// Alpha (opacity), 0 = transparent, 255 = opaque.
    public var a: UInt8

    /// Creates a colour from 8-bit channels.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// Whether the colour is seen through: neither transparent nor opaque (0 < alpha < 255).
    public var isTranslucent: Bool { a > 0 && a < 255 }

    /// Creates an opaque colour from a 24-bit `0xRRGGBB` value.
    public init(rgb: UInt32, alpha: UInt8 = 255) {
        self.init(r: UInt8((rgb >> 16) & 0xFF), g: UInt8((rgb >> 8) & 0xFF), b: UInt8(rgb & 0xFF), a: alpha)
    }

    /// Parses `RRGGBB` or `RRGGBBAA` (hex, a leading `#` allowed) or one of the names in
    /// `Color.names` (case-insensitive). Throws `ColorError` naming the input and why.
    public init(parsing text: String) throws(ColorError) {
        if let value = Self.asciiHex(text) {
            self = value
            return
        }
        let trimmed = text.trimmingWhitespace()
        if let named = Color.names[trimmed.lowercased()] {
            self = named
            return
        }
        var hex = Substring(trimmed)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard !hex.isEmpty else { throw ColorError(input: text, reason: "empty colour") }
        guard hex.count == 6 || hex.count == 8 else {
            throw ColorError(input: text, reason: "expected RRGGBB or RRGGBBAA hex digits (or a colour name: "
                + Color.names.keys.sorted().joined(separator: ", ") + ")")
        }
        var value: UInt32 = 0
        for ch in hex {
            guard let d = ch.hexDigitValue else {
                throw ColorError(input: text, reason: "'\(ch)' is not a hex digit")
            }
            value = value << 4 | UInt32(d)
        }
        if hex.count == 6 {
            self.init(rgb: value)
        } else {
            self.init(rgb: value >> 8, alpha: UInt8(value & 0xFF))
        }
    }

    /// The common case of `init(parsing:)`, from `HexDigits.ascii`: ASCII whitespace round
    /// `RRGGBB` or `RRGGBBAA` (a leading `#` allowed). Nil for anything else (names, other
    /// whitespace, errors), which the general path reads (grapheme-aware trimming, the
    /// lower-cased name looked up first: 9 % of a cold render of 22 500 GeoJSON polygons).
    static func asciiHex(_ text: String) -> Color? {
        guard let digits = HexDigits.ascii(text), digits.count == 6 || digits.count == 8 else { return nil }
        let value = digits.reduce(UInt32(0)) { $0 << 4 | UInt32($1) }
        return digits.count == 6 ? Color(rgb: value) : Color(rgb: value >> 8, alpha: UInt8(value & 0xFF))
    }

    /// The colour with its alpha multiplied by `opacity` (clamped to 0…1).
    public func withOpacity(_ opacity: Double) -> Color {
        let o = opacity.isFinite ? min(max(opacity, 0), 1) : 1
        return Color(r: r, g: g, b: b, a: UInt8((Double(a) * o).rounded()))
    }

    /// Premultiplied RGBA in 0…1, the form the renderer blends.
    public var premultiplied: (Float, Float, Float, Float) {
        let alpha = Float(a) / 255
        return (Float(r) / 255 * alpha, Float(g) / 255 * alpha, Float(b) / 255 * alpha, alpha)
    }

    /// `#RRGGBBAA`.
    public var description: String {
        func h(_ v: UInt8) -> String {
            let s = String(v, radix: 16, uppercase: false)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + h(r) + h(g) + h(b) + h(a)
    }

    /// Fully transparent black.
    public static let transparent = Color(r: 0, g: 0, b: 0, a: 0)
    /// Opaque white.
    public static let white = Color(rgb: 0xFFFFFF)
    /// Opaque black.
    public static let black = Color(rgb: 0x000000)

    /// Colour names accepted by `init(parsing:)`.
    public static let names: [String: Color] = [
        "black": .black, "white": .white, "transparent": .transparent,
        "red": Color(rgb: 0xFF0000), "green": Color(rgb: 0x008000), "blue": Color(rgb: 0x0000FF),
        "yellow": Color(rgb: 0xFFFF00), "orange": Color(rgb: 0xFFA500), "purple": Color(rgb: 0x800080),
        "gray": Color(rgb: 0x808080), "grey": Color(rgb: 0x808080),
    ]
}

/// A colour string that could not be parsed.
public struct ColorError: Error, CustomStringConvertible, Equatable {
    /// The text as given.
    public let input: String
    /// Why it was rejected.
    public let reason: String

    /// `unknown colour "…": why`.
    public var description: String { "unknown colour \"\(input)\": \(reason)" }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
