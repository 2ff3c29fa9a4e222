import CGif
import CPNGHelpers

extension Bitmap {
    /// Encodes the bitmap as an 8-bit palette PNG ("png8", Google Static Maps' default PNG):
    /// at most 256 colours (`paletted(maxColors:)`; an image of that many colours or fewer is
    /// kept exactly), alpha per palette entry, zlib `level`. Typically a third to a half of the
    /// RGBA PNG's size for a map.
    public func png8Data(maxColors: Int = 256, level: Int = 3) throws(MapImageError) -> [UInt8] {
        try Self.png8Data(paletted(maxColors: maxColors), level: level)
    }

    /// Encodes a palette image as an 8-bit palette PNG.
    public static func png8Data(_ image: PalettedImage, level: Int = 6) throws(MapImageError) -> [UInt8] {
        var out = mw_png_encoded()
        let rgba = image.palette.flatMap { [$0.r, $0.g, $0.b, $0.a] }
        let status = image.indices.withUnsafeBufferPointer { ip in
            rgba.withUnsafeBufferPointer { pp in
                mw_png_encode_palette(ip.baseAddress, UInt32(image.width), UInt32(image.height), pp.baseAddress,
                                      Int32(image.palette.count), Int32(level), &out)
            }
        }
        return try take(status, &out)
    }

    /// Encodes the bitmap as a GIF89a (giflib): at most 256 colours, as `paletted(maxColors:)`
    /// chooses them; pixels less than half opaque become the one transparent colour, the rest
    /// are drawn opaque (GIF has no partial transparency).
    public func gifData() throws(MapImageError) -> [UInt8] {
        let image = paletted(maxColors: 256, alphaCutoff: 128)
        // A GIF colour table has a power-of-two size, 2…256 entries.
        var bits = 1
        while 1 << bits < image.palette.count { bits += 1 }
        var colours = image.palette.map { GifColorType(Red: $0.r, Green: $0.g, Blue: $0.b) }
        colours += Array(repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: (1 << bits) - colours.count)
        let transparent = image.palette.firstIndex { $0.a == 0 }

        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        var error: Int32 = 0
        let write: OutputFunc = { file, data, length in
            guard let file, let data, length > 0, let user = file.pointee.UserData else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return length
        }
        guard let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), write, &error) else {
            throw .encodingFailed("giflib: \(Self.gifMessage(error))")
        }
        var closed = false
        defer { if !closed { EGifCloseFile(gif, &error) } }
        func check(_ rc: Int32) throws(MapImageError) {
            if rc != GIF_OK { throw .encodingFailed("giflib: \(Self.gifMessage(gif.pointee.Error))") }
        }
        guard let map = colours.withUnsafeBufferPointer({ GifMakeMapObject(Int32(1 << bits), $0.baseAddress) }) else {
            throw .encodingFailed("giflib: out of memory")
        }
        defer { GifFreeMapObject(map) }
        EGifSetGifVersion(gif, true)
        try check(EGifPutScreenDesc(gif, Int32(width), Int32(height), Int32(bits), 0, map))
        if let t = transparent {
            // Graphics control: transparent colour flag, no delay, the index.
            var block: [UInt8] = [0x01, 0, 0, UInt8(t)]
            try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, &block))
        }
        try check(EGifPutImageDesc(gif, 0, 0, Int32(width), Int32(height), false, nil))
        var row = [GifPixelType](repeating: 0, count: width)
        for y in 0 ..< height {
            for x in 0 ..< width { row[x] = image.indices[y * width + x] }
            try check(EGifPutLine(gif, &row, Int32(width)))
        }
        closed = true
        guard EGifCloseFile(gif, &error) == GIF_OK else { throw .encodingFailed("giflib: \(Self.gifMessage(error))") }
        return sink.bytes
    }

    private static func gifMessage(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
