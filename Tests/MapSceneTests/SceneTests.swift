import GeoKit
import MapTestSupport
import Testing
@testable import MapScene

@Suite struct SceneTests {
    @Test func defaultOrderIsPolygonsCirclesRoutesMarkersLabels() throws {
        let p = LatLng(lat: 10, lon: 20)
        var scene = Scene()
        scene.add(.marker(try Marker(position: p)))
        scene.add(.polyline(try Polyline(coordinates: [p, LatLng(lat: 11, lon: 21)])))
        scene.add(.label(try Label(position: p, text: "x")))
        scene.add(.circle(try Circle(center: p, radius: .meters(100))))
        scene.add(.polygon(try Polygon(exterior: [p, LatLng(lat: 11, lon: 20), LatLng(lat: 11, lon: 21)])))
        #expect(scene.drawingOrder.map(\.kind) == [.polygon, .circle, .route, .marker, .label])
    }

    @Test func zIndexOverridesAndTiesKeepInsertionOrder() throws {
        let p = LatLng(lat: 10, lon: 20)
        var scene = Scene()
        scene.add(.polyline(try Polyline(coordinates: [p, p], zIndex: 50)))   // below polygons (100)
        scene.add(.polygon(try Polygon(exterior: [p, p, p])))
        scene.add(.marker(try Marker(position: p, color: .black, zIndex: 100)))  // ties with the polygon
        let order = scene.drawingOrder.map(\.kind)
        #expect(order == [.route, .polygon, .marker])
    }

    /// Few and many distinct z-indices, in a scrambled order with ties: the order is z-index
    /// first, insertion order among ties, as a plain stable sort says.
    @Test(arguments: [3, 40]) func manyLevelsSortStably(levels: Int) throws {
        let p = LatLng(lat: 10, lon: 20)
        var rng = SplitMix64(seed: UInt64(levels))
        var scene = Scene()
        var expected: [(z: Int, i: Int)] = []
        for i in 0 ..< 200 {
            let z = Int(rng.next() % UInt64(levels)) * 7 - 50
            scene.add(.marker(try Marker(position: LatLng(lat: p.lat, lon: Double(i) / 10), zIndex: z)))
            expected.append((z, i))
        }
        expected.sort { $0.z != $1.z ? $0.z < $1.z : $0.i < $1.i }
        let lons = scene.drawingOrder.map { o -> Double in
            guard case .marker(let m) = o else { return .nan }
            return m.position.lon
        }
        #expect(lons == expected.map { Double($0.i) / 10 })
    }

    @Test func basemapAlwaysFirst() throws {
        let p = LatLng(lat: 10, lon: 20)
        let land = try Polygon(exterior: [p, p, p], zIndex: 100_000)
        let scene = Scene(basemap: [.polygon(land)], overlays: [.marker(try Marker(position: p, zIndex: -5))])
        #expect(scene.drawingOrder.map(\.kind) == [.polygon, .marker])
    }

    @Test func basemapLabelsGoBetweenTheOverlaysUnderZ350AndTheRest() throws {
        // Markers tagged by longitude; the basemap's label is the one label overlay.
        func m(_ tag: Int, z: Int?) throws -> Overlay { .marker(try Marker(position: LatLng(lat: 0, lon: Double(tag)), zIndex: z)) }
        func tags(_ scene: Scene) -> [Int] {
            scene.drawingOrder.map { o in
                switch o {
                case .marker(let mk): Int(mk.position.lon)
                case .label: -1
                default: -2
                }
            }
        }
        let land = Overlay.polygon(try Polygon(exterior: [LatLng(lat: 0, lon: 0), LatLng(lat: 1, lon: 0), LatLng(lat: 0, lon: 1)]))
        let place = Overlay.label(try Label(position: LatLng(lat: 0, lon: 0), text: "Town"))
        // Out of order: sorted by z (0, 349, 350, 351, 400), the place label before z 350.
        var scene = Scene(basemap: [land], overlays: [try m(1, z: 400), try m(2, z: 349), try m(3, z: 350), try m(4, z: 0), try m(5, z: 351)])
        scene.basemapLabels = [place]
        #expect(tags(scene) == [-2, 4, 2, -1, 3, 5, 1])
        // In order already: polygons, circles and routes (z 100–300) under it, markers over it.
        scene.overlays = [try m(1, z: 100), try m(2, z: 300), try m(3, z: nil)]
        #expect(tags(scene) == [-2, 1, 2, -1, 3])
        // Everything under it, or over it; no basemap ground.
        scene.overlays = [try m(1, z: 100)]
        #expect(tags(scene) == [-2, 1, -1])
        scene.basemap = []
        scene.overlays = [try m(1, z: 350), try m(2, z: 120)]
        #expect(tags(scene) == [2, -1, 1])
        scene.basemapLabels = []
        #expect(tags(scene) == [2, 1])
    }

    @Test func labelTextHaloAndOffsetsAreChecked() throws {
        let p = LatLng(lat: 1, lon: 2)
        _ = try Label(position: p, text: String(repeating: "x", count: 1000), haloWidth: 32)
        func parameter(_ make: () throws -> Void) -> String? {
            do { try make(); return nil } catch { return (error as? SceneError)?.parameter ?? "\(error)" }
        }
        #expect(parameter { _ = try Label(position: p, text: String(repeating: "x", count: 1001)) } == "text")
        #expect(parameter { _ = try Label(position: p, text: "a", haloWidth: .nan) } == "haloWidth")
        #expect(parameter { _ = try Label(position: p, text: "a", haloWidth: 33) } == "haloWidth")
        #expect(parameter { _ = try Label(position: p, text: "a", haloWidth: -1) } == "haloWidth")
        #expect(parameter { _ = try Label(position: p, text: "a", offset: (.infinity, 0)) } == "anchor")
        #expect(parameter { _ = try Label(position: p, text: "a", anchor: (0, .nan)) } == "anchor")
        #expect(parameter { _ = try Marker(position: p, label: String(repeating: "é", count: 1001)) } == "label")
        #expect(parameter { _ = try Marker(position: p, label: String(repeating: "é", count: 1000)) } == nil)
    }

    @Test func invalidCoordinatesNameTheIndex() {
        do {
            _ = try GeoPath(coordinates: [LatLng(lat: 1, lon: 2), LatLng(lat: .nan, lon: 0)])
            Issue.record("expected an error")
        } catch {
            #expect(error.parameter == "coordinates[1]")
        }
        #expect(throws: SceneError.self) { try GeoPath(coordinates: [LatLng(lat: 91, lon: 0)]) }
        #expect(throws: SceneError.self) { try GeoPath(points: [MapPoint(x: .infinity, y: 0)]) }
    }

    @Test func pathsCrossTheAntimeridianAsTheirStepsSay() throws {
        // x = (lon + 180) / 360, here in 3600ths: 179.9° → 3599, −179.9° → 1.
        func tenths(_ p: GeoPath) -> [Double] { p.points.map { ($0.x * 3600).rounded() } }
        let track = [LatLng(lat: 0, lon: 179.9), LatLng(lat: 1, lon: -179.9), LatLng(lat: 2, lon: -179.5)]
        // The shorter way (tracks): past x = 1 into the next copy east.
        #expect(tenths(try GeoPath(coordinates: track, steps: .shorterWay)) == [3599, 3601, 3605])
        // As given (GeoJSON): back round the world.
        #expect(tenths(try GeoPath(coordinates: track)) == [3599, 1, 5])
        // Westwards: below 0.
        let west = try GeoPath(coordinates: [LatLng(lat: 0, lon: -179.9), LatLng(lat: 0, lon: 179.9)], steps: .shorterWay)
        #expect(tenths(west) == [1, -1])
        // Steps of 180° are kept as given (0° → 180° goes east, 180° → 0° west).
        let half = try GeoPath(coordinates: [LatLng(lat: 0, lon: 0), LatLng(lat: 0, lon: 180), LatLng(lat: 0, lon: 0)],
                               steps: .shorterWay)
        #expect(half.points.map(\.x) == [0.5, 1, 0.5])
        // Polyline(coordinates:) is a track.
        #expect(tenths(try Polyline(coordinates: track).path) == [3599, 3601, 3605])
        // A polygon given past 180° (175…185) keeps a hole given in −180…180 in its copy of the
        // world; a hole already inside stays.
        let poly = try Polygon(exterior: [LatLng(lat: -5, lon: 175), LatLng(lat: -5, lon: 185), LatLng(lat: 5, lon: 185), LatLng(lat: 5, lon: 175)],
                               holes: [[LatLng(lat: -1, lon: -179), LatLng(lat: -1, lon: -177), LatLng(lat: 1, lon: -177)],
                                       [LatLng(lat: -1, lon: 177), LatLng(lat: -1, lon: 179), LatLng(lat: 1, lon: 179)]])
        #expect(poly.exterior.points.map { ($0.x * 360).rounded() } == [355, 365, 365, 355])
        #expect(poly.holes[0].points.map { ($0.x * 360).rounded() } == [361, 363, 363])
        #expect(poly.holes[1].points.map { ($0.x * 360).rounded() } == [357, 359, 359])
    }

    @Test func circleRejectsBadRadii() {
        let c = LatLng(lat: 0, lon: 0)
        #expect(throws: SceneError.self) { try Circle(center: c, radius: .meters(-1)) }
        #expect(throws: SceneError.self) { try Circle(center: c, radius: .meters(.nan)) }
        #expect(throws: SceneError.self) { try Circle(center: c, radius: .meters(2e7)) }
        #expect(throws: SceneError.self) { try Circle(center: LatLng(lat: .infinity, lon: 0), radius: .pixels(3)) }
    }

    @Test(arguments: [("12", Length.pixels(12)), ("12px", .pixels(12)), ("120m", .meters(120)),
                      ("1.5km", .meters(1500)), (" 3 PX", .pixels(3))])
    func parsesLengths(_ text: String, _ expected: Length) throws {
        #expect(try Length(parsing: text) == expected)
    }

    @Test(arguments: ["", "m", "-3m", "nan", "12 furlongs", "infpx"])
    func rejectsLengths(_ text: String) {
        #expect(throws: SceneError.self) { try Length(parsing: text) }
    }

    @Test func spriteImageChecksSize() {
        #expect(SpriteImage(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 16)) != nil)
        #expect(SpriteImage(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 15)) == nil)
        #expect(SpriteImage(width: 0, height: 2, pixels: []) == nil)
    }
}
