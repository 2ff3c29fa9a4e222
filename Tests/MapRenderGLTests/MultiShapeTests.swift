import Foundation
import GeoKit
import MapCamera
@testable import MapRender
import MapRenderGL
import MapScene
import Testing

/// `MultiPolygon` and `MultiPolyline` draw what their parts drawn as `Polygon`s and `Polyline`s
/// draw, as one overlay: checked pixel for pixel against the parts, and at hand-placed points.
@Suite(.serialized) struct MultiShapeTests {
    static let camera = Camera(center: LatLng(lat: 47.37, lon: 8.54), zoom: 11.5, size: ScreenSize(width: 400, height: 300))
    static let teal = Color(rgb: 0x107070), orange = Color(rgb: 0xE07000)

    /// A square (half-width `r` degrees of latitude) centred on `lat`, `lon`.
    static func square(_ lat: Double, _ lon: Double, _ r: Double) throws -> GeoPath {
        try GeoPath(coordinates: [LatLng(lat: lat - r, lon: lon - 1.5 * r), LatLng(lat: lat - r, lon: lon + 1.5 * r),
                                  LatLng(lat: lat + r, lon: lon + 1.5 * r), LatLng(lat: lat + r, lon: lon - 1.5 * r)])
    }

    /// Four disjoint shapes: two squares, a triangle, and a square with a square hole.
    static func rings() throws -> [PolygonRings] {
        [PolygonRings(exterior: try square(47.375, 8.52, 0.004)),
         PolygonRings(exterior: try square(47.362, 8.53, 0.003)),
         PolygonRings(exterior: try GeoPath(coordinates: [LatLng(lat: 47.36, lon: 8.55), LatLng(lat: 47.366, lon: 8.57),
                                                          LatLng(lat: 47.372, lon: 8.552)])),
         PolygonRings(exterior: try square(47.378, 8.56, 0.005), holes: [try square(47.378, 8.56, 0.002)])]
    }

    func pixel(_ frame: Frame, _ lat: Double, _ lon: Double) throws -> (Int, Int, Int) {
        let p = try #require(Self.camera.project(LatLng(lat: lat, lon: lon)))
        let c = frame.pixel(x: Int(p.x), y: Int(p.y))
        #expect(c != nil, "\(lat), \(lon) is off the frame")
        return (Int(c?.r ?? 0), Int(c?.g ?? 0), Int(c?.b ?? 0))
    }

    /// The largest difference of any channel of any pixel.
    func maxDifference(_ a: Frame, _ b: Frame) -> Int {
        var worst = 0
        for y in 0 ..< a.height {
            for x in 0 ..< a.width {
                guard let p = a.pixel(x: x, y: y), let q = b.pixel(x: x, y: y) else { return 255 }
                worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
            }
        }
        return worst
    }

    /// A pixel's channels (empty off the frame).
    func rgba(_ f: Frame, _ x: Int, _ y: Int) -> [Int] {
        guard let p = f.pixel(x: x, y: y) else { return [] }
        return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }

    /// How many pixels differ by more than 1 in a channel, and the largest difference.
    func differences(_ a: Frame, _ b: Frame) -> (Int, Int) {
        var count = 0, worst = 0
        for y in 0 ..< a.height {
            for x in 0 ..< a.width {
                guard let p = a.pixel(x: x, y: y), let q = b.pixel(x: x, y: y) else { return (Int.max, 255) }
                let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
                worst = max(worst, d)
                if d > 1 { count += 1 }
            }
        }
        return (count, worst)
    }

    @Test(arguments: [0, 4]) func aMultiPolygonDrawsWhatItsPolygonsDraw(samples: Int) throws {
        let renderer = try MapRenderer(samples: samples)
        let set = PolygonSet(try Self.rings())
        for stroke in [nil, Self.orange] {
            let multi = MultiPolygon(polygons: set, fill: Self.teal, stroke: stroke, strokeWidth: 3)
            let one = try renderer.render(scene: Scene(overlays: [.multiPolygon(multi)]), camera: Self.camera)
            let parts = try renderer.render(scene: Scene(overlays: set.polygons.indices.map { .polygon(multi.part($0)) }),
                                            camera: Self.camera)
            // Fills first and outlines over them in both; the parts' outlines are drawn after each
            // part's fill, so they match where the parts do not touch (they do not here). With
            // shader coverage the set draws the square with a hole as a wedge fill and the
            // Polygon with a fringe: the same but for edge pixels whose centre is within
            // rounding of an edge, inside for one and half covered for the other.
            if samples == 0 && stroke == nil {
                let (count, worst) = differences(one, parts)
                print("set vs parts: \(count) pixels differ by more than 1 (worst \(worst))")
                #expect(count <= 40 && worst <= 128)
            } else {
                #expect(maxDifference(one, parts) <= 1, "stroke \(String(describing: stroke))")
            }
            #expect(try pixel(one, 47.375, 8.52) == (0x10, 0x70, 0x70))   // inside a square
            #expect(try pixel(one, 47.378, 8.56) == (255, 255, 255))      // in the hole
            #expect(try pixel(one, 47.3745, 8.56) == (0x10, 0x70, 0x70))  // between hole and rim
            #expect(try pixel(one, 47.366, 8.5573) == (0x10, 0x70, 0x70)) // the triangle's centroid
            #expect(try pixel(one, 47.368, 8.54) == (255, 255, 255))      // between the shapes
        }
    }

    /// 12 × 12 shapes made at points 0.0004° of latitude and 0.0006° of longitude apart round
    /// 47.3745, 8.56: about 3 400 × 3 300 px at `zoomedIn`'s zoom.
    static func grid<T>(_ make: (Double, Double) throws -> T) rethrows -> [T] {
        let lats = (0 ..< 12).map { 47.3745 + Double($0 - 6) * 0.0004 }, lons = (0 ..< 12).map { 8.56 + Double($0 - 6) * 0.0006 }
        return try lats.flatMap { lat in try lons.map { lon in try make(lat, lon) } }
    }

    /// The view zoomed in on `grid`'s middle (zoom 18.5, bearing 20).
    static var zoomedIn: Camera {
        var camera = Self.camera
        camera.center = LatLng(lat: 47.3745, lon: 8.56)
        camera.zoom = 18.5
        camera.bearing = 20
        return camera
    }

    /// Zoomed in until the set is wider than four view cells (it is then meshed for the view's
    /// cell): still what its parts draw, under multisampling pixel for pixel, and with shader
    /// coverage but for edge pixels.
    @Test(arguments: [0, 4]) func aWideSetDrawsWhatItsPolygonsDrawZoomedIn(samples: Int) throws {
        let renderer = try MapRenderer(samples: samples)
        let set = PolygonSet(try Self.grid { lat, lon in
            PolygonRings(exterior: try Self.square(lat, lon, 0.00012), holes: [try Self.square(lat, lon, 0.00004)])
        })
        let multi = MultiPolygon(polygons: set, fill: Self.teal)
        let camera = Self.zoomedIn
        let one = try renderer.render(scene: Scene(overlays: [.multiPolygon(multi)]), camera: camera)
        let parts = try renderer.render(scene: Scene(overlays: set.polygons.indices.map { .polygon(multi.part($0)) }), camera: camera)
        let (count, worst) = differences(one, parts)
        print("wide set vs parts at zoom 18.5, samples \(samples): \(count) pixels differ by more than 1 (worst \(worst))")
        #expect(samples == 0 ? count <= 60 && worst <= 128 : count == 0)
        // Something of the set is drawn.
        #expect(try pixel(one, 47.3745 + 0.0001, 8.56) == (0x10, 0x70, 0x70))
    }

    /// One overlay is blended once where its parts overlap, as a polygon whose rings overlap
    /// itself would be; two `Polygon`s blend twice.
    @Test func overlappingTranslucentPartsAreBlendedOnce() throws {
        let renderer = try MapRenderer()
        let half = Color(rgb: 0x0000FF, alpha: 0x80)
        let set = PolygonSet([PolygonRings(exterior: try Self.square(47.37, 8.53, 0.004)),
                              PolygonRings(exterior: try Self.square(47.372, 8.54, 0.004))])
        let one = try renderer.render(scene: Scene(overlays: [.multiPolygon(MultiPolygon(polygons: set, fill: half))]),
                                      camera: Self.camera)
        let alone = try pixel(one, 47.367, 8.525)
        let overlap = try pixel(one, 47.371, 8.535)
        // 0x80 of blue over white: 255 − 128 = 127 (±1 for rounding), once in the overlap too.
        #expect(abs(alone.0 - 127) <= 1 && alone.2 == 255)
        #expect(overlap == alone)
        let two = try renderer.render(scene: Scene(overlays: [.polygon(MultiPolygon(polygons: set, fill: half).part(0)),
                                                              .polygon(MultiPolygon(polygons: set, fill: half).part(1))]),
                                      camera: Self.camera)
        #expect(abs(try pixel(two, 47.371, 8.535).0 - 63) <= 1)
    }

    /// Three parallel lines, apart: dashed (each line's pattern starts at its own first point),
    /// cased, 6 px wide.
    static func lines() throws -> PathSet {
        PathSet(try (0 ..< 3).map { i in
            try GeoPath(coordinates: [LatLng(lat: 47.36 + Double(i) * 0.006, lon: 8.52 + Double(i) * 0.004),
                                      LatLng(lat: 47.36 + Double(i) * 0.006, lon: 8.56)])
        })
    }

    @Test(arguments: [0, 4]) func aMultiPolylineDrawsWhatItsLinesDraw(samples: Int) throws {
        let renderer = try MapRenderer(samples: samples)
        let set = try Self.lines()
        var style = LineStyle(width: .pixels(6), color: Self.teal, cap: .butt, dash: [12, 12], casingColor: Self.orange,
                              casingWidth: 2)
        for dashed in [true, false] {
            if !dashed { style.dash = [] }
            let multi = MultiPolyline(paths: set, style: style)
            let one = try renderer.render(scene: Scene(overlays: [.multiPolyline(multi)]), camera: Self.camera)
            let parts = try renderer.render(scene: Scene(overlays: set.paths.indices.map { .polyline(multi.part($0)) }),
                                            camera: Self.camera)
            #expect(maxDifference(one, parts) <= 1, "dashed \(dashed)")
        }
        // Each line's dashes start at its first point: 6 px along the second line (which starts
        // further east than the first) is a dash, 18 px along is a gap between dashes (the casing
        // runs on under the gaps: casings are not dashed).
        style.dash = [12, 12]
        let image = try renderer.render(scene: Scene(overlays: [.multiPolyline(MultiPolyline(paths: set, style: style))]),
                                        camera: Self.camera)
        let start = try #require(Self.camera.project(LatLng(lat: 47.366, lon: 8.524)))
        let dash = image.pixel(x: Int(start.x + 6), y: Int(start.y)), gap = image.pixel(x: Int(start.x + 18), y: Int(start.y))
        #expect(dash.map { [$0.r, $0.g, $0.b] } == [0x10, 0x70, 0x70])
        #expect(gap.map { [$0.r, $0.g, $0.b] } == [0xE0, 0x70, 0x00])
    }

    /// Zoomed in until the set is wider than four view cells (it is then meshed for the view's
    /// cell, and a line that wide itself is clipped as a `Polyline` is): still what its lines
    /// draw, dashes starting at each line's first point.
    @Test(arguments: [0, 4]) func aWideLineSetDrawsWhatItsLinesDrawZoomedIn(samples: Int) throws {
        let renderer = try MapRenderer(samples: samples)
        var paths = try Self.grid { lat, lon in
            try GeoPath(coordinates: [LatLng(lat: lat, lon: lon - 0.0002), LatLng(lat: lat + 0.0001, lon: lon + 0.0002)])
        }
        // A line far wider than the cells, between two rows.
        paths.append(try GeoPath(coordinates: [LatLng(lat: 47.3747, lon: 8.50), LatLng(lat: 47.3747, lon: 8.62)]))
        let set = PathSet(paths)
        let multi = MultiPolyline(paths: set, style: LineStyle(width: .pixels(5), color: Self.teal, cap: .butt, dash: [8, 4]))
        let camera = Self.zoomedIn
        let one = try renderer.render(scene: Scene(overlays: [.multiPolyline(multi)]), camera: camera)
        let parts = try renderer.render(scene: Scene(overlays: set.paths.indices.map { .polyline(multi.part($0)) }), camera: camera)
        #expect(maxDifference(one, parts) <= 1)
        var drawn = 0
        for y in stride(from: 0, to: one.height, by: 2) {
            for x in stride(from: 0, to: one.width, by: 2) where one.pixel(x: x, y: y)?.r == 0x10 { drawn += 1 }
        }
        #expect(drawn > 150, "lines are on screen (\(drawn))")
    }

    /// Where two lines of one set cross, both casings lie under both lines (every casing is
    /// drawn first, as a street map's), where two cased `Polyline`s put the second's casing over
    /// the first line.
    @Test func crossingLinesOfOneSetShareTheirCasings() throws {
        let renderer = try MapRenderer()
        let set = PathSet([try GeoPath(coordinates: [LatLng(lat: 47.37, lon: 8.52), LatLng(lat: 47.37, lon: 8.56)]),
                           try GeoPath(coordinates: [LatLng(lat: 47.36, lon: 8.54), LatLng(lat: 47.38, lon: 8.54)])])
        let style = LineStyle(width: .pixels(8), color: Self.teal, casingColor: Self.orange, casingWidth: 3)
        let multi = MultiPolyline(paths: set, style: style)
        let one = try renderer.render(scene: Scene(overlays: [.multiPolyline(multi)]), camera: Self.camera)
        let two = try renderer.render(scene: Scene(overlays: [.polyline(multi.part(0)), .polyline(multi.part(1))]),
                                      camera: Self.camera)
        // 5 px east of the crossing, on the first (east–west) line: inside the second line's casing.
        let c = try #require(Self.camera.project(LatLng(lat: 47.37, lon: 8.54)))
        let a = one.pixel(x: Int(c.x) + 5, y: Int(c.y)), b = two.pixel(x: Int(c.x) + 5, y: Int(c.y))
        #expect(a.map { [$0.r, $0.g, $0.b] } == [0x10, 0x70, 0x70])
        #expect(b.map { [$0.r, $0.g, $0.b] } == [0xE0, 0x70, 0x00])
    }

    /// A set seen in part draws only its bins that reach the view (`SetBins`): what it draws is
    /// what a set of only the parts on screen draws (each part's corners projected, kept if its
    /// box comes within 12 px of the frame) — 24 × 24 outlined buildings (L-shapes as wedge
    /// fills, squares as convex fills) and a cased line across each, looked at straight down, turned,
    /// tilted and tilted to the horizon. Only rounding differs (the parts are meshed in another
    /// order).
    @Test func aSetSeenInPartDrawsWhatItsPartsOnScreenDraw() throws {
        let renderer = try MapRenderer()
        let n = 24
        var rings: [PolygonRings] = [], paths: [GeoPath] = []
        for i in 0 ..< n * n {
            let lat = 47.37 + Double(i / n - n / 2) * 0.0004, lon = 8.54 + Double(i % n - n / 2) * 0.0006
            let square = [LatLng(lat: lat, lon: lon), LatLng(lat: lat, lon: lon + 0.0003), LatLng(lat: lat + 0.0002, lon: lon + 0.0003),
                          LatLng(lat: lat + 0.0002, lon: lon)]
            let ell = [LatLng(lat: lat, lon: lon), LatLng(lat: lat, lon: lon + 0.0003), LatLng(lat: lat + 0.0001, lon: lon + 0.0003),
                       LatLng(lat: lat + 0.0001, lon: lon + 0.00015), LatLng(lat: lat + 0.0002, lon: lon + 0.00015),
                       LatLng(lat: lat + 0.0002, lon: lon)]
            rings.append(PolygonRings(exterior: try GeoPath(coordinates: i % 2 == 0 ? ell : square)))
            paths.append(try GeoPath(coordinates: [LatLng(lat: lat + 0.00025, lon: lon - 0.0001),
                                                   LatLng(lat: lat + 0.0003, lon: lon + 0.0004)]))
        }
        let style = LineStyle(width: .pixels(3), color: Self.orange, cap: .round, casingColor: Color(rgb: 0x303030), casingWidth: 1)
        // Opaque (convex and wedge fills) and translucent (fringed fills: interiors' bins, then
        // the fringes').
        for fill in [Self.teal, Color(rgb: 0x107070, alpha: 0x99)] {
        func scene(_ keep: (Int) -> Bool) -> Scene {
            let kept = (0 ..< n * n).filter(keep)
            return Scene(overlays: [.multiPolygon(MultiPolygon(polygons: PolygonSet(kept.map { rings[$0] }), fill: fill,
                                                               stroke: Color(rgb: 0x0A4040), strokeWidth: 1.5)),
                                    .multiPolyline(MultiPolyline(paths: PathSet(kept.map { paths[$0] }), style: style))])
        }
        for (bearing, pitch) in [(0.0, 0.0), (30.0, 0.0), (10.0, 50.0), (200.0, 80.0)] {
            let camera = Camera(center: LatLng(lat: 47.3722, lon: 8.5431), zoom: 16, bearing: bearing, pitch: pitch,
                                size: ScreenSize(width: 400, height: 300))
            let whole = scene { _ in true }
            // The set reaches past the view: some bins are left out.
            let plan = RenderPlanner().plan(whole, camera: camera)
            let drawn = plan.commands.reduce(0) { $0 + ($1.ranges?.reduce(0) { $0 + $1.count } ?? $1.mesh.indices.count) }
            let all = plan.commands.reduce(0) { $0 + $1.mesh.indices.count }
            print("bearing \(bearing), pitch \(pitch): \(drawn / 3) of \(all / 3) triangles drawn")
            // (Pitched 80°, the view reaches the horizon and shows most of the set.)
            #expect(pitch < 80 ? drawn * 2 < all : drawn <= all)
            func onScreen(_ i: Int) -> Bool {
                var box = (x0: Double.infinity, y0: Double.infinity, x1: -Double.infinity, y1: -Double.infinity)
                for p in rings[i].exterior.points + paths[i].points {
                    guard let s = camera.project(p.latLng) else { return true }
                    box = (min(box.x0, s.x), min(box.y0, s.y), max(box.x1, s.x), max(box.y1, s.y))
                }
                return box.x1 >= -12 && box.x0 <= 412 && box.y1 >= -12 && box.y0 <= 312
            }
            let kept = (0 ..< n * n).filter(onScreen).count
            #expect(kept > 20 && kept <= (pitch > 0 ? n * n : n * n / 2), "\(kept)")
            let one = try renderer.render(scene: whole, camera: camera)
            // The first and last parts too, so that both sets have the same bounds and so the
            // same mesh origin: with another origin their Float positions round differently, which
            // towards the horizon moved a pixel of line edge by 17 levels.
            let parts = try renderer.render(scene: scene { onScreen($0) || $0 == 0 || $0 == n * n - 1 }, camera: camera)
            let (count, worst) = differences(one, parts)
            #expect(count == 0 && worst <= 1, "fill \(fill), bearing \(bearing), pitch \(pitch): \(count) pixels differ (worst \(worst))")
            // Something is drawn: the middle of the view is not all background (teal, or
            // 0x99 of it over white: 0x10 · 0.6 + 255 · 0.4 = 112).
            var teal = 0
            for y in stride(from: 0, to: 300, by: 3) {
                for x in stride(from: 0, to: 400, by: 3) where abs(Int(one.pixel(x: x, y: y)?.r ?? 0) - (fill.a == 255 ? 0x10 : 112)) <= 1 {
                    teal += 1
                }
            }
            #expect(teal > 500, "\(teal)")
        }
        }
    }

    /// Under an opaque outline 2 px wide or more a fill goes without its antialiased fringe
    /// (`RenderPlanner.outlineHidesFringe`): the fringe only touches pixels the outline covers
    /// in full. Against the same polygons drawn as fringed fills and then their outlines as
    /// overlays of their own (a fill with no outline keeps its fringe), for a lone `Polygon`
    /// and a set, translucent and opaque, flat, turned and pitched, at pixel ratios 1 and 2:
    /// the same image. A 1.5 px outline keeps the fringe, which shows past it.
    @Test func aWideOpaqueOutlineHidesTheFillsFringe() throws {
        let renderer = try MapRenderer()
        let shapes = try Self.rings()
        for (pitch, bearing, ratio) in [(0.0, 0.0, 1.0), (0.0, 33.0, 2.0), (50.0, 20.0, 1.0)] {
            var camera = Self.camera
            camera.pitch = pitch; camera.bearing = bearing; camera.pixelRatio = ratio
            for fill in [Color(rgb: 0x2B8CBE, alpha: 0x99), Self.teal] {
                let stroke = Color(rgb: 0x555555)
                let set = PolygonSet(shapes)
                let together: [Overlay] = [.multiPolygon(MultiPolygon(polygons: set, fill: fill, stroke: stroke, strokeWidth: 2))]
                let apart: [Overlay] = [.multiPolygon(MultiPolygon(polygons: set, fill: fill)),
                                        .multiPolygon(MultiPolygon(polygons: set, fill: Color(rgb: 0, alpha: 0), stroke: stroke, strokeWidth: 2))]
                let a = try renderer.render(scene: Scene(overlays: together), camera: camera)
                let b = try renderer.render(scene: Scene(overlays: apart), camera: camera)
                // (Pitched, the translucent set differs by 2 levels at most: the fringe's half
                // pixel and the outline's width are laid out at slightly different scales along
                // a foreshortened edge. Flat, nothing differs.)
                #expect(maxDifference(a, b) <= (pitch > 0 ? 2 : 0), "set, pitch \(pitch), bearing \(bearing), ratio \(ratio), fill \(fill)")
                let one = Polygon(exterior: shapes[0].exterior, holes: shapes[0].holes, fill: fill, stroke: stroke, strokeWidth: 2)
                var bare = one, line = one
                bare.stroke = nil
                line.fill = Color(rgb: 0, alpha: 0)
                let c = try renderer.render(scene: Scene(overlays: [.polygon(one)]), camera: camera)
                let d = try renderer.render(scene: Scene(overlays: [.polygon(bare), .polygon(line)]), camera: camera)
                #expect(maxDifference(c, d) <= (pitch > 0 ? 2 : 0), "polygon, pitch \(pitch), bearing \(bearing), ratio \(ratio), fill \(fill)")
            }
        }
        // With a 1.5 px outline the fringe is kept (at pixel ratio 1): dropping it would change
        // pixels. At ratio 2 a 1-px outline is 2 device pixels and hides it.
        let fill = Color(rgb: 0x2B8CBE, alpha: 0x99)
        #expect(!RenderPlanner.outlineHidesFringe(Color(rgb: 0x555555), 0.75))
        #expect(!RenderPlanner.outlineHidesFringe(Color(rgb: 0x555555, alpha: 0x80), 1))
        #expect(RenderPlanner.outlineHidesFringe(Color(rgb: 0x555555), 1))
        let thin = Polygon(exterior: shapes[0].exterior, fill: fill, stroke: Color(rgb: 0x555555), strokeWidth: 1.5)
        var thinBare = thin, thinLine = thin
        thinBare.stroke = nil
        thinLine.fill = Color(rgb: 0, alpha: 0)
        let e = try renderer.render(scene: Scene(overlays: [.polygon(thin)]), camera: Self.camera)
        let f = try renderer.render(scene: Scene(overlays: [.polygon(thinBare), .polygon(thinLine)]), camera: Self.camera)
        #expect(maxDifference(e, f) <= 1)
        var retina = Self.camera
        retina.pixelRatio = 2
        var whole = thin, line = thinLine
        whole.strokeWidth = 1; line.strokeWidth = 1
        let g = try renderer.render(scene: Scene(overlays: [.polygon(whole)]), camera: retina)
        let h = try renderer.render(scene: Scene(overlays: [.polygon(thinBare), .polygon(line)]), camera: retina)
        #expect(maxDifference(g, h) == 0, "a 1-px outline at pixel ratio 2")
    }

    /// A translucent choropleth (the simplestyle look: fill at 0.6, a 1 px outline) as a GeoJSON
    /// file gives it, one polygon after another in three colours, against the sets
    /// `Overlay.mergingAlikeRuns` makes of it: the same image but for pixels on the squares'
    /// edges, where neighbours' antialiased fringes and outline edges blend over each other in
    /// another order (looked at side by side, 4× enlarged: alike). Without outlines, where two
    /// squares of one colour meet, the sets' layer blends the edge pixels once, in the colour of
    /// the inside, where the squares one by one blend the second's fringe over pixels the first
    /// covers (a darker seam through the colour band, visible in the enlargement).
    @Test func aMergedTranslucentChoroplethDrawsWhatItsPolygonsDraw() throws {
        let renderer = try MapRenderer()
        // 14 × 8 squares, each about 23 × 34 px.
        let camera = Camera(center: LatLng(lat: 47.3676, lon: 8.5406), zoom: 14, size: ScreenSize(width: 400, height: 300))
        let colours = [Color(rgb: 0xD7301F, alpha: 0x99), Color(rgb: 0xFC8D59, alpha: 0x99), Color(rgb: 0x2B8CBE, alpha: 0x99)]
        func grid(stroke: Color?) throws -> [Overlay] {
            var out: [Overlay] = []
            for i in 0 ..< 8 {
                for j in 0 ..< 14 {
                    let lat = 47.3636 + Double(i) * 0.001, lon = 8.5336 + Double(j) * 0.001
                    let ring = try GeoPath(coordinates: [LatLng(lat: lat, lon: lon), LatLng(lat: lat, lon: lon + 0.001),
                                                         LatLng(lat: lat + 0.001, lon: lon + 0.001), LatLng(lat: lat + 0.001, lon: lon)])
                    // Colours in bands of two columns, so that same-colour squares meet.
                    out.append(.polygon(Polygon(exterior: ring, fill: colours[(i / 3 + j / 2) % 3], stroke: stroke, strokeWidth: 1)))
                }
            }
            return out
        }
        for stroke in [Color(rgb: 0x555555), nil] {
            let polygons = try grid(stroke: stroke)
            let merged = Overlay.mergingAlikeRuns(polygons, minimumRun: 16)
            #expect(merged.count == 3 && merged.allSatisfy { if case .multiPolygon = $0 { true } else { false } })
            let sets = try renderer.render(scene: Scene(overlays: merged), camera: camera)
            let apart = try renderer.render(scene: Scene(overlays: polygons), camera: camera)
            let (count, worst) = differences(sets, apart)
            if let dir = ProcessInfo.processInfo.environment["MW_DUMP"] {
                try RenderHarness.bitmap(sets).writePNG(to: dir + "/sets-\(stroke == nil).png")
                try RenderHarness.bitmap(apart).writePNG(to: dir + "/apart-\(stroke == nil).png")
            }
            print("choropleth, stroke \(String(describing: stroke)): \(count) pixels differ by more than 1 (worst \(worst))")
            // Inside the squares, pixel for pixel the same: every square's middle.
            for i in 0 ..< 8 {
                for j in 0 ..< 14 {
                    let c = LatLng(lat: 47.3636 + (Double(i) + 0.5) * 0.001, lon: 8.5336 + (Double(j) + 0.5) * 0.001)
                    let p = try #require(camera.project(c))
                    #expect(p.x >= 0 && p.x < 400 && p.y >= 0 && p.y < 300)
                    #expect(rgba(sets, Int(p.x), Int(p.y)) == rgba(apart, Int(p.x), Int(p.y)), "square \(i), \(j)")
                }
            }
            // Elsewhere only the pixels along the squares' edges differ (where neighbours'
            // antialiased fringes and outline edges blend over each other in another order).
            let xs = try (0 ... 14).map { try #require(camera.project(LatLng(lat: 47.3676, lon: 8.5336 + Double($0) * 0.001))).x }
            let ys = try (0 ... 8).map { try #require(camera.project(LatLng(lat: 47.3636 + Double($0) * 0.001, lon: 8.5406))).y }
            var offEdge = 0
            for y in 0 ..< 300 {
                for x in 0 ..< 400 {
                    let a = rgba(sets, x, y), b = rgba(apart, x, y)
                    guard zip(a, b).contains(where: { abs($0 - $1) > 1 }) else { continue }
                    let cx = Double(x) + 0.5, cy = Double(y) + 0.5
                    let near = xs.contains { abs($0 - cx) <= 1.5 } || ys.contains { abs($0 - cy) <= 1.5 }
                    if !near { offEdge += 1 }
                }
            }
            #expect(offEdge == 0, "\(offEdge) pixels away from the edges differ")
            // With outlines the sets stroke each edge once, where one by one both squares beside
            // it stroke it: a 1-px outline straddling two pixel rows is half covering each, once
            // (0x555555 at 0.5 over the fills), against 0.75 struck twice — the shared edges
            // one by one are darker than the outer ones, in the sets all alike (looked at).
            // Without outlines the sets are one layer (`TranslucentLayerTests`): where two colours
            // meet the later one's edge is antialiased over the earlier one's colour, where one
            // by one both fringes blend over each other (a seam).
            #expect(count > 0 && worst <= 128)
            if stroke == nil {
                // Along the vertical edge between columns 0 and 1 (one colour) at row 5's middle.
                let edge = try #require(camera.project(LatLng(lat: 47.3636 + 5.5 * 0.001, lon: 8.5346)))
                let inside = try #require(camera.project(LatLng(lat: 47.3636 + 5.5 * 0.001, lon: 8.5341)))
                let y = Int(edge.y), x = Int(edge.x)
                let want = rgba(sets, Int(inside.x), y)
                var seam = 0
                for dx in -2 ... 2 {
                    #expect(rgba(sets, x + dx, y) == want, "set at the edge, \(dx)")
                    seam = max(seam, zip(rgba(apart, x + dx, y), want).map { abs($0 - $1) }.max() ?? 0)
                }
                // One by one, the pixel whose centre one square covers is blended again by the
                // other's fringe: darker.
                #expect(seam >= 6, "one by one the edge differs by \(seam)")
            }
        }
    }

    /// A translucent set blends each pixel once, interiors before fringes, so a fringe along an
    /// edge two of its parts share only reaches pixels the neighbour's interior has: the planner
    /// leaves those out (`RenderPlanner.sharedEdges`), and the parts' outer edges meet as one
    /// shape's (no miter at a corner that is not one). A 5 × 4 grid of squares, column 2 split
    /// into triangles along the diagonals, draws what the one rectangle they make draws, flat,
    /// turned and pitched, with 4 fringe triangles fewer for each of its 31 + 4 fully shared
    /// edges. With those fringes kept, the outer edges' fringes were mitred at every square's
    /// corner, as if the outline turned there: pitched, further from the rectangle's.
    @Test func sharedEdgesOfATranslucentSetHaveNoFringe() throws {
        let fill = Color(rgb: 0x2B8CBE, alpha: 0x99)
        let background = Color(rgb: 0xF6F8FA)
        func at(_ i: Double, _ j: Double) -> LatLng { LatLng(lat: 47.3636 + i * 0.0006, lon: 8.5336 + j * 0.0008) }
        func ring(_ pts: [(Double, Double)]) throws -> GeoPath { try GeoPath(coordinates: pts.map { at($0.0, $0.1) }) }
        var parts: [PolygonRings] = []
        for i in 0 ..< 4 {
            for j in 0 ..< 5 {
                let (a, b) = (Double(i), Double(j))
                if j == 2 {
                    parts.append(PolygonRings(exterior: try ring([(a, b), (a, b + 1), (a + 1, b + 1)])))
                    parts.append(PolygonRings(exterior: try ring([(a, b), (a + 1, b + 1), (a + 1, b)])))
                } else {
                    parts.append(PolygonRings(exterior: try ring([(a, b), (a, b + 1), (a + 1, b + 1), (a + 1, b)])))
                }
            }
        }
        let grid = Scene(background: background, overlays: [.multiPolygon(MultiPolygon(polygons: PolygonSet(parts), fill: fill))])
        let rectangle = Scene(background: background,
                              overlays: [.polygon(Polygon(exterior: try ring([(0, 0), (0, 5), (4, 5), (4, 0)]), fill: fill))])
        for (bearing, pitch) in [(0.0, 0.0), (27.0, 0.0), (-15.0, 50.0)] {
            let camera = Camera(center: at(2, 2.5), zoom: 15.3, bearing: bearing, pitch: pitch, size: ScreenSize(width: 400, height: 300))
            // (Fringed, as a set with an outline or in a faded basemap layer is: see `TranslucentLayerTests`.)
            let without = RenderPlanner(), with = RenderPlanner()
            without.layersTranslucentSets = false
            with.layersTranslucentSets = false
            with.sharedEdgeFringes = true
            func triangles(_ p: RenderPlanner) -> Int { p.plan(grid, camera: camera).commands.reduce(0) { $0 + $1.mesh.triangleCount } }
            #expect(triangles(with) - triangles(without) == 4 * (31 + 4), "bearing \(bearing), pitch \(pitch)")
            let renderer = try MapRenderer(samples: 0), kept = try MapRenderer(samples: 0)
            renderer.planner.layersTranslucentSets = false
            kept.planner.layersTranslucentSets = false
            kept.planner.sharedEdgeFringes = true
            let one = try renderer.render(scene: rectangle, camera: camera)
            let set = try renderer.render(scene: grid, camera: camera), before = try kept.render(scene: grid, camera: camera)
            if let dir = ProcessInfo.processInfo.environment["MW_DUMP"] {
                for (name, f) in [("rectangle", one), ("set", set), ("kept", before)] {
                    try RenderHarness.bitmap(f).writePNG(to: dir + "/\(name)-\(bearing).png")
                }
            }
            let (count, worst) = differences(set, one), (was, wasWorst) = differences(before, one)
            print("grid against its rectangle, bearing \(bearing) pitch \(pitch): \(count) pixels differ (worst \(worst)); "
                + "with fringes on shared edges \(was) (worst \(wasWorst))")
            // Flat, a pixel or two apart (a centre on the grid's inner diagonal, the rectangle's
            // triangles split it the other way); pitched, the antialiased pixels along the outer
            // edges within 16 levels (264 of them here: the fringe strips' coverage interpolated
            // over pieces instead of one quad), where kept fringes differed by up to 38.
            #expect(count <= 2 || worst <= 16, "bearing \(bearing), pitch \(pitch): \(count) pixels, worst \(worst)")
            #expect(worst <= wasWorst)
        }
    }
}
