/// Why a line, bounds or tile operation refused its input: which parameter (and which
/// point index, where there is one) and what was wrong with it.
public struct GeometryError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case invalidPoint(index: Int, lat: Double, lon: Double)
        case invalidPosition(parameter: String, lat: Double, lon: Double)
        case notFinite(parameter: String, value: Double)
        case outOfRange(parameter: String, value: Double, range: ClosedRange<Double>)
        case emptyInput(parameter: String)
        case invalidTile(z: Int, x: Int, y: Int, why: String)
        case invalidQuadkey(String, why: String)
        case tooManyTiles(count: Int, limit: Int)
    }

    private let base: Base
    private init(_ base: Base) { self.base = base }

    /// Point `index` is not a valid position (a NaN or infinite coordinate, or a latitude outside ±90°).
    public static func invalidPoint(index: Int, _ p: LatLng) -> GeometryError {
        GeometryError(.invalidPoint(index: index, lat: p.lat, lon: p.lon))
    }

    /// The named position parameter is not valid (a NaN or infinite coordinate, or a latitude outside ±90°).
    public static func invalidPosition(_ parameter: String, _ p: LatLng) -> GeometryError {
        GeometryError(.invalidPosition(parameter: parameter, lat: p.lat, lon: p.lon))
    }

    /// The named parameter is NaN or infinite.
    public static func notFinite(_ parameter: String, _ value: Double) -> GeometryError {
        GeometryError(.notFinite(parameter: parameter, value: value))
    }

    /// The named parameter is outside its documented range.
    public static func outOfRange(_ parameter: String, _ value: Double, _ range: ClosedRange<Double>) -> GeometryError {
        GeometryError(.outOfRange(parameter: parameter, value: value, range: range))
    }

    /// The named parameter holds no points (or too few for the operation).
    public static func emptyInput(_ parameter: String) -> GeometryError {
        GeometryError(.emptyInput(parameter: parameter))
    }

    /// The tile indices do not name a tile.
    public static func invalidTile(z: Int, x: Int, y: Int, why: String) -> GeometryError {
        GeometryError(.invalidTile(z: z, x: x, y: y, why: why))
    }

    /// The quadkey string does not name a tile.
    public static func invalidQuadkey(_ key: String, why: String) -> GeometryError {
        GeometryError(.invalidQuadkey(key, why: why))
    }

    /// A tile cover would hold `count` tiles, more than the caller's `limit`.
    public static func tooManyTiles(count: Int, limit: Int) -> GeometryError {
        GeometryError(.tooManyTiles(count: count, limit: limit))
    }

    /// A sentence saying where the input was wrong and why.
    public var description: String {
        switch base {
        case let .invalidPoint(index, lat, lon):
            return "point \(index) (\(lat),\(lon)) is not a valid position: "
                + "coordinates must be finite and the latitude within [-90, 90]"
        case let .invalidPosition(parameter, lat, lon):
            return "\(parameter) (\(lat),\(lon)) is not a valid position: "
                + "coordinates must be finite and the latitude within [-90, 90]"
        case let .notFinite(parameter, value):
            return "\(parameter) must be finite, got \(value)"
        case let .outOfRange(parameter, value, range):
            return "\(parameter) must be within [\(range.lowerBound), \(range.upperBound)], got \(value)"
        case let .emptyInput(parameter):
            return "\(parameter) holds no points"
        case let .invalidTile(z, x, y, why):
            return "tile z=\(z) x=\(x) y=\(y) is invalid: \(why)"
        case let .invalidQuadkey(key, why):
            return "quadkey \"\(key)\" is invalid: \(why)"
        case let .tooManyTiles(count, limit):
            return "the tile cover holds \(count) tiles, more than the limit of \(limit)"
        }
    }
}
