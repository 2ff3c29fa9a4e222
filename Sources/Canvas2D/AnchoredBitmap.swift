import MapImage

/// A ready raster piece of the map (marker, label, compass, scale bar, attribution): pixels plus
/// the point of those pixels that belongs on the map position or screen corner.
public struct AnchoredBitmap: Sendable, Equatable {
    /// The pixels, at `scale` output pixels per logical px.
    public var bitmap: Bitmap
    /// The anchor in bitmap pixels from the bitmap's top-left corner: place the bitmap so this
    /// point lands on the target (for a marker dot its centre, for a pin its tip).
    public var anchor: CanvasPoint
    /// Output pixels per logical px the bitmap was drawn at (the pixel ratio).
    public var scale: Double

    /// Creates a sprite.
    public init(bitmap: Bitmap, anchor: CanvasPoint, scale: Double) {
        self.bitmap = bitmap
        self.anchor = anchor
        self.scale = scale
    }

    /// Bitmap size in logical px.
    public var logicalSize: (width: Double, height: Double) {
        (Double(bitmap.width) / scale, Double(bitmap.height) / scale)
    }
}

/// Ready-made raster pieces for the map, drawn with ``Canvas`` at a pixel ratio (`scale`,
/// usually 1–4). All sizes are logical px; the returned bitmaps are `scale` times larger.
public enum MapSprites {
    /// Makes a canvas of `width` × `height` logical px at `scale`, rounding the pixel size up.
    static func canvas(width: Double, height: Double, scale: Double) throws(CanvasError) -> Canvas {
        let size = try canvasSize(width: width, height: height, scale: scale)
        return try Canvas(pixelWidth: size.width, pixelHeight: size.height, scale: scale)
    }

    /// The pixel size of `canvas(width:height:scale:)`, checked as it checks it.
    static func canvasSize(width: Double, height: Double, scale: Double) throws(CanvasError) -> (width: Int, height: Int) {
        guard scale.isFinite, Canvas.scaleRange.contains(scale) else {
            throw .invalidArgument("scale", "\(scale) is outside \(Canvas.scaleRange)")
        }
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            throw .invalidArgument("size", "\(width)x\(height) logical px is not a drawable size")
        }
        let w = (width * scale).rounded(.up), h = (height * scale).rounded(.up)
        guard w <= Double(Bitmap.maxSide), h <= Double(Bitmap.maxSide) else {
            throw .invalidArgument(
                "size", "\(width)x\(height) logical px at scale \(scale) is over \(Bitmap.maxSide) px a side")
        }
        return (Int(w), Int(h))
    }

    static func positive(_ value: Double, _ name: String, max limit: Double = 1000) throws(CanvasError) {
        guard value.isFinite, value > 0, value <= limit else {
            throw .invalidArgument(name, "\(value) is not in (0, \(limit)]")
        }
    }
}
