/// What went wrong in MapImage: which image, file or parameter, and why.
public struct MapImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broad kind of failure, for callers that branch on it.
    public enum Kind: Sendable, Equatable {
        /// A width or height out of range, or too many pixels.
        case invalidSize
        /// A pixel buffer whose length does not match the size.
        case invalidPixelData
        /// Bytes that are not a valid PNG (or one over the size limits).
        case invalidPNG
        /// Bytes that are not a decodable PNG, JPEG or WebP (or one over the size limits), or bad gzip data.
        case invalidImage
        /// libpng could not encode the image.
        case encodingFailed
        /// A file could not be read.
        case fileRead
        /// A file could not be written (nothing is left at the destination).
        case fileWrite
    }

    /// The kind of failure.
    public let kind: Kind
    /// The file involved, when there is one.
    public let path: String?
    /// A sentence saying where and why.
    public let description: String

    init(kind: Kind, path: String? = nil, description: String) {
        self.kind = kind
        self.path = path
        self.description = description
    }

    static func invalidSize(width: Int, height: Int) -> Self {
        .init(
            kind: .invalidSize,
            description: "bitmap size \(width)x\(height) is out of range "
                + "(each side 1...\(Bitmap.maxSide) px, at most \(Bitmap.maxPixelCount) pixels)")
    }

    static func pixelCount(expected: Int, actual: Int) -> Self {
        .init(
            kind: .invalidPixelData,
            description: "pixel buffer holds \(actual) bytes, expected \(expected) (width * height * 4)")
    }

    static func invalidPNG(_ why: String, path: String? = nil) -> Self {
        .init(
            kind: .invalidPNG, path: path,
            description: (path.map { "\($0): " } ?? "") + "invalid PNG: \(why)")
    }

    static func invalidImage(_ why: String, path: String? = nil) -> Self {
        .init(kind: .invalidImage, path: path, description: (path.map { "\($0): " } ?? "") + why)
    }

    static func encodingFailed(_ why: String) -> Self {
        .init(kind: .encodingFailed, description: "PNG encoding failed: \(why)")
    }

    static func fileRead(_ path: String, _ why: String) -> Self {
        .init(kind: .fileRead, path: path, description: "cannot read \(path): \(why)")
    }

    static func fileWrite(_ path: String, _ why: String) -> Self {
        .init(kind: .fileWrite, path: path, description: "cannot write \(path): \(why)")
    }
}
