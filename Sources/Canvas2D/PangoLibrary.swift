import Foundation

/// Pango (with pangocairo), loaded with `dlopen` the first time a line of text needs it rather
/// than linked: Pango brings HarfBuzz, FriBidi, GLib, GObject, libthai and more, whose
/// relocations cost every process of the CLI about 15 million instructions in the dynamic
/// loader at start-up (measured with callgrind: a cold `mapwright render` of Latin labels went
/// from 449 to 465 million instructions when Pango was linked), although most maps never draw
/// a character Cairo's own text path cannot.
///
/// The functions are declared here with their C types (every Pango object is a pointer, its
/// enums and `gboolean` are C `int`s, `PangoRectangle` four `int`s), so no Pango headers are
/// needed to build. Without the library (Debian's `libpangocairo-1.0-0`), text falls back to
/// Cairo's path: missing glyphs show as boxes and complex scripts are not shaped.
struct PangoLibrary: @unchecked Sendable {
    typealias Object = OpaquePointer

    /// Pango units per device unit (`PANGO_SCALE`).
    static let scale = 1024.0
    /// `PangoWeight` and `PangoStyle` values (`PANGO_WEIGHT_NORMAL`, `_BOLD`; `PANGO_STYLE_NORMAL`, `_ITALIC`).
    static let weightNormal: Int32 = 400, weightBold: Int32 = 700
    static let styleNormal: Int32 = 0, styleItalic: Int32 = 2

    let createLayout: @convention(c) (Object?) -> Object?                       // pango_cairo_create_layout(cairo_t *)
    let layoutGetContext: @convention(c) (Object?) -> Object?
    let contextSetFontOptions: @convention(c) (Object?, Object?) -> Void        // pango_cairo_context_set_font_options
    let contextSetRoundGlyphPositions: @convention(c) (Object?, Int32) -> Void
    let layoutContextChanged: @convention(c) (Object?) -> Void
    let fontDescriptionNew: @convention(c) () -> Object?
    let fontDescriptionSetFamily: @convention(c) (Object?, UnsafePointer<CChar>?) -> Void
    let fontDescriptionSetAbsoluteSize: @convention(c) (Object?, Double) -> Void
    let fontDescriptionSetWeight: @convention(c) (Object?, Int32) -> Void
    let fontDescriptionSetStyle: @convention(c) (Object?, Int32) -> Void
    let fontDescriptionFree: @convention(c) (Object?) -> Void
    let layoutSetFontDescription: @convention(c) (Object?, Object?) -> Void
    let layoutSetSingleParagraphMode: @convention(c) (Object?, Int32) -> Void
    let layoutSetText: @convention(c) (Object?, UnsafePointer<CChar>?, Int32) -> Void
    /// `pango_layout_get_extents(layout, PangoRectangle *ink, PangoRectangle *logical)`: each
    /// rectangle four `int`s, x, y, width, height in Pango units.
    let layoutGetExtents: @convention(c) (Object?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void
    let layoutGetBaseline: @convention(c) (Object?) -> Int32
    let showLayout: @convention(c) (Object?, Object?) -> Void                  // pango_cairo_show_layout(cairo_t *, layout)
    let layoutPath: @convention(c) (Object?, Object?) -> Void                  // pango_cairo_layout_path(cairo_t *, layout)
    let objectUnref: @convention(c) (Object?) -> Void                          // g_object_unref

    /// The shared object's name (Debian's `libpangocairo-1.0-0`).
    static let soname = "libpangocairo-1.0.so.0"

    /// Loaded once per process, on first use; nil when the library or a function is missing.
    static let shared: PangoLibrary? = load()

    private static func load() -> PangoLibrary? {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else { return nil }
        // dlsym on the handle also searches its dependencies (pango, gobject) in load order.
        func f<T>(_ name: String, _: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
        }
        guard
            let createLayout = f("pango_cairo_create_layout", (@convention(c) (Object?) -> Object?).self),
            let layoutGetContext = f("pango_layout_get_context", (@convention(c) (Object?) -> Object?).self),
            let contextSetFontOptions = f("pango_cairo_context_set_font_options", (@convention(c) (Object?, Object?) -> Void).self),
            let contextSetRound = f("pango_context_set_round_glyph_positions", (@convention(c) (Object?, Int32) -> Void).self),
            let layoutContextChanged = f("pango_layout_context_changed", (@convention(c) (Object?) -> Void).self),
            let descNew = f("pango_font_description_new", (@convention(c) () -> Object?).self),
            let descFamily = f("pango_font_description_set_family", (@convention(c) (Object?, UnsafePointer<CChar>?) -> Void).self),
            let descSize = f("pango_font_description_set_absolute_size", (@convention(c) (Object?, Double) -> Void).self),
            let descWeight = f("pango_font_description_set_weight", (@convention(c) (Object?, Int32) -> Void).self),
            let descStyle = f("pango_font_description_set_style", (@convention(c) (Object?, Int32) -> Void).self),
            let descFree = f("pango_font_description_free", (@convention(c) (Object?) -> Void).self),
            let setDesc = f("pango_layout_set_font_description", (@convention(c) (Object?, Object?) -> Void).self),
            let singleParagraph = f("pango_layout_set_single_paragraph_mode", (@convention(c) (Object?, Int32) -> Void).self),
            let setText = f("pango_layout_set_text", (@convention(c) (Object?, UnsafePointer<CChar>?, Int32) -> Void).self),
            let extents = f(
                "pango_layout_get_extents",
                (@convention(c) (Object?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void).self),
            let baseline = f("pango_layout_get_baseline", (@convention(c) (Object?) -> Int32).self),
            let show = f("pango_cairo_show_layout", (@convention(c) (Object?, Object?) -> Void).self),
            let path = f("pango_cairo_layout_path", (@convention(c) (Object?, Object?) -> Void).self),
            let unref = f("g_object_unref", (@convention(c) (Object?) -> Void).self)
        else { return nil }
        return PangoLibrary(
            createLayout: createLayout, layoutGetContext: layoutGetContext, contextSetFontOptions: contextSetFontOptions,
            contextSetRoundGlyphPositions: contextSetRound, layoutContextChanged: layoutContextChanged,
            fontDescriptionNew: descNew, fontDescriptionSetFamily: descFamily, fontDescriptionSetAbsoluteSize: descSize,
            fontDescriptionSetWeight: descWeight, fontDescriptionSetStyle: descStyle, fontDescriptionFree: descFree,
            layoutSetFontDescription: setDesc, layoutSetSingleParagraphMode: singleParagraph, layoutSetText: setText,
            layoutGetExtents: extents, layoutGetBaseline: baseline, showLayout: show, layoutPath: path,
            objectUnref: unref)
    }
}
