/// How to encode a PNG: speed against size. Every choice is lossless.
public struct PNGOptions: Sendable, Hashable {
    /// The per-row filter libpng applies before compression.
    public enum Filter: Sendable, Hashable {
        /// No filtering (fastest).
        case none
        /// Difference to the pixel on the left.
        case sub
        /// Difference to the pixel above.
        case up
        /// Difference to the average of left and above.
        case average
        /// Paeth predictor.
        case paeth
        /// libpng tries every filter per row and keeps the best (smallest, slowest).
        case adaptive
    }

    /// The zlib match strategy.
    public enum Strategy: Sendable, Hashable {
        /// zlib's default.
        case `default`
        /// Tuned for filtered image data.
        case filtered
        /// Run-length matches only (distance 1): fast, good for flat map colours.
        case runLength
    }

    /// Deflate level, 0 (store) to 9 (smallest); values outside are clamped. With filter `.none`
    /// and the default strategy, levels 1 and 2 deflate with Intel's ISA-L, the others with zlib.
    public var compressionLevel: Int
    /// The row filter.
    public var filter: Filter
    /// The zlib strategy.
    public var strategy: Strategy
    /// Write an RGB PNG (3 bytes per pixel) when every pixel is opaque.
    public var dropOpaqueAlpha: Bool
    /// Threads (bands) for deflating with filter `.none`: 0 = one per online CPU (at most 8),
    /// 1 = a single stream; images under ~64 rows or 256 Ki samples per band use fewer.
    /// Other filters always encode on the calling thread through libpng.
    public var threads: Int = 0

    /// Creates options; see the presets ``fast``, ``balanced`` and ``smallest``.
    public init(compressionLevel: Int, filter: Filter, strategy: Strategy = .default, dropOpaqueAlpha: Bool = true) {
        self.compressionLevel = compressionLevel
        self.filter = filter
        self.strategy = strategy
        self.dropOpaqueAlpha = dropOpaqueAlpha
    }

    /// The default: level 1 (ISA-L), no filter, default matching — chosen by measurement on a
    /// map-like 1024×768 image (`bash scripts/bench-png.sh`): about 4× faster than zlib's level 1
    /// at about the same size (filters only help photos; flat map colours match well unfiltered).
    public static let fast = PNGOptions(compressionLevel: 1, filter: .none)
    /// zlib level 6 with adaptive filtering: libpng's usual trade-off.
    public static let balanced = PNGOptions(compressionLevel: 6, filter: .adaptive)
    /// zlib level 9 with adaptive filtering: smallest files, slowest.
    public static let smallest = PNGOptions(compressionLevel: 9, filter: .adaptive)
}
