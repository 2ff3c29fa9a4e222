import Canvas2D
import Foundation
import MapScene

/// Draws label text with Canvas2D (Cairo, DejaVu Sans) for the renderer and keeps each
/// result, so a label drawn again is the same `SpriteImage` and its GPU texture is reused.
final class CairoLabelRasterizer: LabelRasterizer, @unchecked Sendable {
    private struct Key: Hashable {
        var text: String, size: Double, color: Color, halo: Color?, haloWidth: Double, ratio: Double
    }

    private let lock = NSLock()
    private var cache: [Key: SpriteImage] = [:]
    /// Most labels kept; the cache is emptied when it grows past this.
    static let maxCached = 4096

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
        lock.withLock {
            if cache.count >= Self.maxCached { cache.removeAll(keepingCapacity: true) }
            cache[key] = image
        }
        return image
    }
}

extension RGBAColor {
    /// The Canvas2D colour of a scene colour.
    init(_ c: Color) {
        self.init(r8: c.r, g8: c.g, b8: c.b, a8: c.a)
    }
}
