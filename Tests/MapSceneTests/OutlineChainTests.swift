import Foundation
import GeoKit
@testable import MapScene
import Testing

/// The outlines `Overlay.mergingAlikeRuns` gives a group's sets (`MultiPolygon.outlinePaths`):
/// every edge stroked once, by the last overlay of the group that has it, chained into lines.
@Suite struct OutlineChainTests {
    /// An edge either way round, as exact coordinates.
    struct Segment: Hashable {
        let a: [Double], b: [Double]
        init(_ p: MapPoint, _ q: MapPoint) {
            let u = [p.x, p.y], v = [q.x, q.y]
            if u.lexicographicallyPrecedes(v) { a = u; b = v } else { a = v; b = u }
        }
    }

    static func segments(_ ring: [MapPoint]) -> [Segment] {
        var pts = ring
        if pts.count > 1, pts.first == pts.last { pts.removeLast() }
        return pts.indices.map { Segment(pts[$0], pts[($0 + 1) % pts.count]) }
    }

    /// A 12 × 12 grid of squares in three colours (one of them a single square, left as a
    /// `Polygon`), outlined alike: the sets' outlines hold every edge of the grid that no later
    /// overlay has, each once; with the lone square's, every edge of the grid is stroked after
    /// the fills on both sides of it.
    @Test func everyEdgeIsStrokedOnceByTheLastOverlayThatHasIt() throws {
        let colours = [Color(rgb: 0xD7301F, alpha: 0x99), Color(rgb: 0xFC8D59, alpha: 0x99), Color(rgb: 0x2B8CBE)]
        var grid: [Overlay] = []
        for i in 0 ..< 12 {
            for j in 0 ..< 12 {
                // (Corners from the grid's lines, so that neighbours share them exactly.)
                func lat(_ i: Int) -> Double { 46 + Double(i) * 0.001 }
                func lon(_ j: Int) -> Double { 7 + Double(j) * 0.001 }
                let ring = try GeoPath(coordinates: [LatLng(lat: lat(i), lon: lon(j)), LatLng(lat: lat(i), lon: lon(j + 1)),
                                                     LatLng(lat: lat(i + 1), lon: lon(j + 1)), LatLng(lat: lat(i + 1), lon: lon(j))])
                let colour = i == 5 && j == 5 ? colours[2] : colours[(i + j) % 2]
                grid.append(.polygon(Polygon(exterior: ring, fill: colour, stroke: .black, strokeWidth: 2)))
            }
        }
        let merged = Overlay.mergingAlikeRuns(grid, minimumRun: 8)
        // Two sets (a checkerboard: no two squares of a set share an edge) and the lone square.
        var polygonsOf: [[[MapPoint]]] = []
        var setCount = 0
        for o in merged {
            switch o {
            case .multiPolygon(let m):
                polygonsOf.append(m.polygons.polygons.map(\.exterior.points))
                setCount += 1
                #expect(m.outlinePaths != nil && m.stroke == .black && m.strokeWidth == 2)
            case .polygon(let p): polygonsOf.append([p.exterior.points])
            default: Issue.record("unexpected \(o)")
            }
        }
        #expect(setCount == 2 && merged.count == 3)
        // What each overlay must stroke, worked out here: its edges no later overlay has.
        var last: [Segment: Int] = [:]
        for (k, polygons) in polygonsOf.enumerated() { for r in polygons { for s in Self.segments(r) { last[s] = k } } }
        #expect(last.count == 2 * 12 * 13)
        var stroked: [Segment: Int] = [:]
        for (k, o) in merged.enumerated() {
            guard case .multiPolygon(let m) = o, let paths = m.outlinePaths else { continue }
            var expected = Set<Segment>()
            for r in polygonsOf[k] { for s in Self.segments(r) where last[s] == k { expected.insert(s) } }
            var got: [Segment] = []
            for path in paths.paths { for (p, q) in zip(path.points, path.points.dropFirst()) { got.append(Segment(p, q)) } }
            #expect(got.count == expected.count && Set(got) == expected, "overlay \(k)")
            for s in got { stroked[s, default: 0] += 1 }
        }
        // The lone square strokes its own four; the sets the rest, once.
        let lone = Set(Self.segments(polygonsOf[2][0]))
        #expect(stroked.count + lone.count == last.count && stroked.keys.allSatisfy { !lone.contains($0) })
        #expect(stroked.values.allSatisfy { $0 == 1 })
    }

    /// Where three edges meet, the two furthest apart continue one another (a corner wider than
    /// a half turn is joined, as a ring's join fills it) and the third ends there; where four
    /// meet as a cross, the opposite ones carry straight on; two make one line; a ring, one
    /// closed line ending where it starts.
    @Test func linesPairTheEdgesFurthestApart() {
        func p(_ x: Double, _ y: Double) -> MapPoint { MapPoint(x: x, y: y) }
        func e(_ a: MapPoint, _ b: MapPoint) -> Outlines.Edge { Outlines.Edge(a, b) }
        let o = p(0.5, 0.5)
        let d = 0.001
        // East, north and north-east of o.
        let three = Outlines.lines([e(o, p(0.5 + d, 0.5)), e(o, p(0.5 + d, 0.5 - d)), e(o, p(0.5, 0.5 - d))])
        #expect(three.count == 2)
        #expect(three.contains { $0 == [p(0.5 + d, 0.5), o, p(0.5, 0.5 - d)] || $0 == [p(0.5, 0.5 - d), o, p(0.5 + d, 0.5)] })
        #expect(three.contains { Set($0) == [o, p(0.5 + d, 0.5 - d)] && $0.count == 2 })
        // A cross: two straight lines through o.
        let cross = Outlines.lines([e(o, p(0.5 + d, 0.5)), e(o, p(0.5, 0.5 - d)), e(o, p(0.5 - d, 0.5)), e(o, p(0.5, 0.5 + d))])
        #expect(cross.count == 2 && cross.allSatisfy { $0.count == 3 && $0[1] == o })
        #expect(cross.contains { Set([$0[0], $0[2]]) == [p(0.5 + d, 0.5), p(0.5 - d, 0.5)] })
        // A square ring: one closed line.
        let square = [p(0, 0), p(d, 0), p(d, d), p(0, d)]
        let ring = Outlines.lines((0 ..< 4).map { e(square[$0], square[($0 + 1) % 4]) })
        #expect(ring.count == 1 && ring[0].count == 5 && ring[0].first == ring[0].last && Set(ring[0]) == Set(square))
        // More than `mostPaired` lines at one point: none paired, each its own line.
        let star = (0 ..< 20).map { k in e(o, p(0.5 + d * cos(Double(k) * 0.3), 0.5 + d * sin(Double(k) * 0.3))) }
        #expect(Outlines.lines(star).count == 20)
    }
}
