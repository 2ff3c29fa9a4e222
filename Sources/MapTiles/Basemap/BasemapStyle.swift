import Foundation

/// An sRGB colour with straight alpha, each channel in 0…1.
public struct BasemapColor: Hashable, Sendable {
    /// Red, 0…1.
    public var r: Double
    /// Green, 0…1.
    public var g: Double
    /// Blue, 0…1.
    public var b: Double
    /// Alpha (opacity), 0 = transparent, 1 = opaque.
    public var a: Double

    /// Creates a colour from channels in 0…1.
    public init(r: Double, g: Double, b: Double, a: Double = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Creates a colour from a 24-bit `0xRRGGBB` value and an alpha in 0…1.
    public init(rgb: UInt32, alpha: Double = 1) {
        self.init(
            r: Double((rgb >> 16) & 0xFF) / 255, g: Double((rgb >> 8) & 0xFF) / 255,
            b: Double(rgb & 0xFF) / 255, a: alpha)
    }

    /// This colour moved a share `t` (0…1) of the way to `other`, channel by channel.
    public func mixed(with other: BasemapColor, _ t: Double) -> BasemapColor {
        BasemapColor(r: r + (other.r - r) * t, g: g + (other.g - g) * t, b: b + (other.b - b) * t, a: a + (other.a - a) * t)
    }

    /// WCAG 2.x relative luminance of the opaque colour (0 black … 1 white).
    public var relativeLuminance: Double {
        func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }

    /// WCAG 2.x contrast ratio between two opaque colours, 1…21.
    public func contrastRatio(to other: BasemapColor) -> Double {
        let l1 = relativeLuminance, l2 = other.relativeLuminance
        return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
    }
}

/// How to draw the embedded basemap: colours, line widths and label sizes, in a light and
/// a dark variant. Widths and sizes are logical pixels (multiply by the output scale).
public struct BasemapStyle: Hashable, Sendable {
    /// The style's name ("light" or "dark" for the built-in ones).
    public var name: String
    /// Clear colour: everything that is not land.
    public var ocean: BasemapColor
    /// Land fill.
    public var land: BasemapColor
    /// Lake fill, drawn over land.
    public var lake: BasemapColor
    /// Coastline and lake-shore stroke.
    public var coastline: BasemapColor
    /// Country border stroke.
    public var border: BasemapColor
    /// Place label text.
    public var labelText: BasemapColor
    /// Halo drawn around label glyphs so they read over any background.
    public var labelHalo: BasemapColor
    /// The dot drawn at a place (national capitals get a ring of `labelHalo` around it).
    public var placeDot: BasemapColor
    /// Coastline width, px.
    public var coastlineWidth: Double
    /// Country border width at zoom 0, px; see `borderWidth(atZoom:)`.
    public var borderWidth: Double
    /// Label halo width, px.
    public var labelHaloWidth: Double
    /// Place dot diameter, px.
    public var placeDotSize: Double

    /// Creates a style.
    public init(
        name: String, ocean: BasemapColor, land: BasemapColor, lake: BasemapColor, coastline: BasemapColor,
        border: BasemapColor, labelText: BasemapColor, labelHalo: BasemapColor, placeDot: BasemapColor,
        coastlineWidth: Double = 0.8, borderWidth: Double = 0.8, labelHaloWidth: Double = 2, placeDotSize: Double = 4
    ) {
        self.name = name
        self.ocean = ocean
        self.land = land
        self.lake = lake
        self.coastline = coastline
        self.border = border
        self.labelText = labelText
        self.labelHalo = labelHalo
        self.placeDot = placeDot
        self.coastlineWidth = coastlineWidth
        self.borderWidth = borderWidth
        self.labelHaloWidth = labelHaloWidth
        self.placeDotSize = placeDotSize
    }

    /// Light: pale blue ocean, warm off-white land, grey-violet borders, dark text on white halos.
    public static let light = BasemapStyle(
        name: "light",
        ocean: BasemapColor(rgb: 0xAAD3DF), land: BasemapColor(rgb: 0xF2EFE9), lake: BasemapColor(rgb: 0xAAD3DF),
        coastline: BasemapColor(rgb: 0x7FAFC4), border: BasemapColor(rgb: 0x9E8FA8),
        labelText: BasemapColor(rgb: 0x333333), labelHalo: BasemapColor(rgb: 0xFFFFFF, alpha: 0.9),
        placeDot: BasemapColor(rgb: 0x555555))

    /// Dark: near-black ocean, dark grey land, light grey borders, light text on dark halos.
    public static let dark = BasemapStyle(
        name: "dark",
        ocean: BasemapColor(rgb: 0x0F1B2D), land: BasemapColor(rgb: 0x454A53), lake: BasemapColor(rgb: 0x0F1B2D),
        coastline: BasemapColor(rgb: 0x5E6E85), border: BasemapColor(rgb: 0x9AA1AC),
        labelText: BasemapColor(rgb: 0xE8E8E8), labelHalo: BasemapColor(rgb: 0x101010, alpha: 0.85),
        placeDot: BasemapColor(rgb: 0xCCCCCC))

    /// The built-in style with this name ("light" or "dark", case-insensitive), or nil.
    public static func named(_ name: String) -> BasemapStyle? {
        switch name.lowercased() {
        case "light": .light
        case "dark": .dark
        default: nil
        }
    }

    /// Country border width at a zoom, px: `borderWidth` up to zoom 3, growing to
    /// 2 × `borderWidth` at zoom 8 and beyond.
    public func borderWidth(atZoom zoom: Double) -> Double {
        guard zoom.isFinite else { return borderWidth }
        let t = min(max((zoom - 3) / 5, 0), 1)
        return borderWidth * (1 + t)
    }

    /// Label font size in px for a place: 14 for the most important (rank 0–1) down to 10 for
    /// rank 8 and beyond; national capitals one px larger.
    public func labelSize(for place: BasemapPlace) -> Double {
        let base: Double =
            switch place.rank {
            case ...1: 14
            case 2...3: 13
            case 4...5: 12
            case 6...7: 11
            default: 10
            }
        return base + (place.isCapital ? 1 : 0)
    }
}
