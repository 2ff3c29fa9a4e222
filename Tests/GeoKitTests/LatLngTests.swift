import GeoKit
import MapTestSupport
import Testing

@Suite struct LatLngTests {
    /// Hand-derived: 190° is 170° west; -540° is the antimeridian, written -180.
    @Test(arguments: [(190.0, -170.0), (-190, 170), (180, -180), (-540, -180), (359.5, -0.5), (0, 0)])
    func wrapsLongitude(_ input: Double, _ expected: Double) {
        expectNear(LatLng.wrapLongitude(input), expected, tolerance: 1e-12)
    }

    /// Web Mercator: the corners of the world and the equator, by the formula's definition.
    @Test func mercatorCorners() {
        let nw = MapPoint(LatLng(lat: WebMercator.maxLatitude, lon: -180))
        expectNear(nw.x, 0, tolerance: 1e-12)
        expectNear(nw.y, 0, tolerance: 1e-12)
        let c = MapPoint(LatLng(lat: 0, lon: 0))
        expectNear(c.x, 0.5, tolerance: 1e-15)
        expectNear(c.y, 0.5, tolerance: 1e-15)
        // 45°N: y = 0.5 - ln(tan(67.5°))/(2π) = 0.5 - 0.881373587/(2π)
        let p = MapPoint(LatLng(lat: 45, lon: 90))
        expectNear(p.x, 0.75, tolerance: 1e-15)
        expectNear(p.y, 0.5 - 0.8813735870195430 / (2 * .pi), tolerance: 1e-12)
        expectNear(p.latLng, LatLng(lat: 45, lon: 90), tolerance: 1e-12)
    }
}
