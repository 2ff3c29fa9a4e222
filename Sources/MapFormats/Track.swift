import Foundation
import GeoKit

/// A track as every reader produces it: lines (parts) of points, separate waypoints, and
/// properties. A GPX track segment or route, a CSV segment, a GeoJSON LineString (or one
/// line of a MultiLineString, one ring of a Polygon) and a line of an encoded-polyline file
/// each become one part; GPX waypoints and GeoJSON (Multi)Points become waypoints.
public struct Track: Sendable, Equatable {
    /// The format the track was read from.
    public var format: TrackFormat
    /// A name for the whole file (GPX `metadata/name`, GeoJSON top-level `name` member), if any.
    public var name: String?
    /// The lines of points, in file order.
    public var parts: [TrackPart]
    /// Single points, in file order.
    public var waypoints: [Waypoint]

    /// Creates a track.
    public init(format: TrackFormat, name: String? = nil, parts: [TrackPart] = [], waypoints: [Waypoint] = []) {
        self.format = format
        self.name = name
        self.parts = parts
        self.waypoints = waypoints
    }

    /// The number of points over all parts (waypoints not counted).
    public var pointCount: Int { parts.reduce(0) { $0 + $1.points.count } }
}

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
    public init(kind: Kind = .line, points: [TrackPoint], name: String? = nil, feature: Int = 0,
                properties: [String: JSONValue] = [:]) {
        self.kind = kind
        self.points = points
        self.name = name
        self.feature = feature
        self.properties = properties
    }
}

/// One point of a part: a position with optional elevation, time and properties.
public struct TrackPoint: Sendable, Equatable {
    /// The position, degrees.
    public var coordinate: LatLng
    /// Elevation in metres (GPX `<ele>`, GeoJSON third coordinate, CSV `ele` column), if any.
    public var elevation: Double?
    /// The time stamp, if any.
    public var time: Date?
    /// Per-point values (CSV extra columns, as strings), usually empty.
    public var properties: [String: JSONValue]

    /// Creates a point.
    public init(_ coordinate: LatLng, elevation: Double? = nil, time: Date? = nil,
                properties: [String: JSONValue] = [:]) {
        self.coordinate = coordinate
        self.elevation = elevation
        self.time = time
        self.properties = properties
    }
}

/// A single named point (GPX `<wpt>`, GeoJSON Point or one point of a MultiPoint).
public struct Waypoint: Sendable, Equatable {
    /// The position, degrees.
    public var coordinate: LatLng
    /// Elevation in metres, if any.
    public var elevation: Double?
    /// The time stamp, if any.
    public var time: Date?
    /// The name, if any.
    public var name: String?
    /// The index of the source feature (see `TrackPart.feature`).
    public var feature: Int
    /// Properties of the source feature.
    public var properties: [String: JSONValue]

    /// Creates a waypoint.
    public init(_ coordinate: LatLng, elevation: Double? = nil, time: Date? = nil, name: String? = nil,
                feature: Int = 0, properties: [String: JSONValue] = [:]) {
        self.coordinate = coordinate
        self.elevation = elevation
        self.time = time
        self.name = name
        self.feature = feature
        self.properties = properties
    }
}
