import GeoKit
import MapFormats

/// How a marker looks.
public enum MarkerStyle: Sendable {
    /// A 12 px disc in the marker colour with a 2 px white ring, centred on the point.
    case dot
    /// A map pin (round head, pointed foot) in the marker colour, its tip on the point.
    case pin
    /// A bitmap with the anchor (fractions of its size) on the point.
    case image(SpriteImage, anchor: (x: Double, y: Double))
    /// A navigation arrow (24 px, white outline) centred on the point, pointing along the
    /// marker's `rotation` (north when it has none): a heading-aware moving marker.
    case arrow
}

/// A point of interest with an optional label.
public struct Marker: Sendable {
    /// Position in degrees.
    public var position: LatLng
    /// Look of the marker.
    public var style: MarkerStyle
    /// Colour of the dot or pin.
    public var color: Color
    /// Optional text drawn beside the marker (needs a `LabelRasterizer`).
    public var label: String?
    /// One or two characters drawn inside the pin's head (in place of its white dot) or on the
    /// dot, white or near-black, whichever stands out more on `color`: Google's marker `label:`,
    /// Mapbox's `pin-s-a`. Needs a `LabelRasterizer` (without one the pin keeps its dot).
    /// Arrows and images do not draw it.
    public var glyph: String?
    /// A Maki icon (`Maki.names`: `bus`, `cafe`, `hospital`, …) drawn where a `glyph` would be,
    /// in the glyph's colour: simplestyle's `marker-symbol`, Mapbox's `pin-s-bus`. A marker has
    /// a glyph or a symbol, not both. Needs a `LabelRasterizer` that draws symbols (without one
    /// the pin keeps its dot). Arrows and images do not draw it.
    public var symbol: String?
    /// Drawing order; nil takes the default for markers.
    public var zIndex: Int?
    /// Heading in degrees clockwise from north that arrows and images turn to follow (on the
    /// map, so it turns with the bearing and is projected under pitch); nil keeps them upright.
    public var rotation: Double?
    /// Opacity multiplier, 0…1 (animations fade markers with it).
    public var opacity: Double = 1
    /// Size multiplier (MapLibre's `icon-size`): 1 draws the sizes below (a pin `pinHeight`
    /// tall), 0.75 a pin 22.5 px tall; images scale from their own logical size. The label
    /// moves out with the symbol. Limits: `scaleRange`; `init` refuses others, and a value set
    /// later outside them draws at the nearest limit (NaN at 1).
    public var scale: Double = 1

    /// The side of a `symbol`'s 15-unit box in a pin's head and on a dot, logical px at scale 1.
    public static let pinSymbolSize = 13.0, dotSymbolSize = 10.0

    /// The most characters a `glyph` holds.
    public static let maxGlyphLength = 2

    /// The sizes a marker may be scaled to.
    public static let scaleRange = 0.1 ... 8.0

    /// `scale` within `scaleRange` (1 for NaN): what is drawn and picked.
    public var drawnScale: Double {
        scale.isNaN ? 1 : min(max(scale, Self.scaleRange.lowerBound), Self.scaleRange.upperBound)
    }

    /// Creates a marker; throws `SceneError` for an invalid position or a non-finite rotation.
    public init(position: LatLng, style: MarkerStyle = .dot, color: Color = Color(rgb: 0xD1242F),
                label: String? = nil, zIndex: Int? = nil, rotation: Double? = nil, scale: Double = 1,
                glyph: String? = nil, symbol: String? = nil) throws(SceneError) {
        guard position.isValid else {
            throw SceneError(parameter: "position", reason: "invalid position \(position.lat),\(position.lon)")
        }
        if let r = rotation, !r.isFinite {
            throw SceneError(parameter: "rotation", reason: "\(r) is not a finite angle")
        }
        guard Self.scaleRange.contains(scale) else {
            throw SceneError(parameter: "scale", reason: "\(scale) is not in \(Self.scaleRange.lowerBound)…\(Self.scaleRange.upperBound)")
        }
        if let g = glyph {
            guard (1 ... Self.maxGlyphLength).contains(g.count), !g.contains(where: { $0.isWhitespace || $0.isNewline }) else {
                throw SceneError(parameter: "glyph", reason: "'\(g.prefix(12))' is not one or two characters")
            }
        }
        if let l = label, l.count > Label.maxTextLength {
            throw SceneError(parameter: "label", reason: "\(l.count) characters is over the limit of \(Label.maxTextLength)")
        }
        if let s = symbol {
            guard Maki.contains(s) else { throw SceneError(parameter: "symbol", reason: Maki.unknownReason(s)) }
            guard glyph == nil else { throw SceneError(parameter: "symbol", reason: "a marker has a glyph or a symbol, not both") }
        }
        self.position = position; self.style = style; self.color = color; self.label = label; self.zIndex = zIndex
        self.rotation = rotation
        self.scale = scale
        self.glyph = glyph
        self.symbol = symbol
    }

    /// Size of the arrow marker in logical pixels (tip to tail).
    public static let arrowSize = 24.0

    /// Diameter of the default dot in logical pixels (the white ring adds `dotRingWidth` around it).
    public static let dotDiameter = 12.0
    /// Width of the white ring around the dot in logical pixels.
    public static let dotRingWidth = 2.0
    /// Height of a pin from tip to top in logical pixels.
    public static let pinHeight = 30.0

    /// The box the marker covers, in logical pixels from its position (y down): the pin from
    /// its head's top to its tip, the dot with its ring, the arrow at any rotation, the image
    /// about its anchor. Marker labels are kept off it.
    public var box: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let k = drawnScale
        switch style {
        case .pin: return (-9 * k, -Self.pinHeight * k, 9 * k, 0)
        case .dot:
            let r = k * (Self.dotDiameter / 2 + Self.dotRingWidth)
            return (-r, -r, r, r)
        case .arrow:
            let r = k * Self.arrowSize / 2
            return (-r, -r, r, r)
        case .image(let img, let anchor):
            let w = k * img.logicalWidth, h = k * img.logicalHeight
            return (-anchor.x * w, -anchor.y * h, (1 - anchor.x) * w, (1 - anchor.y) * h)
        }
    }

    /// The box the basemap's place names and points of interest keep clear of, in logical
    /// pixels from the marker's position: a pin's box with 3 px beside it, 6 above and 12 below
    /// its tip (the box pins always reserved, now scaled with the pin), any other marker's own
    /// box with 3 px round it.
    public var clearance: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        if case .pin = style {
            let k = drawnScale
            return (-12 * k, -36 * k, 12 * k, 12 * k)
        }
        let b = box
        return (b.minX - 3, b.minY - 3, b.maxX + 3, b.maxY + 3)
    }

    /// Where the marker's label starts, in logical pixels from its position: the label's
    /// left edge, vertically centred (beside the pin's head, or right of a dot, arrow or image).
    public var labelOffset: (x: Double, y: Double) {
        let k = drawnScale
        switch style {
        case .dot: return (k * (Self.dotDiameter / 2 + Self.dotRingWidth) + 4, 0)
        case .pin: return (k * 9 + 3, k * (-Self.pinHeight + 9))
        case .image(let img, let anchor): return (k * (1 - anchor.x) * img.logicalWidth + 4, k * (0.5 - anchor.y) * img.logicalHeight)
        case .arrow: return (k * Self.arrowSize / 2 + 6, 0)
        }
    }

    /// The marker's label as the renderer draws it on the marker's right (default size and
    /// halo, starting at `labelOffset`, centred on it vertically); nil without text.
    public var rightLabel: Label? {
        guard let text = label, !text.isEmpty else { return nil }
        return try? Label(position: position, text: text, anchor: (0, 0.5), offset: labelOffset)
    }

    /// Where the marker's label ends when it is placed on the left (where the right side is
    /// taken): the label's right edge, vertically centred, as far left of the marker as
    /// `labelOffset` is right of it.
    public var leftLabelOffset: (x: Double, y: Double) {
        let k = drawnScale
        switch style {
        case .image(let img, let anchor): return (-(k * anchor.x * img.logicalWidth + 4), k * (0.5 - anchor.y) * img.logicalHeight)
        default:
            let o = labelOffset
            return (-o.x, o.y)
        }
    }
}

/// Text on the map, upright, with a halo.
public struct Label: Sendable {
    /// Where the text's anchor lands, degrees.
    public var position: LatLng
    /// The text (one line).
    public var text: String
    /// Font size in logical pixels.
    public var size: Double
    /// Text colour.
    public var color: Color
    /// Halo colour around the glyphs (nil for none).
    public var haloColor: Color?
    /// Halo width in logical pixels.
    public var haloWidth: Double
    /// Anchor of the text box as fractions ((0.5,0.5) centred, (0,0.5) text starts at the point).
    public var anchor: (x: Double, y: Double)
    /// Extra offset in logical pixels (x right, y down).
    public var offset: (x: Double, y: Double)
    /// Drawing order; nil takes the default for labels.
    public var zIndex: Int?
    /// Drawn again in every copy of the world the view shows (true), or only where its
    /// coordinates put it (false: the basemap places its labels and dots per copy itself).
    public var worldCopies = true
    /// Opacity multiplier of the whole label, text and halo, 0…1 (MapLibre's `text-opacity`;
    /// the basemap's place names fade in and out with it).
    public var opacity: Double = 1
    /// The text laid along a line (a street's or river's name): its image drawn in pieces, each
    /// turned and placed on screen relative to the projected `position`; nil (the default)
    /// draws it whole and upright. The pieces are made for one view (the basemap lays them out
    /// again each frame); `anchor` and `offset` do not apply.
    public var pieces: [LabelPiece]?

    /// The screen box (logical px) of the label's bitmap, `width` × `height`, when its position
    /// lands at (`x`, `y`): the bitmap's `anchor` point there, moved by `offset`.
    public func box(atX x: Double, y: Double, width: Double, height: Double) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let x0 = x - anchor.x * width + offset.x, y0 = y - anchor.y * height + offset.y
        return (x0, y0, x0 + width, y0 + height)
    }

    /// The most characters a label's (or a marker label's) text holds. A label's image is also at
    /// most `SpriteImage.maxSide` (4096) pixels wide: a wider one is not drawn (scene files and
    /// requests are refused with an error naming the overlay).
    public static let maxTextLength = 1000

    /// The widest halo, logical px.
    public static let maxHaloWidth = 32.0

    /// Creates a label; throws `SceneError` for an invalid position, size (0 < size ≤ 256), text
    /// over `maxTextLength` characters, halo width (0…32 px), anchor or offset.
    public init(position: LatLng, text: String, size: Double = 14, color: Color = Color(rgb: 0x1F2328),
                haloColor: Color? = .white, haloWidth: Double = 2, anchor: (x: Double, y: Double) = (0.5, 0.5),
                offset: (x: Double, y: Double) = (0, 0), zIndex: Int? = nil) throws(SceneError) {
        guard position.isValid else {
            throw SceneError(parameter: "position", reason: "invalid position \(position.lat),\(position.lon)")
        }
        guard size.isFinite, size > 0, size <= 256 else {
            throw SceneError(parameter: "size", reason: "\(size) is not in (0, 256] px")
        }
        guard text.count <= Self.maxTextLength else {
            throw SceneError(parameter: "text", reason: "\(text.count) characters is over the limit of \(Self.maxTextLength)")
        }
        guard haloWidth.isFinite, (0 ... Self.maxHaloWidth).contains(haloWidth) else {
            throw SceneError(parameter: "haloWidth", reason: "\(haloWidth) is not in 0…\(Self.maxHaloWidth) px")
        }
        guard [anchor.x, anchor.y, offset.x, offset.y].allSatisfy({ $0.isFinite && abs($0) <= 1e6 }) else {
            throw SceneError(parameter: "anchor", reason: "anchor and offset must be finite (and within ±1e6)")
        }
        self.position = position; self.text = text; self.size = size; self.color = color
        self.haloColor = haloColor; self.haloWidth = haloWidth; self.anchor = anchor; self.offset = offset
        self.zIndex = zIndex
    }
}

/// A vertical strip of a label's image (columns `x0..<x1`, logical px from its left edge, the
/// image's full height) drawn with its centre `dx`, `dy` screen px from the label's projected
/// position and turned `angle` degrees clockwise about that centre: one or a few characters of
/// a name laid along a curving line.
public struct LabelPiece: Hashable, Sendable {
    public var x0: Double, x1: Double
    public var dx: Double, dy: Double
    public var angle: Double

    public init(x0: Double, x1: Double, dx: Double, dy: Double, angle: Double) {
        self.x0 = x0; self.x1 = x1; self.dx = dx; self.dy = dy; self.angle = angle
    }
}

/// Turns label text into a bitmap (Canvas2D's Cairo text in the app); the renderer calls it
/// for `Label`s and marker labels and draws the result as a sprite. Without one, text is skipped.
public protocol LabelRasterizer: Sendable {
    /// A premultiplied bitmap of the label at `pixelRatio` image pixels per logical pixel,
    /// or nil to skip it.
    func rasterize(_ label: Label, pixelRatio: Double) -> SpriteImage?
    /// A premultiplied bitmap of the Maki icon `name`, its 15-unit box `size` logical px square,
    /// filled with `color`, at `pixelRatio`; nil to skip it. The box's centre is the bitmap's
    /// centre. The default draws no symbols.
    func rasterizeSymbol(_ name: String, size: Double, color: Color, pixelRatio: Double) -> SpriteImage?
    /// The logical size of the bitmap `rasterize(label, pixelRatio:)` gives, or nil where it
    /// gives none: for placing labels before drawing those that are placed. The default
    /// rasterizes the label.
    func labelSize(_ label: Label, pixelRatio: Double) -> (width: Double, height: Double)?
}

extension LabelRasterizer {
    public func labelSize(_ label: Label, pixelRatio: Double) -> (width: Double, height: Double)? {
        rasterize(label, pixelRatio: pixelRatio).map { ($0.logicalWidth, $0.logicalHeight) }
    }

    public func rasterizeSymbol(_ name: String, size: Double, color: Color, pixelRatio: Double) -> SpriteImage? { nil }
}
