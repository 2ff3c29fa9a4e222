import Foundation
import GeoKit
import MapScene
import MapTestSupport
import Testing
@testable import MapRender

/// Polygon rings cut along tile edges keep their cut edges exactly when simplified.
@Suite struct SimplifySeamTests {
    /// The ring that showed the seam over France (basemap level 1, tile 3,2, grid 2^18, y in
    /// grid units): coast points a fraction of the tolerance from the corner (0.5, 89652) where
    /// the coast meets the tile's east edge x = 0.5. Tolerance 6.1e-5 (0.5 px at zoom 4.1).
    @Test func cornerOfAnAxisEdgeSurvives() {
        let g = 1.0 / 262_144
        let ring = [
            MapPoint(x: 0.4985542297363281, y: 89631 * g), MapPoint(x: 0.4995460510253906, y: 89696 * g),
            MapPoint(x: 0.499969482421875, y: 89658 * g), MapPoint(x: 0.5, y: 89652 * g),
            MapPoint(x: 0.5, y: 98304 * g), MapPoint(x: 0.475921630859375, y: 98304 * g),
            MapPoint(x: 0.4985542297363281, y: 89631 * g),
        ]
        let tolerance = 6.103515625e-05
        let plain = Simplify.simplify(ring, tolerance: tolerance)
        // Without pinning the radial pass drops the corner (it is 0.2 px from its neighbour):
        // the cut edge tilts and a sliver opens along x = 0.5.
        #expect(!plain.contains(MapPoint(x: 0.5, y: 89652 * g)))
        let kept = Simplify.simplify(ring, tolerance: tolerance, keepAxisEdges: true)
        #expect(kept.contains(MapPoint(x: 0.5, y: 89652 * g)))
        #expect(kept.contains(MapPoint(x: 0.5, y: 98304 * g)))
        #expect(kept.contains(MapPoint(x: 0.475921630859375, y: 98304 * g)))
        #expect(kept.first == ring.first && kept.last == ring.last)
    }
}

/// Neighbouring polygons that share wiggly edges, simplified ring by ring, keep those edges
/// shared when the rings are cut at the corners where they part (`PolygonSet.junctions`).
@Suite struct SharedEdgeSimplifyTests {
    /// A 4 × 4 grid of cells with jittered corners, each edge between two corners carrying five
    /// points up to 1.6 tolerances off its chord (the same points for both cells beside it, in
    /// opposite directions), as a choropleth's borders are. Returns each cell's ring (no closing
    /// point) and the grid's extent.
    static func cells(seed: UInt64) -> [[MapPoint]] {
        var rng = SplitMix64(seed: seed)
        func uniform(_ lo: Double, _ hi: Double) -> Double { Double.random(in: lo ... hi, using: &rng) }
        let n = 4, t = 1.0
        var corner: [[MapPoint]] = []
        for i in 0 ... n {
            corner.append((0 ... n).map { j in
                let edge = i == 0 || j == 0 || i == n || j == n
                return MapPoint(x: Double(j) * 20 + (edge ? 0 : uniform(-4, 4)), y: Double(i) * 20 + (edge ? 0 : uniform(-4, 4)))
            })
        }
        var wiggles: [String: [MapPoint]] = [:]
        // The points from corner a to corner b (both ends left out), made once per edge.
        func edge(_ a: (Int, Int), _ b: (Int, Int)) -> [MapPoint] {
            let flip = (a.0, a.1) > (b.0, b.1)
            let (p, q) = flip ? (b, a) : (a, b)
            let key = "\(p)\(q)"
            if wiggles[key] == nil {
                let s = corner[p.0][p.1], e = corner[q.0][q.1]
                let dx = e.x - s.x, dy = e.y - s.y, len = (dx * dx + dy * dy).squareRoot()
                let boundary = (p.0 == q.0 && (p.0 == 0 || p.0 == n)) || (p.1 == q.1 && (p.1 == 0 || p.1 == n))
                wiggles[key] = (1 ... 5).map { k in
                    let f = Double(k) / 6, off = boundary ? 0 : uniform(-1.6, 1.6) * t
                    return MapPoint(x: s.x + f * dx - off * dy / len, y: s.y + f * dy + off * dx / len)
                }
            }
            return flip ? wiggles[key]!.reversed() : wiggles[key]!
        }
        var rings: [[MapPoint]] = []
        for i in 0 ..< n {
            for j in 0 ..< n {
                let around = [(i, j), (i, j + 1), (i + 1, j + 1), (i + 1, j)]
                var ring: [MapPoint] = []
                for k in 0 ..< 4 {
                    let a = around[k], b = around[(k + 1) % 4]
                    ring.append(corner[a.0][a.1])
                    ring += edge(a, b)
                }
                rings.append(ring)
            }
        }
        return rings
    }

    /// Directed edges of the rings that no ring runs back along and that are not on the grid's
    /// outer boundary: slivers between neighbours.
    static func unmatched(_ rings: [[MapPoint]]) -> Int {
        var edges: [[Double]: Int] = [:]
        for r in rings { for i in r.indices { let a = r[i], b = r[(i + 1) % r.count]; edges[[a.x, a.y, b.x, b.y], default: 0] += 1 } }
        func outer(_ p: MapPoint) -> Bool { p.x == 0 || p.y == 0 || p.x == 80 || p.y == 80 }
        return edges.keys.filter { e in
            edges[[e[2], e[3], e[0], e[1]]] == nil && !(outer(MapPoint(x: e[0], y: e[1])) && outer(MapPoint(x: e[2], y: e[3])))
        }.count
    }

    /// Six such grids: cut at the junctions, every inner edge of the simplified rings has its
    /// neighbour's running back along it; simplified ring by ring, some do not (the slivers).
    @Test func sharedEdgesStayShared() throws {
        var apartTotal = 0
        for seed in 1 ... 6 as ClosedRange<UInt64> {
            let rings = Self.cells(seed: seed)
            let junctions = try #require(PolygonSet.junctions(of: try rings.map { PolygonRings(exterior: try GeoPath(points: $0)) }))
            // The grid's inner corners (three or four cells meet) and the 12 on its boundary
            // where two cells' shared edge ends: 9 + 12.
            #expect(junctions.count == 21)
            let alike = rings.map { Simplify.simplifyRing($0, tolerance: 1, junctions: junctions) }
            let apart = rings.map { Array(Simplify.simplify($0 + [$0[0]], tolerance: 1, keepAxisEdges: true).dropLast()) }
            print("seed \(seed): \(alike.reduce(0) { $0 + $1.count }) points kept of \(rings.reduce(0) { $0 + $1.count }); "
                + "edges without their neighbour's: \(Self.unmatched(alike)) cut at junctions, \(Self.unmatched(apart)) ring by ring")
            #expect(Self.unmatched(alike) == 0, "seed \(seed)")
            #expect(alike.reduce(0) { $0 + $1.count } < rings.reduce(0) { $0 + $1.count } * 3 / 4)
            apartTotal += Self.unmatched(apart)
        }
        #expect(apartTotal > 0)
    }

    /// A hole and the polygon that fills it are one ring each way round with no junction: they
    /// come out the same.
    @Test func aHoleAndItsFillingComeOutTheSame() {
        let ring = (0 ..< 40).map { k -> MapPoint in
            let a = Double(k) / 40 * 2 * Double.pi, r = 30 + (k % 3 == 0 ? 0.4 : -0.3)
            return MapPoint(x: 50 + r * cos(a), y: 50 + r * sin(a))
        }
        let filling = Array(ring[17...] + ring[..<17]).reversed().map { $0 }
        let a = Simplify.simplifyRing(ring, tolerance: 1, junctions: []), b = Simplify.simplifyRing(filling, tolerance: 1, junctions: [])
        #expect(a.count < ring.count && Set(a) == Set(b) && a.count == b.count)
    }
}

extension SharedEdgeSimplifyTests {
    /// A ring with a junction repeated (a point given twice in a row) keeps it once.
    @Test func aRepeatedJunctionIsKeptOnce() {
        let a = MapPoint(x: 0, y: 0), b = MapPoint(x: 10, y: 0), c = MapPoint(x: 10, y: 10), d = MapPoint(x: 0, y: 10)
        let out = Simplify.simplifyRing([a, b, b, c, d], tolerance: 0.5, junctions: [b, d])
        #expect(out.count == 4 && Set(out) == [a, b, c, d], "\(out)")
    }
}

/// `PolygonSet(sharingEdges:)` finds its junctions in one pass over a table of corners, and
/// leaves rings that share no point with another to be simplified on their own.
@Suite struct SharingEdgesSetTests {
    /// A ring's corners as the table takes them: closing repeats dropped, nothing for fewer
    /// than three points left, then consecutive repeats as one.
    static func corners(_ ring: [MapPoint]) -> [MapPoint] {
        var r = ring
        while r.count > 1, r.last == r.first { r.removeLast() }
        guard r.count >= 3 else { return [] }
        var pts: [MapPoint] = []
        for p in r where pts.last != p { pts.append(p) }
        while pts.count > 1, pts.last == pts.first { pts.removeLast() }
        return pts
    }

    /// The corners where three or more distinct edges meet, counted the plain way: every
    /// distinct point's set of distinct neighbours over all rings.
    static func bruteForce(_ rings: [[MapPoint]]) -> Set<MapPoint> {
        var neighbours: [MapPoint: Set<MapPoint>] = [:]
        for ring in rings {
            let pts = corners(ring)
            guard pts.count >= 2 else { continue }
            for i in pts.indices {
                neighbours[pts[i], default: []].insert(pts[(i + pts.count - 1) % pts.count])
                neighbours[pts[i], default: []].insert(pts[(i + 1) % pts.count])
            }
        }
        return Set(neighbours.filter { $0.value.count >= 3 }.keys)
    }

    static func set(_ rings: [[MapPoint]]) throws -> PolygonSet {
        PolygonSet(sharingEdges: try rings.map { PolygonRings(exterior: try GeoPath(points: $0)) })
    }

    /// The six wiggly grids, one with a cell cut into a hole of its neighbour's ring (a ring
    /// closed with its first point, and a corner given twice): the table finds the junctions the
    /// plain count does.
    @Test func findsTheJunctionsAPlainCountFinds() throws {
        for seed in 1 ... 6 as ClosedRange<UInt64> {
            var rings = SharedEdgeSimplifyTests.cells(seed: seed)
            rings[0].append(rings[0][0])
            rings[5].insert(rings[5][3], at: 3)
            let set = try Self.set(rings)
            let expected = Self.bruteForce(rings)
            #expect(expected.count == 21)
            #expect(set.junctions == expected, "seed \(seed)")
            // Every ring shares a wall: none is left alone.
            let cuts = try #require(set.cuts)
            #expect((0 ..< rings.count).allSatisfy { !cuts.ring(polygon: $0, 0).alone })
        }
        // A square with a square hole, and the square filling the hole: no junction, but the
        // hole and the filling share every point (neither is alone).
        let outer = [MapPoint(x: 0, y: 0), MapPoint(x: 9, y: 0), MapPoint(x: 9, y: 9), MapPoint(x: 0, y: 9)]
        let hole = [MapPoint(x: 3, y: 3), MapPoint(x: 3, y: 6), MapPoint(x: 6, y: 6), MapPoint(x: 6, y: 3)]
        let set = PolygonSet(sharingEdges: [PolygonRings(exterior: try GeoPath(points: outer), holes: [try GeoPath(points: hole)]),
                                            PolygonRings(exterior: try GeoPath(points: hole.reversed()))])
        #expect(set.junctions == [])
        let cuts = try #require(set.cuts)
        #expect(cuts.ring(polygon: 0, 0).alone && !cuts.ring(polygon: 0, 1).alone && !cuts.ring(polygon: 1, 0).alone)
    }

    /// Rings that share no point: no cuts at all (nil junctions, as `PolygonSet(_:)`). With two
    /// that share an edge beside one apart, only the apart one is alone, and the shared edge's
    /// ends are the junctions. A point at -0 is the one at 0.
    @Test func ringsSharingNothingAreLeftAlone() throws {
        func square(_ x: Double, _ y: Double) -> [MapPoint] {
            [MapPoint(x: x, y: y), MapPoint(x: x + 1, y: y), MapPoint(x: x + 1, y: y + 1), MapPoint(x: x, y: y + 1)]
        }
        let apart = try Self.set([square(0, 0), square(5, 0), square(0, 5)])
        #expect(apart.cuts == nil && apart.junctions == nil)
        #expect(PolygonSet.junctions(of: apart.polygons) == nil)
        var left = square(0, 0)
        left[0] = MapPoint(x: -0.0, y: -0.0)
        let sharing = try Self.set([left, square(1, 0), square(5, 5)])
        let cuts = try #require(sharing.cuts)
        #expect(!cuts.ring(polygon: 0, 0).alone && !cuts.ring(polygon: 1, 0).alone && cuts.ring(polygon: 2, 0).alone)
        #expect(sharing.junctions == [MapPoint(x: 1, y: 0), MapPoint(x: 1, y: 1)])
        #expect(Array(cuts.ring(polygon: 0, 0).cuts) == [1, 2] && Array(cuts.ring(polygon: 1, 0).cuts) == [0, 3])
        #expect(cuts.ring(polygon: 2, 0).cuts.isEmpty)
        // -0 and 0: the one corner the two rings share (touching there and nowhere else).
        let below = square(-1, -1)
        #expect(below[2] == MapPoint(x: 0, y: 0) && below[2].x.sign == .plus)
        #expect(try Self.set([left, below]).cuts != nil)
        // Points that differ only in both signs, (1, 1) and (-1, -1), are two corners, not one.
        #expect(try Self.set([square(0, 0), square(-1, -2)]).cuts == nil)
        #expect(try Self.set([square(0, 0), square(-2, -2)]).cuts == nil)
    }

    /// A group's cuts found once and picked set by set (`RingCuts.picking`, what
    /// `Overlay.mergingAlikeRuns` gives each colour's set): every ring of a set is cut at its
    /// corners that are junctions of the whole group by the plain count, none left alone, as
    /// `init(_:junctions:)` with the group's junctions cuts them. The six wiggly grids, split
    /// into the odd and the even cells, and a square apart (no cut, yet not alone).
    @Test func aGroupsCutsPickedSetBySet() throws {
        for seed in 1 ... 6 as ClosedRange<UInt64> {
            var rings = SharedEdgeSimplifyTests.cells(seed: seed)
            rings.append([MapPoint(x: 90, y: 90), MapPoint(x: 91, y: 90), MapPoint(x: 91, y: 91), MapPoint(x: 90, y: 91)])
            let junctions = Self.bruteForce(rings)
            let group = try #require(RingCuts(finding: try rings.map { PolygonRings(exterior: try GeoPath(points: $0)) }))
            for parity in 0 ... 1 {
                let picked = rings.indices.filter { $0 % 2 == parity }
                let cuts = group.picking(picked)
                for (k, i) in picked.enumerated() {
                    let ring = cuts.ring(polygon: k, 0)
                    let expected = rings[i].indices.filter { junctions.contains(rings[i][$0]) }.map(Int32.init)
                    #expect(!ring.alone && Array(ring.cuts) == expected, "seed \(seed), ring \(i)")
                }
            }
        }
    }

    /// Random rings on a small lattice of signed coordinates (0 and -0 both, points that differ
    /// in sign only, repeats, rings that cross): the table agrees with the plain count on the
    /// rings that share a point, and is nil exactly when no two rings do.
    @Test func agreesWithThePlainCountOnRandomRings() throws {
        var rng = SplitMix64(seed: 11)
        let values: [Double] = [-2, -1, -0.0, 0, 1, 2, 0.5, -0.5]
        for _ in 0 ..< 300 {
            let rings = (0 ..< Int.random(in: 1 ... 4, using: &rng)).map { _ in
                (0 ..< Int.random(in: 3 ... 7, using: &rng)).map { _ in
                    MapPoint(x: values.randomElement(using: &rng)!, y: values.randomElement(using: &rng)!)
                }
            }
            let set = try Self.set(rings)
            // Two rings share a point (of those with three corners or more after repeats go).
            var owners: [MapPoint: Set<Int>] = [:]
            for (k, r) in rings.enumerated() {
                for p in Self.corners(r) { owners[p, default: []].insert(k) }
            }
            let shared = owners.values.contains { $0.count >= 2 }
            #expect((set.cuts != nil) == shared, "\(rings)")
            // (The junctions of the rings that share a point with another: a ring that shares
            // none is simplified on its own, its crossings with itself uncut.)
            let sharing = Set(owners.values.filter { $0.count >= 2 }.flatMap { $0 })
            let onSharing = Set(sharing.flatMap { Self.corners(rings[$0]) })
            if shared { #expect(set.junctions == Self.bruteForce(rings).intersection(onSharing), "\(rings)") }
        }
    }

    /// A set of more corners than `RingCuts.mostCorners` (two squares sharing an edge, one
    /// with a million points along its far side) is simplified ring by ring: no cuts.
    @Test func aHugeSetIsSimplifiedRingByRing() throws {
        let n = RingCuts.mostCorners
        var long = [MapPoint(x: 1, y: 0), MapPoint(x: 2, y: 0)]
        long += (0 ..< n).map { MapPoint(x: 2, y: Double($0 + 1) / Double(n + 1)) }
        long += [MapPoint(x: 2, y: 1), MapPoint(x: 1, y: 1)]
        let square = [MapPoint(x: 0, y: 0), MapPoint(x: 1, y: 0), MapPoint(x: 1, y: 1), MapPoint(x: 0, y: 1)]
        #expect(try Self.set([square, long]).cuts == nil)
        #expect(try Self.set([square, Array(long.prefix(2)) + Array(long.suffix(2))]).cuts != nil)
    }

    /// Through the planner: a set made so has its shared walls simplified alike (every inner
    /// edge matched), where the same polygons in a plain set are simplified ring by ring (some
    /// edges unmatched over the six grids).
    @Test func thePlannerSimplifiesTheSharedWallsAlike() throws {
        var plainTotal = 0
        for seed in 1 ... 6 as ClosedRange<UInt64> {
            let rings = SharedEdgeSimplifyTests.cells(seed: seed)
            let set = try Self.set(rings)
            let alike = set.polygons.indices.map {
                RenderPlanner.preparedRings([set.polygons[$0].exterior], clip: nil, tolerance: 1, cuts: set.cuts, polygon: $0)[0]
            }
            let plain = set.polygons.map { RenderPlanner.preparedRings([$0.exterior], clip: nil, tolerance: 1)[0] }
            #expect(SharedEdgeSimplifyTests.unmatched(alike) == 0, "seed \(seed)")
            plainTotal += SharedEdgeSimplifyTests.unmatched(plain)
        }
        #expect(plainTotal > 0)
    }
}

extension Simplify {
    /// `simplifyRing(_:tolerance:cuts:)` with the junctions given as points (the cuts are the
    /// ring's corners among them).
    static func simplifyRing(_ ring: [MapPoint], tolerance: Double, junctions: Set<MapPoint>) -> [MapPoint] {
        simplifyRing(ring, tolerance: tolerance, cuts: (0 ..< ring.count).filter { junctions.contains(ring[$0]) }.map(Int32.init))
    }
}
