import Foundation
import GeoKit
import MapImage
@testable import MapTiles
import MapTestSupport
import Testing

/// The vector tile decoder against the MVT 2.1 specification's own geometry examples (section
/// 4.3.5) and against a tile archive GDAL's MVT driver wrote from the GeoJSON files beside it
/// (`Fixtures/vector/make-fixture.sh`).
@Suite struct VectorTileTests {
    typealias P = VectorTile.Point
    func decode(_ g: [UInt32], _ type: Int) throws(TileError) -> VectorTile.Geometry {
        try VectorTile.decodeGeometry(g, type: type, extent: 4096) { TileError(.decode, $0) }
    }

    @Test func theSpecificationsGeometryExamples() throws {
        // 4.3.5.1 Point: (25, 17).
        #expect(try decode([9, 50, 34], 1) == .points([P(x: 25, y: 17)]))
        // 4.3.5.2 MultiPoint: (5, 7) and (3, 2).
        #expect(try decode([17, 10, 14, 3, 9], 1) == .points([P(x: 5, y: 7), P(x: 3, y: 2)]))
        // 4.3.5.3 LineString: (2,2) (2,10) (10,10).
        #expect(try decode([9, 4, 4, 18, 0, 16, 16, 0], 2) == .lines([[P(x: 2, y: 2), P(x: 2, y: 10), P(x: 10, y: 10)]]))
        // 4.3.5.4 MultiLineString: (2,2) (2,10) (10,10) and (1,1) (3,5).
        #expect(try decode([9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8], 2)
            == .lines([[P(x: 2, y: 2), P(x: 2, y: 10), P(x: 10, y: 10)], [P(x: 1, y: 1), P(x: 3, y: 5)]]))
        // 4.3.5.5 Polygon: (3,6) (8,12) (20,34), closed.
        #expect(try decode([9, 6, 12, 18, 10, 12, 24, 44, 15], 3) == .polygons([[[P(x: 3, y: 6), P(x: 8, y: 12), P(x: 20, y: 34)]]]))
        // 4.3.5.6 MultiPolygon: a square, then a square with a square hole (wound the other way).
        let multi: [UInt32] = [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 9, 22, 2, 26, 18, 0, 0, 18, 17, 0, 15, 9, 4, 13, 26, 0, 8, 8, 0, 0, 7, 15]
        #expect(try decode(multi, 3) == .polygons([
            [[P(x: 0, y: 0), P(x: 10, y: 0), P(x: 10, y: 10), P(x: 0, y: 10)]],
            [[P(x: 11, y: 11), P(x: 20, y: 11), P(x: 20, y: 20), P(x: 11, y: 20)],
             [P(x: 13, y: 13), P(x: 13, y: 17), P(x: 17, y: 17), P(x: 17, y: 13)]],
        ]))
        // Exterior rings have positive area by the spec's formula, holes negative.
        #expect(VectorTile.signedArea([P(x: 11, y: 11), P(x: 20, y: 11), P(x: 20, y: 20), P(x: 11, y: 20)]) == 2 * 81)
        #expect(VectorTile.signedArea([P(x: 13, y: 13), P(x: 13, y: 17), P(x: 17, y: 17), P(x: 17, y: 13)]) == -2 * 16)
    }

    @Test func brokenGeometryIsAnErrorThatSaysWhy() {
        func why(_ g: [UInt32], _ type: Int) -> String {
            do { _ = try decode(g, type); return "decoded" } catch { return error.description }
        }
        #expect(why([9 + 8 * 4, 50, 34], 1).contains("MoveTo × 5 with 1 points left"))
        #expect(why([10, 4, 4], 2).contains("LineTo before any MoveTo"))
        #expect(why([9, 4, 4, 15], 2).contains("ClosePath outside a polygon ring"))
        #expect(why([9, 4, 4, 3], 3).contains("unknown geometry command 3"))
        #expect(why([9, 4, 4, 18], 2).contains("LineTo × 2 with 0 points left"))
        // 2^31 − 1 zigzagged east: far past the 8-extent margin.
        #expect(why([9, 0xFFFF_FFFE, 0], 1).contains("outside the tile"))
    }

    static let fixture: URL = Bundle.module.url(forResource: "Fixtures/vector/vector-fixture", withExtension: "mbtiles")!

    static func geojson(_ name: String) throws -> [[String: Any]] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/vector/\(name)", withExtension: "geojson"))
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        return try #require(doc["features"] as? [[String: Any]])
    }

    /// GDAL's archive read back: at zoom 10 one tile holds every feature unclipped, so each
    /// GeoJSON vertex must come back within one tile unit (360° / 2^10 / 4096 ≈ 8.6e-5° of
    /// longitude) and the properties with their types.
    @Test func gdalsTileHoldsTheGeoJSONFeatures() async throws {
        let source = try MBTilesSource(path: Self.fixture.path)
        #expect(source.info.format == "pbf")
        let id = try TileID(z: 10, x: 531, y: 364)
        let tile = try VectorTile(data: try #require(try await source.tileData(id)))
        #expect(Set(tile.layers.map(\.name)) == ["water", "transportation", "building", "place", "zones"])
        let unit = 360.0 / 1024 / 4096
        func latLng(_ layer: VectorTile.Layer, _ p: P) -> LatLng { layer.mapPoint(p, tile: id).latLng }
        func near(_ a: LatLng, _ lonLat: [Double]) -> Bool {
            abs(a.lon - lonLat[0]) <= unit && abs(a.lat - lonLat[1]) <= unit  // a latitude unit is smaller here
        }

        let water = try #require(tile.layer(named: "water"))
        #expect(water.extent == 4096 && water.features.count == 1)
        let lake = water.features[0]
        #expect(lake.properties["class"] == .string("lake"))
        #expect(lake.properties["depth"]?.number == 7)
        #expect(lake.properties["area_km2"]?.number == 1.5)
        #expect(lake.properties["intermittent"] == .bool(false))
        guard case .polygons(let polygons) = lake.geometry else { Issue.record("lake: \(lake.geometry)"); return }
        #expect(polygons.count == 1 && polygons[0].count == 2, "one polygon with one hole")
        let rings = try #require(try Self.geojson("water")[0]["geometry"] as? [String: Any])["coordinates"] as! [[[Double]]]
        for (k, ring) in polygons[0].enumerated() {
            let expected = rings[k].dropLast()  // GeoJSON repeats the first position
            #expect(ring.count == expected.count, "ring \(k)")
            for v in expected { #expect(ring.contains { near(latLng(water, $0), v) }, "ring \(k) vertex \(v)") }
            #expect((VectorTile.signedArea(ring) > 0) == (k == 0), "exterior positive, hole negative")
        }

        let road = try #require(tile.layer(named: "transportation")?.features.first { $0.properties["name"] == .string("Lake Road") })
        guard case .lines(let lines) = road.geometry, lines.count == 1 else { Issue.record("road: \(road.geometry)"); return }
        let roadCoords = try #require(try Self.geojson("transportation")[0]["geometry"] as? [String: Any])["coordinates"] as! [[Double]]
        #expect(lines[0].count == roadCoords.count)
        for (p, v) in zip(lines[0], roadCoords) { #expect(near(latLng(tile.layer(named: "transportation")!, p), v), "\(v)") }

        let place = try #require(tile.layer(named: "place"))
        guard case .points(let pts) = place.features[0].geometry, pts.count == 1 else { Issue.record("place"); return }
        #expect(near(latLng(place, pts[0]), [7.02, 46.04]))
        #expect(place.features[0].properties["population"]?.number == 12345)
    }

    @Test func theSchemaReadsTheFixturesLayers() throws {
        func kind(_ layer: String, _ props: [String: VectorTile.Value], area: Bool) -> VectorFeatureKind? {
            VectorTileSchema.kind(layer: layer, properties: props, isArea: area)
        }
        #expect(kind("water", ["class": .string("lake")], area: true) == .water)
        #expect(kind("transportation", ["class": .string("primary")], area: false) == .majorRoad)
        #expect(kind("transportation", ["class": .string("path")], area: false) == .path)
        #expect(kind("transportation", ["class": .string("ferry")], area: false) == nil)
        #expect(kind("building", [:], area: true) == .building)
        #expect(kind("zones", ["kind": .string("survey")], area: true) == .otherArea, "a layer no schema names: drawn plainly")
        #expect(kind("landuse", ["class": .string("residential")], area: true) == nil, "a known layer's class the style leaves out")
        // Protomaps v2, where the OSM tag is more telling than pmap:kind.
        #expect(kind("roads", ["pmap:kind": .string("other"), "highway": .string("footway")], area: false) == .path)
        #expect(kind("roads", ["pmap:kind": .string("highway")], area: false) == .motorway)
        #expect(kind("boundary", ["admin_level": .int(2), "maritime": .int(0)], area: false) == .countryBorder)
        #expect(kind("boundary", ["admin_level": .int(2), "maritime": .int(1)], area: false) == nil)
        let place = try #require(VectorTileSchema.place(layer: "place", properties: ["class": .string("city"), "name": .string("Testville"),
                                                                                    "capital": .int(2)],
                                                        point: MapPoint(LatLng(lat: 46.04, lon: 7.02))))
        #expect(place.name == "Testville" && place.isCapital && !place.isCountry && place.rank == 2)
        expectNear(place.position.lat, 46.04, tolerance: 1e-9)
        expectNear(place.position.lon, 7.02, tolerance: 1e-9)
        #expect(VectorTileSchema.place(layer: "place", properties: ["class": .string("square"), "name": .string("Piazza")],
                                       point: MapPoint(x: 0.5, y: 0.5)) == nil)
        // Tunnels in each schema's words; a passage through a building is not one.
        #expect(VectorTileSchema.isTunnel(["brunnel": .string("tunnel")]) && VectorTileSchema.isTunnel(["is_tunnel": .bool(true)])
            && VectorTileSchema.isTunnel(["tunnel": .string("yes")]) && VectorTileSchema.isTunnel(["structure": .string("tunnel")]))
        #expect(!VectorTileSchema.isTunnel(["brunnel": .string("bridge")]) && !VectorTileSchema.isTunnel(["tunnel": .string("building_passage")])
            && !VectorTileSchema.isTunnel(["is_tunnel": .bool(false)]) && !VectorTileSchema.isTunnel([:]))
        // Names in a language where the place has one (Protomaps' name:en, OpenMapTiles' name_en).
        let florence: [String: VectorTile.Value] = ["pmap:kind": .string("city"), "name": .string("Firenze"),
                                                    "name:en": .string("Florence"), "name_de": .string("Florenz")]
        let at = MapPoint(LatLng(lat: 43.77, lon: 11.25))
        #expect(VectorTileSchema.place(layer: "places", properties: florence, point: at)?.name == "Firenze")
        #expect(VectorTileSchema.place(layer: "places", properties: florence, point: at, language: "en")?.name == "Florence")
        #expect(VectorTileSchema.place(layer: "places", properties: florence, point: at, language: "de")?.name == "Florenz")
        #expect(VectorTileSchema.place(layer: "places", properties: florence, point: at, language: "fr")?.name == "Firenze")
        // Every language's name is kept for a later choice; a regional code falls back to its language.
        let kept = try #require(VectorTileSchema.place(layer: "places", properties: florence, point: at))
        #expect(kept.names == ["en": "Florence", "de": "Florenz"])
        #expect(kept.named(in: "de-AT").name == "Florenz" && kept.named(in: "it").name == "Firenze" && kept.named(in: nil).name == "Firenze")
    }

    /// Every prefix of a real tile and every single-byte change decodes or throws `TileError`,
    /// and no message is empty (a short fuzz pass over the protobuf reader).
    @Test func damagedTilesAreErrorsNotCrashes() async throws {
        let source = try MBTilesSource(path: Self.fixture.path)
        var bytes = try #require(try await source.tileData(try TileID(z: 10, x: 531, y: 364)))
        if bytes.starts(with: [0x1F, 0x8B]) { bytes = try Gzip.decompress(bytes) }
        var errors = 0
        for n in 0 ..< bytes.count {
            do { _ = try VectorTile(data: Array(bytes[..<n])) } catch { errors += 1; #expect(!error.description.isEmpty) }
        }
        #expect(errors > bytes.count / 2, "most prefixes cut a field short")
        var rng = SplitMix64(seed: 42)
        for _ in 0 ..< 2000 {
            var b = bytes
            b[Int(rng.next() % UInt64(b.count))] = UInt8(truncatingIfNeeded: rng.next())
            _ = try? VectorTile(data: b)
        }
    }

    @Test func attributionMarkupIsDroppedForTheMap() {
        #expect(TileSources.plainText(#"<a href="https://protomaps.com" target="_blank">Protomaps</a> © <a href="https://www.openstreetmap.org">OpenStreetMap</a>"#)
            == "Protomaps © OpenStreetMap")
        #expect(TileSources.plainText("&copy; OpenMapTiles &amp; &#169; &#x00A9; &lt;b&gt;\n  contributors") == "© OpenMapTiles & © © <b> contributors")
        #expect(TileSources.plainText("&amp;copy; &#bogus; a<b") == "&copy; &#bogus; a")
    }
}
