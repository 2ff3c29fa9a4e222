import Foundation
import GeoKit

/// An arc between two places: over the ground it follows the geodesic (great circle on WGS84)
/// from `from` to `to`, and it rises as `sin(π·t)·apex` (t = 0…1 along it), so it leaves and
/// meets the ground at its ends. Its width is in logical pixels on screen; its colour runs
/// from `fromColor` to `toColor`.
public struct Arc: Sendable {
    /// Start, degrees.
    public var from: LatLng
    /// End, degrees.
    public var to: LatLng
    /// Height of the middle of the arc above the ground, metres.
    public var apex: Double
    /// Width in logical pixels (constant on screen).
    public var width: Double
    /// Colour at `from`.
    public var fromColor: Color
    /// Colour at `to`.
    public var toColor: Color
    /// Drawing order; nil takes the default for arcs.
    public var zIndex: Int?

    /// Creates an arc. Without `apex` the arc rises to `Arc.defaultApex(distance:)` of the
    /// geodesic distance between the ends. Throws `SceneError` for invalid ends, a negative or
    /// non-finite apex or one over `Column.maxHeight`, or a width outside (0, 64] px.
    public init(
        from: LatLng, to: LatLng, apex: Double? = nil, width: Double = 3,
        fromColor: Color = Color(rgb: 0x1F6FEB), toColor: Color? = nil, zIndex: Int? = nil
    ) throws(SceneError) {
        guard from.isValid else {
            throw SceneError(parameter: "from", reason: "invalid position \(from.lat),\(from.lon)")
        }
        guard to.isValid else { throw SceneError(parameter: "to", reason: "invalid position \(to.lat),\(to.lon)") }
        let h = apex ?? Arc.defaultApex(distance: from.geodesicDistance(to: to))
        guard h.isFinite, h >= 0, h <= Column.maxHeight else {
            throw SceneError(parameter: "height", reason: "\(h) m is not in 0…\(Int(Column.maxHeight)) m")
        }
        guard width.isFinite, width > 0, width <= 64 else {
            throw SceneError(parameter: "width", reason: "\(width) px is not in (0, 64] px")
        }
        self.from = from; self.to = to; self.apex = h; self.width = width
        self.fromColor = fromColor; self.toColor = toColor ?? fromColor; self.zIndex = zIndex
    }

    /// The default apex height for ends `distance` metres apart: a fifth of the distance,
    /// at most 1 500 km (so that arcs across an ocean stay within a world view).
    public static func defaultApex(distance: Double) -> Double {
        guard distance.isFinite, distance > 0 else { return 0 }
        return min(0.2 * distance, 1_500_000)
    }

    /// Positions along the arc on the ground (geodesic, longitudes continuous) with the height
    /// of each in metres: `count` points (at least 2) evenly spaced along the geodesic.
    public func samples(count: Int) -> [(position: LatLng, height: Double)] {
        let n = max(2, count)
        let ground = (try? Geodesic.wgs84.densify(from: from, to: to, count: n)) ?? [from, to]
        let m = ground.count
        return ground.enumerated().map { k, p in
            let t = m > 1 ? Double(k) / Double(m - 1) : 0
            return (p, sin(Double.pi * t) * apex)
        }
    }
}
