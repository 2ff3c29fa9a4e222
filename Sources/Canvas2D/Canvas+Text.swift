import CCairo

extension Canvas {
    /// Draws one line of `text` with its pen origin (left end of the baseline) at `origin`
    /// (logical px), optionally over a `halo`: the glyph outlines stroked with round joins at
    /// twice the halo width in the halo colour, then the glyphs filled with `paint`.
    public func drawText(
        _ text: String, at origin: CanvasPoint, font: Font = Font(), paint: Paint = .color(.black),
        halo: TextHalo? = nil
    ) {
        guard origin.isFinite, !text.isEmpty, Self.validSize(font.size) else { return }
        Self.select(font, in: cr)
        if let halo, halo.width.isFinite, halo.width > 0, halo.color.alpha > 0 {
            cairo_new_path(cr)
            cairo_move_to(cr, origin.x, origin.y)
            cairo_text_path(cr, text)
            cairo_set_line_width(cr, 2 * halo.width)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_set_dash(cr, nil, 0, 0)
            cairo_set_source_rgba(cr, halo.color.red, halo.color.green, halo.color.blue, halo.color.alpha)
            cairo_stroke_preserve(cr)
            withSource(paint) { cairo_fill(cr) }
        } else {
            cairo_new_path(cr)
            cairo_move_to(cr, origin.x, origin.y)
            withSource(paint) { cairo_show_text(cr, text) }
        }
        cairo_new_path(cr)
    }

    /// Draws one line of text in one colour.
    public func drawText(
        _ text: String, at origin: CanvasPoint, font: Font = Font(), color: RGBAColor,
        halo: TextHalo? = nil
    ) {
        drawText(text, at: origin, font: font, paint: .color(color), halo: halo)
    }

    /// Measures one line of `text` in `font` (logical px, independent of the canvas scale).
    public func measure(_ text: String, font: Font = Font()) -> TextMetrics {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_identity_matrix(cr)
        return Self.measure(text, font: font, in: cr)
    }

    /// Measures one line of `text` in `font` without a canvas (logical px).
    public static func measure(_ text: String, font: Font = Font()) -> TextMetrics {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) else { return .empty }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return .empty }
        defer { cairo_destroy(cr) }
        configureText(cr)
        return measure(text, font: font, in: cr)
    }

    static func measure(_ text: String, font: Font, in cr: OpaquePointer) -> TextMetrics {
        guard validSize(font.size) else { return .empty }
        select(font, in: cr)
        var fontExtents = cairo_font_extents_t()
        cairo_font_extents(cr, &fontExtents)
        var extents = cairo_text_extents_t()
        if !text.isEmpty { cairo_text_extents(cr, text, &extents) }
        return TextMetrics(
            width: extents.x_advance, ascent: fontExtents.ascent, descent: fontExtents.descent,
            inkBounds: CanvasRect(
                x: extents.x_bearing, y: extents.y_bearing, width: extents.width,
                height: extents.height))
    }

    static func select(_ font: Font, in cr: OpaquePointer) {
        cairo_select_font_face(
            cr, font.family, font.italic ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
            font.weight == .bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, font.size)
    }

    /// Font sizes accepted, logical px.
    static func validSize(_ size: Double) -> Bool { size.isFinite && size > 0 && size <= 1000 }

    /// Grey antialiasing, no hinting, unhinted metrics: text looks the same at every scale and
    /// on every machine with the same font files, whatever the local fontconfig settings.
    static func configureText(_ cr: OpaquePointer) {
        guard let options = cairo_font_options_create() else { return }
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_set_font_options(cr, options)
        cairo_font_options_destroy(options)
    }
}

extension TextMetrics {
    static let empty = TextMetrics(
        width: 0, ascent: 0, descent: 0, inkBounds: CanvasRect(x: 0, y: 0, width: 0, height: 0))
}
