/// One line of a track.
public struct TrackPart: Sendable, Equatable {
    /// Where a part came from.
    public enum Kind: String, Sendable, Equatable {
        /// A GPX `<trkseg>`, a CSV segment, a GeoJSON LineString or one line of a MultiLineString,
        /// or one line of an encoded-polyline file.
        case line
        /// A GPX `<rte>`.
        case route
        /// One ring of a GeoJSON Polygon or MultiPolygon (first point repeated last).
        case ring
    }

    /// Where the part came from.
    public var kind: Kind
    /// The points, in order.
    public var points: [TrackPoint]
    /// The name (GPX `<trk>`/`<rte>` name), if any.
    public var name: String?
    /// The index of the source feature: GPX `<trk>`/`<rte>` number, GeoJSON feature number
    /// (0-based, in file order); parts of one MultiLineString or Polygon share it.
    public var feature: Int
    /// Properties of the source feature (GeoJSON `properties`, GPX `desc`/`type` as strings).
    public var properties: [String: JSONValue]

    /// Creates a part.
    public init(
        kind: Kind = .line, points: [TrackPoint], name: String? = nil, feature: Int = 0,
        properties: [String: JSONValue] = [:]
    ) {
        self.kind = kind
        self.points = points
        self.name = name
        self.feature = feature
        self.properties = properties
    }
}
