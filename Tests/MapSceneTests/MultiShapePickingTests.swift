import GeoKit
import MapCamera
import MapScene
import Testing

/// A pick on any part of a `MultiPolygon` or `MultiPolyline` reports the set, as a pick on that
/// part drawn alone would.
@Suite struct MultiShapePickingTests {
    static let camera = Camera(center: LatLng(lat: 46, lon: 7), zoom: 14, size: ScreenSize(width: 400, height: 400))

    func square(_ lat: Double, _ lon: Double) throws -> GeoPath {
        try GeoPath(coordinates: [LatLng(lat: lat, lon: lon), LatLng(lat: lat, lon: lon + 0.002),
                                  LatLng(lat: lat + 0.001, lon: lon + 0.002), LatLng(lat: lat + 0.001, lon: lon)])
    }

    @Test func aPickInAnyPartReportsTheSet() throws {
        let set = PolygonSet([PolygonRings(exterior: try square(45.996, 6.994)), PolygonRings(exterior: try square(46.002, 7.003))])
        let overlays: [Overlay] = [.marker(try Marker(position: LatLng(lat: 45.99, lon: 6.99))),
                                   .multiPolygon(MultiPolygon(polygons: set))]
        let picker = Picker()
        for centre in [LatLng(lat: 45.9965, lon: 6.995), LatLng(lat: 46.0025, lon: 7.004)] {
            let s = try #require(Self.camera.project(centre))
            let pick = try #require(picker.pick(overlays, at: s, camera: Self.camera))
            #expect(pick.kind == .polygon && pick.overlay == 1 && pick.screenDistance == 0)
        }
        // Between the parts: nothing within the tolerance.
        let between = try #require(Self.camera.project(LatLng(lat: 46.0, lon: 7.0)))
        #expect(picker.pick(overlays, at: between, camera: Self.camera) == nil)
    }

    @Test func aPickNearALineReportsTheSetAndThatLine() throws {
        let a = try GeoPath(coordinates: [LatLng(lat: 45.998, lon: 6.99), LatLng(lat: 45.998, lon: 7.01)])
        let b = try GeoPath(coordinates: [LatLng(lat: 46.002, lon: 6.99), LatLng(lat: 46.002, lon: 7.01)])
        let line = MultiPolyline(paths: PathSet([a, b]), style: LineStyle(width: .pixels(4)))
        let picker = Picker()
        let on = try #require(Self.camera.project(LatLng(lat: 46.002, lon: 7.0)))
        let pick = try #require(picker.pick([.multiPolyline(line)], at: ScreenPoint(x: on.x, y: on.y + 3), camera: Self.camera))
        #expect(pick.kind == .route && pick.overlay == 0)
        // 3 px off the centre line (the distance a route's pick reports; its half width widens the
        // tolerance).
        #expect(abs(pick.screenDistance - 3) < 1e-6)
        #expect(abs(pick.position.lat - 46.002) < 1e-5)
    }
}
