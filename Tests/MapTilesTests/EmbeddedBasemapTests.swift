import Foundation
import GeoKit
import MapTestSupport
import Testing
@testable import MapTiles

/// Facts about the world, independent of Natural Earth, checked at every level of detail.
/// Each render zoom below selects one level: 1 → 110m, 4 → 50m, 6 → 10m simplified, 10 → 10m.
@Suite struct EmbeddedBasemapTests {
    static let zooms: [Double] = [1, 4, 6, 10]

    static func basemap() throws -> EmbeddedBasemap { try EmbeddedBasemap.shared() }

    /// Points well inside land (atlas knowledge: each is hundreds of km from any coast).
    static let landPoints: [(String, LatLng)] = [
        ("central France", LatLng(lat: 46.5, lon: 2.5)),
        ("Sahara (Niger/Algeria)", LatLng(lat: 23, lon: 10)),
        ("Brazil (Mato Grosso)", LatLng(lat: -10, lon: -55)),
        ("central Australia", LatLng(lat: -25, lon: 134)),
        ("Siberia", LatLng(lat: 62, lon: 100)),
        ("Greenland ice sheet", LatLng(lat: 72, lon: -40)),
        ("Antarctica (within the Mercator clamp)", LatLng(lat: -80, lon: 0)),
        ("Chukotka east of 180° (Russia)", LatLng(lat: 66, lon: -173)),
    ]

    /// Points in open ocean, far from any island.
    static let oceanPoints: [(String, LatLng)] = [
        ("mid-Atlantic", LatLng(lat: 30, lon: -40)),
        ("central Pacific", LatLng(lat: 0, lon: -150)),
        ("Indian Ocean", LatLng(lat: -20, lon: 75)),
        ("Southern Ocean", LatLng(lat: -60, lon: 0)),
        ("Arctic Ocean", LatLng(lat: 84, lon: 0)),
    ]

    /// Points in large lakes (well away from their shores and islands).
    static let lakePoints: [(String, LatLng)] = [
        ("Lake Victoria", LatLng(lat: -1, lon: 33)),
        ("Lake Superior", LatLng(lat: 47.7, lon: -87.5)),
        ("Caspian Sea", LatLng(lat: 42, lon: 50.5)),
    ]

    @Test func loadsTheEmbeddedResource() throws {
        let map = try Self.basemap()
        #expect(map.byteCount > 1_000_000 && map.byteCount < 6_000_000, "resource is \(map.byteCount) bytes")
        #expect(map.attribution.contains("Made with Natural Earth"))
        #expect(map.levels.map(\.scale) == [110, 50, 10, 10])
        #expect(map.places.count > 7000)
        let (tiles, vertices) = try map.validate()
        #expect(tiles > 2000 && vertices > 1_000_000, "\(tiles) tiles, \(vertices) vertices")
    }

    @Test(arguments: zooms, landPoints.indices)
    func landIsLand(zoom: Double, index: Int) throws {
        let (name, p) = Self.landPoints[index]
        let f = try Self.basemap().features(in: viewRect(center: p, zoom: zoom), zoom: zoom)
        let land = contains(f, .land, MapPoint(p)), lake = contains(f, .lake, MapPoint(p))
        #expect(land, "\(name) at zoom \(zoom) (\(f.sourceScale))")
        #expect(!lake, "\(name) at zoom \(zoom) is not in a lake")
    }

    @Test(arguments: zooms, oceanPoints.indices)
    func oceanIsNotLand(zoom: Double, index: Int) throws {
        let (name, p) = Self.oceanPoints[index]
        let f = try Self.basemap().features(in: viewRect(center: p, zoom: zoom), zoom: zoom)
        let land = contains(f, .land, MapPoint(p))
        #expect(!land, "\(name) at zoom \(zoom) (\(f.sourceScale))")
    }

    @Test(arguments: zooms, lakePoints.indices)
    func lakesAreWater(zoom: Double, index: Int) throws {
        let (name, p) = Self.lakePoints[index]
        let f = try Self.basemap().features(in: viewRect(center: p, zoom: zoom), zoom: zoom)
        let water = contains(f, .lake, MapPoint(p)) || !contains(f, .land, MapPoint(p))
        #expect(water, "\(name) at zoom \(zoom) (\(f.sourceScale))")
        let lakes = f.polygons.count { $0.kind == .lake }
        #expect(lakes > 0, "lake polygons near \(name) at zoom \(zoom)")
    }

    /// Published city-centre coordinates (Wikipedia infoboxes): Paris 48.8566, 2.3522;
    /// Tokyo 35.6895, 139.6917; New York 40.7128, −74.0060; Sydney −33.8688, 151.2093;
    /// Buenos Aires −34.6037, −58.3816. Tolerance 0.1°. The zoom is the lowest world view
    /// that must show the city (Natural Earth scalerank 0 → zoom 0, 1 → zoom 1).
    static let cities: [(String, LatLng, Double)] = [
        ("Paris", LatLng(lat: 48.8566, lon: 2.3522), 0),
        ("Tokyo", LatLng(lat: 35.6895, lon: 139.6917), 0),
        ("New York", LatLng(lat: 40.7128, lon: -74.0060), 0),
        ("Sydney", LatLng(lat: -33.8688, lon: 151.2093), 0),
        ("Buenos Aires", LatLng(lat: -34.6037, lon: -58.3816), 1),
    ]

    @Test(arguments: cities.indices)
    func majorCitiesInWorldViews(index: Int) throws {
        let (name, truth, zoom) = Self.cities[index]
        let f = try Self.basemap().features(in: .world, zoom: zoom)
        let place = try #require(f.places.first { $0.name == name }, "\(name) among \(f.places.count) places")
        expectNear(place.position, truth, tolerance: 0.1, "\(name)")
        expectNear(place.point.x, MapPoint(truth).x, tolerance: 0.1 / 360, "\(name) x")
        // dy/dφ = 1 / (360° · cos φ) world units per degree in Web Mercator.
        expectNear(place.point.y, MapPoint(truth).y, tolerance: 0.1 / (360 * cos(truth.lat * .pi / 180)), "\(name) y")
        #expect(Double(place.minZoom) <= zoom)
    }

    @Test func placesThinOutByZoom() throws {
        let map = try Self.basemap()
        let counts = [0.0, 2, 4, 6, 8].map { map.features(in: .world, zoom: $0).places.count }
        #expect(counts == counts.sorted() && Set(counts).count == counts.count, "\(counts)")
        #expect(counts[0] >= 20 && counts[0] <= 60, "zoom 0 labels: \(counts[0])")
        let z0 = map.features(in: .world, zoom: 0).places
        #expect(z0.allSatisfy { $0.minZoom == 0 })
        #expect(z0.first { $0.name == "Paris" }?.isCapital == true)
        #expect(z0.first { $0.name == "New York" }?.isCapital == false)
    }

    /// Country labels sit inside their country, near its middle. Truth: the countries' extents
    /// from an atlas (mainland France 42.3–51.1°N, 4.8°W–8.2°E; Brazil 33.8°S–5.3°N,
    /// 74°W–34.8°W; contiguous United States 24.5–49.4°N, 124.8°W–66.9°W), the label point
    /// at least 2° inside each edge, and on land.
    static let countries: [(String, ClosedRange<Double>, ClosedRange<Double>)] = [
        ("France", 44.3...49.1, -2.8...6.2),
        ("Brazil", -31.8...3.3, -72...(-36.8)),
        ("United States", 26.5...47.4, -122.8...(-68.9)),
    ]

    @Test(arguments: countries.indices)
    func countryLabels(index: Int) throws {
        let (name, lat, lon) = Self.countries[index]
        let map = try Self.basemap()
        let f = map.features(in: .world, zoom: 3)
        let label = try #require(f.places.first { $0.isCountry && $0.name == name })
        #expect(lat.contains(label.position.lat) && lon.contains(label.position.lon), "\(name) at \(label.position)")
        let land = contains(f, .land, label.point)
        #expect(land)
        let cityScale = map.features(in: viewRect(center: label.position, zoom: 8), zoom: 8).places
        #expect(!cityScale.contains { $0.isCountry }, "no country labels at zoom 8")
    }

    /// The France–Spain border crosses 0.5°E at about 42.7°N (Pyrenees, Val d'Aran):
    /// some country border passes within 0.1° (0.35° for 1:110m).
    @Test(arguments: zooms)
    func franceSpainBorder(zoom: Double) throws {
        let q = LatLng(lat: 42.7, lon: 0.5)
        let f = try Self.basemap().features(in: viewRect(center: q, zoom: zoom), zoom: zoom)
        let d = nearestDistance(f, .countryBorder, to: q)
        #expect(d < (zoom < 3 ? 0.35 : 0.1), "nearest border \(d)° at zoom \(zoom)")
        // Cap de Creus (42.3192°N 3.3219°E), the Mediterranean end of the Pyrenees, is on the coast.
        let cape = LatLng(lat: 42.3192, lon: 3.3219)
        let g = try Self.basemap().features(in: viewRect(center: cape, zoom: zoom), zoom: zoom)
        let coast = nearestDistance(g, .coastline, to: cape)
        #expect(coast < (zoom < 3 ? 0.35 : 0.1), "nearest coastline \(coast)° at zoom \(zoom)")
    }

    @Test func worldViewIsSimplified() throws {
        let f = try Self.basemap().features(in: .world, zoom: 0)
        #expect(f.sourceScale == "110m" && f.tileCount == 1)
        #expect(f.vertexCount < 25_000, "\(f.vertexCount) vertices")
        #expect(f.polygons.count { $0.kind == .land } > 100)
        // Every polygon sits inside the square Web Mercator world.
        let inside = f.polygons.allSatisfy {
            $0.rings.joined().allSatisfy { $0.x >= 0 && $0.x <= 1 && $0.y >= 0 && $0.y <= 1 }
        }
        #expect(inside)
    }

    /// Shoelace area (y down): outer rings positive, holes negative, at every level.
    @Test(arguments: zooms)
    func ringOrientation(zoom: Double) throws {
        let f = try Self.basemap().features(in: viewRect(center: LatLng(lat: 50, lon: 10), zoom: zoom), zoom: zoom)
        func area(_ r: [MapPoint]) -> Double {
            var a = 0.0
            for i in r.indices { let p = r[i], q = r[(i + 1) % r.count]; a += p.x * q.y - q.x * p.y }
            return a / 2
        }
        let outersPositive = f.polygons.allSatisfy { area($0.rings[0]) > 0 }
        let holesNegative = f.polygons.allSatisfy { $0.rings.dropFirst().allSatisfy { area($0) < 0 } }
        #expect(outersPositive && holesNegative)
        #expect(f.polygons.allSatisfy { $0.rings.allSatisfy { $0.count >= 3 } })
    }

    /// A 1024×768 px view of Paris at zoom 12 reads one tile of the finest level.
    @Test func cityViewIsBounded() throws {
        let f = try Self.basemap().features(in: viewRect(center: LatLng(lat: 48.8566, lon: 2.3522), zoom: 12), zoom: 12)
        #expect(f.sourceScale == "10m" && f.level == 3)
        #expect(f.tileCount <= 4 && f.vertexCount < 3000, "\(f.tileCount) tiles, \(f.vertexCount) vertices")
        #expect(f.places.contains { $0.name == "Paris" })
        let land = contains(f, .land, MapPoint(LatLng(lat: 48.8566, lon: 2.3522)))
        #expect(land)
    }

    /// Many tasks querying the shared basemap at once get the same answers as one task alone.
    @Test func concurrentQueriesAgree() async throws {
        let views: [(LatLng, Double)] = [
            (LatLng(lat: 50, lon: 10), 3.5), (LatLng(lat: 56, lon: 11), 6), (LatLng(lat: 66, lon: 180), 8),
            (LatLng(lat: 0, lon: 0), 0), (LatLng(lat: 48.8566, lon: 2.3522), 12),
        ]
        let serial = try views.map { v in
            try EmbeddedBasemap.shared().features(in: viewRect(center: v.0, zoom: v.1), zoom: v.1).vertexCount
        }
        let parallel = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for k in 0..<40 {
                group.addTask {
                    let v = views[k % views.count]
                    let f = try EmbeddedBasemap.shared().features(in: viewRect(center: v.0, zoom: v.1), zoom: v.1)
                    return (k % views.count, f.vertexCount)
                }
            }
            var out: [(Int, Int)] = []
            for try await r in group { out.append(r) }
            return out
        }
        #expect(parallel.count == 40)
        #expect(parallel.allSatisfy { serial[$0.0] == $0.1 })
    }

    @Test func hugeRectangleAtHighZoomStaysBounded() throws {
        let map = try Self.basemap()
        let f = map.features(in: MapRect(origin: MapPoint(x: -3, y: 0), width: 100, height: 1), zoom: 14)
        let (tiles, level) = (f.tileCount, f.level)
        #expect(tiles <= EmbeddedBasemap.maxTilesPerQuery * EmbeddedBasemap.maxWorldCopies)
        #expect(level < 3)
    }

    @Test(arguments: [
        MapRect(origin: MapPoint(x: .nan, y: 0), width: 1, height: 1),
        MapRect(origin: MapPoint(x: 0, y: 0), width: .infinity, height: 1),
        MapRect(origin: MapPoint(x: 0, y: 0), width: -1, height: 1),
        MapRect(origin: MapPoint(x: 0, y: 2), width: 1, height: 1),
    ])
    func badRectanglesGiveNothing(rect: MapRect) throws {
        let f = try Self.basemap().features(in: rect, zoom: 3)
        let empty = f.polygons.isEmpty && f.lines.isEmpty && f.places.isEmpty
        #expect(empty)
    }

    @Test func nonFiniteZoomGivesNothing() throws {
        let map = try Self.basemap()
        let a = map.features(in: .world, zoom: .nan).polygons.count
        let b = map.features(in: .world, zoom: -.infinity).polygons.count
        #expect(a == 0 && b == 0)
    }
}
