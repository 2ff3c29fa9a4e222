import Foundation
import GeoKit
import MapCamera
import MapTestSupport
import Testing
@testable import MapScene

/// Picking against GeographicLib: `Fixtures/pick-route.json` holds a route with GeographicLib's
/// cumulative geodesic distances at every vertex and at each segment's Web Mercator midpoint
/// (`make_pick_fixture.py`).
@Suite struct PickingTests {
    struct Fixture: Decodable {
        struct Mid: Decodable { var segment: Int; var lat: Double; var lon: Double; var distanceAlong: Double }
        var points: [[Double]]
        var cumulative: [Double]
        var midpoints: [Mid]
    }

    static func fixture() throws -> Fixture {
        let url = try #require(Bundle.module.url(forResource: "pick-route", withExtension: "json", subdirectory: "Fixtures"))
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }

    static func camera(bearing: Double, pitch: Double) -> Camera {
        Camera(center: LatLng(lat: 45.776, lon: 14.393), zoom: 14, bearing: bearing, pitch: pitch,
               size: ScreenSize(width: 1024, height: 768))
    }

    @Test(arguments: [(0.0, 0.0), (30.0, 0.0), (30.0, 50.0), (-120.0, 60.0)])
    func clicksOnTheRouteReportGeographicLibDistances(_ bearing: Double, _ pitch: Double) throws {
        let f = try Self.fixture()
        let coords = f.points.map { LatLng(lat: $0[0], lon: $0[1]) }
        var line = try Polyline(coordinates: coords)
        // Times: 1 s per 2 m, so the time at a point is its distance / 2.
        line.times = f.cumulative.map { 1_700_000_000 + $0 / 2 }
        let overlays: [Overlay] = [.polyline(line)]
        let cam = Self.camera(bearing: bearing, pitch: pitch)
        let picker = Picker()
        for (i, c) in coords.enumerated() {
            let s = try #require(cam.project(c))
            let p = try #require(picker.pick(overlays, at: s, camera: cam), "vertex \(i)")
            #expect(p.kind == .route)
            expectNear(p.distanceAlong ?? -1, f.cumulative[i], tolerance: 0.5, "vertex \(i)")
            expectNear(p.time ?? 0, 1_700_000_000 + f.cumulative[i] / 2, tolerance: 0.5, "vertex \(i) time")
        }
        for m in f.midpoints {
            let s = try #require(cam.project(LatLng(lat: m.lat, lon: m.lon)))
            let p = try #require(picker.pick(overlays, at: s, camera: cam), "midpoint \(m.segment)")
            #expect(p.segment == m.segment)
            expectNear(p.distanceAlong ?? -1, m.distanceAlong, tolerance: 0.5, "midpoint of segment \(m.segment)")
            expectNear(p.position, LatLng(lat: m.lat, lon: m.lon), tolerance: 1e-6)
        }
    }

    @Test(arguments: [(0.0, 0.0), (30.0, 50.0)])
    func missesBeyondTheToleranceReportNothing(_ bearing: Double, _ pitch: Double) throws {
        let f = try Self.fixture()
        let coords = f.points.map { LatLng(lat: $0[0], lon: $0[1]) }
        // 2 px wide: the tolerance (8 px) plus the half width (1 px) reaches 9 px from the centre line.
        let line = try Polyline(coordinates: coords, style: LineStyle(width: .pixels(2)))
        let cam = Self.camera(bearing: bearing, pitch: pitch)
        let m = f.midpoints[3]
        let s = try #require(cam.project(LatLng(lat: m.lat, lon: m.lon)))
        let a = try #require(cam.project(coords[3])), b = try #require(cam.project(coords[4]))
        let len = hypot(b.x - a.x, b.y - a.y)
        let normal = (x: -(b.y - a.y) / len, y: (b.x - a.x) / len)
        let picker = Picker()
        let near = ScreenPoint(x: s.x + normal.x * 8.5, y: s.y + normal.y * 8.5)
        let far = ScreenPoint(x: s.x + normal.x * 9.5, y: s.y + normal.y * 9.5)
        let hit = try #require(picker.pick([.polyline(line)], at: near, camera: cam))
        expectNear(hit.screenDistance, 8.5, tolerance: 1e-6)
        #expect(picker.pick([.polyline(line)], at: far, camera: cam) == nil)
    }

    /// A pin twice the size is hit at twice the height: its head (19.5 px up, 10.5 px round at
    /// scale 1) is centred 39 px above the tip and 21 px round.
    @Test func scaledPinsAreHitWhereTheyAreDrawn() throws {
        let cam = Self.camera(bearing: 0, pitch: 0)
        let centre = LatLng(lat: 45.776, lon: 14.393)
        let tip = cam.centerPoint
        let above = ScreenPoint(x: tip.x, y: tip.y - 55)
        let picker = Picker()
        let big = try Marker(position: centre, style: .pin, scale: 2)
        #expect(picker.pick([.marker(big)], at: above, camera: cam, tolerance: 0)?.kind == .marker)
        let normal = try Marker(position: centre, style: .pin)
        // 55 − 19.5 − 10.5 = 25 px beyond the normal pin's head.
        #expect(picker.pick([.marker(normal)], at: above, camera: cam, tolerance: 20) == nil)
        #expect(picker.pick([.marker(normal)], at: above, camera: cam, tolerance: 26)?.kind == .marker)
        // A glyph names the marker when it has no label.
        let lettered = try Marker(position: centre, style: .pin, glyph: "B")
        #expect(picker.pick([.marker(lettered)], at: ScreenPoint(x: tip.x, y: tip.y - 20), camera: cam)?.label == "B")
        #expect(throws: SceneError.self) { try Marker(position: centre, glyph: "") }
        #expect(throws: SceneError.self) { try Marker(position: centre, glyph: "ABC") }
        #expect(throws: SceneError.self) { try Marker(position: centre, scale: 0) }
        #expect(throws: SceneError.self) { try Marker(position: centre, scale: .nan) }
    }

    @Test func topmostOverlayWinsAndAreasHitInside() throws {
        let cam = Self.camera(bearing: 0, pitch: 0)
        let centre = LatLng(lat: 45.776, lon: 14.393)
        let circle = try Circle(center: centre, radius: .meters(500))
        let marker = try Marker(position: centre, label: "Here")
        let picker = Picker()
        let c = cam.centerPoint
        // The marker (z 400) is above the circle (z 200).
        let top = try #require(picker.pick([.circle(circle), .marker(marker)], at: c, camera: cam))
        #expect(top.kind == .marker && top.overlay == 1 && top.label == "Here")
        // 300 m east is inside the 500 m circle, beyond the marker.
        let east = try #require(cam.project(Geodesic.wgs84.direct(from: centre, azimuth: 90, distance: 300).point))
        #expect(picker.pick([.circle(circle), .marker(marker)], at: east, camera: cam)?.kind == .circle)
        // 700 m east is outside the circle by more than 8 px (at zoom 14 here a pixel is ~6.7 m).
        let out = try #require(cam.project(Geodesic.wgs84.direct(from: centre, azimuth: 90, distance: 700).point))
        #expect(picker.pick([.circle(circle), .marker(marker)], at: out, camera: cam) == nil)
        // A polygon: inside, and a hole is not.
        let sq = [LatLng(lat: 45.77, lon: 14.38), LatLng(lat: 45.77, lon: 14.40), LatLng(lat: 45.78, lon: 14.40), LatLng(lat: 45.78, lon: 14.38)]
        let hole = [LatLng(lat: 45.774, lon: 14.388), LatLng(lat: 45.774, lon: 14.392), LatLng(lat: 45.776, lon: 14.392), LatLng(lat: 45.776, lon: 14.388)]
        let poly = try Polygon(exterior: sq, holes: [hole])
        #expect(picker.pick([.polygon(poly)], at: try #require(cam.project(LatLng(lat: 45.772, lon: 14.385))), camera: cam)?.kind == .polygon)
        #expect(picker.pick([.polygon(poly)], at: try #require(cam.project(LatLng(lat: 45.775, lon: 14.390))), camera: cam) == nil)
    }

    @Test func polygonsAcrossTheAntimeridianAreHitOnBothSides() throws {
        // A 10° square round 180° (given past 180°, as GeoJSON allows): clicks 2° either side of
        // the antimeridian are inside it, one 7° east of it is not.
        let cam = Camera(center: LatLng(lat: 0, lon: 180), zoom: 3, size: ScreenSize(width: 600, height: 400))
        let poly = try Polygon(exterior: [LatLng(lat: -5, lon: 175), LatLng(lat: -5, lon: 185),
                                          LatLng(lat: 5, lon: 185), LatLng(lat: 5, lon: 175)], fill: .white)
        let picker = Picker()
        for lon in [178.0, -178.0] {
            let at = try #require(cam.project(LatLng(lat: 1, lon: lon)))
            #expect(picker.pick([.polygon(poly)], at: at, camera: cam)?.kind == .polygon, "at \(lon)")
        }
        let outside = try #require(cam.project(LatLng(lat: 1, lon: -173)))
        #expect(picker.pick([.polygon(poly)], at: outside, camera: cam) == nil)
    }

    /// At zoom 0.5 a 1024 px view shows the world 1.4 times: a marker at 170°E is drawn twice,
    /// 724 px apart (512·2^0.5), and a click on either copy hits it (a route across the
    /// antimeridian, given past 180°, likewise on the copy west of the centre). A click between
    /// them hits nothing.
    @Test func everyWorldCopyIsHit() throws {
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 0.5, size: ScreenSize(width: 1024, height: 600))
        let world = 512 * pow(2, 0.5)
        let picker = Picker()
        let route = try Polyline(coordinates: [LatLng(lat: -20, lon: 160), LatLng(lat: -20, lon: -160)])
        for lon in [170.0, -170] {
            let s = try #require(cam.project(LatLng(lat: -20, lon: lon)))
            for x in [s.x, s.x - world, s.x + world] where x > 0 && x < 1024 {
                #expect(picker.pick([.polyline(route)], at: ScreenPoint(x: x, y: s.y), camera: cam)?.kind == .route,
                        "route at \(lon)°, x \(x)")
            }
        }
        // The route is not a line across the view from one copy's end to the other's start
        // (each point projected to its own nearest copy made that segment): 0° is clear of it.
        let mid = try #require(cam.project(LatLng(lat: -20, lon: 0)))
        #expect(picker.pick([.polyline(route)], at: mid, camera: cam) == nil)
        let marker = try Marker(position: LatLng(lat: 10, lon: 170), style: .dot, color: .white, label: "A")
        let east = try #require(cam.project(LatLng(lat: 10, lon: 170)))
        let west = ScreenPoint(x: east.x - world, y: east.y)
        #expect(west.x > 0 && east.x < 1024)
        for s in [east, west] {
            let p = try #require(picker.pick([.marker(marker)], at: s, camera: cam), "at \(s)")
            #expect(p.kind == .marker && p.label == "A" && p.screenDistance < 1)
            #expect(p.position == LatLng(lat: 10, lon: 170))
        }
        #expect(picker.pick([.marker(marker)], at: ScreenPoint(x: east.x - world / 2, y: east.y), camera: cam) == nil)
    }

    @Test func columnsAreHitOnTheirSilhouette() throws {
        let cam = Self.camera(bearing: 20, pitch: 60)
        let p = LatLng(lat: 45.776, lon: 14.393)
        let col = try Column(position: p, height: 800, radius: 30)
        let top = try #require(cam.project(p, height: 800))
        let hit = try #require(Picker().pick([.column(col)], at: top, camera: cam))
        #expect(hit.kind == .column)
        // Far to the side of the shaft: nothing.
        #expect(Picker().pick([.column(col)], at: ScreenPoint(x: top.x + 200, y: top.y), camera: cam) == nil)
    }

    @Test func nonFiniteInputPicksNothing() throws {
        let line = try Polyline(coordinates: [LatLng(lat: 0, lon: 0), LatLng(lat: 1, lon: 1)])
        let cam = Self.camera(bearing: 0, pitch: 0)
        #expect(Picker().pick([.polyline(line)], at: ScreenPoint(x: .nan, y: 0), camera: cam) == nil)
        #expect(Picker().pick([.polyline(line)], at: ScreenPoint(x: 0, y: 0), camera: cam, tolerance: .infinity) == nil)
    }
}
