import Canvas2D
import Foundation
import MapFormats
import MapScene

/// Draws label text with Canvas2D (Cairo, DejaVu Sans) for the renderer and keeps each
/// result, so a label drawn again is the same `SpriteImage` and its GPU texture is reused.
final class CairoLabelRasterizer: LabelRasterizer, @unchecked Sendable {
    private struct Key: Hashable {
        var text: String, size: Double, color: Color, halo: Color?, haloWidth: Double, ratio: Double
    }

    private struct SymbolKey: Hashable {
        var name: String, size: Double, color: Color, ratio: Double
    }

    private let lock = NSLock()
    private var cache: [Key: SpriteImage] = [:]
    private var symbols: [SymbolKey: SpriteImage] = [:]
    /// Measured label sizes (logical px) by text, size, halo width and ratio, shared by every
    /// instance (a size depends on nothing else: a fitted camera measures the labels the
    /// renderer then places). Guarded by `sizesLock`.
    nonisolated(unsafe) private static var sizes: [SizeKey: (width: Double, height: Double)] = [:]
    private static let sizesLock = NSLock()
    /// Character edges by text, size and halo width (`ratio` 0). Guarded by `sizesLock`.
    nonisolated(unsafe) private static var edges: [SizeKey: [Double]?] = [:]
    private struct SizeKey: Hashable {
        var text: String, size: Double, haloWidth: Double?, ratio: Double
    }
    /// Most labels (and, apart, symbols) kept; a cache is emptied when it grows past this.
    static let maxCached = 4096
    /// Most label sizes kept (a few dozen bytes each: enough for every label of a large scene,
    /// so placing them is not measuring them again every frame).
    static let maxSizesCached = 1 << 16

    /// Stores `value` under `key`, emptying `cache` first when it holds `limit`. Call under `lock`.
    private static func keep<K: Hashable, V>(_ value: V, for key: K, in cache: inout [K: V], limit: Int = maxCached) {
        if cache.count >= limit { cache.removeAll(keepingCapacity: true) }
        cache[key] = value
    }

    func rasterize(_ label: Label, pixelRatio: Double) -> SpriteImage? {
        let key = Key(text: label.text, size: label.size, color: label.color, halo: label.haloColor,
                      haloWidth: label.haloWidth, ratio: pixelRatio)
        if let hit = lock.withLock({ cache[key] }) { return hit }
        let halo = label.haloColor.map { TextHalo(color: RGBAColor($0), width: label.haloWidth) }
        guard let sprite = try? MapSprites.label(label.text, font: Font(size: label.size), color: RGBAColor(label.color),
                                                 halo: halo, anchor: .topLeft, scale: pixelRatio),
              let image = SpriteImage(width: sprite.bitmap.width, height: sprite.bitmap.height,
                                      pixels: sprite.bitmap.premultipliedPixels(), pixelRatio: pixelRatio)
        else { return nil }
        lock.withLock { Self.keep(image, for: key, in: &cache) }
        return image
    }
}

extension CairoLabelRasterizer {
    /// The label's size from its cached image, or else measured without drawing it.
    func labelSize(_ label: Label, pixelRatio: Double) -> (width: Double, height: Double)? {
        let key = Key(text: label.text, size: label.size, color: label.color, halo: label.haloColor,
                      haloWidth: label.haloWidth, ratio: pixelRatio)
        let sizeKey = SizeKey(text: label.text, size: label.size, haloWidth: label.haloColor == nil ? nil : label.haloWidth,
                              ratio: pixelRatio)
        if let hit = lock.withLock({ cache[key].map { ($0.logicalWidth, $0.logicalHeight) } }) { return hit }
        if let hit = Self.sizesLock.withLock({ Self.sizes[sizeKey] }) { return hit }
        let halo = label.haloColor.map { TextHalo(color: RGBAColor($0), width: label.haloWidth) }
        // (A label whose bitmap would be over a sprite's size limit is not drawn: no size.)
        guard let px = try? MapSprites.labelSize(label.text, font: Font(size: label.size), halo: halo, scale: pixelRatio),
              px.width <= SpriteImage.maxSide, px.height <= SpriteImage.maxSide
        else { return nil }
        let size = (width: Double(px.width) / pixelRatio, height: Double(px.height) / pixelRatio)
        Self.sizesLock.withLock { Self.keep(size, for: sizeKey, in: &Self.sizes, limit: Self.maxSizesCached) }
        return size
    }

    /// Where the label's characters meet in its image (`MapSprites.labelCharacterEdges`: 0, each
    /// boundary, the width; logical px), or nil where its text cannot be cut (several lines,
    /// scripts Pango shapes). Kept per text, size and halo width, as sizes are.
    func characterEdges(_ label: Label) -> [Double]? {
        let key = SizeKey(text: label.text, size: label.size, haloWidth: label.haloColor == nil ? nil : label.haloWidth, ratio: 0)
        if let hit = Self.sizesLock.withLock({ Self.edges[key] }) { return hit }
        let halo = label.haloColor.map { TextHalo(color: RGBAColor($0), width: label.haloWidth) }
        let edges = MapSprites.labelCharacterEdges(label.text, font: Font(size: label.size), halo: halo)
        Self.sizesLock.withLock { Self.keep(edges, for: key, in: &Self.edges, limit: Self.maxSizesCached) }
        return edges
    }

    /// The Maki icon filled in `color`, its 15-unit box `size` logical px square in the middle of
    /// a bitmap an even number of device pixels wide and high (so that centred on a pixel edge,
    /// as a pin's axis is, it stays symmetric), with half a unit and a pixel or more of margin:
    /// a few icons reach 0.2 units past their box, and the antialiased edge half a pixel.
    func rasterizeSymbol(_ name: String, size: Double, color: Color, pixelRatio: Double) -> SpriteImage? {
        let key = SymbolKey(name: name, size: size, color: color, ratio: pixelRatio)
        if let hit = lock.withLock({ symbols[key] }) { return hit }
        guard size.isFinite, size > 0, size <= 512, let path = Maki.path(name) else { return nil }
        let box = size * pixelRatio
        var side = Int((box * 16 / 15 + 2).rounded(.up))
        side += side % 2
        let inset = (Double(side) - box) / 2
        let canvasPath = CanvasPath(path, scale: box / Maki.boxSize, offset: CanvasPoint(x: inset, y: inset))
        guard let canvas = try? Canvas(pixelWidth: side, pixelHeight: side, scale: 1) else { return nil }
        canvas.fill(canvasPath, color: RGBAColor(color), rule: .nonZero)
        guard let bitmap = try? canvas.makeBitmap(),
              let image = SpriteImage(width: side, height: side, pixels: bitmap.premultipliedPixels(), pixelRatio: pixelRatio)
        else { return nil }
        lock.withLock { Self.keep(image, for: key, in: &symbols) }
        return image
    }
}

extension RGBAColor {
    /// The Canvas2D colour of a scene colour.
    init(_ c: Color) {
        self.init(r8: c.r, g8: c.g, b8: c.b, a8: c.a)
    }
}
