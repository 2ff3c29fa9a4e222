import Foundation

extension MapSprites {
    /// A callout: lines of text on a white rounded box with a thin grey border and a pointer
    /// under its middle. The anchor is the pointer's tip, to be placed on the picked point so the
    /// box stands above it (what MapKit and Leaflet popups look like).
    public static func callout(
        _ lines: [String], font: Font = Font(size: 12), color: RGBAColor = labelColor, scale: Double = 1
    ) throws(CanvasError) -> AnchoredBitmap {
        let lines = lines.filter { !$0.trimmingWhitespace.isEmpty }
        guard !lines.isEmpty, lines.count <= 20, lines.allSatisfy({ !$0.contains("\n") && $0.count <= 200 }) else {
            throw .invalidArgument("lines", "a callout needs 1…20 non-empty lines of at most 200 characters")
        }
        try positive(font.size, "font size")
        let metrics = lines.map { Canvas.measure($0, font: font) }
        let pad = 6.0, gap = 2.0, pointer = 8.0, radius = 4.0
        let lineHeight = metrics.map(\.height).max() ?? font.size
        let width = ((metrics.map(\.width).max() ?? 0) + 2 * pad).rounded(.up) + 2
        let boxHeight = (Double(lines.count) * lineHeight + Double(lines.count - 1) * gap + 2 * pad).rounded(.up)
        let height = boxHeight + pointer + 2
        let canvas = try canvas(width: width, height: height, scale: scale)
        var shape = CanvasPath()
        shape.addRoundedRect(CanvasRect(x: 1, y: 1, width: width - 2, height: boxHeight), cornerRadius: radius)
        var tip = CanvasPath()
        let mid = width / 2
        tip.move(to: CanvasPoint(x: mid - pointer, y: boxHeight))
        tip.addLine(to: CanvasPoint(x: mid, y: boxHeight + pointer))
        tip.addLine(to: CanvasPoint(x: mid + pointer, y: boxHeight))
        tip.closeSubpath()
        shape.addPath(tip)
        canvas.fill(shape, color: RGBAColor.white.withAlpha(0.96))
        canvas.stroke(shape, color: RGBAColor.black.withAlpha(0.35), style: StrokeStyle(width: 1, join: .round))
        // Hide the border between the box and the pointer.
        canvas.fill(.rect(CanvasRect(x: mid - pointer + 1, y: boxHeight - 1, width: 2 * pointer - 2, height: 2)),
                    color: RGBAColor.white.withAlpha(0.96))
        var y = 1 + pad
        for (text, m) in zip(lines, metrics) {
            canvas.drawText(text, at: CanvasPoint(x: 1 + pad, y: y + m.ascent), font: font, color: color)
            y += lineHeight + gap
        }
        return AnchoredBitmap(bitmap: try canvas.makeBitmap(),
                              anchor: CanvasPoint(x: mid * scale, y: (boxHeight + pointer) * scale), scale: scale)
    }

    /// A heads-up panel: lines of monospaced-looking text on a translucent dark box; the anchor
    /// is its top-left corner.
    public static func panel(_ lines: [String], font: Font = Font(size: 11), scale: Double = 1) throws(CanvasError) -> AnchoredBitmap {
        let lines = lines.isEmpty ? [" "] : lines
        let metrics = lines.map { Canvas.measure($0, font: font) }
        let pad = 5.0
        let lineHeight = metrics.map(\.height).max() ?? font.size
        let width = ((metrics.map(\.width).max() ?? 0) + 2 * pad).rounded(.up)
        let height = (Double(lines.count) * lineHeight + 2 * pad).rounded(.up)
        let canvas = try canvas(width: max(1, width), height: max(1, height), scale: scale)
        canvas.fill(.rect(CanvasRect(x: 0, y: 0, width: width, height: height)), color: RGBAColor.black.withAlpha(0.6))
        var y = pad
        for (text, m) in zip(lines, metrics) {
            canvas.drawText(text, at: CanvasPoint(x: pad, y: y + m.ascent), font: font, color: .white)
            y += lineHeight
        }
        return AnchoredBitmap(bitmap: try canvas.makeBitmap(), anchor: .zero, scale: scale)
    }
}
