import GeoKit
import MapTestSupport
import Testing

@Suite struct GeoBoundsTests {
    private func b(_ s: Double, _ w: Double, _ n: Double, _ e: Double) throws -> GeoBounds {
        try GeoBounds(south: s, west: w, north: n, east: e)
    }

    /// Hand-derived: 179° and -179° are 2° apart across the antimeridian, not 358° apart.
    @Test func pointsAcrossAntimeridianTakeTheShortWay() throws {
        let g = try GeoBounds(containing: [LatLng(lat: 10, lon: 179), LatLng(lat: -5, lon: -179)])
        #expect(g.west == 179 && g.east == -179 && g.south == -5 && g.north == 10)
        #expect(g.crossesAntimeridian)
        expectNear(g.longitudeSpan, 2, tolerance: 1e-12)
        expectNear(g.center, LatLng(lat: 2.5, lon: -180), tolerance: 1e-12)
        // Without the crossing the box stays ordinary.
        let h = try GeoBounds(containing: [LatLng(lat: 0, lon: -20), LatLng(lat: 1, lon: 30), LatLng(lat: 2, lon: 5)])
        #expect(h.west == -20 && h.east == 30 && !h.crossesAntimeridian)
    }

    /// Invariance sweep: the box holds every point, and its span equals the brute-force minimum
    /// over every point as a possible west edge (O(n²), independent of the sorted-gap method).
    @Test(arguments: 0..<40) func containingIsMinimal(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed))
        let center = rng.uniform(-180, 180), spread = rng.uniform(0, 200)
        let pts = (0..<(1 + seed % 9)).map { _ in
            LatLng(lat: rng.uniform(-80, 80), lon: center + rng.uniform(-spread, spread))
        }
        let g = try GeoBounds(containing: pts)
        for p in pts { #expect(g.contains(p), "\(p) outside \(g)") }
        var best = 360.0
        for start in pts {
            var span = 0.0
            for p in pts {
                var d = (p.lon - start.lon).truncatingRemainder(dividingBy: 360)
                if d < 0 { d += 360 }
                span = max(span, d)
            }
            best = min(best, span)
        }
        expectNear(g.longitudeSpan, best, tolerance: 1e-9)
    }

    /// Hand-derived growth: from 0…10, 20 moves east; -170 is 180° west of 10 but 190° east of 0,
    /// so the west edge moves; -175 is 185° either way and the tie goes east.
    @Test func extendChoosesSmallerSpan() throws {
        let g = try b(0, 0, 10, 10)
        let e1 = try g.extended(toInclude: LatLng(lat: 5, lon: 20))
        #expect(e1.west == 0 && e1.east == 20)
        let e2 = try g.extended(toInclude: LatLng(lat: -30, lon: -170))
        #expect(e2.west == -170 && e2.east == 10 && e2.south == -30)
        let e3 = try g.extended(toInclude: LatLng(lat: 5, lon: -175))
        #expect(e3.west == 0 && e3.east == -175 && e3.crossesAntimeridian)
        #expect(try g.extended(toInclude: LatLng(lat: 5, lon: 5)) == g)
        #expect(throws: GeometryError.self) { try g.extended(toInclude: LatLng(lat: .nan, lon: 5)) }
    }

    @Test func containsAcrossAntimeridian() throws {
        let g = try b(-10, 170, 10, -170)
        for lon in [175.0, -175, 180, -180, 170, -170, 530] { #expect(g.contains(LatLng(lat: 0, lon: lon)), "\(lon)") }
        for lon in [0.0, 169.9, -169.9] { #expect(!g.contains(LatLng(lat: 0, lon: lon)), "\(lon)") }
        #expect(!g.contains(LatLng(lat: 11, lon: 175)))
        #expect(!g.contains(LatLng(lat: .nan, lon: 175)))
        #expect(!g.contains(LatLng(lat: 0, lon: .nan)))
        #expect(GeoBounds.world.contains(LatLng(lat: -90, lon: 12345)))
    }

    /// Hand-derived unions: disjoint boxes join the short way round; a crossing box absorbs a
    /// neighbour; 0…10 with 170…-170 is 190° starting at 0 (200° starting at 170).
    @Test func union() throws {
        let u1 = try b(0, 10, 1, 20).union(b(-1, 30, 0, 40))
        #expect(u1.west == 10 && u1.east == 40 && u1.south == -1 && u1.north == 1)
        let u2 = try b(0, 170, 1, -170).union(b(0, -160, 1, -150))
        #expect(u2.west == 170 && u2.east == -150)
        let u3 = try b(0, 0, 1, 10).union(b(0, 170, 1, -170))
        #expect(u3.west == 0 && u3.east == -170)
        expectNear(u3.longitudeSpan, 190, tolerance: 1e-12)
        let u4 = try b(0, -100, 1, 100).union(b(0, 90, 1, -90))
        #expect(u4.longitudeSpan == 360 && u4.west == -180 && u4.east == 180)
        #expect(try b(0, 0, 1, 10).union(.world) == .world)
    }

    @Test func intersects() throws {
        let g = try b(-10, 170, 10, -170)
        #expect(g.intersects(try b(0, -175, 1, -172)))
        #expect(g.intersects(try b(0, 160, 1, 171)))
        #expect(!g.intersects(try b(0, 0, 1, 10)))
        #expect(!g.intersects(try b(11, 175, 12, 176)))
    }

    /// Hand-derived: 170…-170 is x from 350/360 to 1 and from 0 to 10/360; the equator is y 0.5.
    @Test func mapRects() throws {
        let g = try b(-10, 170, 0, -170)
        let rects = g.mapRects
        #expect(rects.count == 2)
        expectNear(rects[0].minX, 350.0 / 360, tolerance: 1e-15)
        expectNear(rects[0].maxX, 1, tolerance: 1e-15)
        expectNear(rects[1].minX, 0, tolerance: 1e-15)
        expectNear(rects[1].maxX, 10.0 / 360, tolerance: 1e-15)
        expectNear(rects[0].maxY, MapPoint(LatLng(lat: -10, lon: 0)).y, tolerance: 1e-15)
        expectNear(rects[0].minY, 0.5, tolerance: 1e-15)
        expectNear(g.unwrappedMapRect.maxX, 370.0 / 360, tolerance: 1e-15)
        #expect(GeoBounds.world.mapRects.count == 1)
        expectNear(GeoBounds.world.mapRects[0].height, 1, tolerance: 1e-12)
    }

    @Test func initValidatesAndWraps() throws {
        #expect(throws: GeometryError.self) { try GeoBounds(south: .nan, west: 0, north: 1, east: 1) }
        #expect(throws: GeometryError.self) { try GeoBounds(south: 0, west: 0, north: 1, east: .infinity) }
        #expect(throws: GeometryError.self) { try GeoBounds(south: 2, west: 0, north: 1, east: 1) }
        #expect(throws: GeometryError.self) { try GeoBounds(south: 0, west: 0, north: 91, east: 1) }
        #expect(throws: GeometryError.self) { try GeoBounds(containing: [LatLng]()) }
        #expect(throws: GeometryError.invalidPoint(index: 1, LatLng(lat: 0, lon: .infinity))) {
            try GeoBounds(containing: [LatLng(lat: 0, lon: 0), LatLng(lat: 0, lon: .infinity)])
        }
        let w = try b(0, 190, 1, 200)
        #expect(w.west == -170 && w.east == -160)
        #expect(try b(0, -200, 1, 200) == GeoBounds(south: 0, west: -180, north: 1, east: 180))
    }
}

/// A tiny deterministic generator for invariance sweeps (SplitMix64).
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A uniform double in [lo, hi).
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53)
    }
}
