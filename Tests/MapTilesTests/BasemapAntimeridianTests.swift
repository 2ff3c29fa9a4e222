import Foundation
import GeoKit
import Testing
@testable import MapTiles

/// Views that cross the antimeridian (x outside [0, 1]) get the features of the wrapped
/// world copy, shifted by whole world widths.
@Suite struct BasemapAntimeridianTests {
    /// Bering Strait region: Chukotka (Russia) lies on both sides of 180°, Alaska east of it.
    /// Land at 67°N 178.5°E and 67°N 178.5°W (Chukotka), 64°N 160°W (Alaska); water at 58°N
    /// 180° (Bering Sea) — atlas facts. The view is centred on 180° (x = 1 + copy).
    @Test(arguments: [1.0, 4, 6, 8], [0, -1])
    func beringStrait(zoom: Double, copy: Int) throws {
        let map = try EmbeddedBasemap.shared()
        let c = Double(copy)
        func point(_ lat: Double, _ lon: Double) -> MapPoint {
            var p = MapPoint(LatLng(lat: lat, lon: lon))
            p.x += c
            return p
        }
        let center = MapPoint(x: 1 + c, y: MapPoint(LatLng(lat: 66, lon: 180)).y)
        let world = 512 * pow(2, zoom)
        let w = min(1, 2048 / world), h = min(1, 1024 / world)
        let rect = MapRect(origin: MapPoint(x: center.x - w / 2, y: center.y - h / 2), width: w, height: h)
        let f = map.features(in: rect, zoom: zoom)
        let west = contains(f, .land, point(67, 178.5)), east = contains(f, .land, point(67, 181.5))
        #expect(west, "Chukotka west of 180° at zoom \(zoom)")
        #expect(east, "Chukotka east of 180° at zoom \(zoom)")
        if zoom <= 4 {
            let sea = contains(f, .land, point(58, 180)), alaska = contains(f, .land, point(64, 200))
            #expect(!sea, "Bering Sea at zoom \(zoom)")
            #expect(alaska, "Alaska at zoom \(zoom)")
        }
        let eastFeatures = f.polygons.contains { $0.rings[0].contains { $0.x > 1 + c } }
        let westFeatures = f.polygons.contains { $0.rings[0].contains { $0.x < 1 + c } }
        #expect(eastFeatures && westFeatures, "features on both sides of the antimeridian")
        // The cut along 180° is not a coastline.
        let alongCut = f.lines.filter { $0.kind == .coastline }.contains { line in
            zip(line.points, line.points.dropFirst()).contains { a, b in
                abs(a.x - (1 + c)) < 1e-9 && abs(b.x - (1 + c)) < 1e-9
            }
        }
        #expect(!alongCut, "no coastline runs along the antimeridian")
    }

    /// Suva (Fiji) is at 18.14°S 178.44°E (Wikipedia); seen in a view centred east of 180°.
    @Test func fijiAcrossTheAntimeridian() throws {
        let map = try EmbeddedBasemap.shared()
        let center = LatLng(lat: -17, lon: 181)
        let f = map.features(in: viewRect(center: center, zoom: 5), zoom: 5)
        let suva = try #require(f.places.first { $0.name == "Suva" })
        #expect(abs(suva.point.x - MapPoint(LatLng(lat: -18.14, lon: 178.44)).x) < 0.1 / 360)
        // Viti Levu's interior (17.8°S 178.0°E) is land, in the copy the view asked for.
        let viti = contains(f, .land, MapPoint(LatLng(lat: -17.8, lon: 178.0)))
        #expect(viti)
        let g = map.features(in: viewRect(center: LatLng(lat: -17, lon: -179), zoom: 5), zoom: 5)
        let vitiWest = contains(g, .land, MapPoint(LatLng(lat: -17.8, lon: 178.0 - 360)))
        #expect(vitiWest)
        #expect(g.places.contains { $0.name == "Suva" && $0.point.x < 0 })
    }

    @Test func worldWiderThanOneCopy() throws {
        let map = try EmbeddedBasemap.shared()
        let f = map.features(in: MapRect(origin: MapPoint(x: -0.5, y: 0), width: 2, height: 1), zoom: 0)
        let paris = f.places.filter { $0.name == "Paris" }
        #expect(paris.count == 2, "Paris once per visible world copy")
        #expect(f.tileCount == 3)
    }
}
