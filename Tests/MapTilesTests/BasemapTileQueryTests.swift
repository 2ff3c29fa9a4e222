import Foundation
import GeoKit
import Testing
@testable import MapTiles

/// `EmbeddedBasemap.tiles(in:zoom:)`, `features(of:)` and `places(in:zoom:)`: a view read tile
/// by tile is the view read at once (`features(in:zoom:)`, whose facts about the world
/// `EmbeddedBasemapTests` checks), and each tile's geometry lies in its own square of the
/// level's grid, in its world copy (the squares worked out by hand from the tile zoom).
@Suite struct BasemapTileQueryTests {
    /// Views as normalised Web Mercator rectangles: Europe at zoom 3 (1:50m), the world at 0.5
    /// (1:110m), Denmark at 6 (1:10m simplified), the Bering Strait at 8 across the
    /// antimeridian (x past 1), and a rectangle 100 worlds wide at zoom 14, which the tile cap
    /// sends to a coarser level and the copy cap to eight copies.
    static let views: [(String, MapRect, Double)] = [
        ("Europe z3", MapRect(origin: MapPoint(x: 0.43, y: 0.27), width: 0.25, height: 0.19), 3),
        ("world z0.5", .world, 0.5),
        ("Denmark z6", MapRect(origin: MapPoint(x: 0.52, y: 0.31), width: 0.031, height: 0.023), 6),
        ("Bering z8", MapRect(origin: MapPoint(x: 0.99, y: 0.24), width: 0.02, height: 0.01), 8),
        ("huge z14", MapRect(origin: MapPoint(x: -3, y: 0), width: 100, height: 1), 14),
    ]

    @Test(arguments: 0 ..< views.count)
    func aViewReadTileByTileIsTheViewReadAtOnce(_ i: Int) throws {
        let (name, rect, zoom) = Self.views[i]
        let map = try EmbeddedBasemap.shared()
        let whole = map.features(in: rect, zoom: zoom)
        let tiles = map.tiles(in: rect, zoom: zoom)
        #expect(!tiles.isEmpty, "\(name)")
        #expect(tiles.count == whole.tileCount, "\(name): \(tiles.count) tiles, the query read \(whole.tileCount)")
        #expect(Set(tiles.map(\.level)) == [whole.level], "\(name)")
        #expect(Set(tiles).count == tiles.count, "\(name): a tile listed twice")
        var polygons: [BasemapPolygon] = [], lines: [BasemapLine] = []
        for t in tiles {
            let f = map.features(of: t)
            #expect(f.level == whole.level && f.tileCount == 1 && f.places.isEmpty)
            #expect(f.polygons.map(\.kind) == f.polygons.map(\.kind).sorted { $0.rawValue < $1.rawValue }, "land first")
            polygons += f.polygons
            lines += f.lines
        }
        // The whole query sorts land before lakes across its tiles (a stable sort).
        let land = polygons.filter { $0.kind == .land }, lakes = polygons.filter { $0.kind == .lake }
        #expect(land + lakes == whole.polygons, "\(name)")
        #expect(lines == whole.lines, "\(name)")
        #expect(map.places(in: rect, zoom: zoom) == whole.places, "\(name)")
    }

    /// Every point of a tile lies in its square: columns and rows of 1/2^tileZoom of the world,
    /// shifted by the tile's copy (the level's tile zooms, from scripts/basemap/README.md:
    /// 0, 3, 5 and 6).
    @Test(arguments: 0 ..< views.count)
    func eachTileLiesInItsSquareOfItsCopy(_ i: Int) throws {
        let (name, rect, zoom) = Self.views[i]
        let map = try EmbeddedBasemap.shared()
        let tileZooms = [0, 3, 5, 6]
        var copies: Set<Int> = []
        for t in map.tiles(in: rect, zoom: zoom) {
            copies.insert(t.copy)
            let side = 1 / Double(1 << tileZooms[t.level])
            let x0 = Double(t.copy) + Double(t.x) * side, y0 = Double(t.y) * side
            #expect(map.rect(of: t) == MapRect(origin: MapPoint(x: x0, y: y0), width: side, height: side))
            let f = map.features(of: t)
            let points = f.polygons.flatMap { $0.rings.joined() } + f.lines.flatMap(\.points)
            #expect(!points.isEmpty)
            for p in points {
                #expect(p.x >= x0 && p.x <= x0 + side && p.y >= y0 && p.y <= y0 + side,
                        "\(name): \(p) outside tile \(t.level)/\(t.x)/\(t.y) copy \(t.copy)")
            }
        }
        switch name {
        case "Bering z8": #expect(copies == [0, 1])  // both sides of the antimeridian
        case "huge z14": #expect(copies.count == EmbeddedBasemap.maxWorldCopies)
        default: #expect(copies == [0])
        }
    }

    @Test func badQueriesAndTilesReadNothing() throws {
        let map = try EmbeddedBasemap.shared()
        #expect(map.tiles(in: .world, zoom: .nan).isEmpty)
        #expect(map.tiles(in: MapRect(origin: MapPoint(x: .infinity, y: 0), width: 1, height: 1), zoom: 3).isEmpty)
        #expect(map.places(in: .world, zoom: .nan).isEmpty)
        // A level that does not exist, and a tile of open ocean (the South Pacific at level 1:
        // column 1 of 8 spans 135°W–90°W, row 5 of 8 from 41°S to 66.5°S), which is not stored.
        #expect(map.features(of: BasemapTile(level: 9, x: 0, y: 0, copy: 0)).polygons.isEmpty)
        #expect(map.rect(of: BasemapTile(level: 9, x: 0, y: 0, copy: 0)) == nil)
        #expect(map.features(of: BasemapTile(level: -1, x: 0, y: 0, copy: 0)).lines.isEmpty)
        let ocean = map.features(of: BasemapTile(level: 1, x: 1, y: 5, copy: 0))
        #expect(ocean.polygons.isEmpty && ocean.lines.isEmpty && ocean.tileCount == 0)
        #expect(!map.tiles(in: .world, zoom: 3).contains(BasemapTile(level: 1, x: 1, y: 5, copy: 0)))
    }
}
