import Foundation

/// Spherical Web Mercator (EPSG:3857) constants.
public enum WebMercator {
    /// The latitude limit of the square Web Mercator world, in degrees: atan(sinh(π)).
    public static let maxLatitude = 85.051128779806592
    /// The equatorial radius used by Web Mercator, in metres (WGS84 semi-major axis).
    public static let earthRadius = 6_378_137.0
    /// The circumference of the Web Mercator world at the equator, in metres.
    public static let earthCircumference = 2 * Double.pi * earthRadius
}

/// A point in normalised Web Mercator space: the whole world is the unit square,
/// `x` grows east from the antimeridian (0 at 180°W, 1 at 180°E), `y` grows south
/// from the top edge (0 at 85.0511°N, 1 at 85.0511°S). Like MapKit's `MKMapPoint`,
/// but with the world one unit wide; multiply by `512 · 2^zoom` for world pixels.
public struct MapPoint: Hashable, Sendable, Codable {
    /// East-west coordinate, world widths from 180°W.
    public var x: Double
    /// North-south coordinate, world heights from the top (north) edge.
    public var y: Double

    /// Creates a point from normalised coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Projects a geographic position; latitudes beyond ±85.0511° are clamped.
    /// The longitude is not wrapped, so 190° maps to x ≈ 1.028 (useful for lines
    /// that cross the antimeridian).
    public init(_ p: LatLng) {
        let lat = min(max(p.lat, -WebMercator.maxLatitude), WebMercator.maxLatitude)
        x = (p.lon + 180) / 360
        let s = sin(lat * .pi / 180)
        y = 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
    }

    /// The geographic position of this point (longitude not wrapped).
    public var latLng: LatLng {
        let lon = x * 360 - 180
        let lat = atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
        return LatLng(lat: lat, lon: lon)
    }

    /// Map units (world widths) per metre on the ground at a latitude in degrees:
    /// `1 / (circumference · cos φ)`.
    public static func unitsPerMeter(atLatitude lat: Double) -> Double {
        1 / (WebMercator.earthCircumference * cos(lat * .pi / 180))
    }

    /// Metres on the ground per map unit at a latitude in degrees.
    public static func metersPerUnit(atLatitude lat: Double) -> Double {
        WebMercator.earthCircumference * cos(lat * .pi / 180)
    }
}

/// An axis-aligned rectangle in normalised Web Mercator space (see `MapPoint`).
/// `minX > 1` or `maxX > 1` may occur for rectangles that cross the antimeridian
/// after unwrapping.
public struct MapRect: Hashable, Sendable, Codable {
    /// The north-west corner (smallest x and y).
    public var origin: MapPoint
    /// Width in world units.
    public var width: Double
    /// Height in world units.
    public var height: Double

    /// Creates a rectangle from its north-west corner and size.
    public init(origin: MapPoint, width: Double, height: Double) {
        self.origin = origin
        self.width = width
        self.height = height
    }

    /// Creates the smallest rectangle holding two corners.
    public init(corner a: MapPoint, corner b: MapPoint) {
        origin = MapPoint(x: min(a.x, b.x), y: min(a.y, b.y))
        width = abs(a.x - b.x)
        height = abs(a.y - b.y)
    }

    /// The smallest rectangle holding all points, or nil when there are none.
    public init?(bounding points: some Sequence<MapPoint>) {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        guard minX <= maxX else { return nil }
        self.init(origin: MapPoint(x: minX, y: minY), width: maxX - minX, height: maxY - minY)
    }

    /// The whole world.
    public static let world = MapRect(origin: MapPoint(x: 0, y: 0), width: 1, height: 1)

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + width }
    public var maxY: Double { origin.y + height }
    /// The centre point.
    public var mid: MapPoint { MapPoint(x: origin.x + width / 2, y: origin.y + height / 2) }

    /// True when the point lies inside or on the edge.
    public func contains(_ p: MapPoint) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }

    /// True when the two rectangles overlap or touch.
    public func intersects(_ r: MapRect) -> Bool {
        r.minX <= maxX && r.maxX >= minX && r.minY <= maxY && r.maxY >= minY
    }

    /// The rectangle grown by `d` world units on every side.
    public func insetBy(_ d: Double) -> MapRect {
        MapRect(origin: MapPoint(x: minX + d, y: minY + d), width: width - 2 * d, height: height - 2 * d)
    }

    /// Where the two rectangles overlap (of no width or height where they only touch), nil where
    /// they miss each other (or a bound is NaN).
    public func intersection(_ r: MapRect) -> MapRect? {
        let x0 = max(minX, r.minX), x1 = min(maxX, r.maxX), y0 = max(minY, r.minY), y1 = min(maxY, r.maxY)
        guard x0 <= x1, y0 <= y1 else { return nil }
        return MapRect(origin: MapPoint(x: x0, y: y0), width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle holding both.
    public func union(_ r: MapRect) -> MapRect {
        MapRect(corner: MapPoint(x: min(minX, r.minX), y: min(minY, r.minY)),
                corner: MapPoint(x: max(maxX, r.maxX), y: max(maxY, r.maxY)))
    }
}
