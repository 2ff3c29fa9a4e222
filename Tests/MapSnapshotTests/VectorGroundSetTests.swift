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

    /// The sets an overlay list draws.
    static func sets(_ overlays: [Overlay]) -> Set<ObjectIdentifier> {
        Set(overlays.compactMap { o -> ObjectIdentifier? in
            switch o {
            case .multiPolygon(let m): ObjectIdentifier(m.polygons)
            case .multiPolyline(let m): ObjectIdentifier(m.paths)
            default: nil
            }
        })
    }

    /// A live view (`ready`, the planner's `setsReady`) draws a tile once its sets are meshed:
    /// until then its ancestor's part for it, or, while that part is not meshed either, the
    /// ancestor whole; and it asks for every set it would draw.
    @Test func aLiveViewDrawsATileOnceItsSetsAreMeshedAndItsAncestorMeanwhile() throws {
        let layer = TileLayer(source: try MBTilesSource(path: Self.archive))
        func camera(_ zoom: Double) -> Camera {
            Camera(center: LatLng(lat: 46.026, lon: 7.012), zoom: zoom, size: ScreenSize(width: 800, height: 800))
        }
        let cover12 = layer.cover(for: camera(12.1)), cover = layer.cover(for: camera(13.1))
        layer.load(cover12, timeout: 10)
        layer.load(cover, timeout: 10)
        // The zoom-12 tiles whole, and the zoom-13 ones, drawn at zoom 13.1.
        let whole12 = Self.sets(layer.vectorGround(cover12, zoom: 13.1, style: .light).overlays)
        let own13 = Self.sets(layer.vectorGround(cover, zoom: 13.1, style: .light).overlays)
        #expect(!whole12.isEmpty && !own13.isEmpty && own13.isDisjoint(with: whole12))
        func squares(_ g: VectorGround) -> Int { g.overlays.filter { if case .polygon = $0 { true } else { false } }.count }
        let withData = cover.compactMap(\.tileID).filter { !layer.vectorStandIns(for: $0).isEmpty }
        let parents = Set(withData.compactMap(\.parent))
        #expect(withData.count == 3 && parents.count == 2)
        // Only the zoom-12 tiles' meshes are built: they stand in whole.
        var asked = Set<ObjectIdentifier>()
        let a = layer.vectorGround(cover, zoom: 13.1, style: .light, ready: { overlays in
            let ids = Self.sets(overlays)
            asked.formUnion(ids)
            return ids.isSubset(of: whole12)
        })
        #expect(!Self.sets(a.overlays).isEmpty && Self.sets(a.overlays).isSubset(of: whole12))
        #expect(squares(a) == parents.count)
        // Asked for: the tiles' own sets and their ancestors' parts for them (a planner starts
        // building whatever is missing).
        #expect(own13.isSubset(of: asked))
        let parts = asked.subtracting(own13).subtracting(whole12)
        #expect(!parts.isEmpty)
        // The parts are meshed: each zoom-13 tile's square is drawn with its ancestor's part.
        let b = layer.vectorGround(cover, zoom: 13.1, style: .light, ready: { Self.sets($0).isDisjoint(with: own13) })
        #expect(!Self.sets(b.overlays).isEmpty && Self.sets(b.overlays).isSubset(of: parts))
        #expect(squares(b) == withData.count)
        // An ancestor with no mesh at all does not stand in: nothing is drawn.
        let none = layer.vectorGround(cover, zoom: 13.1, style: .light, ready: { _ in false })
        #expect(none.overlays.isEmpty)
        // Everything meshed: the tiles themselves, as a one-shot render draws them.
        let c = layer.vectorGround(cover, zoom: 13.1, style: .light, ready: { _ in true })
        #expect(Self.sets(c.overlays) == own13)
    }
}
