import GeoKit
import Synchronization

/// A bitmap to draw on the map (an icon, a label rendered by Cairo, a compass):
/// RGBA, 8 bits per channel, premultiplied alpha, rows top-down.
/// A class so that the renderer can keep its GPU texture across renders (keyed by identity).
public final class SpriteImage: Sendable {
    /// Width in image pixels.
    public let width: Int
    /// Height in image pixels.
    public let height: Int
    /// `width · height · 4` bytes, premultiplied RGBA, rows top-down.
    public let pixels: [UInt8]
    /// Image pixels per logical pixel (2 for an image drawn for a 2× output).
    public let pixelRatio: Double
    /// `inkCentre` once found (nil inside: not looked for yet).
    private let inkMemo = Mutex<(x: Double, y: Double)??>(nil)

    /// The most pixels a side may have.
    public static let maxSide = 4096

    /// Wraps premultiplied RGBA pixels; nil when the byte count does not match or a side is
    /// not in 1…`maxSide` (4096) or the ratio is not in 0.25…8.
    public init?(width: Int, height: Int, pixels: [UInt8], pixelRatio: Double = 1) {
        guard width >= 1, height >= 1, width <= Self.maxSide, height <= Self.maxSide, pixels.count == width * height * 4,
              pixelRatio.isFinite, pixelRatio >= 0.25, pixelRatio <= 8 else { return nil }
        self.width = width; self.height = height; self.pixels = pixels; self.pixelRatio = pixelRatio
    }

    /// Size in logical pixels.
    public var logicalWidth: Double { Double(width) / pixelRatio }
    /// Size in logical pixels.
    public var logicalHeight: Double { Double(height) / pixelRatio }

    /// The middle of the box round the image's ink (its pixels that are not fully
    /// transparent), logical pixels from the top-left; nil when it has none. Found on first use
    /// and kept: a glyph is centred by its ink, not by its text box, in every frame.
    public var inkCentre: (x: Double, y: Double)? {
        if let known = inkMemo.withLock({ $0 }) { return known }
        var minX = width, minY = height, maxX = -1, maxY = -1
        pixels.withUnsafeBufferPointer { px in
            for y in 0 ..< height {
                for x in 0 ..< width where px[(y * width + x) * 4 + 3] != 0 {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        let centre: (x: Double, y: Double)? = maxX < 0 ? nil
            : (Double(minX + maxX + 1) / 2 / pixelRatio, Double(minY + maxY + 1) / 2 / pixelRatio)
        inkMemo.withLock { $0 = .some(centre) }
        return centre
    }
}

/// A bitmap placed at a geographic point, upright on the screen.
public struct Sprite: Sendable {
    /// Where the anchor lands, degrees.
    public var position: LatLng
    /// The bitmap.
    public var image: SpriteImage
    /// The point of the image placed at `position`, as fractions of its size
    /// ((0,0) top-left, (0.5,0.5) centre, (0.5,1) bottom centre).
    public var anchor: (x: Double, y: Double)
    /// Extra offset in logical pixels (x right, y down).
    public var offset: (x: Double, y: Double)
    /// Drawing order; nil takes the default for sprites (above labels).
    public var zIndex: Int?
    /// Opacity multiplier, 0…1 (the basemap fades its icons in and out with it).
    public var opacity: Double = 1
    /// Drawn again in every copy of the world the view shows (true), or only where its
    /// coordinates put it (false: the basemap places its icons per copy itself).
    public var worldCopies = true

    /// Creates a sprite.
    public init(position: LatLng, image: SpriteImage, anchor: (x: Double, y: Double) = (0.5, 0.5),
                offset: (x: Double, y: Double) = (0, 0), zIndex: Int? = nil) {
        self.position = position; self.image = image; self.anchor = anchor; self.offset = offset; self.zIndex = zIndex
    }
}
