import CCairo
import MapImage

/// A Quartz-like 2D drawing surface over Cairo, backed by pixels that become a ``Bitmap``.
///
/// Coordinates are logical px (origin top-left, y down); the canvas multiplies them by its
/// `scale` (the pixel ratio) into output pixels. Drawing is antialiased. Drawing calls never
/// fail: non-finite coordinates are dropped; an invalid transform is ignored.
///
/// A `Canvas` is a reference to mutable native state: use one from one task at a time
/// (it is not `Sendable`); make as many as needed, they share nothing.
public final class Canvas {
    /// Width in output pixels.
    public let pixelWidth: Int
    /// Height in output pixels.
    public let pixelHeight: Int
    /// Output pixels per logical px.
    public let scale: Double

    let surface: OpaquePointer
    let cr: OpaquePointer

    /// The accepted range of `scale` (pixel ratio).
    public static let scaleRange: ClosedRange<Double> = 0.25...8

    /// Creates a transparent canvas of `pixelWidth` × `pixelHeight` output pixels whose user space
    /// is logical px scaled by `scale`. Throws when a size is outside 1…``Bitmap/maxSide`` (or
    /// over ``Bitmap/maxPixelCount`` pixels) or `scale` is outside ``scaleRange``.
    public init(pixelWidth: Int, pixelHeight: Int, scale: Double = 1) throws(CanvasError) {
        guard pixelWidth >= 1, pixelHeight >= 1, pixelWidth <= Bitmap.maxSide, pixelHeight <= Bitmap.maxSide,
            pixelWidth * pixelHeight <= Bitmap.maxPixelCount
        else {
            throw .invalidArgument(
                "size",
                "\(pixelWidth)x\(pixelHeight) px is out of range "
                    + "(each side 1...\(Bitmap.maxSide), at most \(Bitmap.maxPixelCount) pixels)")
        }
        guard scale.isFinite, Self.scaleRange.contains(scale) else {
            throw .invalidArgument("scale", "\(scale) is outside \(Self.scaleRange)")
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(pixelHeight)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { throw .invalidArgument("cairo", "cannot create a \(pixelWidth)x\(pixelHeight) image surface") }
        guard let cr = cairo_create(surface), cairo_status(cr) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw .invalidArgument("cairo", "cannot create a drawing context")
        }
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.scale = scale
        self.surface = surface
        self.cr = cr
        cairo_scale(cr, scale, scale)
        Self.configureText(cr)
    }

    /// Creates a canvas whose starting pixels are `bitmap`'s, to draw over an existing image.
    public convenience init(bitmap: Bitmap, scale: Double = 1) throws(CanvasError) {
        try self.init(pixelWidth: bitmap.width, pixelHeight: bitmap.height, scale: scale)
        Self.copy(bitmap, into: surface)
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// The canvas size in logical px (pixel size / scale).
    public var size: (width: Double, height: Double) {
        (Double(pixelWidth) / scale, Double(pixelHeight) / scale)
    }

    // MARK: State and transforms

    /// Pushes the graphics state (transform, clip).
    public func save() { cairo_save(cr) }

    /// Pops the graphics state pushed by the matching ``save()``.
    public func restore() { cairo_restore(cr) }

    /// Runs `body` between ``save()`` and ``restore()``.
    public func withSavedState<T>(_ body: () throws -> T) rethrows -> T {
        save()
        defer { restore() }
        return try body()
    }

    /// Moves the user-space origin by (`dx`, `dy`) logical px.
    public func translate(x dx: Double, y dy: Double) {
        guard dx.isFinite, dy.isFinite else { return }
        cairo_translate(cr, dx, dy)
    }

    /// Rotates user space by `radians` (positive turns +x towards +y: clockwise on screen).
    public func rotate(by radians: Double) {
        guard radians.isFinite else { return }
        cairo_rotate(cr, radians)
    }

    /// Scales user space by (`sx`, `sy`); zero or non-finite factors are ignored.
    public func scale(x sx: Double, y sy: Double) {
        guard sx.isFinite, sy.isFinite, sx != 0, sy != 0 else { return }
        cairo_scale(cr, sx, sy)
    }

    /// Restricts later drawing to the inside of `path` (intersected with the current clip).
    public func clip(to path: CanvasPath, rule: FillRule = .nonZero) {
        setPath(path)
        cairo_set_fill_rule(cr, rule.cairo)
        cairo_clip(cr)
    }

    // MARK: Drawing

    /// Clears a rectangle (logical px, in the current transform) to transparent.
    public func clear(_ rect: CanvasRect) {
        guard rect.x.isFinite, rect.y.isFinite, rect.width.isFinite, rect.height.isFinite else { return }
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// Sets every pixel to `color` (replacing, not blending), ignoring the clip and transform.
    public func clear(_ color: RGBAColor = .clear) {
        cairo_save(cr)
        cairo_reset_clip(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Fills the inside of `path` with `paint` (source-over blending).
    public func fill(_ path: CanvasPath, with paint: Paint, rule: FillRule = .nonZero) {
        setPath(path)
        cairo_set_fill_rule(cr, rule.cairo)
        withSource(paint) { cairo_fill(cr) }
    }

    /// Fills the inside of `path` with one colour.
    public func fill(_ path: CanvasPath, color: RGBAColor, rule: FillRule = .nonZero) {
        fill(path, with: .color(color), rule: rule)
    }

    /// Strokes `path` with `paint` using `style` (width, joins, caps, dashes in logical px).
    public func stroke(_ path: CanvasPath, with paint: Paint, style: StrokeStyle) {
        guard style.width.isFinite, style.width > 0 else { return }
        setPath(path)
        cairo_set_line_width(cr, style.width)
        cairo_set_line_join(cr, style.join.cairo)
        cairo_set_line_cap(cr, style.cap.cairo)
        cairo_set_miter_limit(cr, style.miterLimit.isFinite && style.miterLimit >= 1 ? style.miterLimit : 4)
        let dash = style.dash.filter { $0.isFinite && $0 >= 0 }
        if dash.count == style.dash.count, dash.contains(where: { $0 > 0 }) {
            cairo_set_dash(cr, dash, Int32(dash.count), style.dashPhase.isFinite ? style.dashPhase : 0)
        } else {
            cairo_set_dash(cr, nil, 0, 0)
        }
        withSource(paint) { cairo_stroke(cr) }
        cairo_set_dash(cr, nil, 0, 0)
    }

    /// Strokes `path` in one colour.
    public func stroke(_ path: CanvasPath, color: RGBAColor, style: StrokeStyle) {
        stroke(path, with: .color(color), style: style)
    }

    // MARK: Output

    /// The canvas pixels as a straight-alpha ``Bitmap`` (Cairo's premultiplied samples converted).
    /// Throws when Cairo reports an error state (for example out of memory).
    public func makeBitmap() throws(CanvasError) -> Bitmap {
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .invalidArgument("cairo", String(cString: cairo_status_to_string(status)))
        }
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else {
            throw .invalidArgument("cairo", "image surface has no pixel data")
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var pixels = [UInt8](repeating: 0, count: pixelWidth * pixelHeight * 4)
        let width = pixelWidth
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<pixelHeight {
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                var o = y * width * 4
                for x in 0..<width {
                    // CAIRO_FORMAT_ARGB32: native-endian 32-bit words, premultiplied alpha.
                    let v = row[x]
                    let a = UInt8(truncatingIfNeeded: v >> 24)
                    var r = UInt8(truncatingIfNeeded: v >> 16)
                    var g = UInt8(truncatingIfNeeded: v >> 8)
                    var b = UInt8(truncatingIfNeeded: v)
                    if a != 255 {
                        if a == 0 {
                            r = 0; g = 0; b = 0
                        } else {
                            let ai = Int(a)
                            r = UInt8(min(255, (Int(r) * 255 + ai / 2) / ai))
                            g = UInt8(min(255, (Int(g) * 255 + ai / 2) / ai))
                            b = UInt8(min(255, (Int(b) * 255 + ai / 2) / ai))
                        }
                    }
                    out[o] = r; out[o + 1] = g; out[o + 2] = b; out[o + 3] = a
                    o += 4
                }
            }
        }
        do {
            return try Bitmap(width: pixelWidth, height: pixelHeight, pixels: pixels)
        } catch {
            throw .invalidArgument("bitmap", error.description)
        }
    }

    // MARK: Internals

    func setPath(_ path: CanvasPath) {
        cairo_new_path(cr)
        for element in path.elements {
            switch element {
            case .move(let p):
                cairo_move_to(cr, p.x, p.y)
            case .line(let p):
                cairo_line_to(cr, p.x, p.y)
            case .curve(let p, let c1, let c2):
                cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .quadCurve(let p, let c):
                // Degree elevation: the cubic with controls 2/3 of the way to the quadratic's control.
                var x0 = 0.0, y0 = 0.0
                if cairo_has_current_point(cr) != 0 {
                    cairo_get_current_point(cr, &x0, &y0)
                } else {
                    x0 = c.x; y0 = c.y
                }
                cairo_curve_to(
                    cr, x0 + 2 / 3 * (c.x - x0), y0 + 2 / 3 * (c.y - y0),
                    p.x + 2 / 3 * (c.x - p.x), p.y + 2 / 3 * (c.y - p.y), p.x, p.y)
            case .arc(let c, let r, let a0, let a1, let clockwise):
                if clockwise { cairo_arc(cr, c.x, c.y, r, a0, a1) } else { cairo_arc_negative(cr, c.x, c.y, r, a0, a1) }
            case .close:
                cairo_close_path(cr)
            }
        }
    }

    /// Sets `paint` as the source, runs `draw`, and releases any gradient pattern.
    func withSource(_ paint: Paint, _ draw: () -> Void) {
        switch paint {
        case .color(let c):
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
            draw()
        case .linearGradient(let g):
            guard let pattern = cairo_pattern_create_linear(g.start.x, g.start.y, g.end.x, g.end.y) else { return }
            Self.addStops(g.stops, to: pattern)
            cairo_set_source(cr, pattern)
            draw()
            cairo_pattern_destroy(pattern)
        case .radialGradient(let g):
            guard
                let pattern = cairo_pattern_create_radial(
                    g.startCenter.x, g.startCenter.y, max(0, g.startRadius),
                    g.endCenter.x, g.endCenter.y, max(0, g.endRadius))
            else { return }
            Self.addStops(g.stops, to: pattern)
            cairo_set_source(cr, pattern)
            draw()
            cairo_pattern_destroy(pattern)
        }
        cairo_new_path(cr)
    }

    static func addStops(_ stops: [GradientStop], to pattern: OpaquePointer) {
        for stop in stops where stop.offset.isFinite {
            let c = stop.color
            cairo_pattern_add_color_stop_rgba(pattern, min(1, max(0, stop.offset)), c.red, c.green, c.blue, c.alpha)
        }
    }

    /// Copies straight-alpha RGBA into a Cairo ARGB32 surface (premultiplying).
    static func copy(_ bitmap: Bitmap, into surface: OpaquePointer) {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let width = min(bitmap.width, Int(cairo_image_surface_get_width(surface)))
        let height = min(bitmap.height, Int(cairo_image_surface_get_height(surface)))
        bitmap.pixels.withUnsafeBufferPointer { src in
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                var i = y * bitmap.width * 4
                for x in 0..<width {
                    let a = UInt32(src[i + 3])
                    var r = UInt32(src[i]), g = UInt32(src[i + 1]), b = UInt32(src[i + 2])
                    if a != 255 {
                        r = (r * a + 127) / 255
                        g = (g * a + 127) / 255
                        b = (b * a + 127) / 255
                    }
                    row[x] = (a << 24) | (r << 16) | (g << 8) | b
                    i += 4
                }
            }
        }
        cairo_surface_mark_dirty(surface)
    }
}

extension FillRule {
    var cairo: cairo_fill_rule_t {
        switch self {
        case .nonZero: CAIRO_FILL_RULE_WINDING
        case .evenOdd: CAIRO_FILL_RULE_EVEN_ODD
        }
    }
}

extension CanvasLineJoin {
    var cairo: cairo_line_join_t {
        switch self {
        case .miter: CAIRO_LINE_JOIN_MITER
        case .round: CAIRO_LINE_JOIN_ROUND
        case .bevel: CAIRO_LINE_JOIN_BEVEL
        }
    }
}

extension CanvasLineCap {
    var cairo: cairo_line_cap_t {
        switch self {
        case .butt: CAIRO_LINE_CAP_BUTT
        case .round: CAIRO_LINE_CAP_ROUND
        case .square: CAIRO_LINE_CAP_SQUARE
        }
    }
}
