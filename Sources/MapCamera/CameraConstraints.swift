/// Limits that user operations on a `Camera` respect (MapLibre's min/max zoom and pitch,
/// with the latitude of the centre kept inside the square Mercator world).
public struct CameraConstraints: Hashable, Sendable {
    /// Smallest zoom operations produce.
    public var minZoom: Double
    /// Largest zoom operations produce.
    public var maxZoom: Double
    /// Largest pitch in degrees operations produce (at most 85).
    public var maxPitch: Double
    /// Latitude limit in degrees for the centre: ±85.051129° (the Mercator world's edge).
    public static let maxLatitude = Camera.maxLatitude

    /// Creates constraints; defaults are zoom 0…22 and pitch up to 85°.
    public init(minZoom: Double = 0, maxZoom: Double = 22, maxPitch: Double = 85) {
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.maxPitch = maxPitch
    }
}
