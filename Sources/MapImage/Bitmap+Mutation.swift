extension Bitmap {
    /// Gives `body` the straight-alpha RGBA samples (top row first, 4 bytes a pixel) to change
    /// in place; the size cannot change.
    public mutating func withMutablePixels<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try pixels.withUnsafeMutableBufferPointer { try body($0) }
    }
}

extension Bitmap {
    /// A rectangle of the bitmap (pixels), as a new bitmap; throws when it is not inside.
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) throws(MapImageError) -> Bitmap {
        guard x >= 0, y >= 0, w >= 1, h >= 1, x + w <= width, y + h <= height else {
            throw .invalidSize(width: w, height: h)
        }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        let src = pixels
        for row in 0 ..< h {
            let s = ((y + row) * width + x) * 4
            out.replaceSubrange(row * w * 4 ..< (row + 1) * w * 4, with: src[s ..< s + w * 4])
        }
        return try Bitmap(width: w, height: h, pixels: out)
    }

    /// Whether every pixel's alpha is 0.
    public var isFullyTransparent: Bool {
        var i = 3
        let p = pixels
        while i < p.count {
            if p[i] != 0 { return false }
            i += 4
        }
        return true
    }
}
