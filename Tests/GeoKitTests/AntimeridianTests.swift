import Foundation
import GeoKit
import MapTestSupport
import Testing

/// lines_antimeridian.json (scripts/fixtures/gen_lines.py): crossing latitudes from mercantile
/// (Mercator) and geographiclib on a sphere (great circle).
private struct CrossingFixture: Decodable, Sendable {
    struct Case: Decodable, Sendable {
        let a: [Double], b: [Double]
        let mercator: Double, greatCircle: Double
    }
    let cases: [Case]

    static let shared: CrossingFixture = jsonFixture("lines_antimeridian")
}

@Suite struct AntimeridianTests {
    /// 40 random crossing segments, both directions: Mercator within 1e-9° of mercantile
    /// (metres in EPSG:3857 and back), great circle within 1e-9° of geographiclib's f = 0 geodesic.
    @Test func crossingsMatchReferences() throws {
        for c in CrossingFixture.shared.cases {
            let a = LatLng(lat: c.a[0], lon: c.a[1]), b = LatLng(lat: c.b[0], lon: c.b[1])
            let eastward = b.lon < a.lon
            for (mode, want) in [(Antimeridian.Interpolation.mercator, c.mercator), (.greatCircle, c.greatCircle)] {
                let parts = try Antimeridian.split([a, b], interpolation: mode)
                #expect(parts.count == 2)
                guard parts.count == 2 else { continue }
                #expect(parts[0].count == 2 && parts[1].count == 2)
                #expect(parts[0][0] == a && parts[1][1] == b)
                #expect(parts[0][1].lon == (eastward ? 180 : -180))
                #expect(parts[1][0].lon == (eastward ? -180 : 180))
                expectNear(parts[0][1].lat, want, tolerance: 1e-9, "\(mode) \(a)→\(b)")
                #expect(parts[1][0].lat == parts[0][1].lat)
            }
        }
    }

    /// Hand-derived: a great circle through (10°, ±170°) is symmetric about 180°, where it peaks:
    /// Napier's rule for the right triangle at the vertex gives tan φ = tan 10° / cos 10°.
    /// On the equator both methods cross at latitude 0.
    @Test func byHand() throws {
        let gc = try Antimeridian.split([LatLng(lat: 10, lon: 170), LatLng(lat: 10, lon: -170)], interpolation: .greatCircle)
        expectNear(gc[0][1].lat, atan(tan(10 * Double.pi / 180) / cos(10 * Double.pi / 180)) * 180 / .pi, tolerance: 1e-12)
        // Symmetric ends in Mercator: the crossing is at the same latitude.
        let m = try Antimeridian.split([LatLng(lat: 10, lon: 170), LatLng(lat: 10, lon: -170)])
        expectNear(m[0][1].lat, 10, tolerance: 1e-12)
        // Westward along the equator.
        let w = try Antimeridian.split([LatLng(lat: 0, lon: -170), LatLng(lat: 0, lon: 170)])
        #expect(w == [[LatLng(lat: 0, lon: -170), LatLng(lat: 0, lon: -180)], [LatLng(lat: 0, lon: 180), LatLng(lat: 0, lon: 170)]])
    }

    @Test func shapes() throws {
        // No crossing: one part, longitudes wrapped.
        #expect(try Antimeridian.split([LatLng(lat: 0, lon: 10), LatLng(lat: 1, lon: 380)])
            == [[LatLng(lat: 0, lon: 10), LatLng(lat: 1, lon: 20)]])
        // A vertex on the antimeridian is not duplicated: 170 → 180 → -170.
        let on = try Antimeridian.split([LatLng(lat: 0, lon: 170), LatLng(lat: 0, lon: 180), LatLng(lat: 0, lon: -170)])
        #expect(on == [[LatLng(lat: 0, lon: 170), LatLng(lat: 0, lon: 180)], [LatLng(lat: 0, lon: -180), LatLng(lat: 0, lon: -170)]])
        // Over and back: three parts.
        let zig = try Antimeridian.split([
            LatLng(lat: 0, lon: 175), LatLng(lat: 0, lon: -175), LatLng(lat: 0, lon: 175), LatLng(lat: 0, lon: 170),
        ])
        #expect(zig.count == 3)
        #expect(zig.map(\.count) == [2, 3, 3])  // [175, 180], [-180, -175, -180], [180, 175, 170]
        // Exactly 180° apart is not a crossing (either way round is as short).
        #expect(try Antimeridian.split([LatLng(lat: 0, lon: -90), LatLng(lat: 0, lon: 90)]).count == 1)
        #expect(try Antimeridian.split([]) == [])
        #expect(try Antimeridian.split([LatLng(lat: 1, lon: 190)]) == [[LatLng(lat: 1, lon: -170)]])
        #expect(throws: GeometryError.invalidPoint(index: 1, LatLng(lat: .infinity, lon: 0))) {
            try Antimeridian.split([LatLng(lat: 0, lon: 0), LatLng(lat: .infinity, lon: 0)])
        }
    }
}
