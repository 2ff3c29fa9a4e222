import Foundation
import GeoKit
import MapCamera
import MapScene
@testable import MapSnapshot
import MapTiles
import Testing

/// A vector basemap's ground is one `MultiPolygon` or `MultiPolyline` per drawn tile and kind
/// (not one overlay per feature), in the style's order, and the sets are kept with the tiles:
/// the planner's meshes, keyed by them, outlive a zoom.
@Suite struct VectorGroundSetTests {
    static let archive = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../MapTilesTests/Fixtures/vector/vector-fixture.mbtiles").standardized.path

    func ground(_ layer: TileLayer, zoom: Double) -> VectorGround {
        let camera = Camera(center: LatLng(lat: 46.026, lon: 7.012), zoom: zoom, size: ScreenSize(width: 800, height: 800))
        let cover = layer.cover(for: camera)
        layer.load(cover, timeout: 10)
        return layer.vectorGround(cover, zoom: zoom, style: .light)
    }

    @Test func oneOverlayPerTileAndKindKeptAcrossZooms() throws {
        let layer = TileLayer(source: try MBTilesSource(path: Self.archive))
        let a = ground(layer, zoom: 13.1)
        // GDAL's fixture at zoom 13: the lake (water, with its island as a hole), the building,
        // the unknown layer's area, the road.
        var squares = 0
        var areas: [PolygonSet] = [], lines: [PathSet] = []
        for o in a.overlays {
            switch o {
            case .polygon: squares += 1
            case .multiPolygon(let m): areas.append(m.polygons)
            case .multiPolyline(let m): lines.append(m.paths)
            default: Issue.record("unexpected \(o)")
            }
        }
        // Squares first, then areas, then lines.
        let kinds = a.overlays.map { o -> Int in
            switch o { case .polygon: 0; case .multiPolygon: 1; default: 2 }
        }
        #expect(kinds == kinds.sorted())
        #expect(squares >= 1)
        #expect(areas.contains { $0.polygons.contains { !$0.holes.isEmpty } })
        // Each set is one tile's features of one kind: no set repeats.
        #expect(Set(areas.map(ObjectIdentifier.init)).count == areas.count)
        #expect(!lines.isEmpty)
        // A zoom within the tile level: new overlays (widths change), the same sets.
        let b = ground(layer, zoom: 13.4)
        let again = b.overlays.compactMap { o -> ObjectIdentifier? in
            if case .multiPolygon(let m) = o { ObjectIdentifier(m.polygons) } else { nil }
        }
        #expect(again == areas.map(ObjectIdentifier.init))
    }
}
