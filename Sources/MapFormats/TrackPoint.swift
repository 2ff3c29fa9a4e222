import Foundation
import GeoKit

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
    public init(
        _ coordinate: LatLng, elevation: Double? = nil, time: Date? = nil,
        properties: [String: JSONValue] = [:]
    ) {
        self.coordinate = coordinate
        self.elevation = elevation
        self.time = time
        self.properties = properties
    }
}
