import Foundation

/// Where a callout's box stands against the point it shows, named as MapLibre names its popups'
/// anchors: the part of the box at the point. `.bottom` (the default) puts the box above the
/// point with the pointer under its middle; `.top` below it; the `Left`/`Right` variants move the
/// pointer to that end of the box, so the box runs right or left of the point.
public enum CalloutAnchor: String, Sendable, CaseIterable {
    case bottom, top, bottomLeft, bottomRight, topLeft, topRight

    /// The anchor that keeps a callout of `size` (logical px) inside a view of `view` with its tip
    /// at `tip`, as MapLibre chooses a popup's: below the point when there is no room above,
    /// pointer at the left or right end when half the box would pass that side. A box larger than
    /// the view keeps the default side.
    public static func fitting(size: (width: Double, height: Double), tip: (x: Double, y: Double),
                               view: (width: Double, height: Double)) -> CalloutAnchor {
        let below = tip.y - size.height < 0 && tip.y + size.height <= view.height
        let left = tip.x - size.width / 2 < 0 && tip.x + size.width <= view.width
        let right = !left && tip.x + size.width / 2 > view.width && tip.x - size.width >= 0
        switch (below, left, right) {
        case (false, true, _): return .bottomLeft
        case (false, _, true): return .bottomRight
        case (false, _, _): return .bottom
        case (true, true, _): return .topLeft
        case (true, _, true): return .topRight
        case (true, _, _): return .top
        }
    }

    var boxBelow: Bool { self == .top || self == .topLeft || self == .topRight }
}

extension MapSprites {
    /// A callout: lines of text on a white rounded box with a thin grey border and a pointer
    /// from the box to the point. The anchor is the pointer's tip, to be placed on the picked
    /// point; `anchor` says where the box stands (by default above, as MapKit and Leaflet popups
    /// do; `CalloutAnchor.fitting` picks one that stays in view).
    public static func callout(
        _ lines: [String], font: Font = Font(size: 12), color: RGBAColor = labelColor, scale: Double = 1,
        anchor: CalloutAnchor = .bottom
    ) throws(CanvasError) -> AnchoredBitmap {
        try callout(lines, font: font, color: color, scale: scale, anchorFor: { _ in anchor })
    }

    /// A callout whose anchor is chosen once its size (logical px, pointer included) is known,
    /// such as `{ CalloutAnchor.fitting(size: $0, tip: tip, view: view) }`: laid out and drawn once.
    public static func callout(
        _ lines: [String], font: Font = Font(size: 12), color: RGBAColor = labelColor, scale: Double = 1,
        anchorFor: ((width: Double, height: Double)) -> CalloutAnchor
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
        let anchor = anchorFor((width, height))
        let canvas = try canvas(width: width, height: height, scale: scale)
        // Laid out with the box on top; a box below the point is the same drawing turned upside
        // down (`y` maps each height), its text then placed in the moved box.
        let flip = anchor.boxBelow
        func y(_ v: Double) -> Double { flip ? height - v : v }
        let boxTop = flip ? pointer + 1 : 1
        // The pointer under the middle, or at an end, clear of the rounded corner.
        let mid: Double
        switch anchor {
        case .bottom, .top: mid = width / 2
        case .bottomLeft, .topLeft: mid = 1 + radius + pointer
        case .bottomRight, .topRight: mid = width - 1 - radius - pointer
        }
        var shape = CanvasPath()
        shape.addRoundedRect(CanvasRect(x: 1, y: boxTop, width: width - 2, height: boxHeight), cornerRadius: radius)
        var tip = CanvasPath()
        tip.move(to: CanvasPoint(x: mid - pointer, y: y(boxHeight)))
        tip.addLine(to: CanvasPoint(x: mid, y: y(boxHeight + pointer)))
        tip.addLine(to: CanvasPoint(x: mid + pointer, y: y(boxHeight)))
        tip.closeSubpath()
        shape.addPath(tip)
        canvas.fill(shape, color: RGBAColor.white.withAlpha(0.96))
        canvas.stroke(shape, color: RGBAColor.black.withAlpha(0.35), style: StrokeStyle(width: 1, join: .round))
        // Hide the border between the box and the pointer.
        canvas.fill(.rect(CanvasRect(x: mid - pointer + 1, y: min(y(boxHeight - 1), y(boxHeight + 1)), width: 2 * pointer - 2, height: 2)),
                    color: RGBAColor.white.withAlpha(0.96))
        var ty = boxTop + pad
        for (text, m) in zip(lines, metrics) {
            canvas.drawText(text, at: CanvasPoint(x: 1 + pad, y: ty + m.ascent), font: font, color: color)
            ty += lineHeight + gap
        }
        return AnchoredBitmap(bitmap: try canvas.makeBitmap(),
                              anchor: CanvasPoint(x: mid * scale, y: y(boxHeight + pointer) * scale), scale: scale)
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
