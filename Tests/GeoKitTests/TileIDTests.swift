import Foundation
import GeoKit
import MapTestSupport
import Testing

/// The mercantile fixture (scripts/fixtures/gen_tiles.py), decoded once.
private struct TilesFixture: Decodable, Sendable {
    struct Table<Row: Decodable & Sendable>: Decodable, Sendable { let rows: [Row] }
    struct Cover: Decodable, Sendable {
        let bounds: [Double]
        let z: Int
        let tiles: [[Int]]
    }
    let tile_for_point: Table<[Double]>
    let bounds: Table<[Double]>
    let quadkey: Table<QuadkeyRow>
    let parent: Table<[Int]>
    let children: Table<ChildrenRow>
    let cover: [Cover]

    struct QuadkeyRow: Decodable, Sendable {
        let z: Int, x: Int, y: Int, key: String
        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            (z, x, y, key) = (try c.decode(Int.self), try c.decode(Int.self), try c.decode(Int.self), try c.decode(String.self))
        }
    }
    struct ChildrenRow: Decodable, Sendable {
        let z: Int, x: Int, y: Int, children: [[Int]]
        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            (z, x, y) = (try c.decode(Int.self), try c.decode(Int.self), try c.decode(Int.self))
            children = try c.decode([[Int]].self)
        }
    }

    static let shared: TilesFixture = jsonFixture("tiles_mercantile")
}

@Suite struct TileIDTests {
    // MARK: published examples

    /// mercantile docs/quickstart.rst: `mercantile.tile(-105.0, 40.0, 1)` → `Tile(x=0, y=0, z=1)`
    /// and `mercantile.bounds(Tile(0, 0, 1))` → west -180, south 0, east 0, north 85.0511287798066.
    @Test func mercantileQuickstart() throws {
        let t = try TileID.containing(LatLng(lat: 40, lon: -105), zoom: 1)
        #expect(t == (try TileID(z: 1, x: 0, y: 0)))
        let b = t.bounds
        expectNear(b.west, -180, tolerance: 1e-12)
        expectNear(b.south, 0, tolerance: 1e-12)
        expectNear(b.east, 0, tolerance: 1e-12)
        expectNear(b.north, 85.0511287798066, tolerance: 1e-12)
    }

    /// mercantile README.rst: `bounds(486, 332, 10)` → (-9.140625, 53.12040528310657, -8.7890625,
    /// 53.33087298301705); and its tool example for tile 20,35,6: lon -67.5…-61.875,
    /// lat -21.943045533438177…-16.636191878397653.
    @Test func mercantileReadme() throws {
        let b = try TileID(z: 10, x: 486, y: 332).bounds
        expectNear(b.west, -9.140625, tolerance: 1e-12)
        expectNear(b.south, 53.12040528310657, tolerance: 1e-12)
        expectNear(b.east, -8.7890625, tolerance: 1e-12)
        expectNear(b.north, 53.33087298301705, tolerance: 1e-12)
        let c = try TileID(z: 6, x: 20, y: 35).bounds
        expectNear(c.west, -67.5, tolerance: 1e-12)
        expectNear(c.east, -61.875, tolerance: 1e-12)
        expectNear(c.south, -21.943045533438177, tolerance: 1e-12)
        expectNear(c.north, -16.636191878397653, tolerance: 1e-12)
    }

    /// @mapbox/tilebelt README: tile [10, 15, 8] (x, y, z) spans lon -165.9375…-164.53125,
    /// lat 82.67628497834903…82.8533822917608, and `getParent` gives [5, 7, 7].
    @Test func tilebeltReadme() throws {
        let t = try TileID(z: 8, x: 10, y: 15)
        let b = t.bounds
        expectNear(b.west, -165.9375, tolerance: 1e-12)
        expectNear(b.east, -164.53125, tolerance: 1e-12)
        expectNear(b.south, 82.67628497834903, tolerance: 1e-12)
        expectNear(b.north, 82.8533822917608, tolerance: 1e-12)
        #expect(t.parent == (try TileID(z: 7, x: 5, y: 7)))
    }

    /// Bing Maps Tile System article: tile x=3, y=5 at level 3 has quadkey "213".
    @Test func bingQuadkeyExample() throws {
        #expect(try TileID(z: 3, x: 3, y: 5).quadkey == "213")
        #expect(try TileID(quadkey: "213") == TileID(z: 3, x: 3, y: 5))
        #expect(try TileID(quadkey: "") == TileID(z: 0, x: 0, y: 0))
    }

    // MARK: mercantile fixture

    /// mercantile.tile for 300 random points (none within 1e-9 tile widths of an edge): exact.
    @Test func tileForPointMatchesMercantile() throws {
        for r in TilesFixture.shared.tile_for_point.rows {
            let t = try TileID.containing(LatLng(lat: r[1], lon: r[0]), zoom: Int(r[2]))
            #expect(t.x == Int(r[3]) && t.y == Int(r[4]), "point \(r)")
        }
    }

    /// mercantile.bounds for 205 tiles up to z28; tolerance 1e-9° (both evaluate the same
    /// closed formula in double precision; observed differences are a few ulps).
    @Test func boundsMatchMercantile() throws {
        for r in TilesFixture.shared.bounds.rows {
            let t = try TileID(z: Int(r[0]), x: Int(r[1]), y: Int(r[2]))
            let b = t.bounds
            expectNear(b.west, r[3], tolerance: 1e-9, "\(t)")
            expectNear(b.south, r[4], tolerance: 1e-9, "\(t)")
            expectNear(b.east, r[5], tolerance: 1e-9, "\(t)")
            expectNear(b.north, r[6], tolerance: 1e-9, "\(t)")
            // The Mercator square is the tile's exact fraction of the unit world.
            let size = 1 / Double(1 << t.z)
            expectNear(t.mapRect.minX, Double(t.x) * size, tolerance: 0)
            expectNear(t.mapRect.width, size, tolerance: 0)
        }
    }

    /// mercantile.quadkey both ways, exact.
    @Test func quadkeysMatchMercantile() throws {
        for r in TilesFixture.shared.quadkey.rows {
            let t = try TileID(z: r.z, x: r.x, y: r.y)
            #expect(t.quadkey == r.key)
            #expect(try TileID(quadkey: r.key) == t)
        }
    }

    /// mercantile.parent and mercantile.children, exact.
    @Test func parentAndChildrenMatchMercantile() throws {
        for r in TilesFixture.shared.parent.rows {
            let t = try TileID(z: r[0], x: r[1], y: r[2])
            #expect(t.parent == (try TileID(z: r[3], x: r[4], y: r[5])))
        }
        for r in TilesFixture.shared.children.rows {
            let t = try TileID(z: r.z, x: r.x, y: r.y)
            let got = t.children.map { [$0.z, $0.x, $0.y] }.sorted { $0.lexicographicallyPrecedes($1) }
            #expect(got == r.children, "\(t)")
            #expect(t.children.allSatisfy { $0.parent == t })
        }
        #expect(try TileID(z: 0, x: 0, y: 0).parent == nil)
        #expect(try TileID(z: TileID.maxZoom, x: 5, y: 5).children.isEmpty)
    }

    /// mercantile.tiles (as a set) for 126 boxes, some across the antimeridian, plus
    /// tiles' own bounds (exactly one tile).
    @Test func coverMatchesMercantile() throws {
        for c in TilesFixture.shared.cover {
            let b = try GeoBounds(south: c.bounds[1], west: c.bounds[0], north: c.bounds[3], east: c.bounds[2])
            let got = try TileID.covering(b, zoom: c.z)
            #expect(Set(got).count == got.count, "duplicates for \(b)")
            let pairs = got.map { [$0.x, $0.y] }.sorted { $0.lexicographicallyPrecedes($1) }
            #expect(pairs == c.tiles, "cover of \(b) at z\(c.z)")
            #expect(try TileID.coverCount(b, zoom: c.z) == got.count)
        }
    }

    // MARK: edges and bad input

    /// Hand-derived edge rules: a point exactly on a tile edge belongs to the tile east/south;
    /// lon 180 is the last column, lat ±90 the first/last row; 190° wraps to -170°.
    @Test func edgePoints() throws {
        #expect(try TileID.containing(LatLng(lat: 0, lon: 0), zoom: 1) == TileID(z: 1, x: 1, y: 1))
        #expect(try TileID.containing(LatLng(lat: 0, lon: 180), zoom: 3) == TileID(z: 3, x: 7, y: 4))
        #expect(try TileID.containing(LatLng(lat: 0, lon: -180), zoom: 3) == TileID(z: 3, x: 0, y: 4))
        #expect(try TileID.containing(LatLng(lat: 90, lon: 0), zoom: 3) == TileID(z: 3, x: 4, y: 0))
        #expect(try TileID.containing(LatLng(lat: -90, lon: 0), zoom: 3) == TileID(z: 3, x: 4, y: 7))
        // -170° is 10/360 of the world from 180°W: column floor(8 · 10/360) = 0.
        #expect(try TileID.containing(LatLng(lat: 10, lon: 190), zoom: 3).x == 0)
        // Every corner of a tile, nudged inward by nothing, maps back to the tile for its NW corner.
        let t = try TileID(z: 17, x: 70_001, y: 40_003)
        let nw = LatLng(lat: t.bounds.north, lon: t.bounds.west)
        #expect(try TileID.containing(nw, zoom: 17) == t)
    }

    @Test func rejectsBadInput() {
        #expect(throws: GeometryError.self) { try TileID(z: -1, x: 0, y: 0) }
        #expect(throws: GeometryError.self) { try TileID(z: 31, x: 0, y: 0) }
        #expect(throws: GeometryError.self) { try TileID(z: 2, x: 4, y: 0) }
        #expect(throws: GeometryError.self) { try TileID(z: 2, x: 0, y: -1) }
        #expect(throws: GeometryError.self) { try TileID(quadkey: "0124") }
        #expect(throws: GeometryError.self) { try TileID(quadkey: String(repeating: "1", count: 31)) }
        #expect(throws: GeometryError.self) { try TileID.containing(LatLng(lat: .nan, lon: 0), zoom: 3) }
        #expect(throws: GeometryError.self) { try TileID.containing(LatLng(lat: 0, lon: .infinity), zoom: 3) }
        #expect(throws: GeometryError.self) { try TileID.containing(LatLng(lat: 91, lon: 0), zoom: 3) }
        #expect(throws: GeometryError.self) { try TileID.containing(LatLng(lat: 0, lon: 0), zoom: 31) }
    }

    /// The whole world at z30 would be 2^60 tiles: refused with the count, nothing allocated.
    @Test func coverLimit() throws {
        do {
            _ = try TileID.covering(.world, zoom: 30)
            Issue.record("expected tooManyTiles")
        } catch {
            #expect(error == .tooManyTiles(count: 1 << 60, limit: TileID.defaultCoverLimit))
            #expect(error.description.contains("1152921504606846976"))
        }
        #expect(try TileID.coverCount(.world, zoom: 30) == 1 << 60)
        #expect(try TileID.covering(.world, zoom: 2, limit: 16).count == 16)
        #expect(throws: GeometryError.self) { try TileID.covering(.world, zoom: 2, limit: 15) }
        #expect(throws: GeometryError.self) { try TileID.covering(.world, zoom: 31) }
    }

    /// Hand-derived order: rows north to south, and across the antimeridian the columns east of
    /// `west` come before those west of `east` (z2: 135°E is column 3, -135° is column 0).
    @Test func coverOrderAcrossAntimeridian() throws {
        let b = try GeoBounds(south: 10, west: 150, north: 70, east: -150)
        let got = try TileID.covering(b, zoom: 2)
        #expect(got.map { [$0.x, $0.y] } == [[3, 0], [0, 0], [3, 1], [0, 1]])
    }
}
