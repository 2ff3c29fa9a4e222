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
