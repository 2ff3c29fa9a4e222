/// A font: family, size and weight, drawn through Cairo and fontconfig.
public struct Font: Sendable, Hashable {
    /// Font weight. Cairo's font selection knows two weights.
    public enum Weight: Sendable, Hashable {
        /// Regular (book) weight.
        case regular
        /// Bold weight.
        case bold
    }

    /// Family name as fontconfig knows it (default "DejaVu Sans", from `fonts-dejavu-core`).
    public var family: String
    /// Size in logical px (the em size).
    public var size: Double
    /// Weight.
    public var weight: Weight
    /// Italic (oblique) style.
    public var italic: Bool

    /// Creates a font; `size` in logical px.
    public init(family: String = "DejaVu Sans", size: Double = 13, weight: Weight = .regular, italic: Bool = false) {
        self.family = family
        self.size = size
        self.weight = weight
        self.italic = italic
    }
}

/// A contrasting outline drawn under text so it reads over any background.
public struct TextHalo: Sendable, Hashable {
    /// Halo colour.
    public var color: RGBAColor
    /// How far the halo reaches beyond the glyph outline, logical px (the stroke is twice this).
    public var width: Double

    /// Creates a halo.
    public init(color: RGBAColor = .white, width: Double = 2) {
        self.color = color
        self.width = width
    }
}

/// The size of a line of text, logical px.
public struct TextMetrics: Sendable, Hashable {
    /// Advance width: how far the pen moves along the baseline.
    public var width: Double
    /// The font's ascent above the baseline (positive).
    public var ascent: Double
    /// The font's descent below the baseline (positive).
    public var descent: Double
    /// The inked area relative to the pen origin on the baseline (y down; `y` is negative above
    /// the baseline). Empty for blank text.
    public var inkBounds: CanvasRect

    /// `ascent + descent`: the height of the line box.
    public var height: Double { ascent + descent }
}
