import CTurboJPEG
import CWebP
import CPNGHelpers

/// The raster formats Mapwright decodes (tiles, image overlays: PNG, JPEG, WebP) and encodes
/// (`render -o`, the server's answers: those, palette PNG and GIF).
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    /// PNG, RGBA (or RGB when opaque).
    case png
    case jpeg, webp
    /// PNG with a palette of at most 256 colours (`Bitmap.png8Data`): written, and read as PNG.
    case png8
    /// GIF89a, at most 256 colours and one transparent (`Bitmap.gifData`): written, not read.
    case gif

    /// `png`, `png8`, `jpg` (or `jpeg`), `webp` or `gif`, in any case; nil for anything else.
    public static func named(_ name: String) -> ImageFormat? {
        switch name.lowercased() {
        case "png": .png
        case "png8": .png8
        case "jpg", "jpeg": .jpeg
        case "webp": .webp
        case "gif": .gif
        default: nil
        }
    }

    /// The format a file name's extension names (`.png`, `.jpg`/`.jpeg`, `.webp`, `.gif`, any
    /// case); nil when it has another extension, or none.
    public static func forPath(_ path: String) -> ImageFormat? {
        fileExtension(of: path).flatMap(named)
    }

    /// The extension of the path's last component, without the dot (`"webp"` for `a/map.webp`);
    /// nil when it has none (a leading dot, as in `.hidden`, is not one).
    public static func fileExtension(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return String(name[name.index(after: dot)...])
    }

    /// The media type.
    public var contentType: String {
        switch self {
        case .png, .png8: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        case .gif: "image/gif"
        }
    }

    /// Tells the format from the first bytes (magic numbers), or nil.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.count >= 8, bytes[0 ..< 8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        if bytes.count >= 12, bytes[0 ..< 4].elementsEqual(Array("RIFF".utf8)), bytes[8 ..< 12].elementsEqual(Array("WEBP".utf8)) {
            return .webp
        }
        if bytes.count >= 6, bytes[0 ..< 6].elementsEqual(Array("GIF87a".utf8)) || bytes[0 ..< 6].elementsEqual(Array("GIF89a".utf8)) {
            return .gif
        }
        return nil
    }
}

extension Bitmap {
    /// Decodes PNG, JPEG (libjpeg-turbo) or WebP (libwebp) bytes, told apart by their magic
    /// numbers, into straight-alpha RGBA8. Throws `invalidImage` for anything else, for a damaged
    /// stream, or for one that declares more than ``maxSide`` a side or ``maxPixelCount`` pixels
    /// (checked from the header, before any pixel memory is taken).
    public init(imageData bytes: [UInt8], path: String? = nil) throws(MapImageError) {
        switch ImageFormat.sniff(bytes) {
        case .png, .png8: try self.init(pngData: bytes, path: path)
        case .jpeg: try self.init(jpegData: bytes, path: path)
        case .webp: try self.init(webpData: bytes, path: path)
        case .gif: throw .invalidImage("a GIF: Mapwright writes GIFs but reads PNG, JPEG and WebP (convert it to PNG)", path: path)
        case nil:
            let what = bytes.isEmpty ? "no bytes" : "not a PNG, JPEG or WebP image (\(bytes.count) bytes)"
            throw .invalidImage(what, path: path)
        }
    }

    /// Reads and decodes a PNG, JPEG or WebP file.
    public init(contentsOfImageFile path: String) throws(MapImageError) {
        try self.init(imageData: try AtomicFile.read(path), path: path)
    }

    /// Decodes a baseline or progressive JPEG (greyscale, YCbCr or CMYK) with libjpeg-turbo.
    public init(jpegData bytes: [UInt8], path: String? = nil) throws(MapImageError) {
        guard let handle = tjInitDecompress() else { throw .invalidImage("libjpeg-turbo did not start", path: path) }
        defer { tjDestroy(handle) }
        var w: Int32 = 0, h: Int32 = 0, sub: Int32 = 0, space: Int32 = 0
        let header = bytes.withUnsafeBufferPointer { p in
            tjDecompressHeader3(handle, p.baseAddress, UInt(p.count), &w, &h, &sub, &space)
        }
        guard header == 0 else { throw .invalidImage("JPEG header: " + Self.tjMessage(handle), path: path) }
        try Self.checkDeclared(width: Int(w), height: Int(h), format: "JPEG", path: path)
        var pixels = [UInt8](repeating: 0, count: Int(w) * Int(h) * 4)
        let rc = bytes.withUnsafeBufferPointer { p in
            pixels.withUnsafeMutableBufferPointer { out in
                tjDecompress2(handle, p.baseAddress, UInt(p.count), out.baseAddress, w, 0, h, Int32(TJPF_RGBA.rawValue),
                              TJFLAG_ACCURATEDCT)
            }
        }
        // Warnings (a few missing bytes at the end) still give an image; errors do not.
        if rc != 0, tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) {
            throw .invalidImage("JPEG data: " + Self.tjMessage(handle), path: path)
        }
        try self.init(width: Int(w), height: Int(h), pixels: pixels)
    }

    /// Decodes a lossy or lossless WebP (with alpha) with libwebp.
    public init(webpData bytes: [UInt8], path: String? = nil) throws(MapImageError) {
        var w: Int32 = 0, h: Int32 = 0
        let ok = bytes.withUnsafeBufferPointer { WebPGetInfo($0.baseAddress, $0.count, &w, &h) }
        guard ok != 0 else { throw .invalidImage("WebP header is damaged", path: path) }
        try Self.checkDeclared(width: Int(w), height: Int(h), format: "WebP", path: path)
        var pixels = [UInt8](repeating: 0, count: Int(w) * Int(h) * 4)
        let decoded = bytes.withUnsafeBufferPointer { p in
            pixels.withUnsafeMutableBufferPointer { out in
                WebPDecodeRGBAInto(p.baseAddress, p.count, out.baseAddress, out.count, Int32(w) * 4)
            }
        }
        guard decoded != nil else { throw .invalidImage("WebP data is damaged", path: path) }
        try self.init(width: Int(w), height: Int(h), pixels: pixels)
    }

    private static func checkDeclared(width: Int, height: Int, format: String, path: String?) throws(MapImageError) {
        guard width >= 1, height >= 1, width <= maxSide, height <= maxSide, width * height <= maxPixelCount else {
            throw .invalidImage("\(format) declares \(width)x\(height) pixels, over the limit "
                + "(each side 1...\(maxSide) px, at most \(maxPixelCount) pixels)", path: path)
        }
    }

    private static func tjMessage(_ handle: tjhandle) -> String {
        guard let m = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: m)
    }

    /// Encodes the bitmap as `format`: PNG with `png` options; JPEG at `quality` (default 90);
    /// WebP lossy at `quality`, lossless without one; palette PNG and GIF at 256 colours.
    public func encoded(as format: ImageFormat, quality: Int? = nil, png: PNGOptions = .fast) throws(MapImageError) -> [UInt8] {
        switch format {
        case .png: try pngData(options: png)
        case .png8: try png8Data()
        case .jpeg: try jpegData(quality: quality ?? 90)
        case .webp: try webpData(quality: quality.map(Double.init))
        case .gif: try gifData()
        }
    }

    /// Encodes the bitmap as a WebP (lossless, or lossy at `quality` 0…100).
    public func webpData(quality: Double? = nil) throws(MapImageError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        let size = pixels.withUnsafeBufferPointer { p in
            if let quality {
                WebPEncodeRGBA(p.baseAddress, Int32(width), Int32(height), Int32(width * 4), Float(max(0, min(100, quality))), &out)
            } else {
                WebPEncodeLosslessRGBA(p.baseAddress, Int32(width), Int32(height), Int32(width * 4), &out)
            }
        }
        defer { WebPFree(out) }
        guard size > 0, let out else { throw .encodingFailed("libwebp could not encode \(width)x\(height)") }
        return [UInt8](UnsafeBufferPointer(start: out, count: size))
    }

    /// Encodes the bitmap as a baseline JPEG at `quality` 1…100 (alpha dropped, over white).
    public func jpegData(quality: Int = 85) throws(MapImageError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw .encodingFailed("libjpeg-turbo did not start") }
        defer { tjDestroy(handle) }
        // Flatten onto white: JPEG has no alpha.
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let src = pixels
        for i in 0 ..< width * height {
            let a = Int(src[i * 4 + 3])
            for c in 0 ..< 3 { rgb[i * 3 + c] = UInt8((Int(src[i * 4 + c]) * a + 255 * (255 - a) + 127) / 255) }
        }
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let rc = rgb.withUnsafeBufferPointer { p in
            tjCompress2(handle, p.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue), &out, &size,
                        Int32(TJSAMP_420.rawValue), Int32(max(1, min(100, quality))), 0)
        }
        defer { if let out { tjFree(out) } }
        guard rc == 0, let out else { throw .encodingFailed("JPEG: " + Self.tjMessage(handle)) }
        return [UInt8](UnsafeBufferPointer(start: out, count: Int(size)))
    }
}

/// gzip for tile archives.
public enum Gzip {
    /// Inflates a gzip or zlib stream; throws when it is damaged or would exceed `limit` bytes.
    public static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) throws(MapImageError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        let rc = bytes.withUnsafeBufferPointer { mw_gunzip($0.baseAddress, $0.count, limit, &out, &size) }
        defer { mw_png_free(out) }
        switch rc {
        case 0: return out.map { [UInt8](UnsafeBufferPointer(start: $0, count: size)) } ?? []
        case 2: throw .invalidImage("gzip data inflates to more than \(limit) bytes", path: nil)
        case 3: throw .invalidImage("out of memory inflating gzip data", path: nil)
        default: throw .invalidImage("damaged gzip data", path: nil)
        }
    }

    /// Compresses bytes as a gzip stream.
    public static func compress(_ bytes: [UInt8], level: Int = 6) throws(MapImageError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        let rc = bytes.withUnsafeBufferPointer { mw_gzip($0.baseAddress, $0.count, Int32(level), &out, &size) }
        defer { mw_png_free(out) }
        guard rc == 0, let out else { throw .encodingFailed("gzip failed") }
        return [UInt8](UnsafeBufferPointer(start: out, count: size))
    }
}
