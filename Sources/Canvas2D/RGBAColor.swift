/// A colour in sRGB with straight (non-premultiplied) alpha, each channel 0…1.
///
/// Canvas2D's own colour type, so the module stays independent of the scene model.
public struct RGBAColor: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0…1.
    public var red: Double
    /// Green, 0…1.
    public var green: Double
    /// Blue, 0…1.
    public var blue: Double
    /// Alpha (opacity), 0 = transparent … 1 = opaque.
    public var alpha: Double

    /// Creates a colour from channels in 0…1; values outside are clamped and NaN becomes 0.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Self.clamp(red)
        self.green = Self.clamp(green)
        self.blue = Self.clamp(blue)
        self.alpha = Self.clamp(alpha)
    }

    /// Creates a colour from 8-bit channels (0…255).
    public init(r8: UInt8, g8: UInt8, b8: UInt8, a8: UInt8 = 255) {
        self.init(red: Double(r8) / 255, green: Double(g8) / 255, blue: Double(b8) / 255, alpha: Double(a8) / 255)
    }

    /// Parses `RRGGBB` or `RRGGBBAA` hexadecimal, with or without a leading `#`.
    /// Throws ``CanvasError`` naming the text when it is anything else.
    public init(hex: String) throws(CanvasError) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
            let value = UInt32(digits, radix: 16)
        else {
            throw .invalidArgument("colour", "\"\(hex)\" is not RRGGBB or RRGGBBAA hexadecimal")
        }
        let rgba = digits.count == 6 ? (value << 8) | 0xFF : value
        self.init(
            r8: UInt8(rgba >> 24), g8: UInt8((rgba >> 16) & 0xFF), b8: UInt8((rgba >> 8) & 0xFF),
            a8: UInt8(rgba & 0xFF))
    }

    /// The same colour with another alpha (0…1).
    public func withAlpha(_ alpha: Double) -> RGBAColor {
        RGBAColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Opaque white.
    public static let white = RGBAColor(red: 1, green: 1, blue: 1)
    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Fully transparent.
    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// `#RRGGBBAA`.
    public var description: String {
        func hex2(_ v: Double) -> String {
            let s = String(Int((v * 255).rounded()), radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + hex2(red) + hex2(green) + hex2(blue) + hex2(alpha)
    }

    private static func clamp(_ v: Double) -> Double {
        v.isNaN ? 0 : min(1, max(0, v))
    }
}
