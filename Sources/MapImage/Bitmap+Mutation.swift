extension Bitmap {
    /// Gives `body` the straight-alpha RGBA samples (top row first, 4 bytes a pixel) to change
    /// in place; the size cannot change.
    public mutating func withMutablePixels<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try pixels.withUnsafeMutableBufferPointer { try body($0) }
    }
}
