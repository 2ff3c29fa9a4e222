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
        if Self.needsLayout(text, in: cr), let (pango, layout) = Self.layout(text, font: font, in: cr) {
            // Shaped by Pango, with fontconfig's fallback fonts for what the font lacks.
            defer { pango.objectUnref(layout) }
            let baseline = Double(pango.layoutGetBaseline(layout)) / PangoLibrary.scale
            cairo_new_path(cr)
            cairo_move_to(cr, origin.x, origin.y - baseline)
            if let halo, halo.width.isFinite, halo.width > 0, halo.color.alpha > 0 {
                pango.layoutPath(cr, layout)
                strokeHaloThenFill(halo, paint)
            } else {
                withSource(paint) { pango.showLayout(cr, layout) }
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

    /// The pen's advance after each character (grapheme cluster) of one line of `text` in `font`
    /// (logical px; the last is the line's width), or nil for text drawn through Pango (joined,
    /// reordered or substituted glyphs have no per-character boundaries to cut at).
    public static func characterAdvances(_ text: String, font: Font = Font()) -> [Double]? {
        guard validSize(font.size), !text.isEmpty,
              let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return nil }
        defer { cairo_destroy(cr) }
        configureText(cr)
        select(font, in: cr)
        if needsLayout(text, in: cr) { return nil }
        var out: [Double] = []
        var prefix = ""
        var extents = cairo_text_extents_t()
        for c in text {
            prefix.append(c)
            cairo_text_extents(cr, prefix, &extents)
            out.append(extents.x_advance)
        }
        return out
    }

    static func measure(_ text: String, font: Font, in cr: OpaquePointer) -> TextMetrics {
        guard validSize(font.size) else { return .empty }
        select(font, in: cr)
        if needsLayout(text, in: cr), let (pango, layout) = layout(text, font: font, in: cr) {
            defer { pango.objectUnref(layout) }
            let scale = PangoLibrary.scale
            // PangoRectangles: x, y, width, height.
            var ink = [Int32](repeating: 0, count: 4), logical = [Int32](repeating: 0, count: 4)
            pango.layoutGetExtents(layout, &ink, &logical)
            let baseline = Double(pango.layoutGetBaseline(layout)) / scale
            return TextMetrics(
                width: Double(logical[2]) / scale, ascent: baseline - Double(logical[1]) / scale,
                descent: Double(logical[1] + logical[3]) / scale - baseline,
                inkBounds: CanvasRect(
                    x: Double(ink[0]) / scale, y: Double(ink[1]) / scale - baseline, width: Double(ink[2]) / scale,
                    height: Double(ink[3]) / scale))
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
    /// options: grey antialiasing, no hinting, positions not rounded), with the library that
    /// made it (the caller unrefs the layout); nil when Pango is missing or fails.
    static func layout(_ text: String, font: Font, in cr: OpaquePointer) -> (PangoLibrary, OpaquePointer)? {
        guard let pango = PangoLibrary.shared, let layout = pango.createLayout(cr) else { return nil }
        if let context = pango.layoutGetContext(layout), let options = textFontOptions() {
            pango.contextSetFontOptions(context, options)
            cairo_font_options_destroy(options)
            pango.contextSetRoundGlyphPositions(context, 0)
            pango.layoutContextChanged(layout)
        }
        guard let desc = pango.fontDescriptionNew() else { pango.objectUnref(layout); return nil }
        pango.fontDescriptionSetFamily(desc, font.family)
        pango.fontDescriptionSetAbsoluteSize(desc, font.size * PangoLibrary.scale)
        pango.fontDescriptionSetWeight(desc, font.weight == .bold ? PangoLibrary.weightBold : PangoLibrary.weightNormal)
        pango.fontDescriptionSetStyle(desc, font.italic ? PangoLibrary.styleItalic : PangoLibrary.styleNormal)
        pango.layoutSetFontDescription(layout, desc)
        pango.fontDescriptionFree(desc)
        pango.layoutSetSingleParagraphMode(layout, 1)
        pango.layoutSetText(layout, text, -1)
        return (pango, layout)
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
