import Foundation

extension TileID {
    /// The default cap on the number of tiles `covering` returns.
    public static let defaultCoverLimit = 1 << 20

    /// How many tiles `covering(_:zoom:limit:)` would return, without allocating them.
    public static func coverCount(_ bounds: GeoBounds, zoom z: Int) throws(GeometryError) -> Int {
        let (cols, rows) = try coverRanges(bounds, zoom: z)
        return cols.reduce(0) { $0 + $1.count } * rows.count
    }

    /// The tiles at zoom `z` that the box overlaps, row by row from the north, each row
    /// from `west` going east (across the antimeridian when the box does). Each tile
    /// appears once.
    ///
    /// Latitudes beyond ±85.0511° are clamped to the Mercator square. A box whose east
    /// (south) edge lies exactly on a tile boundary does not take in the tile beyond it,
    /// so a tile's own bounds cover exactly that tile; a zero-size box gives the tile
    /// holding its point. Throws `tooManyTiles` (before allocating anything) when the
    /// cover would hold more than `limit` tiles, and `outOfRange` for a zoom outside
    /// 0...`maxZoom`.
    public static func covering(
        _ bounds: GeoBounds, zoom z: Int, limit: Int = defaultCoverLimit
    ) throws(GeometryError) -> [TileID] {
        let (cols, rows) = try coverRanges(bounds, zoom: z)
        let count = cols.reduce(0) { $0 + $1.count } * rows.count
        guard count <= limit else { throw .tooManyTiles(count: count, limit: limit) }
        var out: [TileID] = []
        out.reserveCapacity(count)
        for y in rows {
            for range in cols {
                for x in range { out.append(TileID(unchecked: z, x, y)) }
            }
        }
        return out
    }

    /// Column ranges (one, or two across the antimeridian, west part first) and the row range.
    private static func coverRanges(
        _ b: GeoBounds, zoom z: Int
    ) throws(GeometryError) -> (cols: [ClosedRange<Int>], rows: ClosedRange<Int>) {
        guard (0...maxZoom).contains(z) else { throw .outOfRange("zoom", Double(z), 0...Double(maxZoom)) }
        let n = 1 << z
        let top = MapPoint(LatLng(lat: b.north, lon: 0)).y
        let bottom = MapPoint(LatLng(lat: b.south, lon: 0)).y
        let y0 = lowerIndex(top, z)
        let rows = y0...max(y0, upperIndex(bottom, z))
        if b.longitudeSpan >= 360 { return ([0...(n - 1)], rows) }
        let xw = (b.west + 180) / 360, xe = (b.east + 180) / 360
        let x0 = lowerIndex(xw, z)
        if !b.crossesAntimeridian {
            return ([x0...max(x0, upperIndex(xe, z))], rows)
        }
        let x1 = upperIndex(xe, z)
        // The two parts meet or overlap within a column: every column is covered.
        if x1 >= x0 { return ([0...(n - 1)], rows) }
        return ([x0...(n - 1), 0...x1], rows)
    }
}
