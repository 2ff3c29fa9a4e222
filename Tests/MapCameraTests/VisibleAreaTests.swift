import Foundation
import GeoKit
import MapTestSupport
import Testing
@testable import MapCamera

@Suite struct VisibleAreaTests {
    /// Pitch 0, bearing 0: the visible polygon is the screen rectangle on the map.
    /// (0, 0) at zoom 2 (world 2048 px), 800×600: x spans ±400 px = ±70.3125°, y ±300 px.
    @Test func flatPolygonIsScreenRectangle() throws {
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 2, size: ScreenSize(width: 800, height: 600))
        let poly = cam.visibleGroundPolygon
        try #require(poly.count == 4)
        let top = latFromMercY(0.5 - 300.0 / 2048)
        expectNear(poly[0], LatLng(lat: top, lon: -70.3125), tolerance: 1e-9)
        expectNear(poly[1], LatLng(lat: top, lon: 70.3125), tolerance: 1e-9)
        expectNear(poly[2], LatLng(lat: -top, lon: 70.3125), tolerance: 1e-9)
        expectNear(poly[3], LatLng(lat: -top, lon: -70.3125), tolerance: 1e-9)
    }

    /// Across the antimeridian the polygon keeps continuous longitudes (here past 180°).
    @Test func polygonAcrossAntimeridian() throws {
        let cam = Camera(center: LatLng(lat: 0, lon: 179), zoom: 4, size: ScreenSize(width: 800, height: 600))
        let poly = cam.visibleGroundPolygon
        // 400 px at zoom 4 (8192 px) = 17.578125°; right edge at 196.578125°.
        expectNear(poly[1].lon, 179 + 17.578125, tolerance: 1e-9)
    }

    /// Pitched views whose far plane cuts the ground: the top side is the far-plane line,
    /// which lies below the horizon, and the polygon is a trapezoid wider at the top.
    @Test func steepPolygonStopsAtFarPlane() throws {
        let cam = Camera(
            center: LatLng(lat: 45, lon: 7), zoom: 12, pitch: 85, size: ScreenSize(width: 1280, height: 720))
        #expect(cam.topGroundY > cam.horizonY)
        let q = cam.visibleGroundQuad
        try #require(q.count == 4)
        #expect(abs(q[1].x - q[0].x) > abs(q[2].x - q[3].x))
    }

    /// Ground resolution at pitch 0 is circumference·cos φ / worldSize: at the equator,
    /// zoom 0, 40075016.68557849/512 = 78271.51696402048 m/px; at 60°N, zoom 10, half of
    /// 40075016.68557849/524288.
    @Test func metersPerPixel() throws {
        let eq = Camera(center: LatLng(lat: 0, lon: 0), zoom: 0, size: ScreenSize(width: 512, height: 512))
        expectNear(try #require(eq.metersPerPixel(at: ScreenPoint(x: 256, y: 256))), 78271.51696402048, tolerance: 1e-6)
        let north = Camera(center: LatLng(lat: 60, lon: 0), zoom: 10, size: ScreenSize(width: 512, height: 512))
        expectNear(
            try #require(north.metersPerPixel(at: ScreenPoint(x: 256, y: 256))),
            40_075_016.68557849 / 524_288 * 0.5, tolerance: 1e-9)
        // Pitched, the centre point keeps its resolution (depth d there); farther rows grow.
        let pitched = Camera(
            center: LatLng(lat: 0, lon: 0), zoom: 5, pitch: 60, size: ScreenSize(width: 800, height: 600))
        let mid = try #require(pitched.metersPerPixel(at: ScreenPoint(x: 400, y: 300)))
        expectNear(mid, 40_075_016.68557849 / (512 * 32), tolerance: 1e-6)
        // Row y = 50: u = −250/900, depth w = 900·cos 60°/(cos 60° + u·sin 60°); the ground
        // there lies y1 = u·w·cos 60° + (900 − w)·sin 60° world px south of the centre
        // (negative: north), so the resolution is mid · (w/900) · cos φ(y1).
        let u = -250.0 / 900, c = 0.5, sn = 3.0.squareRoot() / 2
        let w = 900 * c / (c + u * sn)
        let y1 = u * w * c + (900 - w) * sn
        let phi = latFromMercY(0.5 + y1 / (512 * 32)) * Double.pi / 180
        expectNear(
            try #require(pitched.metersPerPixel(at: ScreenPoint(x: 400, y: 50))), mid * w / 900 * cos(phi),
            tolerance: 1e-6)
        let sky = Camera(center: LatLng(lat: 0, lon: 0), zoom: 5, pitch: 85, size: ScreenSize(width: 800, height: 600))
        #expect(sky.metersPerPixel(at: ScreenPoint(x: 400, y: 0)) == nil)
    }
}
