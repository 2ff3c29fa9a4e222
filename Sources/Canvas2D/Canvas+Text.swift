import CCairo
import CPango

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
        if Self.needsLayout(text, in: cr), let layout = Self.layout(text, font: font, in: cr) {
            // Shaped by Pango, with fontconfig's fallback fonts for what the font lacks.
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            let baseline = Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE)
            cairo_new_path(cr)
            cairo_move_to(cr, origin.x, origin.y - baseline)
            if let halo, halo.width.isFinite, halo.width > 0, halo.color.alpha > 0 {
                pango_cairo_layout_path(cr, layout)
                strokeHaloThenFill(halo, paint)
            } else {
                withSource(paint) { pango_cairo_show_layout(cr, layout) }
            }
            cairo_new_path(cr)
            return
        }
        if let halo, halo.width.isFinite, halo.width > 0, halo.color.alpha > 0 {
            cairo_new_path(cr)
            cairo_move_to(cr, origin.x, origin.y)
            cairo_text_path(cr, text)
            strokeHaloThenFill(halo, paint)
        } else {
            cairo_new_path(cr)
            cairo_move_to(cr, origin.x, origin.y)
            withSource(paint) { cairo_show_text(cr, text) }
        }
        cairo_new_path(cr)
    }

    /// The current path (glyph outlines): stroked with round joins at twice the halo's width in
    /// its colour, then filled with `paint`.
    private func strokeHaloThenFill(_ halo: TextHalo, _ paint: Paint) {
        cairo_set_line_width(cr, 2 * halo.width)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_dash(cr, nil, 0, 0)
        cairo_set_source_rgba(cr, halo.color.red, halo.color.green, halo.color.blue, halo.color.alpha)
        cairo_stroke_preserve(cr)
        withSource(paint) { cairo_fill(cr) }
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
        if needsLayout(text, in: cr), let layout = layout(text, font: font, in: cr) {
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            let scale = Double(PANGO_SCALE)
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_extents(layout, &ink, &logical)
            let baseline = Double(pango_layout_get_baseline(layout)) / scale
            return TextMetrics(
                width: Double(logical.width) / scale, ascent: baseline - Double(logical.y) / scale,
                descent: Double(logical.y + logical.height) / scale - baseline,
                inkBounds: CanvasRect(
                    x: Double(ink.x) / scale, y: Double(ink.y) / scale - baseline, width: Double(ink.width) / scale,
                    height: Double(ink.height) / scale))
        }
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

    /// Whether a line goes through Pango rather than Cairo's own text drawing: when it holds a
    /// character the font has no glyph for (CJK with DejaVu Sans: fontconfig then finds a font
    /// that has it, e.g. Droid Sans Fallback) or one of a script whose letters join, reorder or
    /// combine (Hebrew, Arabic, Syriac, Thaana, N'Ko, the Indic scripts, Thai, Lao, Tibetan,
    /// Myanmar, Khmer, Mongolian…, and the Hebrew and Arabic presentation forms). Text the font
    /// draws letter by letter, as most Latin, Greek and Cyrillic, keeps Cairo's path.
    static func needsLayout(_ text: String, in cr: OpaquePointer) -> Bool {
        for u in text.unicodeScalars {
            let v = u.value
            if (0x0590 ... 0x08FF).contains(v) || (0x0900 ... 0x0DFF).contains(v) || (0x0E00 ... 0x0FFF).contains(v)
                || (0x1000 ... 0x109F).contains(v) || (0x1780 ... 0x18AF).contains(v) || (0xA800 ... 0xABFF).contains(v)
                || (0xFB1D ... 0xFDFF).contains(v) || (0xFE70 ... 0xFEFF).contains(v) || (0x200C ... 0x200F).contains(v) {
                return true
            }
        }
        guard let font = cairo_get_scaled_font(cr) else { return false }
        var glyphs: UnsafeMutablePointer<cairo_glyph_t>?
        var count: Int32 = 0
        guard cairo_scaled_font_text_to_glyphs(font, 0, 0, text, -1, &glyphs, &count, nil, nil, nil)
            == CAIRO_STATUS_SUCCESS, let glyphs else { return false }
        defer { cairo_glyph_free(glyphs) }
        for i in 0 ..< Int(count) where glyphs[i].index == 0 { return true }
        return false
    }

    /// A Pango layout of one line in `font` for `cr` (its transform, and `configureText`'s
    /// options: grey antialiasing, no hinting, positions not rounded); nil when Pango fails.
    static func layout(_ text: String, font: Font, in cr: OpaquePointer) -> OpaquePointer? {
        guard let layout = pango_cairo_create_layout(cr) else { return nil }
        if let context = pango_layout_get_context(layout), let options = textFontOptions() {
            pango_cairo_context_set_font_options(context, options)
            cairo_font_options_destroy(options)
            pango_context_set_round_glyph_positions(context, 0)
            pango_layout_context_changed(layout)
        }
        guard let desc = pango_font_description_new() else { g_object_unref(UnsafeMutableRawPointer(layout)); return nil }
        pango_font_description_set_family(desc, font.family)
        pango_font_description_set_absolute_size(desc, font.size * Double(PANGO_SCALE))
        pango_font_description_set_weight(desc, font.weight == .bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_style(desc, font.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        pango_layout_set_font_description(layout, desc)
        pango_font_description_free(desc)
        pango_layout_set_single_paragraph_mode(layout, 1)
        pango_layout_set_text(layout, text, -1)
        return layout
    }

    /// Font sizes accepted, logical px.
    static func validSize(_ size: Double) -> Bool { size.isFinite && size > 0 && size <= 1000 }

    /// Grey antialiasing, no hinting, unhinted metrics: text looks the same at every scale and
    /// on every machine with the same font files, whatever the local fontconfig settings.
    static func configureText(_ cr: OpaquePointer) {
        guard let options = textFontOptions() else { return }
        cairo_set_font_options(cr, options)
        cairo_font_options_destroy(options)
    }

    /// New font options (the caller destroys them): grey antialiasing, no hinting, unhinted metrics.
    static func textFontOptions() -> OpaquePointer? {
        guard let options = cairo_font_options_create() else { return nil }
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        return options
    }
}

extension TextMetrics {
    static let empty = TextMetrics(
        width: 0, ascent: 0, descent: 0, inkBounds: CanvasRect(x: 0, y: 0, width: 0, height: 0))
}
