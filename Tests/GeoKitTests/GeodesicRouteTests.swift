import Foundation
import GeoKit
import MapTestSupport
import Testing

/// Densified routes and geodesic circles against GeographicLib 2.1 (Python) points from
/// scripts/fixtures/gen_geodesic_routes.py (Fixtures/geodesic_routes.csv), plus invariants.
@Suite struct GeodesicRouteTests {
    let g = Geodesic.wgs84

    struct Shape {
        var params: [Double]  // a, b, c, d
        var n: Int
        var points: [LatLng] = []
    }

    /// Fixture shapes by kind ("route" / "circle") and name, points in index order.
    static func shapes(_ kind: String) throws -> [String: Shape] {
        let url = try #require(
            Bundle.module.url(forResource: "geodesic_routes", withExtension: "csv", subdirectory: "Fixtures"))
        var out: [String: Shape] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            let f = line.split(separator: ",").map(String.init)
            guard f.count == 10, f[0] == kind else { continue }
            let v = f[2...].compactMap(Double.init)
            try #require(v.count == 8, "bad fixture line \(line)")
            out[f[1], default: Shape(params: Array(v[0..<4]), n: Int(v[4]))].points.append(LatLng(lat: v[6], lon: v[7]))
        }
        return out
    }

    /// Tolerance 1e-9° per point (same as the direct fixture); consecutive longitudes must be
    /// continuous (|Δlon| < 180) and the end points must be exactly the inputs (mod 360).
    @Test func densifyByCountMatchesGeographicLib() throws {
        let routes = try Self.shapes("route")
        #expect(routes.count == 6)
        for (name, r) in routes {
            let a = LatLng(lat: r.params[0], lon: r.params[1]), b = LatLng(lat: r.params[2], lon: r.params[3])
            let pts = try g.densify(from: a, to: b, count: r.n)
            try #require(pts.count == r.points.count, "\(name)")
            for (p, q) in zip(pts, r.points) {
                // At (or within 1e-6° of) a pole the longitude is arbitrary: compare latitude only.
                if abs(q.lat) > 90 - 1e-6 {
                    expectNear(p.lat, q.lat, tolerance: 1e-9, "\(name)")
                } else {
                    expectNear(p, q, tolerance: 1e-9, "\(name)")
                }
            }
            for (p, q) in zip(pts, pts.dropFirst()) { #expect(abs(q.lon - p.lon) < 180, "\(name) jumps") }
            #expect(pts.first == a)
            #expect(pts.last?.lat == b.lat)
            let last = try #require(pts.last)
            expectNear(LatLng.wrapLongitude(last.lon - b.lon), 0, tolerance: 1e-12, "\(name) end")
        }
    }

    /// NRT → SFO crosses the antimeridian eastwards: longitudes run on past 180 (to 237.62).
    @Test func antimeridianRouteIsContinuous() throws {
        let pts = try g.densify(from: LatLng(lat: 35.77, lon: 140.39), to: LatLng(lat: 37.62, lon: -122.38), count: 50)
        #expect(pts.last?.lon == -122.38 + 360)
        #expect(zip(pts, pts.dropFirst()).allSatisfy { $1.lon > $0.lon })
    }

    /// Max-length densification: every piece ≤ maxSegmentLength, pieces equal (±1 µm), their sum
    /// the inverse distance (±1 µm); checked with the inverse validated against GeographicLib.
    @Test(arguments: [
        (40.64, -73.78, 1.36, 103.99, 500_000.0), (51.47, -0.45, -33.95, 151.18, 1_234_567),
        (10, 10, 10.001, 10.001, 50), (-30, 0, 29.9, 179.8, 2_000_000),
    ])
    func densifyByLength(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double, _ maxLen: Double) throws {
        let a = LatLng(lat: lat1, lon: lon1), b = LatLng(lat: lat2, lon: lon2)
        let total = g.inverse(a, b).distance
        let pts = try g.densify(from: a, to: b, maxSegmentLength: maxLen)
        #expect(pts.count == Int((total / maxLen).rounded(.up)) + 1)
        var sum = 0.0
        for (p, q) in zip(pts, pts.dropFirst()) {
            let s = g.inverse(p, q).distance
            #expect(s <= maxLen + 1e-6)
            expectNear(s, total / Double(pts.count - 1), tolerance: 1e-6)
            sum += s
        }
        expectNear(sum, total, tolerance: 1e-6)
    }

    /// A polyline keeps its vertices and stays continuous across segments.
    @Test func densifyPolyline() throws {
        let verts = [LatLng(lat: 0, lon: 170), LatLng(lat: 10, lon: -170), LatLng(lat: 20, lon: -150)]
        let pts = try g.densify(verts, maxSegmentLength: 300_000)
        #expect(pts.first == verts[0])
        #expect(pts.contains(LatLng(lat: 10, lon: 190)))
        #expect(pts.last == LatLng(lat: 20, lon: 210))
        #expect(zip(pts, pts.dropFirst()).allSatisfy { g.inverse($0, $1).distance <= 300_000 + 1e-6 })
    }

    /// Bad input is a typed error naming the parameter, never a crash or a hang.
    @Test func densifyRejectsBadInput() {
        let a = LatLng(lat: 0, lon: 0), b = LatLng(lat: 1, lon: 1)
        #expect(throws: GeometryError.invalidPoint(index: 1, LatLng(lat: 91, lon: 0))) {
            try g.densify(from: a, to: LatLng(lat: 91, lon: 0), maxSegmentLength: 1000)
        }
        #expect(throws: GeometryError.self) { try g.densify(from: a, to: b, maxSegmentLength: 0) }
        #expect(throws: GeometryError.self) { try g.densify(from: a, to: b, maxSegmentLength: -5) }
        #expect(throws: GeometryError.notFinite("maxSegmentLength", .infinity)) {
            try g.densify(from: a, to: b, maxSegmentLength: .infinity)
        }
        #expect(throws: GeometryError.self) { try g.densify(from: a, to: b, maxSegmentLength: .nan) }
        #expect(throws: GeometryError.self) { try g.densify(from: a, to: b, maxSegmentLength: 1e-3) }  // 157 M points
        #expect(throws: GeometryError.self) { try g.densify(from: a, to: b, count: 1) }
        #expect(throws: GeometryError.emptyInput("points")) { try g.densify([a], maxSegmentLength: 1) }
        let nanError = #expect(throws: GeometryError.self) {
            try g.densify(from: LatLng(lat: .nan, lon: 0), to: b, count: 5)
        }
        #expect(nanError?.description.hasPrefix("point 0 (nan,0.0) is not a valid position") == true)
    }

    /// Coincident end points give two copies of the point.
    @Test func densifyCoincident() throws {
        let p = LatLng(lat: 48.85, lon: 2.35)
        #expect(try g.densify(from: p, to: p, maxSegmentLength: 10) == [p, p])
    }

    /// Circle rim points match GeographicLib's Direct at the same azimuths (1e-9°), are continuous
    /// in longitude, and the pole flags agree with the distance to the poles.
    @Test func circleMatchesGeographicLib() throws {
        let circles = try Self.shapes("circle")
        #expect(circles.count == 5)
        for (name, c) in circles {
            let circle = try g.circle(
                center: LatLng(lat: c.params[0], lon: c.params[1]), radius: c.params[2], count: c.n)
            try #require(circle.points.count == c.points.count)
            for (p, q) in zip(circle.points, c.points) { expectNear(p, q, tolerance: 1e-9, "\(name)") }
            for (p, q) in zip(circle.points, circle.points.dropFirst()) { #expect(abs(q.lon - p.lon) < 180, "\(name)") }
        }
    }

    /// Pole handling: Svalbard 1500 km contains the North Pole (1 317 802 m away per
    /// GeographicLib), its rim unrolls by a full turn, and the Mercator ring closes via the pole edge.
    @Test func circleAroundPole() throws {
        let c = try g.circle(center: LatLng(lat: 78.2, lon: 15.6), radius: 1_500_000, count: 24)
        #expect(c.containsNorthPole && !c.containsSouthPole)
        let first = try #require(c.points.first), last = try #require(c.points.last)
        let closeLon = last.lon + LatLng.wrapLongitude(first.lon - last.lon)
        expectNear(abs(closeLon - first.lon), 360, tolerance: 1e-9)
        let ring = c.mercatorRing()
        #expect(ring.count == 24 + 4)
        #expect(ring.first == ring.last)
        #expect(ring[25].lat == WebMercator.maxLatitude && ring[26].lat == WebMercator.maxLatitude)
        // 1.3 Mm from the pole is not enough: 1.3 Mm radius leaves it outside.
        #expect(try !g.circle(center: LatLng(lat: 78.2, lon: 15.6), radius: 1_300_000).containsNorthPole)
    }

    /// Fiji: the circle crosses the antimeridian and stays continuous (longitudes beyond 180);
    /// its Mercator ring is the rim closed.
    @Test func circleAcrossAntimeridian() throws {
        let c = try g.circle(center: LatLng(lat: -17.7, lon: 178), radius: 1_000_000, count: 64)
        #expect(!c.containsNorthPole && !c.containsSouthPole)
        #expect(c.points.contains { $0.lon > 180 })
        #expect(c.points.allSatisfy { abs($0.lon - 178) < 15 })
        #expect(c.mercatorRing().count == 65)
        // Every rim point is at the radius (inverse validated against GeographicLib), ±1 µm.
        for p in c.points { expectNear(g.inverse(c.center, p).distance, 1_000_000, tolerance: 1e-6) }
    }

    @Test func circleRejectsBadInput() {
        let p = LatLng(lat: 0, lon: 0)
        #expect(throws: GeometryError.self) { try g.circle(center: p, radius: -1) }
        let nanError = #expect(throws: GeometryError.self) { try g.circle(center: p, radius: .nan) }
        #expect(nanError?.description == "radius must be finite, got nan")
        #expect(throws: GeometryError.self) { try g.circle(center: p, radius: 3e7) }
        #expect(throws: GeometryError.self) { try g.circle(center: p, radius: 10, count: 2) }
        #expect(throws: GeometryError.invalidPoint(index: 0, LatLng(lat: 100, lon: 0))) {
            try g.circle(center: LatLng(lat: 100, lon: 0), radius: 10)
        }
    }

    /// Convenience API equals the underlying problems; half meridian per GeographicLib
    /// (Inverse(90, 0, -90, 0).s12 = 20003931.458625447 m).
    @Test func conveniences() {
        let a = LatLng(lat: 40.64, lon: -73.78), b = LatLng(lat: 1.36, lon: 103.99)
        // GeographicLib 2.1: azi1 3.3057734780176125, s12 15347512.94051294 m.
        expectNear(a.initialBearing(to: b), 3.3057734780176125, tolerance: 1e-9)
        expectNear(a.geodesicDistance(to: b), 15_347_512.94051294, tolerance: 1e-6)
        expectNear(a.destination(bearing: 3.3057734780176125, distance: 15_347_512.94051294), b, tolerance: 1e-9)
        expectNear(g.halfMeridian, 20_003_931.458625447, tolerance: 1e-6)
        let (line, s) = g.line(from: a, to: b)
        expectNear(line.position(distance: s).point, b, tolerance: 1e-9)
    }
}

/// Which poles a circle encloses, at the threshold: the meridian distances to the poles from
/// GeographicLib (Python, `Inverse(lat, 10, ±90, 10)`), one metre either side. The quick
/// rejection of far poles must not cut into the exact test (the equator is where a degree of
/// meridian is shortest).
@Suite struct EnclosedPolesTests {
    @Test(arguments: [(0.0, 10_001_965.729312724, 10_001_965.729312724),
                      (80, 1_116_825.8573758497, 18_887_105.601249594),
                      (-45.5, 15_042_478.438829295, 4_961_453.019796153)])
    func polesAtTheirDistance(_ c: (lat: Double, north: Double, south: Double)) {
        let g = Geodesic.wgs84, center = LatLng(lat: c.lat, lon: 10)
        for (radius, pole) in [(c.north, 0), (c.south, 1)] {
            let inside = g.enclosedPoles(center: center, radius: radius + 1)
            let outside = g.enclosedPoles(center: center, radius: radius - 1)
            #expect((pole == 0 ? inside.north : inside.south) == true, "\(c.lat) pole \(pole)")
            #expect((pole == 0 ? outside.north : outside.south) == false, "\(c.lat) pole \(pole)")
        }
    }
}
