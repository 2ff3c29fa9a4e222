import GeoKit
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

    @Test func basemapAlwaysFirst() throws {
        let p = LatLng(lat: 10, lon: 20)
        let land = try Polygon(exterior: [p, p, p], zIndex: 100_000)
        let scene = Scene(basemap: [.polygon(land)], overlays: [.marker(try Marker(position: p, zIndex: -5))])
        #expect(scene.drawingOrder.map(\.kind) == [.polygon, .marker])
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
