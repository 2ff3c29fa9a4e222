import CPNGHelpers

/// Encodes successive frames of one size as PNGs, re-using the work of the previous frame.
///
/// Each frame is cut into the same horizontal bands of about 64 KiB of scanlines, and each band
/// is deflated on its own (as ``Bitmap/pngData(options:)`` does with filter `.none`). The encoder
/// keeps every band's compressed bytes with a copy of its pixels, and a band whose pixels are
/// exactly the previous frame's re-uses its bytes: an animation in which a pulse or a marker
/// moves deflates only the bands it touches. The output is byte-identical to what a fresh encoder
/// writes for the same frame. Other filters than `.none` are encoded afresh every frame.
///
/// Not thread-safe: one frame at a time.
public final class PNGFrameEncoder {
    private let state: OpaquePointer
    /// Encoding options; ``PNGOptions/dropOpaqueAlpha`` writes an opaque frame as RGB.
    public var options: PNGOptions
    /// Bands re-used and bands in all, over every frame so far.
    public private(set) var reusedBands = 0, totalBands = 0

    public init(options: PNGOptions = .fast) {
        self.options = options
        state = mw_png_frames_new()
    }

    deinit { mw_png_frames_free(state) }

    /// The PNG byte stream of `frame`.
    public func encode(_ frame: Bitmap) throws(MapImageError) -> [UInt8] { try encode(frame, opaque: nil) }

    /// As `encode(_:)`, with whether the frame is opaque when the caller already knows.
    func encode(_ frame: Bitmap, opaque: Bool?) throws(MapImageError) -> [UInt8] {
        guard options.filter == .none else { return try frame.pngData(options: options) }
        var out = mw_png_encoded()
        var reused: UInt32 = 0, total: UInt32 = 0
        let w = UInt32(frame.width), h = UInt32(frame.height)
        let status = frame.pixels.withUnsafeBufferPointer { p in
            let isOpaque = { opaque ?? (mw_png_is_opaque(p.baseAddress, w, h, frame.width * 4) != 0) }
            let dropAlpha: Int32 = options.dropOpaqueAlpha && isOpaque() ? 1 : 0
            return mw_png_frames_encode(state, p.baseAddress, w, h, frame.width * 4, dropAlpha, options.cLevel,
                                        options.strategy.cValue, options.cThreads, &out, &reused, &total)
        }
        let png = try Bitmap.take(status, &out)
        reusedBands += Int(reused)
        totalBands += Int(total)
        return png
    }
}
