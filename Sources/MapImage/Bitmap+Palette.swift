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
        var bytes: [UInt8] = []
        let stream = try GIFStream(width: width, height: height, loops: nil) { bytes += $0 }
        try stream.add(paletted(maxColors: 256, alphaCutoff: 128), delay: nil)
        try stream.close()
        return bytes
    }

}

/// A GIF89a being written with giflib, image by image, each with its own colour table; the
/// bytes go to `emit` as giflib produces them.
final class GIFStream {
    private final class Output {
        let emit: ([UInt8]) throws(MapImageError) -> Void
        var failure: MapImageError?
        init(_ emit: @escaping ([UInt8]) throws(MapImageError) -> Void) { self.emit = emit }
    }
    private let output: Output
    private var gif: UnsafeMutablePointer<GifFileType>?
    let width: Int, height: Int

    /// `loops`: true to play forever (the NETSCAPE2.0 extension); false or nil (a still) to play
    /// once.
    init(width: Int, height: Int, loops: Bool?, emit: @escaping ([UInt8]) throws(MapImageError) -> Void) throws(MapImageError) {
        guard (1 ... 65535).contains(width), (1 ... 65535).contains(height) else {
            throw .encodingFailed("a GIF is at most 65535 px a side, not \(width)x\(height)")
        }
        self.width = width; self.height = height
        output = Output(emit)
        var error: Int32 = 0
        let write: OutputFunc = { file, data, length in
            guard let file, let data, length > 0, let user = file.pointee.UserData else { return 0 }
            let out = Unmanaged<Output>.fromOpaque(user).takeUnretainedValue()
            guard out.failure == nil else { return 0 }
            do throws(MapImageError) { try out.emit(Array(UnsafeBufferPointer(start: data, count: Int(length)))) } catch {
                out.failure = error
                return 0
            }
            return length
        }
        guard let g = EGifOpen(Unmanaged.passUnretained(output).toOpaque(), write, &error) else {
            throw .encodingFailed("giflib: \(Self.message(error))")
        }
        gif = g
        EGifSetGifVersion(g, true)
        do {
            try check(EGifPutScreenDesc(g, Int32(width), Int32(height), 8, 0, nil))
            if loops == true {
                // The application extension players read as "repeat": count 0 is forever. (A
                // count of 1 would mean one repeat, two plays; without it a GIF plays once.)
                var app = Array("NETSCAPE2.0".utf8)
                var rep: [UInt8] = [0x01, 0, 0]
                try check(EGifPutExtensionLeader(g, APPLICATION_EXT_FUNC_CODE))
                try check(EGifPutExtensionBlock(g, Int32(app.count), &app))
                try check(EGifPutExtensionBlock(g, Int32(rep.count), &rep))
                try check(EGifPutExtensionTrailer(g))
            }
        } catch {
            abandon()
            throw error
        }
    }

    deinit { abandon() }

    private func check(_ rc: Int32) throws(MapImageError) {
        guard rc != GIF_OK else { return }
        if let failure = output.failure { throw failure }
        throw .encodingFailed("giflib: \(Self.message(gif?.pointee.Error ?? 0))")
    }

    /// Appends an image: `delay` in hundredths of a second for an animation's frame (each frame
    /// replaces the last: disposal "restore to background"), nil for a still.
    func add(_ image: PalettedImage, delay: Int?) throws(MapImageError) {
        guard let g = gif else { throw .encodingFailed("GIF already closed") }
        guard image.width == width, image.height == height else {
            throw .encodingFailed("image is \(image.width)x\(image.height), the GIF \(width)x\(height)")
        }
        // A colour table has a power-of-two size, 2…256 entries.
        var bits = 1
        while 1 << bits < image.palette.count { bits += 1 }
        var colours = image.palette.map { GifColorType(Red: $0.r, Green: $0.g, Blue: $0.b) }
        colours += Array(repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: (1 << bits) - colours.count)
        guard let map = colours.withUnsafeBufferPointer({ GifMakeMapObject(Int32(1 << bits), $0.baseAddress) }) else {
            throw .encodingFailed("giflib: out of memory")
        }
        defer { GifFreeMapObject(map) }
        let transparent = image.palette.firstIndex { $0.a == 0 }
        if transparent != nil || delay != nil {
            // Graphics control: disposal and transparency flags, delay, transparent index.
            let d = UInt16(clamping: delay ?? 0)
            var block: [UInt8] = [UInt8(delay != nil ? 2 << 2 : 0) | (transparent != nil ? 1 : 0),
                                  UInt8(d & 0xFF), UInt8(d >> 8), UInt8(transparent ?? 0)]
            try check(EGifPutExtension(g, GRAPHICS_EXT_FUNC_CODE, 4, &block))
        }
        try check(EGifPutImageDesc(g, 0, 0, Int32(width), Int32(height), false, map))
        var row = [GifPixelType](repeating: 0, count: width)
        for y in 0 ..< height {
            for x in 0 ..< width { row[x] = image.indices[y * width + x] }
            try check(EGifPutLine(g, &row, Int32(width)))
        }
    }

    /// Writes the trailer.
    func close() throws(MapImageError) {
        guard let g = gif else { return }
        gif = nil
        var error: Int32 = 0
        guard EGifCloseFile(g, &error) == GIF_OK else {
            if let failure = output.failure { throw failure }
            throw .encodingFailed("giflib: \(Self.message(error))")
        }
        if let failure = output.failure { throw failure }
    }

    /// Frees giflib's state without finishing the file.
    func abandon() {
        guard let g = gif else { return }
        gif = nil
        var error: Int32 = 0
        output.failure = output.failure ?? .encodingFailed("abandoned")
        EGifCloseFile(g, &error)
    }

    static func message(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
    }
}

/// An animated GIF (GIF89a with the NETSCAPE2.0 loop extension): each frame quantised to its
/// own 256 colours (`Bitmap.paletted`), pixels less than half opaque transparent, delays in
/// hundredths of a second spread so that frame N starts at the hundredth nearest N / fps.
/// Written to a temporary file renamed into place, like `APNGWriter`.
public final class GIFWriter: FrameSink {
    public let path: String
    public let width: Int, height: Int
    public let frameCount: Int
    /// GIF players slow frames shorter than 2 hundredths of a second down to 10 (browsers do).
    public static let maxFPS = 50.0
    private let fps: Double
    private let file: PendingFile
    private var stream: GIFStream?
    private var frames: DeclaredFrames

    public init(path: String, width: Int, height: Int, frameCount: Int, fps: Double, loops: Bool = true) throws(MapImageError) {
        guard frameCount >= 1 else { throw .encoding(path, "a GIF needs at least one frame") }
        guard fps.isFinite, fps > 0, fps <= Self.maxFPS else {
            throw .encoding(path, "GIF frames last whole hundredths of a second and players slow those under 0.02 s: "
                            + "\(fps == fps.rounded() ? String(Int(fps)) : String(fps)) fps is over \(Int(Self.maxFPS)) (write .apng, .mp4 or .webm for faster frame rates)")
        }
        self.path = path; self.width = width; self.height = height; self.frameCount = frameCount; self.fps = fps
        frames = DeclaredFrames(path: path, width: width, height: height, count: frameCount)
        file = try PendingFile(path: path)
        let file = self.file
        do {
            stream = try GIFStream(width: width, height: height, loops: loops) { bytes throws(MapImageError) in try file.write(bytes) }
        } catch {
            file.discard()
            throw .encoding(path, "\(error)")
        }
    }

    /// Hundredths of a second from frame `n`'s start to the next's.
    func delay(ofFrame n: Int) -> Int {
        func start(_ k: Int) -> Int { Int((Double(k) * 100 / fps).rounded()) }
        return max(1, start(n + 1) - start(n))
    }

    public func write(_ frame: Bitmap) throws(MapImageError) {
        try frames.check(frame)
        guard let stream else { throw .encoding(path, "frame written after finish") }
        let n = frames.written
        do { try stream.add(frame.paletted(maxColors: 256, alphaCutoff: 128), delay: delay(ofFrame: n)) } catch {
            abort()
            throw .encoding(path, "frame \(n): \(error)")
        }
        frames.wrote()
    }

    public func finish() throws(MapImageError) {
        guard !frames.closed else { return }
        do { try frames.checkComplete() } catch { abort(); throw error }
        do { try stream?.close() } catch { abort(); throw .encoding(path, "\(error)") }
        stream = nil
        frames.closed = true
        try file.commit()
    }

    public func abort() {
        frames.closed = true
        stream?.abandon()
        stream = nil
        file.discard()
    }
}
