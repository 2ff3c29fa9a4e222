import Foundation
import GeoKit

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
    public init(
        _ coordinate: LatLng, elevation: Double? = nil, time: Date? = nil, name: String? = nil,
        feature: Int = 0, properties: [String: JSONValue] = [:]
    ) {
        self.coordinate = coordinate
        self.elevation = elevation
        self.time = time
        self.name = name
        self.feature = feature
        self.properties = properties
    }
}
