import Foundation
import GeoKit
import MapCamera
import MapFormats
import MapImage
import MapScene
@testable import MapSnapshot
import MapTiles
import Testing

/// Points of interest of vector tiles: read from each schema's tags, placed by importance with
/// the name beside the icon, and drawn in the category's colour where the point is.
@Suite struct POILabelTests {
    func value(_ s: String) -> VectorTile.Value { .string(s) }
    let here = MapPoint(LatLng(lat: 0, lon: 0))

    @Test func eachSchemasTagsGiveAnIconAndATier() throws {
        // Protomaps v2 (OSM tags), OpenMapTiles (class, subclass), Protomaps v4 (kind, min_zoom),
        // Mapbox Streets (maki).
        let v2 = try #require(VectorTileSchema.poi(layer: "pois", properties: ["amenity": value("restaurant"), "name": value("Da Mario")],
                                                   point: here))
        #expect(v2.icon == "restaurant" && v2.category == .food && v2.tier == 2 && v2.name == "Da Mario")
        let omt = try #require(VectorTileSchema.poi(layer: "poi", properties: ["class": value("lodging"), "subclass": value("hotel"),
                                                                              "name": value("Hotel Roma"), "rank": .uint(3)],
                                                    point: here))
        #expect(omt.icon == "lodging" && omt.tier == 1 && omt.rank == 3)
        let v4 = try #require(VectorTileSchema.poi(layer: "pois", properties: ["kind": value("museum"), "name": value("Uffizi"),
                                                                              "min_zoom": .double(14), "name:en": value("Uffizi Gallery")],
                                                   point: here))
        #expect(v4.icon == "museum" && v4.tier == 0 && v4.rank == 14 && v4.named(in: "en").name == "Uffizi Gallery")
        let church = try #require(VectorTileSchema.poi(layer: "pois", properties: ["amenity": value("place_of_worship"),
                                                                                  "religion": value("christian"), "name": value("San Marco")],
                                                       point: here))
        #expect(church.icon == "religious-christian" && church.category == .worship)
        #expect(VectorTileSchema.poi(layer: "poi_label", properties: ["maki": value("cafe"), "name": value("Blue")], point: here)?.icon == "cafe")
        // Unnamed, a bench, a layer that is not a POI layer: nothing.
        #expect(VectorTileSchema.poi(layer: "pois", properties: ["amenity": value("cafe")], point: here) == nil)
        #expect(VectorTileSchema.poi(layer: "pois", properties: ["amenity": value("bench"), "name": value("B")], point: here) == nil)
        #expect(VectorTileSchema.poi(layer: "roads", properties: ["amenity": value("cafe"), "name": value("C")], point: here) == nil)
    }

    @Test func waterNamesAreDrawnAloneFromTheirZoom() throws {
        // OpenMapTiles' water_name: a lake (from zoom 9) and a sea (from 2); a river is not a
        // point name; Protomaps v4's min_zoom wins.
        let lake = try #require(VectorTileSchema.waterName(layer: "water_name", properties: ["class": value("lake"), "name": value("Lago")],
                                                           point: here))
        #expect(lake.category == .water && lake.icon.isEmpty && lake.minZoom == 9)
        #expect(VectorTileSchema.waterName(layer: "water_name", properties: ["class": value("sea"), "name": value("Mare")], point: here)?.minZoom == 2)
        #expect(VectorTileSchema.waterName(layer: "water", properties: ["kind": value("lake"), "name": value("L"), "min_zoom": .double(6)],
                                           point: here)?.minZoom == 6)
        #expect(VectorTileSchema.waterName(layer: "water_name", properties: ["class": value("river"), "name": value("R")], point: here) == nil)
        #expect(VectorTileSchema.waterName(layer: "water_name", properties: ["class": value("lake")], point: here) == nil)
        // Drawn centred on its point, no icon; not at zoom 8.
        let camera = Camera(center: LatLng(lat: 0, lon: 0), zoom: 10, size: ScreenSize(width: 300, height: 100))
        var named = lake
        named.point = MapPoint(LatLng(lat: 0, lon: 0))
        var boxes = LabelBoxes()
        let placed = POILabels.place([named], tiers: 0 ... 2, camera: camera, style: .light, labels: CairoLabelRasterizer(), boxes: &boxes)
        #expect(placed.count == 1 && placed.first?.icon == nil)
        #expect(try #require(placed.first?.label).anchor == (0.5, 0.5))
        let box = try #require(boxes.all.first)
        #expect(abs((box.0 + box.2) / 2 - 150) < 1e-9 && abs((box.1 + box.3) / 2 - 50) < 1e-9)
        var none = LabelBoxes()
        let z8 = Camera(center: LatLng(lat: 0, lon: 0), zoom: 8, size: ScreenSize(width: 300, height: 100))
        #expect(POILabels.place([named], tiers: 0 ... 2, camera: z8, style: .light, labels: CairoLabelRasterizer(), boxes: &none).isEmpty)
    }

    func poi(_ name: String, tier: Int, at s: ScreenPoint, _ camera: Camera) throws -> VectorPOI {
        VectorPOI(name: name, names: [:], point: MapPoint(try #require(camera.unproject(s))), icon: tier == 0 ? "museum" : "cafe",
                  category: tier == 0 ? .culture : .food, tier: tier, rank: 0)
    }

    @Test func landmarksFirstNamesBesideTheirIcons() throws {
        let camera = Camera(center: LatLng(lat: 0, lon: 0), zoom: 18, size: ScreenSize(width: 400, height: 200))
        // A café 10 px from a museum listed after it: the museum is placed, the café is not.
        let museum = try poi("Museum", tier: 0, at: ScreenPoint(x: 100, y: 100), camera)
        let cafe = try poi("Cafe", tier: 2, at: ScreenPoint(x: 110, y: 100), camera)
        var boxes = LabelBoxes()
        let placed = POILabels.place([cafe, museum], tiers: 0 ... 2, camera: camera, style: .light, labels: CairoLabelRasterizer(),
                                     boxes: &boxes)
        #expect(placed.map(\.label.text) == ["Museum"])
        // Its name starts `gap` px right of the icon's centre; two boxes taken (icon, name).
        let museumLabel = try #require(placed.first?.label)
        #expect(museumLabel.anchor == (0, 0.5) && museumLabel.offset == (POILabels.gap, 0))
        #expect(boxes.all.count == 2 && boxes.all[0] == (92, 92, 108, 108))
        // A café near the view's right edge: its name goes on the icon's left.
        let east = try poi("Espresso", tier: 2, at: ScreenPoint(x: 380, y: 100), camera)
        var more = LabelBoxes()
        let flipped = POILabels.place([east], tiers: 0 ... 2, camera: camera, style: .light, labels: CairoLabelRasterizer(), boxes: &more)
        let espresso = try #require(flipped.first?.label)
        #expect(espresso.anchor == (1, 0.5) && espresso.offset == (-POILabels.gap, 0))
        // Below its tier's zoom (17.5), or outside the tiers asked for: none.
        var none = LabelBoxes()
        let z17 = Camera(center: LatLng(lat: 0, lon: 0), zoom: 17, size: ScreenSize(width: 400, height: 200))
        #expect(POILabels.place([try poi("Cafe", tier: 2, at: ScreenPoint(x: 100, y: 100), z17)], tiers: 0 ... 2, camera: z17,
                                style: .light, labels: CairoLabelRasterizer(), boxes: &none).isEmpty)
        #expect(POILabels.place([cafe], tiers: 0 ... 0, camera: camera, style: .light, labels: CairoLabelRasterizer(), boxes: &none).isEmpty)
    }

    @Test func aSceneRecoloursCategories() throws {
        let archive = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../MapTilesTests/Fixtures/vector/vector-fixture.mbtiles").standardized.path
        let json = ##"{"camera": {"center": [46.02, 7.01], "zoom": 14}, "tiles": [{"source": "\##(archive)"}], "##
            + ##""vectorStyle": {"base": "dark", "poiColors": {"food": "#FF0000", "water": "blue"}}}"##
        let doc = try JSONDecoder().decode(SceneDocument.self, from: Data(json.utf8))
        let snap = try SceneLoader(baseDirectory: URL(fileURLWithPath: "/")).snapshot(from: doc)
        let style = try #require(snap.vectorStyle)
        #expect(style.poiColors[.food] == BasemapColor(rgb: 0xFF0000) && style.poiColors[.water] == BasemapColor(rgb: 0x0000FF))
        // The other categories keep the dark style's colours.
        #expect(style.poiColors[.culture] == VectorTileStyle.darkPOIColors[.culture])
    }

    @Test func theIconAndNameAreDrawnInTheCategorysColour() throws {
        let camera = Camera(center: LatLng(lat: 0, lon: 0), zoom: 18, size: ScreenSize(width: 300, height: 100))
        let museum = try poi("Museum", tier: 0, at: ScreenPoint(x: 60, y: 50), camera)
        var boxes = LabelBoxes()
        let placed = POILabels.place([museum], tiers: 0 ... 2, camera: camera, style: .light, labels: CairoLabelRasterizer(), boxes: &boxes)
        let snap = Snapshot(camera: camera, overlays: placed.flatMap { $0.overlays(opacity: 1) }, basemapStyle: nil, background: .white,
                            attribution: false)
        let image = try MapSnapshotter().render(snap)
        let purple = VectorTileStyle.light.poiColors[.culture]!
        func isPurple(_ p: RGBA8) -> Bool {
            abs(Double(p.r) / 255 - purple.r) < 0.08 && abs(Double(p.g) / 255 - purple.g) < 0.08 && abs(Double(p.b) / 255 - purple.b) < 0.08
        }
        // The icon fills part of its 14-px box round the point; the name lies right of it.
        var icon = 0, name = 0, elsewhere = 0
        for y in 0 ..< 100 {
            for x in 0 ..< 300 where isPurple(image.pixel(x: x, y: y)!) {
                if abs(x - 60) <= 7 && abs(y - 50) <= 7 { icon += 1 } else if x > 68 && x < 130 && abs(y - 50) <= 8 { name += 1 } else { elsewhere += 1 }
            }
        }
        #expect(icon > 20 && name > 20 && elsewhere == 0, "icon \(icon), name \(name), elsewhere \(elsewhere)")
    }
}

/// Named areas: a label point inside each (hand-derived for a square and a U), one name per
/// area across tile pieces, drawn only where it fits.
@Suite struct AreaNameTests {
    func ring(_ xy: [(Double, Double)]) -> [MapPoint] { xy.map { MapPoint(x: $0.0, y: $0.1) } }

    @Test func theLabelPointLiesInside() throws {
        // A square: its centre.
        let square = try #require(VectorTileContent.labelPoint(ring([(0, 0), (4, 0), (4, 4), (0, 4)])))
        #expect(abs(square.x - 2) < 1e-12 && abs(square.y - 2) < 1e-12)
        // A 6 × 6 square less a 2 × 4 notch (x 2…4, y 0…4): area 36 − 8 = 28, centroid
        // (3, (36·3 − 8·2) / 28 = 23/7), in the notch. The point farthest from the edges is where
        // the arms meet the bar: the circle touching the wall x = 0, the side y = 6 and the
        // notch's corner (2, 4) has its centre at (r, 6 − r) with √2·(2 − r) = r, so
        // r = 4 − 2√2 ≈ 1.172 (or the mirror image, x = 6 − r); the arms alone allow only 1.
        let u = ring([(0, 0), (2, 0), (2, 4), (4, 4), (4, 0), (6, 0), (6, 6), (0, 6)])
        #expect(abs(VectorTileContent.signedArea(u)) == 56)
        let p = try #require(VectorTileContent.labelPoint(u))
        let r = 4 - 2 * 2.0.squareRoot()
        #expect(min(hypot(p.x - r, p.y - (6 - r)), hypot(p.x - (6 - r), p.y - (6 - r))) < 0.05, "\(p)")
        #expect(abs(VectorTileContent.signedDistance(p, [u]) - r) < 6.0 / 200, "\(p)")
        // A 10 × 10 square with a 4 × 4 hole at (1…5, 1…5): the centroid of the outline, (5, 5),
        // is the hole's corner. The widest room is the far corner: the circle touching x = 10,
        // y = 10 and the hole's corner (5, 5), centre (10 − r, 10 − r) with √2·(5 − r) = r,
        // r = 5·(2 − √2) ≈ 2.929.
        let outer = ring([(0, 0), (10, 0), (10, 10), (0, 10)]), hole = ring([(1, 1), (5, 1), (5, 5), (1, 5)])
        let q = try #require(VectorTileContent.labelPoint(outer, holes: [hole]))
        let c = 10 - 5 * (2 - 2.0.squareRoot())
        #expect(hypot(q.x - c, q.y - c) < 0.1, "\(q)")
        #expect(VectorTileContent.signedDistance(q, [outer, hole]) > 5 * (2 - 2.0.squareRoot()) - 0.05)
        #expect(VectorTileContent.signedDistance(MapPoint(x: 3, y: 3), [outer, hole]) == -2)
        #expect(VectorTileContent.labelPoint(ring([(0, 0), (1, 1), (2, 2)])) == nil)
    }

    func area(_ name: String, _ x: Double, _ w: Double) -> VectorPOI {
        let e = MapRect(origin: MapPoint(x: x, y: 0.5), width: w, height: w)
        return VectorTileSchema.areaName(kind: .green, properties: ["name": .string(name)], point: e.mid, extent: e)!
    }

    @Test func anAreaCutByTilesIsNamedOnce() {
        // Two pieces of one park side by side (boxes touching), the larger kept; a park of the
        // same name far away kept too; another name kept.
        let kept = VectorTileContent.onePerArea([area("Park", 0.1, 0.01), area("Park", 0.11, 0.02), area("Park", 0.5, 0.01),
                                                 area("Wood", 0.105, 0.01)])
        #expect(kept.map(\.name).sorted() == ["Park", "Park", "Wood"])
        #expect(kept.first { $0.name == "Park" }?.extent?.width == 0.02)
        #expect(kept.contains { $0.name == "Park" && $0.point.x > 0.5 })
        // Parks, woods, water and campuses are named; buildings are not; larger areas rank first.
        #expect(area("A", 0, 0.001).rank < area("B", 0, 0.0001).rank && area("A", 0, 0.001).category == .park)
        #expect(VectorTileSchema.areaName(kind: .building, properties: ["name": .string("X")], point: MapPoint(x: 0, y: 0),
                                          extent: MapRect(origin: MapPoint(x: 0, y: 0), width: 1, height: 1)) == nil)
    }

    @Test func aNameIsDrawnWhereItsAreaIsWideEnough() throws {
        // A park 0.0004 of the world wide: 209 px at zoom 10, 52 px at zoom 8.
        let e = MapRect(origin: MapPoint(x: 0.4998, y: 0.4998), width: 0.0004, height: 0.0004)
        let park = try #require(VectorTileSchema.areaName(kind: .green, properties: ["name": .string("Big Park")], point: e.mid, extent: e))
        for (zoom, drawn) in [(10.0, true), (8.0, false)] {
            let camera = Camera(center: e.mid.latLng, zoom: zoom, size: ScreenSize(width: 400, height: 300))
            var boxes = LabelBoxes()
            let placed = POILabels.place([park], tiers: 0 ... 2, camera: camera, style: .light, labels: CairoLabelRasterizer(),
                                         boxes: &boxes)
            #expect(placed.count == (drawn ? 1 : 0), "zoom \(zoom)")
        }
    }
}
