/// Which point of a label's text box sits on the label's anchor (MapLibre's `text-anchor`):
/// `.left` puts the left edge's middle on the anchor, so the text extends to the right.
public enum LabelAnchor: Sendable, Hashable, CaseIterable {
    /// Box centre.
    case center
    /// Middle of the left edge.
    case left
    /// Middle of the right edge.
    case right
    /// Middle of the top edge.
    case top
    /// Middle of the bottom edge.
    case bottom
    /// Top-left corner.
    case topLeft
    /// Top-right corner.
    case topRight
    /// Bottom-left corner.
    case bottomLeft
    /// Bottom-right corner.
    case bottomRight
}

extension MapSprites {
    /// The default label text colour, #333333.
    public static let labelColor = RGBAColor(r8: 0x33, g8: 0x33, b8: 0x33)

    /// A text label with a halo. Lines split at `\n` are stacked `1.2 × font.size` apart and
    /// aligned towards the anchor side (centred for centre/top/bottom anchors). The text box is
    /// the lines' advance widths by their line heights; `anchor` picks which of its points is the
    /// sprite's anchor. The bitmap also covers the ink and the halo beyond the box.
    /// Throws for empty text, a font size outside (0, 1000] px, or a bitmap over the size limits.
    public static func label(
        _ text: String, font: Font = Font(size: 13), color: RGBAColor = labelColor,
        halo: TextHalo? = TextHalo(), anchor: LabelAnchor = .center,
        scale: Double = 1
    ) throws(CanvasError) -> AnchoredBitmap {
        let l = try labelLayout(text, font: font, halo: halo, anchor: anchor)
        let canvas = try canvas(width: l.width, height: l.height, scale: scale)
        canvas.translate(x: -l.left, y: -l.top)
        for (line, origin) in zip(l.lines, l.origins) {
            canvas.drawText(line, at: origin, font: font, color: color, halo: halo)
        }
        return AnchoredBitmap(
            bitmap: try canvas.makeBitmap(),
            anchor: CanvasPoint(x: (l.anchor.x - l.left) * scale, y: (l.anchor.y - l.top) * scale), scale: scale)
    }

    /// The size in pixels of the bitmap `label(text, font:, color:, halo:, anchor:, scale:)`
    /// makes, found by measuring the text without drawing it (for placing labels before
    /// drawing the ones that are placed). Throws as `label` does.
    public static func labelSize(
        _ text: String, font: Font = Font(size: 13), halo: TextHalo? = TextHalo(), scale: Double = 1
    ) throws(CanvasError) -> (width: Int, height: Int) {
        let l = try labelLayout(text, font: font, halo: halo, anchor: .topLeft)
        let c = try canvasSize(width: l.width, height: l.height, scale: scale)
        return (c.width, c.height)
    }

    /// Where a one-line label's characters meet in the bitmap `label(text, font:, halo:, scale:)`
    /// makes: x in logical px from the bitmap's left edge, from 0 through each boundary between
    /// characters to the bitmap's width (so consecutive values bound one character's strip,
    /// the halo and ink beyond the text in the first and last); nil for text of several lines
    /// or drawn through Pango (`Canvas.characterAdvances`).
    public static func labelCharacterEdges(
        _ text: String, font: Font = Font(size: 13), halo: TextHalo? = TextHalo()
    ) -> [Double]? {
        guard !text.contains("\n"), let l = try? labelLayout(text, font: font, halo: halo, anchor: .topLeft),
              let advances = Canvas.characterAdvances(text, font: font), let origin = l.origins.first else { return nil }
        return [0] + advances.dropLast().map { origin.x - l.left + $0 } + [l.width]
    }

    /// Where `label` puts its lines: their pen origins in text-box coordinates, the bitmap's
    /// top-left corner and logical size (the box, the ink and the halo, to whole pixels) and the
    /// anchor point in the same coordinates.
    private static func labelLayout(_ text: String, font: Font, halo: TextHalo?, anchor: LabelAnchor) throws(CanvasError)
        -> (lines: [String], origins: [CanvasPoint], left: Double, top: Double, width: Double, height: Double, anchor: CanvasPoint) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.contains(where: { !$0.trimmingWhitespace.isEmpty }) else {
            throw .invalidArgument("text", "label text is empty")
        }
        try positive(font.size, "font size")
        let metrics = lines.map { Canvas.measure($0, font: font) }
        let lineHeight = font.size * 1.2
        let boxWidth = metrics.map(\.width).max() ?? 0
        let boxHeight = lineHeight * Double(lines.count)
        let ascent = metrics.first?.ascent ?? font.size
        let descent = metrics.first?.descent ?? 0
        let align: Double =
            switch anchor {
            case .left, .topLeft, .bottomLeft: 0
            case .right, .topRight, .bottomRight: 1
            default: 0.5
            }
        // Pen origins in box coordinates (box top-left at 0,0); baselines centred in each line.
        var origins: [CanvasPoint] = []
        var minX = 0.0, minY = 0.0, maxX = boxWidth, maxY = boxHeight
        for (i, m) in metrics.enumerated() {
            let origin = CanvasPoint(
                x: (boxWidth - m.width) * align,
                y: Double(i) * lineHeight + (lineHeight - ascent - descent) / 2 + ascent)
            origins.append(origin)
            if m.inkBounds.width > 0 {
                minX = min(minX, origin.x + m.inkBounds.x)
                minY = min(minY, origin.y + m.inkBounds.y)
                maxX = max(maxX, origin.x + m.inkBounds.maxX)
                maxY = max(maxY, origin.y + m.inkBounds.maxY)
            }
        }
        let reach = (halo.map { $0.width.isFinite ? max(0, $0.width) : 0 } ?? 0) + 1
        let left = (minX - reach).rounded(.down), top = (minY - reach).rounded(.down)
        let (ax, ay): (Double, Double) =
            switch anchor {
            case .center: (boxWidth / 2, boxHeight / 2)
            case .left: (0, boxHeight / 2)
            case .right: (boxWidth, boxHeight / 2)
            case .top: (boxWidth / 2, 0)
            case .bottom: (boxWidth / 2, boxHeight)
            case .topLeft: (0, 0)
            case .topRight: (boxWidth, 0)
            case .bottomLeft: (0, boxHeight)
            case .bottomRight: (boxWidth, boxHeight)
            }
        return (lines, origins, left, top, (maxX + reach).rounded(.up) - left, (maxY + reach).rounded(.up) - top,
                CanvasPoint(x: ax, y: ay))
    }

    /// Attribution text (for example "© OpenStreetMap contributors") in `font` and `color` on a
    /// translucent white box (white at `boxOpacity`, 4 px horizontal and 2 px vertical padding).
    /// The anchor is the box's bottom-right corner, for the image's bottom-right corner.
    public static func attribution(
        _ text: String, font: Font = Font(size: 10), color: RGBAColor = labelColor,
        boxOpacity: Double = 0.7, scale: Double = 1
    ) throws(CanvasError) -> AnchoredBitmap {
        guard !text.trimmingWhitespace.isEmpty, !text.contains("\n") else {
            throw .invalidArgument("text", "attribution text must be one non-empty line")
        }
        try positive(font.size, "font size")
        let m = Canvas.measure(text, font: font)
        let padX = 4.0, padY = 2.0
        let width = (m.width + 2 * padX).rounded(.up)
        let height = (m.height + 2 * padY).rounded(.up)
        let canvas = try canvas(width: width, height: height, scale: scale)
        canvas.fill(
            .rect(CanvasRect(x: 0, y: 0, width: width, height: height)),
            color: RGBAColor.white.withAlpha(boxOpacity.isFinite ? boxOpacity : 0.7))
        canvas.drawText(text, at: CanvasPoint(x: padX, y: (height - m.height) / 2 + m.ascent), font: font, color: color)
        let bitmap = try canvas.makeBitmap()
        return AnchoredBitmap(
            bitmap: bitmap, anchor: CanvasPoint(x: Double(bitmap.width), y: Double(bitmap.height)),
            scale: scale)
    }
}

extension String {
    var trimmingWhitespace: Substring {
        let s = drop { $0.isWhitespace }
        return s.reversed().drop { $0.isWhitespace }.isEmpty ? "" : s
    }
}
