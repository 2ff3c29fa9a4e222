import Foundation
import GeoKit
import MapScene
import Testing
@testable import MapRender

/// Sums the triangle areas of a ground mesh with extrusions scaled by `halfWidth` pixels and
/// positions by `scale` pixels per map unit.
func strokeArea(_ mesh: Mesh, halfWidth: Double, scale: Double) -> Double {
    let v = mesh.vertices
    func pos(_ i: UInt32) -> (Double, Double) {
        let k = Int(i) * 6
        return (Double(v[k]) * scale + Double(v[k + 2]) * halfWidth, Double(v[k + 1]) * scale + Double(v[k + 3]) * halfWidth)
    }
    var area = 0.0
    for t in stride(from: 0, to: mesh.indices.count, by: 3) {
        let a = pos(mesh.indices[t]), b = pos(mesh.indices[t + 1]), c = pos(mesh.indices[t + 2])
        area += abs((b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)) / 2
    }
    return area
}

@Suite struct LineStrokerTests {
    /// Map units scaled by 1000 so that a line from x = 0 to 0.1 is 100 px long.
    let scale = 1000.0
    let h = 3.0

    func stroke(_ pts: [(Double, Double)], join: LineJoin, cap: LineCap, closed: Bool = false) -> Mesh {
        var b = GroundMeshBuilder(origin: MapPoint(x: 0, y: 0))
        LineStroker(join: join, cap: cap).stroke(pts.map { MapPoint(x: $0.0 / scale, y: $0.1 / scale) }, closed: closed, into: &b)
        return b.build()
    }

    // Hand-derived areas of one straight 100 px segment, half width h = 3:
    // butt 100·2h; square (100 + 2h)·2h; round 100·2h + two fans of 12 triangles of area h²/2·sin(π/12).
    static let capCases: [(LineCap, Double)] = [
        (.butt, 600.0),
        (.square, 636.0),
        (.round, 600.0 + 24 * 4.5 * sin(Double.pi / 12)),
    ]
    @Test(arguments: capCases)
    func straightSegmentArea(_ cap: LineCap, _ expected: Double) {
        let mesh = stroke([(0, 0), (100, 0)], join: .miter, cap: cap)
        // Tolerance 1e-3 px²: Float32 vertex storage.
        #expect(abs(strokeArea(mesh, halfWidth: h, scale: scale) - expected) < 1e-3)
    }

    // A right-angle turn, two 100 px legs, butt caps: 2·100·2h plus the outer join patch:
    // miter a h×h square, bevel half of it, round a fan of 6 triangles (π/2 in π/12 steps) of area h²/2·sin(π/12).
    static let joinCases: [(LineJoin, Double)] = [
        (.miter, 1200.0 + 9),
        (.bevel, 1200.0 + 4.5),
        (.round, 1200.0 + 6 * 4.5 * sin(Double.pi / 12)),
    ]
    @Test(arguments: joinCases)
    func rightAngleJoinArea(_ join: LineJoin, _ expected: Double) {
        for turn in [(100.0, 100.0), (100.0, -100.0)] { // turning either way
            let mesh = stroke([(0, 0), (100, 0), turn], join: join, cap: .butt)
            #expect(abs(strokeArea(mesh, halfWidth: h, scale: scale) - expected) < 1e-3, "\(join) \(turn)")
        }
    }

    /// With `discJoins` a round join is one triangle that the shader's coverage (distance from
    /// the centre) cuts to the join's disc. Up to a 150° turn it holds only the sector the two
    /// segments leave open: the centre and two corners on the tangent at the bisector of the
    /// outer normals, tan(θ/2) half widths either side (area h²·tan(θ/2): h² at a right angle),
    /// marked 5, 6, 7. Sharper (a hairpin) it is the triangle round the whole disc: inradius h,
    /// area 3√3·h², corners two half widths out, marked 4. Hand-derived.
    @Test func discJoinIsOneTriangleAroundTheDisc() {
        for turn in [(100.0, 100.0), (100.0, -100.0), (0.0, 1.0)] { // either way, and a hairpin
            var b = GroundMeshBuilder(origin: MapPoint(x: 0, y: 0))
            var stroker = LineStroker(join: .round, cap: .butt)
            stroker.discJoins = true
            stroker.stroke([(0.0, 0.0), (100, 0), turn].map { MapPoint(x: $0.0 / scale, y: $0.1 / scale) }, closed: false, into: &b)
            let mesh = b.build()
            #expect(mesh.indices.count == 3 * 5, "two quads and one join triangle")
            let hairpin = turn.0 == 0
            let quads = 200 * h + 2 * h * ((turn.0 - 100) * (turn.0 - 100) + turn.1 * turn.1).squareRoot()
            let join = hairpin ? 3 * 3.0.squareRoot() * h * h : h * h
            #expect(abs(strokeArea(mesh, halfWidth: h, scale: scale) - (quads + join)) < 1e-3)
            let v = mesh.vertices
            let corners = mesh.indices[6 ..< 9].map { Int($0) * 6 } // after the first quad
            for (i, k) in corners.enumerated() {
                // On the join point.
                #expect(abs(Double(v[k]) * scale - 100) < 1e-4 && abs(Double(v[k + 1]) * scale) < 1e-4)
                let length = (Double(v[k + 2]) * Double(v[k + 2]) + Double(v[k + 3]) * Double(v[k + 3])).squareRoot()
                if hairpin {
                    #expect(Double(v[k + 5]) == LineStroker.discMark)
                    #expect(abs(length - 2) < 1e-6)
                } else {
                    #expect(Double(v[k + 5]) == LineStroker.sectorMark + Double(i))
                    #expect(abs(length - (i == 0 ? 0 : 2.0.squareRoot())) < 1e-6)
                    // On the outer side: away from the turn (−y for a turn towards +y).
                    if i > 0 { #expect(Double(v[k + 3]) * turn.1 < 0) }
                }
            }
        }
    }

    /// Gentle turns share miters: with half widths up to h = 3 the limit is the turn whose miter
    /// passes a round join's arc by 0.1 px at h + ½ (2·acos(1 / (1 + 0.1/3.5)) ≈ 27°). At a 20°
    /// turn between two 100 px legs the mesh is the two legs' quads alone (4 triangles), both
    /// ending on the same two points, each one miter length (1 / cos 10° half widths) out along
    /// the bisector; the quads are then trapezoids of the miter polygon, which has the legs'
    /// area 2·100·2h exactly (the outer wedge h²·tan 10° it adds equals the inner overlap it
    /// removes). A 40° turn, a leg shorter than twice the inner point's retreat
    /// ((h + ½)·tan 10° ≈ 0.62 px) and a bevel join keep their join patches.
    @Test func gentleTurnsShareMiters() {
        func mesh(_ pts: [(Double, Double)], join: LineJoin = .round) -> Mesh {
            var b = GroundMeshBuilder(origin: MapPoint(x: 0, y: 0))
            var stroker = LineStroker(join: join, cap: .butt, maxHalfWidth: h, unitsPerPixel: 1 / scale)
            stroker.discJoins = true
            stroker.stroke(pts.map { MapPoint(x: $0.0 / scale, y: $0.1 / scale) }, closed: false, into: &b)
            return b.build()
        }
        let t = 20 * Double.pi / 180
        for sign in [1.0, -1.0] { // turning either way
            let m = mesh([(0, 0), (100, 0), (100 + 100 * cos(t), sign * 100 * sin(t))])
            #expect(m.indices.count == 3 * 4, "two quads, no join")
            #expect(abs(strokeArea(m, halfWidth: h, scale: scale) - 1200) < 1e-3)
            let v = m.vertices
            for (end, start) in [(2, 4), (3, 5)] { // the first quad's end vertices, the second's start ones
                #expect(Array(v[(end * 6) ..< (end * 6 + 6)]) == Array(v[(start * 6) ..< (start * 6 + 6)]))
                let e = (Double(v[end * 6 + 2]), Double(v[end * 6 + 3]))
                #expect(abs((e.0 * e.0 + e.1 * e.1).squareRoot() - 1 / cos(t / 2)) < 1e-6)
                // Along the bisector of the two legs' left normals, (0, −1) and (±sin t, −cos t).
                let bisector = (sign * sin(t / 2), -cos(t / 2))
                #expect(abs(abs(e.0 * bisector.0 + e.1 * bisector.1) - 1 / cos(t / 2)) < 1e-6)
            }
        }
        let wide = 40 * Double.pi / 180
        #expect(mesh([(0, 0), (100, 0), (100 + 100 * cos(wide), 100 * sin(wide))]).indices.count == 3 * 5)
        #expect(mesh([(0, 0), (100, 0), (100 + 1.2 * cos(t), 1.2 * sin(t))]).indices.count == 3 * 5)
        #expect(mesh([(0, 0), (100, 0), (100 + 1.3 * cos(t), 1.3 * sin(t))]).indices.count == 3 * 4)
        #expect(mesh([(0, 0), (100, 0), (100 + 100 * cos(t), 100 * sin(t))], join: .bevel).indices.count == 3 * 5)
    }

    @Test func sharpMiterFallsBackToBevel() {
        // A hairpin: the miter would be ~1/sin(small angle) long; beyond the limit (2) it bevels,
        // so no vertex is extruded by more than 2 half-widths.
        let mesh = stroke([(0, 0), (100, 0), (0, 1)], join: .miter, cap: .butt)
        let v = mesh.vertices
        for k in stride(from: 0, to: v.count, by: 6) {
            let len = (Double(v[k + 2]) * Double(v[k + 2]) + Double(v[k + 3]) * Double(v[k + 3])).squareRoot()
            #expect(len <= 2.0001)
        }
    }

    @Test func distancesAccumulateAlongTheLine() {
        let mesh = stroke([(0, 0), (30, 40), (30, 100)], join: .bevel, cap: .butt)
        let ds = stride(from: 4, to: mesh.vertices.count, by: 6).map { Double(mesh.vertices[$0]) * scale }
        // 3-4-5 triangle: first leg 50 px, second 60 px, total 110 px.
        #expect(abs((ds.max() ?? 0) - 110) < 1e-3)
        #expect(ds.contains { abs($0 - 50) < 1e-3 })
    }

    @Test func scribbleCostIsLinear() {
        // 10k random points: every vertex adds at most 4 segment vertices + 14 round-join vertices.
        var rng = SystemRandomNumberGenerator()
        let pts = (0 ..< 10_000).map { _ in (Double.random(in: 0 ... 1000, using: &rng), Double.random(in: 0 ... 1000, using: &rng)) }
        let mesh = stroke(pts, join: .round, cap: .round)
        #expect(mesh.vertexCount <= 10_000 * 18 + 100)
    }
}
