import GeoKit
import MapCamera
@testable import MapRender
import MapScene
import Testing

/// Large sets' meshes are grouped by where their parts lie (`SetBins`), and a frame draws only
/// the groups that reach the view (`DrawCommand.ranges`). The numbers here are worked out by hand
/// from a 16 × 16 grid of squares, whose 8 × 8 bins hold 2 × 2 squares each.
@Suite struct SetBinsTests {
    /// Squares `side` map units wide, `step` apart, from `corner`: column c, row r at
    /// corner + (c, r) · step. Parts are listed row by row.
    static let corner = MapPoint(x: 0.52, y: 0.34), step = 1e-5, side = 0.5e-5

    static func square(_ c: Int, _ r: Int) throws -> GeoPath {
        let x = corner.x + Double(c) * step, y = corner.y + Double(r) * step
        return try GeoPath(points: [MapPoint(x: x, y: y), MapPoint(x: x + side, y: y), MapPoint(x: x + side, y: y + side),
                                    MapPoint(x: x, y: y + side)])
    }

    static func squares(_ n: Int = 16) throws -> [PolygonRings] {
        try (0 ..< n * n).map { PolygonRings(exterior: try square($0 % n, $0 / n)) }
    }

    /// The middle of square column c, row r is at (c + ¼) · step from the corner; over the set's
    /// 15.5 steps that puts columns 2k and 2k + 1 in cell k (0.13 → 0, 0.65 → 0, 1.16 → 1, …,
    /// 7.87 → 7), and the same for rows.
    @Test func partsAreOrderedByCellRowByRow() throws {
        let parts = try Self.squares()
        let bins = SetBins(parts.map(\.exterior.bounds))
        #expect(bins.order.count == 256 && Set(bins.order).count == 256)
        #expect(bins.groups.count == 64)
        // Cell 0: columns 0-1 of rows 0-1, in their given order; then cell 1: columns 2-3.
        #expect(Array(bins.order.prefix(8)) == [0, 1, 16, 17, 2, 3, 18, 19])
        // Cell 8 (second row of cells) starts with column 0 of row 2.
        #expect(bins.order[32] == 32)
        for (k, g) in bins.groups.enumerated() {
            #expect(g.end == 4 * (k + 1))
            // The cell's bounds are its four squares' union.
            let cx = k % 8, cy = k / 8
            let x0 = Self.corner.x + Double(2 * cx) * Self.step, y0 = Self.corner.y + Double(2 * cy) * Self.step
            #expect(abs(g.bounds.minX - x0) < 1e-12 && abs(g.bounds.minY - y0) < 1e-12)
            #expect(abs(g.bounds.width - (Self.step + Self.side)) < 1e-12 && abs(g.bounds.height - (Self.step + Self.side)) < 1e-12)
        }
        // Bounds whose extent overflows a Double (points a caller put at ±1e308): no trap, every
        // part once.
        var huge = parts.map(\.exterior.bounds)
        huge[0] = MapRect(origin: MapPoint(x: -1e308, y: -1e308), width: 0, height: 0)
        huge[1] = MapRect(origin: MapPoint(x: 1e308, y: 1e308), width: 0, height: 0)
        let wild = SetBins(huge)
        #expect(wild.order.sorted() == Array(0 ..< 256) && wild.groups.last?.end == 256)
        // Fewer than 64 parts: one group, the given order.
        let few = SetBins(Array(parts.prefix(63)).map(\.exterior.bounds))
        #expect(few.order == Array(0 ..< 63) && few.groups.count == 1 && few.groups[0].end == 63)
    }

    /// At zoom 13 a step is 41.9 px. A 160 × 120 view centred 2 steps from the corner both ways
    /// reaches 1.91 steps across and 1.43 down from its centre: columns 0-3 and rows 0-3, and not
    /// column 4 (its left edge is 0.09 steps, 3.9 px, past the view's: more than the 2 px
    /// margin). Four bins, 0, 1, 8 and 9, of four squares each (two triangles each, six indices).
    @Test func onlyTheBinsThatReachTheViewAreDrawn() throws {
        let planner = RenderPlanner()
        let squares = MultiPolygon(polygons: PolygonSet(try Self.squares()), fill: Color(rgb: 0x336699))
        let mid = MapPoint(x: Self.corner.x + 2 * Self.step, y: Self.corner.y + 2 * Self.step)
        let camera = Camera(center: mid.latLng, zoom: 13, size: ScreenSize(width: 160, height: 120))
        let plan = planner.plan(Scene(overlays: [.multiPolygon(squares)]), camera: camera)
        #expect(plan.commands.count == 1)
        let cmd = try #require(plan.commands.first)
        #expect(cmd.mesh.layout == .convexFill && cmd.mesh.indices.count == 256 * 6 && cmd.mesh.bins.count == 64)
        #expect(cmd.ranges == [0 ..< 48, 192 ..< 240])

        // A set of lines (one across each square), 3 px wide with 1 px casings: they reach 4.5
        // px past their bins (half the width, the casing and the 2 px margin), so column 4, 3.9
        // px off the view, may show: bins 0-2 and 8-10.
        let lines = PathSet(try (0 ..< 256).map { i in
            let b = try Self.square(i % 16, i / 16).bounds!
            return try GeoPath(points: [MapPoint(x: b.minX, y: b.mid.y), MapPoint(x: b.maxX, y: b.mid.y)])
        })
        let set = MultiPolyline(paths: lines, style: LineStyle(width: .pixels(3), color: Color(rgb: 0x336699), cap: .butt,
                                                               casingColor: Color(rgb: 0x112233), casingWidth: 1))
        let linePlan = planner.plan(Scene(overlays: [.multiPolyline(set)]), camera: camera)
        #expect(linePlan.commands.count == 2)  // casing and line, one mesh
        let bins = try #require(linePlan.commands.first?.mesh.bins)
        #expect(bins.count == 64)
        let expected = [0 ..< bins[2].indexEnd, bins[7].indexEnd ..< bins[10].indexEnd]
        for c in linePlan.commands { #expect(c.ranges == expected) }

        // With a 2 px outline (reaching 3 px past the bins with the margin, short of column 4):
        // the fill and the outline each draw bins 0, 1, 8 and 9.
        let outlined = MultiPolygon(polygons: squares.polygons, fill: Color(rgb: 0x336699), stroke: Color(rgb: 0x112233),
                                    strokeWidth: 2)
        let outlinePlan = planner.plan(Scene(overlays: [.multiPolygon(outlined)]), camera: camera)
        #expect(outlinePlan.commands.count == 2)
        if outlinePlan.commands.count == 2 {
            #expect(outlinePlan.commands[0].ranges == [0 ..< 48, 192 ..< 240])
            let outline = outlinePlan.commands[1]
            #expect(outline.mesh.layout == .ground && outline.mesh.bins.count == 64)
            let b = outline.mesh.bins
            if b.count == 64 { #expect(outline.ranges == [0 ..< b[1].indexEnd, b[7].indexEnd ..< b[9].indexEnd]) }
        }

        // Seen whole (zoomed out), nothing is left out: no ranges.
        let whole = Camera(center: mid.latLng, zoom: 11, size: ScreenSize(width: 400, height: 300))
        #expect(planner.plan(Scene(overlays: [.multiPolygon(squares)]), camera: whole).commands.map(\.ranges) == [nil])
        // Turned 90°, the view reaches 1.43 steps across and 1.91 down: x from 0.57 steps (past
        // column 0's squares, which end at 0.5, but within bin 0's columns 0-1) to 3.43, y to
        // 3.91: bins 0, 1, 8, 9 again. Turned 45°, its bounding box reaches
        // (80 + 60) · cos 45° = 99 px, 2.36 steps, each way: to 4.36, into column and row 4, so
        // bins 0-2 of the first three rows of bins (three bins of 24 indices each).
        for (bearing, expected) in [(90.0, [0 ..< 48, 192 ..< 240]), (45.0, [0 ..< 72, 192 ..< 264, 384 ..< 456])] {
            var turned = camera
            turned.bearing = bearing
            #expect(planner.plan(Scene(overlays: [.multiPolygon(squares)]), camera: turned).commands.first?.ranges == expected,
                    "bearing \(bearing)")
        }
        // Beside the set, 2 steps left of its corner: the view's radius (100 px, 2.39 steps)
        // reaches the set, its box (to 0.09 steps, 3.9 px, left of the corner) does not: no bin
        // drawn, no command.
        let outside = Camera(center: MapPoint(x: Self.corner.x - 2 * Self.step, y: mid.y).latLng, zoom: 13,
                             size: ScreenSize(width: 160, height: 120))
        #expect(planner.plan(Scene(overlays: [.multiPolygon(squares)]), camera: outside).commands.isEmpty)
    }
}
