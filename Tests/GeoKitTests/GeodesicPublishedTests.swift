import Foundation
@testable import GeoKit
import MapTestSupport
import Testing

/// Published values: the worked examples of Karney, "Algorithms for geodesics", J. Geodesy 87
/// (2013) (Tables 2 and 3, printed to 11 decimals in degrees and 5 in metres), and the
/// GeographicLib `GeodSolve` regression cases (GeographicLib's test suite, with its tolerances).
@Suite struct GeodesicPublishedTests {
    let g = Geodesic.wgs84

    /// Karney (2013) Table 2, direct problem: φ₁ = 40°, α₁ = 30°, s₁₂ = 10 000 km →
    /// φ₂ = 41.79331020506°, λ₁₂ = 137.84490004377°, α₂ = 149.09016931807°.
    /// Tolerance: half a unit in the last printed place.
    @Test func karneyTable2Direct() {
        let r = g.direct(from: LatLng(lat: 40, lon: 0), azimuth: 30, distance: 10_000_000)
        expectNear(r.point.lat, 41.79331020506, tolerance: 0.5e-11)
        expectNear(r.point.lon, 137.84490004377, tolerance: 0.5e-11)
        expectNear(r.azimuth2, 149.09016931807, tolerance: 0.5e-11)
    }

    /// Karney (2013) Table 3, inverse problem for nearly antipodal points (the astroid start):
    /// φ₁ = −30°, φ₂ = 29.9°, λ₁₂ = 179.8° → α₁ = 161.89052473633°, α₂ = 18.09073724574°,
    /// s₁₂ = 19 989 832.82761 m.
    @Test func karneyTable3Inverse() {
        let r = g.inverse(LatLng(lat: -30, lon: 0), LatLng(lat: 29.9, lon: 179.8))
        expectNear(r.azimuth1, 161.89052473633, tolerance: 0.5e-11)
        expectNear(r.azimuth2, 18.09073724574, tolerance: 0.5e-11)
        expectNear(r.distance, 19_989_832.82761, tolerance: 0.5e-5)
    }

    /// GeodSolve inverse cases: (lat1, lon1, lat2, lon2, azi1, azi2, s12, tolerance in degrees,
    /// tolerance in metres); azimuth NaN means "not checked". Each names the bug it pins.
    @Test(
        arguments: [
            // GeodSolve0: JFK → CDG-like, the GeodSolve documentation example.
            (40.6, -73.8, 49.01666667, 2.55, 53.47022, 111.59367, 5_853_226.0, 0.5e-5, 0.5),
            // GeodSolve4: short line bug found 2010-05-21.
            (36.493349428792, 0, 36.49334942879201, 0.0000008, .nan, .nan, 0.072, 0, 0.5e-3),
            // GeodSolve6/9/10/11: nearly antipodal cases that broke the start / tol1.
            (88.202499451857, 0, -88.202499451857, 179.981022032992859592, .nan, .nan, 20_003_898.214, 0, 0.5e-3),
            (89.262080389218, 0, -89.262080389218, 179.992207982775375662, .nan, .nan, 20_003_925.854, 0, 0.5e-3),
            (56.320923501171, 0, -56.320923501171, 179.664747671772880215, .nan, .nan, 19_993_558.287, 0, 0.5e-3),
            (52.784459512564, 0, -52.784459512563990912, 179.634407464943777557, .nan, .nan, 19_991_596.095, 0, 0.5e-3),
            (48.522876735459, 0, -48.52287673545898293, 179.599720456223079643, .nan, .nan, 19_989_144.774, 0, 0.5e-3),
            // GeodSolve29: longitudes outside [-180, 180].
            (0, 539, 0, 181, .nan, .nan, 222_639, 0, 0.5),
            // GeodSolve33: equatorial points, short of, on and beyond 180(1 − f) of longitude.
            (0, 0, 0, 179, 90, 90, 19_926_189, 0.5e-5, 0.5),
            (0, 0, 0, 179.5, 55.96650, 124.03350, 19_980_862, 0.5e-5, 0.5),
            (0, 0, 0, 180, 0, 180, 20_003_931, 0.5e-5, 0.5),
            (0, 0, 1, 180, 0, 180, 19_893_357, 0.5e-5, 0.5),
            // GeodSolve59: lon12 computed without rounding error.
            (5, 0.00000000000001, 10, 180, 0.000000000000035, 179.99999999999996, 18_345_191.174332713, 1.5e-14, 5e-9),
        ] as [(Double, Double, Double, Double, Double, Double, Double, Double, Double)])
    func geodSolveInverse(
        _ c: (Double, Double, Double, Double, Double, Double, Double, Double, Double)
    ) {
        let r = g.inverse(LatLng(lat: c.0, lon: c.1), LatLng(lat: c.2, lon: c.3))
        expectNear(r.distance, c.6, tolerance: c.8)
        if !c.4.isNaN {
            expectNear(r.azimuth1, c.4, tolerance: c.7)
            expectNear(abs(r.azimuth2), abs(c.5), tolerance: c.7)
        }
    }

    /// GeodSolve1 (direct, GeodSolve documentation) and GeodSolve5 (point 2 at a pole,
    /// bug found 2010-05-03): tolerance 0.5e-5°.
    @Test func geodSolveDirect() {
        let r = g.direct(from: LatLng(lat: 40.63972222, lon: -73.77888889), azimuth: 53.5, distance: 5850e3)
        expectNear(r.point.lat, 49.01467, tolerance: 0.5e-5)
        expectNear(r.point.lon, 2.56106, tolerance: 0.5e-5)
        expectNear(r.azimuth2, 111.62947, tolerance: 0.5e-5)
        let p = g.direct(from: LatLng(lat: 0.01777745589997, lon: 30), azimuth: 0, distance: 10e6)
        expectNear(p.point.lat, 90, tolerance: 0.5e-5)
        if p.point.lon < 0 {
            expectNear(p.point.lon, -150, tolerance: 0.5e-5)
            expectNear(abs(p.azimuth2), 180, tolerance: 0.5e-5)
        } else {
            expectNear(p.point.lon, 30, tolerance: 0.5e-5)
            expectNear(p.azimuth2, 0, tolerance: 0.5e-5)
        }
    }

    /// GeodSolve14/55: NaN in, NaN out (no trap, no hang); and a latitude beyond ±90 is NaN.
    @Test(arguments: [
        (0.0, 0.0, 1.0, Double.nan), (Double.nan, 0, 0, 90), (Double.nan, 0, 90, 9),
        (91, 0, 0, 0), (0, 0, -90.5, 0), (0, .infinity, 0, 0),
    ])
    func nanInNanOut(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) {
        let r = g.inverse(LatLng(lat: lat1, lon: lon1), LatLng(lat: lat2, lon: lon2))
        #expect(r.distance.isNaN && r.azimuth1.isNaN && r.azimuth2.isNaN)
    }

    /// Direct with NaN or infinite input gives NaN, never a trap.
    @Test(arguments: [
        (Double.nan, 0.0, 0.0, 1.0), (0, 0, .nan, 1), (0, 0, 0, .nan), (0, 0, .infinity, 1),
        (0, 0, 0, .infinity), (95, 0, 0, 1),
    ])
    func directNaN(_ lat: Double, _ lon: Double, _ azi: Double, _ s: Double) {
        let r = g.direct(from: LatLng(lat: lat, lon: lon), azimuth: azi, distance: s)
        #expect(r.point.lat.isNaN || r.point.lon.isNaN)
    }

    /// Coincident points: zero distance; the azimuths follow the meridian convention, for which
    /// GeographicLib 2.1 (Python) gives 180°, 180° at (51.5, −0.12) and 0°, 0° at (−33.9, 151.2).
    @Test func coincident() {
        let r = g.inverse(LatLng(lat: 51.5, lon: -0.12), LatLng(lat: 51.5, lon: -0.12))
        #expect(r.distance == 0)
        expectNear(r.azimuth1, 180, tolerance: 0)
        expectNear(r.azimuth2, 180, tolerance: 0)
        let s = g.inverse(LatLng(lat: -33.9, lon: 151.2), LatLng(lat: -33.9, lon: 151.2))
        #expect(s.distance == 0)
        expectNear(s.azimuth1, 0, tolerance: 0)
        expectNear(s.azimuth2, 0, tolerance: 0)
    }

    /// The astroid root: μ⁴ + 2μ³ + (1 − x² − y²)μ² − 2y²μ − y² = 0 (Karney 2013 eq. 55),
    /// checked by substitution (residual relative to the largest term ≤ 1e-12), and μ = 0 on
    /// the cusp (y = 0, |x| ≤ 1).
    @Test(arguments: [(-0.5, -0.3), (-2.0, -0.01), (-0.1, -3.0), (-1.0, -1.0), (-10, -10), (-0.999, -1e-6)])
    func astroidRoot(_ x: Double, _ y: Double) {
        let k = Geodesic.astroid(x, y)
        #expect(k > 0)
        let terms = [k * k * k * k, 2 * k * k * k, (1 - x * x - y * y) * k * k, -2 * y * y * k, -y * y]
        let scale = terms.map(abs).max() ?? 1
        expectNear(terms.reduce(0, +) / scale, 0, tolerance: 1e-12)
        #expect(Geodesic.astroid(-0.5, 0) == 0)
    }
}
