/// How `TrackReader` reads: the format (nil: detect) and the limits.
public struct TrackReadOptions: Sendable {
    /// The format to read, or nil to detect it from the extension and content.
    public var format: TrackFormat?
    /// Decimal digits of encoded polylines (5: Google, 6: OSRM/Valhalla).
    public var polylinePrecision: Int
    /// The largest file read, in bytes (default 1 GiB).
    public var maxBytes: Int
    /// The most points (parts and waypoints together) read (default 50 million).
    public var maxPoints: Int
    /// The deepest nesting of JSON arrays/objects or XML elements read (default 256).
    public var maxDepth: Int

    /// Options with the defaults: detect the format, precision 5, 1 GiB, 50M points, depth 256.
    public init(
        format: TrackFormat? = nil, polylinePrecision: Int = 5, maxBytes: Int = 1 << 30,
        maxPoints: Int = 50_000_000, maxDepth: Int = 256
    ) {
        self.format = format
        self.polylinePrecision = polylinePrecision
        self.maxBytes = maxBytes
        self.maxPoints = maxPoints
        self.maxDepth = maxDepth
    }
}
