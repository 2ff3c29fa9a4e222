import Foundation

/// A standard XYZ (OSM / Google / mercantile) Web Mercator tile index.
///
/// At zoom `z` the world is split into `2^z × 2^z` tiles; `x` counts columns east from
/// 180°W and `y` counts rows south from 85.0511°N. These are tile-pyramid indices, not
/// the camera's zoom: the camera's world is `512 · 2^zoom` pixels wide, so a 256-pixel
/// raster tile at tile zoom `z` is drawn at camera zoom `z - 1`.
public struct TileID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Zoom level, 0 ... `TileID.maxZoom`.
    public let z: Int
    /// Column, 0 ..< 2^z, growing east from 180°W.
    public let x: Int
    /// Row, 0 ..< 2^z, growing south from 85.0511°N.
    public let y: Int

    /// The deepest zoom level accepted (tiles about 3.7 cm wide at the equator).
    public static let maxZoom = 30

    /// Creates a tile index; throws unless `0 ≤ z ≤ maxZoom` and `0 ≤ x, y < 2^z`.
    public init(z: Int, x: Int, y: Int) throws(GeometryError) {
        guard (0...TileID.maxZoom).contains(z) else {
            throw .invalidTile(z: z, x: x, y: y, why: "zoom must be within 0...\(TileID.maxZoom)")
        }
        let n = 1 << z
        guard (0..<n).contains(x) else { throw .invalidTile(z: z, x: x, y: y, why: "x must be within 0..<\(n)") }
        guard (0..<n).contains(y) else { throw .invalidTile(z: z, x: x, y: y, why: "y must be within 0..<\(n)") }
        self.init(unchecked: z, x, y)
    }

    init(unchecked z: Int, _ x: Int, _ y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// Parses a Bing Maps quadkey: one digit 0–3 per zoom level, most significant first
    /// (digit = x bit + 2 · y bit); the empty string is tile 0/0/0.
    /// Throws for another character or more than `maxZoom` digits.
    public init(quadkey: String) throws(GeometryError) {
        let digits = Array(quadkey.utf8)
        guard digits.count <= TileID.maxZoom else {
            throw .invalidQuadkey(quadkey, why: "more than \(TileID.maxZoom) digits")
        }
        var x = 0, y = 0
        for (i, d) in digits.enumerated() {
            guard d >= UInt8(ascii: "0") && d <= UInt8(ascii: "3") else {
                throw .invalidQuadkey(quadkey, why: "character \(i + 1) is not a digit 0-3")
            }
            let v = Int(d - UInt8(ascii: "0"))
            x = (x << 1) | (v & 1)
            y = (y << 1) | (v >> 1)
        }
        self.init(unchecked: digits.count, x, y)
    }

    /// The Bing Maps quadkey: `z` digits 0–3, empty at zoom 0.
    public var quadkey: String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(z)
        for level in stride(from: z, to: 0, by: -1) {
            let mask = 1 << (level - 1)
            var d: UInt8 = UInt8(ascii: "0")
            if x & mask != 0 { d += 1 }
            if y & mask != 0 { d += 2 }
            bytes.append(d)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The tile one zoom level up that holds this one, or nil at zoom 0.
    public var parent: TileID? {
        z > 0 ? TileID(unchecked: z - 1, x >> 1, y >> 1) : nil
    }

    /// The four tiles one zoom level down, in quadkey order (north-west, north-east,
    /// south-west, south-east); empty at `maxZoom`.
    public var children: [TileID] {
        guard z < TileID.maxZoom else { return [] }
        let cx = x << 1, cy = y << 1
        return [
            TileID(unchecked: z + 1, cx, cy), TileID(unchecked: z + 1, cx + 1, cy),
            TileID(unchecked: z + 1, cx, cy + 1), TileID(unchecked: z + 1, cx + 1, cy + 1),
        ]
    }

    /// The tile's square in normalised Web Mercator (the world is the unit square).
    public var mapRect: MapRect {
        let size = 1 / Double(1 << z)
        return MapRect(origin: MapPoint(x: Double(x) * size, y: Double(y) * size), width: size, height: size)
    }

    /// The tile's edges in degrees (north and south through the inverse Mercator formula).
    public var bounds: GeoBounds {
        let r = mapRect
        let nw = MapPoint(x: r.minX, y: r.minY).latLng
        let se = MapPoint(x: r.maxX, y: r.maxY).latLng
        return GeoBounds(unchecked: se.lat, nw.lon, nw.lat, se.lon)
    }

    /// The tile at zoom `z` holding a position.
    ///
    /// Longitudes outside [-180, 180] are wrapped; 180 itself falls in the last column.
    /// Latitudes beyond ±85.0511° fall in the first or last row. A point on a tile edge
    /// belongs to the tile east (or south) of it, and so does one less than 1e-14 world
    /// widths west (north) of the edge, so that tile corners round-trip (as mercantile
    /// does). Throws for an invalid position or zoom.
    public static func containing(_ p: LatLng, zoom z: Int) throws(GeometryError) -> TileID {
        guard p.isValid else { throw .invalidPosition("point", p) }
        guard (0...maxZoom).contains(z) else { throw .outOfRange("zoom", Double(z), 0...Double(maxZoom)) }
        let m = MapPoint(LatLng(lat: p.lat, lon: (-180...180).contains(p.lon) ? p.lon : LatLng.wrapLongitude(p.lon)))
        return TileID(unchecked: z, lowerIndex(m.x, z), lowerIndex(m.y, z))
    }

    /// Tolerance in world widths for edge membership (see `containing(_:zoom:)`).
    static let edgeEpsilon = 1e-14

    /// The index of the tile whose half-open range holds `v` (world units), clamped.
    static func lowerIndex(_ v: Double, _ z: Int) -> Int {
        let n = 1 << z
        let f = ((v + edgeEpsilon) * Double(n)).rounded(.down)
        return f <= 0 ? 0 : (f >= Double(n) ? n - 1 : Int(f))
    }

    /// The index of the last tile reaching `v` from the west (north): an upper edge
    /// exactly on a tile boundary does not take in the next tile. Clamped.
    static func upperIndex(_ v: Double, _ z: Int) -> Int {
        let n = 1 << z
        let f = ((v - edgeEpsilon) * Double(n)).rounded(.up) - 1
        return f <= 0 ? 0 : (f >= Double(n) ? n - 1 : Int(f))
    }

    /// Orders by zoom, then row (north first), then column (west first).
    public static func < (a: TileID, b: TileID) -> Bool {
        (a.z, a.y, a.x) < (b.z, b.y, b.x)
    }

    /// `z/x/y`, the form tile URLs use.
    public var description: String { "\(z)/\(x)/\(y)" }
}
