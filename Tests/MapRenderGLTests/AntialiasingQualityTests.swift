import Foundation
import GeoKit
import MapCamera
import MapRender
import MapRenderGL
import MapScene
import Testing

/// Shader antialiasing against the textbook reference: the same scene rendered at 4× the pixel
/// ratio without any antialiasing and averaged over each 4×4 block (16 samples per pixel on a
/// regular grid, a box filter); for 2× output (the renderer stops at ratio 4), at 2× the ratio
/// with 4× MSAA averaged over 2×2 blocks (16 samples per pixel too). On the pixels the reference shows as edges (blocks whose 16
/// samples are not all alike), the mean channel difference of shader coverage at 1× and 2× must
/// be no larger than 4× MSAA's (what the renderer did before shader coverage).
@Suite struct AntialiasingQualityTests {
    /// Lines at many angles and widths (round, miter and bevel joins, dashes, a translucent
    /// casing), circles in metres and pixels, a ring, and fills without outlines (one with a hole).
    static func scene() throws -> Scene {
        let at = ReferenceImageTests.at
        var s = Scene(background: Color(rgb: 0xF6F8FA))
        // A star of 2 px and 5 px spokes: every direction.
        for k in 0 ..< 12 {
            let a = Double(k) * .pi / 12 + 0.05
            let w = k % 2 == 0 ? 2.0 : 5.0
            s.add(.polyline(try Polyline(coordinates: [at(-70 + 12 * cos(a), -30 + 12 * sin(a)), at(-70 + 45 * cos(a), -30 + 45 * sin(a))],
                                         style: LineStyle(width: .pixels(w), color: Color(rgb: 0x0A3069), cap: .round))))
        }
        s.add(.polyline(try Polyline(coordinates: [at(-110, 50), at(-70, 20), at(-40, 60), at(-5, 25)],
                                     style: LineStyle(width: .pixels(7), color: Color(rgb: 0x1F6FEB), join: .miter))))
        s.add(.polyline(try Polyline(coordinates: [at(-110, 70), at(-60, 40), at(-20, 75)],
                                     style: LineStyle(width: .pixels(6), color: Color(rgb: 0x8250DF, alpha: 0xB0), join: .bevel,
                                                      dash: [12, 5], casingColor: Color(rgb: 0x24292F), casingWidth: 1.5))))
        // A zig-zag with round joins (one sector triangle each, cut to the join's disc by coverage).
        s.add(.polyline(try Polyline(coordinates: [at(10, -74), at(25, -63), at(40, -76), at(55, -62), at(70, -75), at(85, -63), at(100, -76)],
                                     style: LineStyle(width: .pixels(5), color: Color(rgb: 0xCF222E), join: .round))))
        // A gentle curve with round joins turning 10–25° (drawn with shared miters, no join patches).
        s.add(.polyline(try Polyline(coordinates: (0 ..< 9).map { k -> LatLng in
            let a = -0.3 + Double(k) * (0.17 + 0.02 * Double(k % 3))
            return at(-100 + 40 * cos(a) + 3.1 * Double(k), -60 + 25 * sin(a))
        }, style: LineStyle(width: .pixels(4), color: Color(rgb: 0x116329), join: .round))))
        s.add(.circle(try Circle(center: at(30, -35), radius: .meters(38), fill: Color(rgb: 0xFF0000, alpha: 0x40),
                                 stroke: Color(rgb: 0xFF0000), strokeWidth: 2)))
        s.add(.circle(try Circle(center: at(85, -40), radius: .pixels(17), fill: Color(rgb: 0x1A7F37), stroke: nil)))
        s.add(.circle(try Circle(center: at(85, 10), radius: .pixels(14), fill: Color(rgb: 0, alpha: 0), stroke: Color(rgb: 0x9A6700),
                                 strokeWidth: 3)))
        s.add(.polygon(try Polygon(exterior: [at(5, 20), at(60, 12), at(48, 72), at(20, 50)],
                                   holes: [[at(25, 30), at(40, 45), at(35, 27)]], fill: Color(rgb: 0x0969DA))))
        s.add(.polygon(try Polygon(exterior: [at(70, 40), at(112, 35), at(100, 75)], fill: Color(rgb: 0xBF3989, alpha: 0x90))))
        return s
    }

    /// Reference pixels (straight RGB, 0…255 as Double) and whether each is an edge.
    static func supersampled(_ scene: Scene, ratio: Double,
                             camera: (Double) -> Camera = { ReferenceImageTests.camera(ratio: $0) }) throws -> (rgb: [Double], edge: [Bool], width: Int, height: Int) {
        let k = Int(4 / ratio)
        let r = try MapRenderer(samples: k == 4 ? 0 : 4, shaderAntialiasing: false)
        let f = try r.render(scene: scene, camera: camera(4))
        let w = f.width / k, h = f.height / k
        var rgb = [Double](repeating: 0, count: w * h * 3), edge = [Bool](repeating: false, count: w * h)
        for y in 0 ..< h {
            for x in 0 ..< w {
                var sum = [0.0, 0, 0]
                var lo = [255, 255, 255], hi = [0, 0, 0]
                for sy in 0 ..< k {
                    for sx in 0 ..< k {
                        let p = f.pixel(x: k * x + sx, y: k * y + sy)!
                        for (c, v) in [p.r, p.g, p.b].enumerated() {
                            sum[c] += Double(v)
                            lo[c] = min(lo[c], Int(v)); hi[c] = max(hi[c], Int(v))
                        }
                    }
                }
                for c in 0 ..< 3 { rgb[(y * w + x) * 3 + c] = sum[c] / Double(k * k) }
                edge[y * w + x] = (0 ..< 3).contains { hi[$0] - lo[$0] > 8 }
            }
        }
        return (rgb, edge, w, h)
    }

    static func meanEdgeError(_ frame: Frame, _ ref: (rgb: [Double], edge: [Bool], width: Int, height: Int)) -> Double {
        var total = 0.0, n = 0
        for y in 0 ..< ref.height {
            for x in 0 ..< ref.width where ref.edge[y * ref.width + x] {
                let p = frame.pixel(x: x, y: y)!
                for (c, v) in [p.r, p.g, p.b].enumerated() { total += abs(Double(v) - ref.rgb[(y * ref.width + x) * 3 + c]) }
                n += 3
            }
        }
        return total / Double(max(n, 1))
    }

    /// The mean edge error (`meanEdgeError`) of `scene` drawn with shader coverage, with 4× MSAA
    /// and with neither, against its 16× supersampled reference; printed under `name`.
    static func edgeErrors(_ scene: Scene, ratio: Double, name: String,
                           camera: @escaping (Double) -> Camera) throws -> (edges: Int, shader: Double, msaa: Double, aliased: Double) {
        let ref = try supersampled(scene, ratio: ratio, camera: camera)
        let edges = ref.edge.filter { $0 }.count
        let shader = try MapRenderer(samples: 0)
        #expect(shader.shaderAntialiasing)
        let msaa = try MapRenderer(samples: 4, shaderAntialiasing: false)
        try #require(msaa.samples == 4, "llvmpipe offers 4× MSAA")
        let none = try MapRenderer(samples: 0, shaderAntialiasing: false)
        let errors = try [shader, msaa, none].map { meanEdgeError(try $0.render(scene: scene, camera: camera(ratio)), ref) }
        print("\(name) @\(ratio)x, mean |Δ| on \(edges) edge pixels vs 16× supersampling: shader \(String(format: "%.2f", errors[0])), 4× MSAA \(String(format: "%.2f", errors[1])), none \(String(format: "%.2f", errors[2]))")
        return (edges, errors[0], errors[1], errors[2])
    }

    @Test(arguments: [1.0, 2.0]) func shaderCoverageIsAsCloseToSupersamplingAsMSAA(ratio: Double) throws {
        let e = try Self.edgeErrors(try Self.scene(), ratio: ratio, name: "antialiasing") { ReferenceImageTests.camera(ratio: $0) }
        #expect(e.edges > 1500 * Int(ratio), "the scene has edges to compare (\(e.edges))")
        #expect(e.shader <= e.msaa, "shader coverage \(e.shader) vs 4× MSAA \(e.msaa)")
        #expect(e.aliased > 2 * e.msaa, "the comparison tells antialiased edges from aliased ones")
    }

    /// Round joins as one triangle (a sector of the join's disc turned with the map at pitch 0,
    /// the triangle round the whole disc at other pitches) draw the same line as joins made of
    /// fans (`discJoins` off, the MSAA path, here with shader coverage too): a 10 px zig-zag
    /// turning 30°–140° at three bearings and at pitch 50, where fewer than 1 % of the line's
    /// pixels differ by more than 24 in a channel (a fan is a polygon within 0.2 px of the arc)
    /// and the line covers the same number of pixels within 1 %.
    @Test(arguments: [(0.0, 0.0), (30, 0), (200, 0), (30, 50)])
    func oneTriangleJoinsMatchFans(bearing: Double, pitch: Double) throws {
        let at = ReferenceImageTests.at
        var scene = Scene(background: Color(rgb: 0xFFFFFF))
        let zigzag = [(-100.0, 0.0), (-70, -40), (-40, 30), (-5, -45), (20, 40), (60, 20), (75, -50), (110, -20)]
        scene.add(.polyline(try Polyline(coordinates: zigzag.map { at($0.0, $0.1) },
                                         style: LineStyle(width: .pixels(10), color: Color(rgb: 0x0A3069), join: .round))))
        let camera = Camera(center: at(0, 0), zoom: 16, bearing: bearing, pitch: pitch, size: ScreenSize(width: 260, height: 160))
        let oneTriangle = try MapRenderer(samples: 0)
        let fans = try MapRenderer(samples: 0)
        fans.planner.discJoins = false
        let a = try oneTriangle.render(scene: scene, camera: camera), b = try fans.render(scene: scene, camera: camera)
        var inked = (0, 0), differing = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = try #require(a.pixel(x: x, y: y)), q = try #require(b.pixel(x: x, y: y))
                if p.r < 128 { inked.0 += 1 }
                if q.r < 128 { inked.1 += 1 }
                if max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b))) > 24 { differing += 1 }
            }
        }
        #expect(inked.1 > 2000, "the line covers \(inked.1) px")
        #expect(abs(inked.0 - inked.1) * 100 <= inked.1, "inked: one triangle \(inked.0), fans \(inked.1)")
        #expect(differing * 100 <= inked.1, "\(differing) of \(inked.1) pixels differ")
    }

    /// Round columns (ray-cast in their fragments) in front of and behind each other, and an
    /// extruded block, at pitch 50 and bearing 20.
    static func solids() throws -> Scene {
        let at = ReferenceImageTests.at
        var s = Scene(background: Color(rgb: 0xF6F8FA))
        func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> [LatLng] {
            [at(x, y), at(x + w, y), at(x + w, y + h), at(x, y + h)]
        }
        s.add(.extrusion(try Extrusion(exterior: box(-100, -10, 30, 25), height: 40, color: Color(rgb: 0x8C959F))))
        s.add(.extrusion(try Extrusion(exterior: box(-60, 30, 25, 20), height: 25, color: Color(rgb: 0xBF8700))))
        let columns: [(Double, Double, Double, Double, UInt32)] = [
            (-40, -10, 70, 14, 0x2DA44E), (-28, -2, 45, 9, 0x0969DA), (-5, -25, 90, 18, 0x2DA44E),
            (25, 5, 35, 12, 0xCF222E), (40, -20, 60, 10, 0x2DA44E), (70, 10, 25, 16, 0x8250DF), (95, -15, 80, 7, 0x2DA44E),
        ]
        for (x, y, height, radius, color) in columns {
            s.add(.column(try Column(position: at(x, y), height: height, radius: radius, color: Color(rgb: color))))
        }
        return s
    }

    static func solidsCamera(_ ratio: Double) -> Camera {
        Camera(center: ReferenceImageTests.at(0, -40), zoom: 16, bearing: 20, pitch: 50,
               size: ScreenSize(width: 240, height: 160), pixelRatio: ratio)
    }

    /// Extruded blocks get their edges from fringes drawn after the opaque pass (`SolidFringe`);
    /// without shader coverage they are aliased. The mean difference on the reference's edge
    /// pixels must be no larger than 4× MSAA's, as for the flat scene.
    @Test(arguments: [1.0, 2.0]) func solidsShaderCoverageIsAsCloseToSupersamplingAsMSAA(ratio: Double) throws {
        let e = try Self.edgeErrors(try Self.solids(), ratio: ratio, name: "3D antialiasing", camera: Self.solidsCamera)
        #expect(e.edges > 900 * Int(ratio), "the scene has edges to compare (\(e.edges))")
        #expect(e.shader <= e.msaa, "shader coverage \(e.shader) vs 4× MSAA \(e.msaa)")
        #expect(e.aliased > e.msaa * 3 / 2, "the comparison tells antialiased edges from aliased ones")
    }

    /// Where a column's cap meets its side the shader mixes the two lights by the cap's share of
    /// the pixel. On the pixels whose 16 reference samples show both the cap and the side (no
    /// background), the difference from the reference must average under an eighth of the
    /// pixel's own contrast (its samples' range): an aliased rim averages a quarter (a pixel
    /// shows one face or the other where the reference mixes them by area, uniformly over the
    /// rim's positions across the pixel), a linear ramp close to nothing.
    @Test func columnRimsAreAntialiased() throws {
        var scene = Scene(background: Color(rgb: 0xFFFFFF))
        scene.add(.column(try Column(position: ReferenceImageTests.at(0, 0), height: 30, radius: 30, color: Color(rgb: 0x2DA44E))))
        let camera = { (r: Double) in
            Camera(center: ReferenceImageTests.at(0, -20), zoom: 16, bearing: 10, pitch: 45,
                   size: ScreenSize(width: 200, height: 160), pixelRatio: r)
        }
        let ref = try Self.supersampled(scene, ratio: 1, camera: camera)
        let f4 = try MapRenderer(samples: 0, shaderAntialiasing: false).render(scene: scene, camera: camera(4))
        let frame = try MapRenderer(samples: 0).render(scene: scene, camera: camera(1))
        // The cap's green: the column's commonest (the cap is lit evenly, the side by its angle).
        var counts = [Int](repeating: 0, count: 256)
        for y in 0 ..< f4.height {
            for x in 0 ..< f4.width {
                let p = try #require(f4.pixel(x: x, y: y))
                if Int(p.r) + Int(p.g) + Int(p.b) <= 600 { counts[Int(p.g)] += 1 }
            }
        }
        let capG = counts.indices.max { counts[$0] < counts[$1] } ?? 0
        var ratios: [Double] = []
        for y in 0 ..< ref.height {
            for x in 0 ..< ref.width {
                var lo = 255, hi = 0, inside = true
                for sy in 0 ..< 4 {
                    for sx in 0 ..< 4 {
                        let p = try #require(f4.pixel(x: 4 * x + sx, y: 4 * y + sy))
                        if Int(p.r) + Int(p.g) + Int(p.b) > 600 { inside = false }
                        lo = min(lo, Int(p.g)); hi = max(hi, Int(p.g))
                    }
                }
                guard inside, abs(hi - capG) <= 2 || abs(lo - capG) <= 2, hi - lo >= 30 else { continue }
                let p = try #require(frame.pixel(x: x, y: y))
                ratios.append(abs(Double(p.g) - ref.rgb[(y * ref.width + x) * 3 + 1]) / Double(hi - lo))
            }
        }
        let mean = ratios.reduce(0, +) / Double(max(ratios.count, 1))
        print("column rim: \(ratios.count) pixels, mean |Δ| \(String(format: "%.3f", mean)) of their contrast")
        #expect(ratios.count >= 40, "rim pixels to compare: \(ratios.count)")
        #expect(mean < 0.125)
    }

    /// A column taller than the eye is high, seen from near the ground (pitch 85; the eye is
    /// about 37 m up): the rays through the pixels at the eye's height run level, where the
    /// slab's entry runs off to infinity. Its side must be lit smoothly up and down across that
    /// height: no row of pixels may jump from its neighbours (the cap's light leaked into one
    /// row before). Heights: far above the eye, and just above it.
    @Test(arguments: [300.0, 45.0]) func columnSideHasNoSeamAtTheEyesHeight(height: Double) throws {
        var scene = Scene(background: Color(rgb: 0xFFFFFF))
        scene.add(.column(try Column(position: ReferenceImageTests.at(0, 0), height: height, radius: 20, color: Color(rgb: 0x2DA44E))))
        let camera = Camera(center: ReferenceImageTests.at(0, 0), zoom: 16, bearing: 0, pitch: 85,
                            size: ScreenSize(width: 200, height: 240))
        let frame = try MapRenderer(samples: 0).render(scene: scene, camera: camera)
        // The column's pixels: rows and columns where it is solid (no white mixed in).
        func solid(_ x: Int, _ y: Int) throws -> Bool {
            let p = try #require(frame.pixel(x: x, y: y))
            return Int(p.r) + Int(p.g) + Int(p.b) < 400
        }
        var xs: [Int] = []
        for x in 0 ..< frame.width where try solid(x, frame.height / 2) { xs.append(x) }
        let left = try #require(xs.first), right = try #require(xs.last)
        #expect(right - left >= 12, "the column spans \(right - left + 1) px across")
        var rows = 0, worst = 0
        for x in (left + (right - left) / 4) ... (right - (right - left) / 4) {
            var ys: [Int] = []
            for y in 0 ..< frame.height where try solid(x, y) { ys.append(y) }
            guard let top = ys.first, let bottom = ys.last, bottom - top > 20 else { continue }
            // Inside the side: clear of the cap's rim at the top and the ground at the bottom.
            for y in (top + 8) ... (bottom - 3) {
                let a = try #require(frame.pixel(x: x, y: y - 1)), b = try #require(frame.pixel(x: x, y: y))
                worst = max(worst, abs(Int(a.g) - Int(b.g)))
                rows += 1
            }
        }
        #expect(rows >= 100, "side pixels checked: \(rows)")
        #expect(worst <= 3, "largest step between vertically neighbouring side pixels: \(worst) levels")
    }
}
