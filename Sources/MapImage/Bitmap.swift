/// An RGBA image in memory: 8 bits per channel, **straight (non-premultiplied) alpha**, rows
/// top-down, no padding between rows (`pixels.count == width * height * 4`).
///
/// Straight alpha is what PNG stores, so encoding and decoding copy bytes unchanged; use
/// ``premultipliedPixels()`` where a consumer (a GL texture with premultiplied blending, Cairo)
/// wants premultiplied samples.
public struct Bitmap: Sendable, Equatable {
    /// The largest width or height accepted, in pixels.
    public static let maxSide = 16_384
    /// The largest number of pixels accepted (64 Mi pixels, 256 MiB of RGBA).
    public static let maxPixelCount = 64 * 1024 * 1024

    /// Width in pixels (at least 1).
    public let width: Int
    /// Height in pixels (at least 1).
    public let height: Int
    /// RGBA8 samples, straight alpha, row-major, top row first: pixel (x, y) starts at
    /// `(y * width + x) * 4`.
    public internal(set) var pixels: [UInt8]

    /// Creates a bitmap filled with one colour (transparent black by default).
    /// Throws when a side is not in 1…``maxSide`` or the area exceeds ``maxPixelCount``.
    public init(width: Int, height: Int, fill: RGBA8 = .clear) throws(MapImageError) {
        try Self.validate(width: width, height: height)
        self.width = width
        self.height = height
        var samples = [UInt8](repeating: 0, count: width * height * 4)
        if fill != .clear {
            samples.withUnsafeMutableBufferPointer { p in
                var i = 0
                while i < p.count {
                    p[i] = fill.r; p[i + 1] = fill.g; p[i + 2] = fill.b; p[i + 3] = fill.a
                    i += 4
                }
            }
        }
        pixels = samples
    }

    /// Wraps existing straight-alpha RGBA8 samples (top row first).
    /// Throws when the size is out of range or `pixels.count != width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(MapImageError) {
        try Self.validate(width: width, height: height)
        guard pixels.count == width * height * 4 else {
            throw .pixelCount(expected: width * height * 4, actual: pixels.count)
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Builds a bitmap from premultiplied RGBA8 samples (as read back from a GL framebuffer
    /// drawn with premultiplied blending), converting them to straight alpha.
    public init(width: Int, height: Int, premultipliedPixels: [UInt8]) throws(MapImageError) {
        try self.init(width: width, height: height, pixels: premultipliedPixels)
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = Int(p[i + 3])
                if a == 0 {
                    p[i] = 0; p[i + 1] = 0; p[i + 2] = 0
                } else if a != 255 {
                    p[i] = Self.unpremultiply(p[i], a)
                    p[i + 1] = Self.unpremultiply(p[i + 1], a)
                    p[i + 2] = Self.unpremultiply(p[i + 2], a)
                }
                i += 4
            }
        }
    }

    /// The pixel at column `x`, row `y` (0-based from the top-left), or nil outside the image.
    public func pixel(x: Int, y: Int) -> RGBA8? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = (y * width + x) * 4
        return RGBA8(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
    }

    /// Sets the pixel at column `x`, row `y`; does nothing outside the image.
    public mutating func setPixel(x: Int, y: Int, to color: RGBA8) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 4
        pixels[i] = color.r; pixels[i + 1] = color.g; pixels[i + 2] = color.b; pixels[i + 3] = color.a
    }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }

    /// The samples with colour multiplied by alpha (rounded to nearest), for premultiplied consumers.
    public func premultipliedPixels() -> [UInt8] {
        var out = pixels
        out.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = Int(p[i + 3])
                if a != 255 {
                    p[i] = UInt8((Int(p[i]) * a + 127) / 255)
                    p[i + 1] = UInt8((Int(p[i + 1]) * a + 127) / 255)
                    p[i + 2] = UInt8((Int(p[i + 2]) * a + 127) / 255)
                }
                i += 4
            }
        }
        return out
    }

    /// Straight value of a premultiplied sample `c` at alpha `a` (1…255), rounded, clamped to 255.
    static func unpremultiply(_ c: UInt8, _ a: Int) -> UInt8 {
        UInt8(min(255, (Int(c) * 255 + a / 2) / a))
    }

    static func validate(width: Int, height: Int) throws(MapImageError) {
        guard width >= 1, height >= 1, width <= maxSide, height <= maxSide,
            width * height <= maxPixelCount
        else { throw .invalidSize(width: width, height: height) }
    }
}

/// One straight-alpha RGBA pixel, 0–255 per channel.
public struct RGBA8: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0–255.
    public var r: UInt8
    /// Green, 0–255.
    public var g: UInt8
    /// Blue, 0–255.
    public var b: UInt8
    /// Alpha (opacity), 0 = transparent, 255 = opaque.
    public var a: UInt8

    /// Creates a pixel from its four channels (alpha defaults to opaque).
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// Transparent black.
    public static let clear = RGBA8(r: 0, g: 0, b: 0, a: 0)
    /// Opaque white.
    public static let white = RGBA8(r: 255, g: 255, b: 255)
    /// Opaque black.
    public static let black = RGBA8(r: 0, g: 0, b: 0)

    /// `rgba(r,g,b,a)` with decimal channels.
    public var description: String { "rgba(\(r),\(g),\(b),\(a))" }
}
