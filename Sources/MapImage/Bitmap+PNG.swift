import CPNGHelpers

extension Bitmap {
    /// Encodes the bitmap as a PNG byte stream (lossless; ``PNGOptions/fast`` by default).
    /// An opaque bitmap is written as RGB when `options.dropOpaqueAlpha` is set.
    ///
    /// With filter `.none` (the default) the image is deflated in horizontal bands on up to
    /// `options.threads` threads and written by MapImage's own PNG writer (one zlib stream, so any
    /// decoder reads it); other filters go through libpng on the calling thread.
    public func pngData(options: PNGOptions = .fast) throws(MapImageError) -> [UInt8] {
        var out = mw_png_encoded()
        let w = UInt32(width), h = UInt32(height)
        let status = pixels.withUnsafeBufferPointer { p in
            let dropAlpha: Int32 = options.dropOpaqueAlpha && mw_png_is_opaque(p.baseAddress, w, h, width * 4) != 0 ? 1 : 0
            if options.filter == .none {
                return mw_png_encode_bands(
                    p.baseAddress, w, h, width * 4, dropAlpha, options.cLevel, options.strategy.cValue,
                    options.cThreads, &out)
            }
            return mw_png_encode(
                p.baseAddress, w, h, width * 4, dropAlpha, options.cLevel, options.filter.cValue,
                options.strategy.cValue, &out)
        }
        return try Self.take(status, &out)
    }

    /// The bytes of a C encoder's result (freed here), or its message as the error.
    static func take(_ status: Int32, _ out: inout mw_png_encoded) throws(MapImageError) -> [UInt8] {
        defer { mw_png_free(out.data) }
        guard status == 0, let data = out.data else {
            throw .encodingFailed(message(&out.message))
        }
        return [UInt8](UnsafeBufferPointer(start: data, count: out.size))
    }

    /// Decodes a PNG byte stream of any colour type and bit depth into straight-alpha RGBA8.
    ///
    /// 16-bit samples are scaled to 8 bits; palettes, grey and `tRNS` transparency are expanded;
    /// gamma and colour-profile chunks are ignored (samples are taken as sRGB). Throws
    /// ``MapImageError/Kind/invalidPNG`` for anything that is not a well-formed PNG within
    /// ``Bitmap/maxSide`` and ``Bitmap/maxPixelCount``.
    public init(pngData: [UInt8]) throws(MapImageError) {
        try self.init(pngData: pngData, path: nil)
    }

    init(pngData: [UInt8], path: String?) throws(MapImageError) {
        // The size the header declares, checked first so that the error says it (libpng's own
        // limit check only says "Invalid IHDR data"). Signature (8), IHDR length and type (8),
        // then width and height, big-endian.
        if pngData.count >= 24, pngData[12 ..< 16].elementsEqual("IHDR".utf8) {
            func be(_ i: Int) -> Int { pngData[i ..< i + 4].reduce(0) { $0 << 8 | Int($1) } }
            let w = be(16), h = be(20)
            if w > Bitmap.maxSide || h > Bitmap.maxSide || w * h > Bitmap.maxPixelCount {
                throw .invalidPNG("PNG declares \(w)x\(h) pixels, over the limit (each side 1...\(Bitmap.maxSide) px, "
                    + "at most \(Bitmap.maxPixelCount) pixels)", path: path)
            }
        }
        var out = mw_png_decoded()
        let status = pngData.withUnsafeBufferPointer { p in
            mw_png_decode(p.baseAddress, p.count, UInt32(Bitmap.maxSide), UInt64(Bitmap.maxPixelCount), &out)
        }
        defer { mw_png_free(out.rgba) }
        guard status == 0, let rgba = out.rgba else {
            throw .invalidPNG(Self.message(&out.message), path: path)
        }
        let count = Int(out.width) * Int(out.height) * 4
        try self.init(
            width: Int(out.width), height: Int(out.height),
            pixels: [UInt8](UnsafeBufferPointer(start: rgba, count: count)))
    }

    /// Reads and decodes the PNG file at `path`.
    public init(contentsOfPNGFile path: String) throws(MapImageError) {
        let bytes = try AtomicFile.read(path)
        try self.init(pngData: bytes, path: path)
    }

    /// Encodes the bitmap and writes it to `path` atomically (see ``AtomicFile/write(_:to:)``):
    /// on any failure nothing is left at `path` and no temporary file remains.
    public func writePNG(to path: String, options: PNGOptions = .fast) throws(MapImageError) {
        let data = try pngData(options: options)
        try AtomicFile.write(data, to: path)
    }

    /// Copies a NUL-terminated C message buffer into a String.
    static func message<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.isEmpty ? "unknown libpng error" : text
        }
    }
}

extension PNGOptions {
    /// The compression level for the C encoders, clamped to 0…9.
    var cLevel: Int32 { Int32(max(0, min(9, compressionLevel))) }
    /// The thread (band) count for the C encoders, clamped to 0…8 (0: one per CPU).
    var cThreads: Int32 { Int32(max(0, min(8, threads))) }
}

extension PNGOptions.Filter {
    var cValue: Int32 {
        switch self {
        case .none: Int32(MW_PNG_FILTER_NONE)
        case .sub: Int32(MW_PNG_FILTER_SUB)
        case .up: Int32(MW_PNG_FILTER_UP)
        case .average: Int32(MW_PNG_FILTER_AVG)
        case .paeth: Int32(MW_PNG_FILTER_PAETH)
        case .adaptive: Int32(MW_PNG_FILTER_ADAPTIVE)
        }
    }
}

extension PNGOptions.Strategy {
    var cValue: Int32 {
        switch self {
        case .default: Int32(MW_PNG_STRATEGY_DEFAULT)
        case .filtered: Int32(MW_PNG_STRATEGY_FILTERED)
        case .runLength: Int32(MW_PNG_STRATEGY_RLE)
        }
    }
}
