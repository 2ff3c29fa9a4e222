import CCairo
import MapImage

extension Canvas {
    /// How an image is resampled when drawn at another size.
    public enum Interpolation: Sendable, Hashable {
        /// Nearest pixel: hard edges, exact for integer scales.
        case nearest
        /// Bilinear (Cairo's "good" filter).
        case smooth
    }

    /// Draws `bitmap` stretched into `rect` (logical px) with `opacity` 0…1.
    public func draw(_ bitmap: Bitmap, in rect: CanvasRect, opacity: Double = 1, interpolation: Interpolation = .smooth)
    {
        guard rect.isFinite, rect.width != 0, rect.height != 0, opacity.isFinite, opacity > 0 else { return }
        guard let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(bitmap.width), Int32(bitmap.height))
        else { return }
        defer { cairo_surface_destroy(image) }
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else { return }
        Self.copy(bitmap, into: image)
        cairo_save(cr)
        cairo_translate(cr, rect.x, rect.y)
        cairo_scale(cr, rect.width / Double(bitmap.width), rect.height / Double(bitmap.height))
        cairo_set_source_surface(cr, image, 0, 0)
        if let pattern = cairo_get_source(cr) {
            cairo_pattern_set_filter(pattern, interpolation == .nearest ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        }
        cairo_rectangle(cr, 0, 0, Double(bitmap.width), Double(bitmap.height))
        cairo_clip(cr)
        cairo_paint_with_alpha(cr, min(1, opacity))
        cairo_restore(cr)
    }

    /// Draws `bitmap` at its pixel size divided by this canvas's scale, top-left at `origin` (logical px).
    public func draw(_ bitmap: Bitmap, at origin: CanvasPoint, opacity: Double = 1) {
        draw(
            bitmap,
            in: CanvasRect(
                x: origin.x, y: origin.y, width: Double(bitmap.width) / scale,
                height: Double(bitmap.height) / scale),
            opacity: opacity, interpolation: .nearest)
    }
}
