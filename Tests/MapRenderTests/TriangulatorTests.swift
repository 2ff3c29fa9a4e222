import Foundation
import MapTestSupport
import Testing
@testable import MapRender

/// A polygon fixture: rings as flat x,y pairs (first the exterior), and its area worked out by hand.
struct PolygonFixture: CustomTestStringConvertible, Sendable {
    let name: String
    let rings: [[Double]]
    let area: Double
    var testDescription: String { name }

    /// The fixture rotated by k·90° about the origin ((x, y) → (−y, x)), which keeps coordinates exact.
    func rotated(_ k: Int) -> PolygonFixture {
        var rs = rings
        for _ in 0 ..< k {
            rs = rs.map { r in stride(from: 0, to: r.count, by: 2).flatMap { [-r[$0 + 1], r[$0]] } }
        }
        return PolygonFixture(name: "\(name) @\(k * 90)°", rings: rs, area: area)
    }
}

func regularPolygon(n: Int, radius: Double, clockwise: Bool = false) -> [Double] {
    (0 ..< n).flatMap { k -> [Double] in
        let a = 2 * Double.pi * Double(clockwise ? n - k : k) / Double(n)
        return [radius * cos(a), radius * sin(a)]
    }
}

let polygonFixtures: [PolygonFixture] = [
    // 10×10 square with a 4×4 hole: 100 − 16 = 84.
    PolygonFixture(name: "square with hole", rings: [[0, 0, 10, 0, 10, 10, 0, 10], [3, 3, 3, 7, 7, 7, 7, 3]], area: 84),
    // The same with the hole given in the same orientation as the exterior (the triangulator must fix it).
    PolygonFixture(name: "square with same-orientation hole", rings: [[0, 0, 10, 0, 10, 10, 0, 10], [3, 3, 7, 3, 7, 7, 3, 7]], area: 84),
    // L shape: 10×10 minus the 5×5 top-right quarter = 75.
    PolygonFixture(name: "L shape", rings: [[0, 0, 10, 0, 10, 5, 5, 5, 5, 10, 0, 10]], area: 75),
    // U shape: 9×6 minus the 3×4 notch = 42.
    PolygonFixture(name: "U shape", rings: [[0, 0, 9, 0, 9, 6, 6, 6, 6, 2, 3, 2, 3, 6, 0, 6]], area: 42),
    // Arrow / chevron: triangle (0,0)(8,4)(0,8) = 32 minus triangle (0,0)(3,4)(0,8) = 12 → 20.
    PolygonFixture(name: "chevron", rings: [[0, 0, 8, 4, 0, 8, 3, 4]], area: 20),
    // Two holes in a 20×10 rectangle: 200 − 4·4 − 3·3 = 175.
    PolygonFixture(name: "two holes", rings: [[0, 0, 20, 0, 20, 10, 0, 10], [2, 2, 6, 2, 6, 6, 2, 6], [12, 3, 15, 3, 15, 6, 12, 6]], area: 175),
    // Comb with 30 teeth (1 wide, 5 tall, gaps 1) on a 59×2 base: 59·2 + 30·5 = 268; 124 vertices (z-order path).
    PolygonFixture(name: "comb (hashed)", rings: [combRing(teeth: 30)], area: 268),
    // Regular 200-gon of radius 10 with a 100-gon hole of radius 5: (n/2)·r²·sin(2π/n) each.
    PolygonFixture(name: "ring 200/100 (hashed)",
                   rings: [regularPolygon(n: 200, radius: 10), regularPolygon(n: 100, radius: 5, clockwise: true)],
                   area: 100 * 100 * sin(2 * .pi / 200) - 50 * 25 * sin(2 * .pi / 100)),
]

func combRing(teeth: Int) -> [Double] {
    // Base from (0,0) to (2·teeth − 1, 0), teeth rising from y = 2 to y = 7 at x = 2k … 2k+1.
    let w = Double(2 * teeth - 1)
    var r: [Double] = [0, 0, w, 0]
    for k in stride(from: teeth - 1, through: 0, by: -1) {
        let x0 = Double(2 * k), x1 = x0 + 1
        r += [x1, 2, x1, 7, x0, 7, x0, 2]
    }
    // Drop the duplicated base corners: the first tooth's outer edge continues the base edges.
    return r
}

@Suite struct TriangulatorTests {
    static let cases: [PolygonFixture] = polygonFixtures.flatMap { f in (0 ..< 4).map { f.rotated($0) } }

    @Test(arguments: cases)
    func trianglesCoverTheArea(_ f: PolygonFixture) {
        let coords = f.rings.flatMap { $0 }
        var holeStarts: [Int] = []
        var start = 0
        for r in f.rings.dropLast() { start += r.count / 2; holeStarts.append(start) }
        let tris = Triangulator.triangulate(coords, holeStarts: holeStarts)
        #expect(tris.count % 3 == 0)
        var area = 0.0
        for t in stride(from: 0, to: tris.count, by: 3) {
            let a = Int(tris[t]), b = Int(tris[t + 1]), c = Int(tris[t + 2])
            let cross = (coords[2 * b] - coords[2 * a]) * (coords[2 * c + 1] - coords[2 * a + 1])
                - (coords[2 * b + 1] - coords[2 * a + 1]) * (coords[2 * c] - coords[2 * a])
            area += abs(cross) / 2
        }
        // Tolerance: 1e-9 relative, floating-point rounding only (coordinates are exact).
        #expect(abs(area - f.area) <= 1e-9 * f.area, "\(f.name): triangles cover \(area), expected \(f.area)")
        // Ear clipping of n vertices with h holes gives n + 2h − 2 triangles, fewer when
        // collinear points (e.g. along a bridge) are dropped.
        let n = coords.count / 2
        #expect(tris.count / 3 <= n + 2 * holeStarts.count - 2, "\(f.name)")
        #expect(tris.count / 3 >= n - 2 - 2 * holeStarts.count, "\(f.name)")
    }

    @Test func degenerateInputGivesNoTrianglesAndNoCrash() {
        #expect(Triangulator.triangulate([]) == [])
        #expect(Triangulator.triangulate([0, 0, 1, 1]) == [])
        #expect(Triangulator.triangulate([0, 0, 1, 1, 2, 2]).isEmpty) // collinear
        #expect(Triangulator.triangulate([0, 0, .nan, 1, 2, 0]) == [])
        _ = Triangulator.triangulate([0, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func selfIntersectingBowtieTerminates() {
        // A bow-tie (two triangles of area 1 each meeting at (1,1)) and a random scribble must
        // not hang or crash; the result is whatever ear clipping salvages.
        _ = Triangulator.triangulate([0, 0, 2, 2, 2, 0, 0, 2])
        var rng = SystemRandomNumberGenerator()
        let scribble = (0 ..< 400).map { _ in Double.random(in: 0 ... 100, using: &rng) }
        let tris = Triangulator.triangulate(scribble)
        #expect(tris.allSatisfy { Int($0) < 200 })
    }
}

/// The triangulator's work is bounded (see `Triangulator`'s budgets).
@Suite struct TriangulatorBoundTests {
    private func area(_ coords: [Double], _ tris: [UInt32]) -> Double {
        var sum = 0.0
        for t in stride(from: 0, to: tris.count, by: 3) {
            let a = Int(tris[t]), b = Int(tris[t + 1]), c = Int(tris[t + 2])
            sum += abs((coords[2 * b] - coords[2 * a]) * (coords[2 * c + 1] - coords[2 * a + 1])
                - (coords[2 * b + 1] - coords[2 * a + 1]) * (coords[2 * c] - coords[2 * a])) / 2
        }
        return sum
    }

    /// A comb with square holes in its base (0.5 × 0.5 each, clockwise).
    private func comb(teeth: Int, holes: Int) -> (coords: [Double], holeStarts: [Int], area: Double) {
        var coords = combRing(teeth: teeth)  // base 0…2·teeth−1 by 0…2, teeth 1 wide and 5 tall
        var holeStarts: [Int] = []
        let w = Double(2 * teeth - 1)
        for k in 0 ..< holes {
            let x = Double(k) * (w - 1) / Double(holes) + 0.25
            holeStarts.append(coords.count / 2)
            coords += [x, 0.75, x, 1.25, x + 0.5, 1.25, x + 0.5, 0.75]
        }
        return (coords, holeStarts, w * 2 + Double(teeth) * 5 - Double(holes) * 0.25)
    }

    /// A proper comb of 2,500 teeth (10,002 vertices) with 100 holes is triangulated completely
    /// (the area by hand) well within the budgets.
    @Test func combWithHolesIsComplete() {
        let c = comb(teeth: 2500, holes: 100)
        let r = Triangulator.triangulateCounting(c.coords, holeStarts: c.holeStarts)
        #expect(!r.exhausted, "\(r.steps) steps")
        #expect(abs(area(c.coords, r.indices) - c.area) <= 1e-9 * c.area)
    }

    /// The comb: 25,000 teeth (100,002 vertices) and 1,000 holes. Ear clipping needs
    /// about 370 million steps here (long thin ears along the base defeat the z-order index);
    /// the work stops at the budgets (scaled down here to keep the debug build quick; the
    /// release CLI runs the real ones in BoundedWorkCLITests), with valid triangles that never
    /// cover more than the polygon's outline.
    @Test func combWithThousandHolesIsBounded() {
        let c = comb(teeth: 25_000, holes: 1000)
        let n = c.coords.count / 2
        let r = Triangulator.triangulateCounting(c.coords, holeStarts: c.holeStarts, budgets: (5_000_000, 5_000_000))
        #expect(r.exhausted)
        #expect(r.steps <= 10_000_002)
        #expect(r.indices.count % 3 == 0 && r.indices.allSatisfy { Int($0) < n })
        #expect(area(c.coords, r.indices) <= c.area + 1000 * 0.25 + 1e-6)
    }

    /// 100,000 random points (a ring crossing itself everywhere), which took ear clipping's
    /// fallbacks tens of seconds: stopped by the budget, with valid indices.
    @Test func randomRingStopsAtTheBudget() {
        var rng = SplitMix64(seed: 3)
        let n = 100_000
        let coords = (0 ..< 2 * n).map { _ in rng.unit() * 1000 }
        let ears = 2_000_000  // scaled down for the debug build; BoundedWorkCLITests runs the real one
        let r = Triangulator.triangulateCounting(coords, budgets: (0, ears))
        #expect(r.exhausted)
        #expect(r.steps <= ears + 1)
        #expect(r.indices.count % 3 == 0 && r.indices.allSatisfy { Int($0) < n })
    }

    /// Joining holes past the bridging budget leaves the rest out instead of scanning on.
    @Test func holesPastTheBridgeBudgetAreLeftOut() {
        var coords = regularPolygon(n: 2000, radius: 1000)
        var holeStarts: [Int] = []
        for k in 0 ..< 400 {
            let x = Double(k % 20) * 60 - 600, y = Double(k / 20) * 60 - 600
            holeStarts.append(coords.count / 2)
            coords += [x, y, x, y + 10, x + 10, y + 10, x + 10, y]
        }
        let full = Triangulator.triangulateCounting(coords, holeStarts: holeStarts)
        #expect(!full.exhausted)
        let fullArea = 1000.0 * 1000 * sin(2 * Double.pi / 2000) * 2000 / 2 - 400 * 100
        #expect(abs(area(coords, full.indices) - fullArea) <= 1e-6 * fullArea)
        let cut = Triangulator.triangulateCounting(coords, holeStarts: holeStarts, budgets: (bridge: 100_000, ears: 10_000_000))
        #expect(cut.exhausted)
        // Holes left out are filled over: more area, but never more than the outer ring's.
        let cutArea = area(coords, cut.indices)
        #expect(cutArea > fullArea + 100 && cutArea <= fullArea + 400 * 100 + 1e-6)
    }
}

extension SplitMix64 {
    /// Uniform in [0, 1), from the top 53 of the next 64 bits.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
