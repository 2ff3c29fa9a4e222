import Foundation
import GeoKit
import MapTestSupport
import Testing

/// lines_geodesic.json (scripts/fixtures/gen_lines.py): geographiclib truth on WGS84.
struct LinesFixture: Decodable, Sendable {
    struct Slice: Decodable, Sendable {
        let from: Double, to: Double
        let points: [[Double]]
    }
    struct Nearest: Decodable, Sendable {
        let query: [Double], point: [Double]
        let distance: Double, segment: Int, along: Double
    }
    struct Line: Decodable, Sendable, CustomTestStringConvertible {
        let name: String
        let points: [[Double]]
        let length: Double
        let cumulative: [Double]
        let along: [[Double]]
        let slices: [Slice]
        let nearest: [Nearest]
        var latLngs: [LatLng] { points.map { LatLng(lat: $0[0], lon: $0[1]) } }
        var testDescription: String { name }
    }
    let lines: [Line]

    static let shared: LinesFixture = jsonFixture("lines_geodesic")
}

/// Metres between two positions, for comparing points: the geodesic distance itself.
private func metres(_ a: LatLng, _ b: LatLng) -> Double { Geodesic.wgs84.inverse(a, b).distance }

@Suite struct MeasuredLineTests {
    /// Length and cumulative distances: sums of geographiclib Inverse s12; 1e-9 relative
    /// (both sum the same segment lengths, each good to nanometres).
    @Test(arguments: LinesFixture.shared.lines) func length(_ f: LinesFixture.Line) throws {
        let line = try MeasuredLine(f.latLngs)
        expectNear(line.length, f.length, tolerance: 1e-9 * f.length, "\(f.name)")
        for (got, want) in zip(line.cumulativeDistances, f.cumulative) {
            expectNear(got, want, tolerance: 1e-9 * f.length + 1e-9)
        }
    }

    /// Points at distances along: geographiclib Line.Position on the holding segment; within
    /// 1e-6 m (1e-6 relative would be looser for every line here).
    @Test(arguments: LinesFixture.shared.lines) func pointAtDistance(_ f: LinesFixture.Line) throws {
        let line = try MeasuredLine(f.latLngs)
        for r in f.along {
            let p = try line.point(atDistance: r[0])
            let want = LatLng(lat: r[1], lon: r[2])
            #expect(metres(p, want) < 1e-6, "\(f.name) at \(r[0]) m: \(p) vs \(want)")
        }
    }

    /// Slices: the interpolated ends and the vertices strictly between, as geographiclib gives them.
    @Test(arguments: LinesFixture.shared.lines) func slice(_ f: LinesFixture.Line) throws {
        let line = try MeasuredLine(f.latLngs)
        for s in f.slices {
            let got = try line.slice(from: s.from, to: s.to)
            #expect(got.count == s.points.count, "\(f.name) \(s.from)…\(s.to)")
            for (p, w) in zip(got, s.points) { #expect(metres(p, LatLng(lat: w[0], lon: w[1])) < 1e-6) }
        }
    }

    /// Nearest point: geographiclib brute force (bisection on the distance's slope along every
    /// segment). Distance and distance along within 1e-6 relative (+1e-6 m), the same segment
    /// (or an equivalent one at a shared vertex), the point within 1e-6 m (both methods solve for
    /// the right angle, not the flat minimum of the distance, so the foot is pinned tightly).
    @Test(arguments: LinesFixture.shared.lines) func nearest(_ f: LinesFixture.Line) throws {
        let line = try MeasuredLine(f.latLngs)
        for n in f.nearest {
            let q = LatLng(lat: n.query[0], lon: n.query[1])
            let got = try line.nearest(to: q)
            expectNear(got.distance, n.distance, tolerance: 1e-6 * n.distance + 1e-6, "\(f.name) query \(q)")
            expectNear(got.distanceAlong, n.along, tolerance: 1e-6 * f.length + 1e-6, "\(f.name) query \(q)")
            #expect(metres(got.point, LatLng(lat: n.point[0], lon: n.point[1])) < 1e-6, "\(f.name) query \(q)")
            let segmentOK = got.segmentIndex == n.segment
                || abs(line.cumulativeDistances[max(got.segmentIndex, n.segment)] - got.distanceAlong) < 1e-6
            #expect(segmentOK, "\(f.name): segment \(got.segmentIndex) vs \(n.segment)")
            // Consistency: the reported point is where the line is at the reported distance along.
            #expect(metres(try line.point(atDistance: got.distanceAlong), got.point) < 1e-6)
        }
    }

    /// Hand-derived on the equator, where the geodesic is the equator itself: 1° of longitude
    /// is a·π/180 = 111319.49079327357 m (a = 6378137 m). The query 0.5° north of lon 0.25 has
    /// its foot at lon 0.25 (a meridian meets the equator at a right angle).
    @Test func equatorByHand() throws {
        let degree = 6_378_137 * Double.pi / 180
        let line = try MeasuredLine([LatLng(lat: 0, lon: 0), LatLng(lat: 0, lon: 1), LatLng(lat: 0, lon: 3)])
        expectNear(line.length, 3 * degree, tolerance: 1e-6)
        expectNear(try line.point(atDistance: 2 * degree), LatLng(lat: 0, lon: 2), tolerance: 1e-12)
        let n = try line.nearest(to: LatLng(lat: 0.5, lon: 0.25))
        expectNear(n.point, LatLng(lat: 0, lon: 0.25), tolerance: 1e-11)
        expectNear(n.distanceAlong, 0.25 * degree, tolerance: 1e-6)
        #expect(n.segmentIndex == 0)
        // Beyond the end: the nearest point is the last vertex.
        let e = try line.nearest(to: LatLng(lat: 0, lon: 10))
        #expect(e.point == LatLng(lat: 0, lon: 3) && e.segmentIndex == 1)
        expectNear(e.distance, 7 * degree, tolerance: 1e-6)
        // Clamping and slicing.
        #expect(try line.point(atDistance: -5) == LatLng(lat: 0, lon: 0))
        #expect(try line.point(atDistance: 1e12) == LatLng(lat: 0, lon: 3))
        let s = try line.slice(from: 0.5 * degree, to: 2.5 * degree)
        #expect(s.count == 3)
        expectNear(s[0], LatLng(lat: 0, lon: 0.5), tolerance: 1e-12)
        #expect(s[1] == LatLng(lat: 0, lon: 1))
        expectNear(s[2], LatLng(lat: 0, lon: 2.5), tolerance: 1e-12)
    }

    @Test func degenerateLines() throws {
        let one = try MeasuredLine([LatLng(lat: 10, lon: 10)])
        #expect(one.length == 0)
        #expect(try one.point(atDistance: 5) == LatLng(lat: 10, lon: 10))
        #expect(try one.nearest(to: LatLng(lat: 10, lon: 10)).distance == 0)
        let same = try MeasuredLine([LatLng(lat: 1, lon: 1), LatLng(lat: 1, lon: 1)])
        #expect(same.length == 0)
        #expect(try same.nearest(to: LatLng(lat: 1, lon: 2)).point == LatLng(lat: 1, lon: 1))
    }

    @Test func badInput() throws {
        #expect(throws: GeometryError.emptyInput("points")) { try MeasuredLine([]) }
        #expect(throws: GeometryError.invalidPoint(index: 1, LatLng(lat: 95, lon: 0))) {
            try MeasuredLine([LatLng(lat: 0, lon: 0), LatLng(lat: 95, lon: 0)])
        }
        #expect(throws: GeometryError.self) { try MeasuredLine([LatLng(lat: .nan, lon: 0)]) }
        let line = try MeasuredLine([LatLng(lat: 0, lon: 0), LatLng(lat: 0, lon: 1)])
        #expect(throws: GeometryError.self) { try line.point(atDistance: .nan) }
        #expect(throws: GeometryError.self) { try line.point(atDistance: .infinity) }
        #expect(throws: GeometryError.self) { try line.slice(from: 10, to: 5) }
        #expect(throws: GeometryError.self) { try line.slice(from: .nan, to: 5) }
        #expect(throws: GeometryError.self) { try line.nearest(to: LatLng(lat: 0, lon: .nan)) }
    }
}
