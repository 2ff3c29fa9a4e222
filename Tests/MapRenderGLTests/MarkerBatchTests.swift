import Foundation
import GeoKit
import MapCamera
@testable import MapRender
@testable import MapRenderGL
import MapScene
import MapTestSupport
import Testing

/// Runs of markers drawn as one instanced draw (`ScreenBatch`): which commands form a run, and
/// that the pixels are those of drawing every command on its own (the renderer's own path, which
/// the reference and placement tests check).
@Suite(.serialized) struct MarkerBatchTests {
    static let center = LatLng(lat: 47.37, lon: 8.54)
    static let colors: [Color] = [Color(rgb: 0xD1242F), Color(rgb: 0x1F6FEB), Color(rgb: 0x2DA44E), Color(rgb: 0x8250DF)]

    /// 400 markers crowded into a small view, overlapping: pins of four colours and two sizes,
    /// arrows, dots, translucent pins, pins with a glyph, icons sharing one image, a few labels.
    static func scene() throws -> Scene {
        var s = Scene(background: Color(rgb: 0xF2EFE9))
        let icon = SpriteImage(width: 12, height: 12, pixels: (0 ..< 144).flatMap { i -> [UInt8] in
            let x = i % 12, y = i / 12
            return (x - 6) * (x - 6) + (y - 6) * (y - 6) < 30 ? [20, 90, 160, 255] : [0, 0, 0, 0]
        })!
        var rng = SplitMix64(seed: 11)
        for i in 0 ..< 400 {
            let p = LatLng(lat: 47.365 + 0.01 * rng.unit(), lon: 8.53 + 0.02 * rng.unit())
            let color = colors[i % colors.count]
            let marker: Marker
            switch i / 40 {  // in blocks of 40, so that runs form
            case 0, 1, 2, 3: marker = try Marker(position: p, style: .pin, color: color)
            case 4: marker = try Marker(position: p, style: .pin, color: color, scale: 1.5)
            case 5: marker = try Marker(position: p, style: .arrow, color: color, rotation: 30)
            case 6: marker = try Marker(position: p, style: .dot, color: color)
            case 7: marker = try Marker(position: p, style: .pin, color: color.withOpacity(0.6))
            case 8: marker = try Marker(position: p, style: .image(icon, anchor: (0.5, 0.5)))
            default: marker = try Marker(position: p, style: .pin, color: color, glyph: "A")
            }
            s.add(.marker(marker))
            if i % 50 == 0 { s.add(.marker(try Marker(position: p, style: .pin, label: "M\(i)"))) }
        }
        return s
    }

    /// Largest channel difference and how many bytes differ.
    static func compare(_ a: Frame, _ b: Frame) -> (max: Int, bytes: Int) {
        var mx = 0, n = 0
        for i in a.pixels.indices where a.pixels[i] != b.pixels[i] {
            mx = max(mx, abs(Int(a.pixels[i]) - Int(b.pixels[i])))
            n += 1
        }
        return (mx, n)
    }

    /// With multisampling runs are drawn as instanced meshes, and dots always are: byte for byte
    /// what drawing each command gives. Without it pins and arrows are stamped: within two levels (the 8-bit
    /// rounding of the stamp's coverage, and one rounding of the framebuffer where there were
    /// three, one per part), on a small share of the pixels, and far fewer triangles.
    @Test(arguments: [(0, 1.0), (0, 2.0), (4, 1.0)]) func batchedEqualsOneByOne(samples: Int, ratio: Double) throws {
        let batched = try MapRenderer(samples: samples)
        let single = try MapRenderer(samples: samples)
        single.instancing = false
        batched.partialRedraw = false
        single.partialRedraw = false
        let scene = try Self.scene()
        for (pitch, bearing) in [(0.0, 0.0), (50.0, 25.0)] {
            let cam = Camera(center: Self.center, zoom: 14, bearing: bearing, pitch: pitch,
                             size: ScreenSize(width: 500, height: 400), pixelRatio: ratio)
            let a = try batched.render(scene: scene, camera: cam)
            let aTriangles = batched.lastTimings.triangles
            let b = try single.render(scene: scene, camera: cam)
            let bTriangles = single.lastTimings.triangles
            let (mx, bytes) = Self.compare(a, b)
            if samples > 1 {
                #expect(mx == 0, "pitch \(pitch): \(bytes) bytes differ, by up to \(mx)")
                #expect(aTriangles == bTriangles)
            } else {
                #expect(mx <= 2, "pitch \(pitch), ratio \(ratio): \(bytes) bytes differ, by up to \(mx)")
                #expect(Double(bytes) < 0.02 * Double(a.pixels.count), "pitch \(pitch): \(bytes) bytes differ")
                // 160 plain pins (372 triangles each) and 40 arrows become 2 triangles each.
                #expect(aTriangles < bTriangles / 2, "\(aTriangles) against \(bTriangles) triangles")
            }
            // Something was drawn: the markers cover a good share of the view.
            let background = b.pixels.count / 4 - stride(from: 0, to: b.pixels.count, by: 4).filter {
                b.pixels[$0] == 0xF2 && b.pixels[$0 + 1] == 0xEF && b.pixels[$0 + 2] == 0xE9
            }.count
            #expect(background > b.pixels.count / 4 / 10)
        }
    }

    /// Draws every symbol as one image per size, colour and ratio: a ring, and a translucent bar
    /// down from the top edge to the middle (so that upside down it differs), in the colour asked for, 16 px square at 13 px (the bitmaps Cairo makes are
    /// an even number of pixels wide, their box centred).
    final class SymbolStub: LabelRasterizer, @unchecked Sendable {
        var images: [String: SpriteImage] = [:]
        let lock = NSLock()
        func rasterize(_ label: Label, pixelRatio: Double) -> SpriteImage? { nil }
        func rasterizeSymbol(_ name: String, size: Double, color: Color, pixelRatio: Double) -> SpriteImage? {
            lock.withLock {
                let key = "\(size) \(color) \(pixelRatio)"
                if let hit = images[key] { return hit }
                var side = Int((size * pixelRatio * 16 / 15 + 2).rounded(.up))
                side += side % 2
                let c = Double(side) / 2
                var px: [UInt8] = []
                for y in 0 ..< side {
                    for x in 0 ..< side {
                        let d = ((Double(x) + 0.5 - c) * (Double(x) + 0.5 - c) + (Double(y) + 0.5 - c) * (Double(y) + 0.5 - c)).squareRoot()
                        let ring = max(0, 1 - abs(d - c * 0.6) / 1.5), bar = abs(Double(x) + 0.5 - c) < 1.5 && Double(y) + 0.5 < c ? 0.7 : 0
                        let a = max(ring, bar)
                        px += [UInt8(Double(color.r) * a), UInt8(Double(color.g) * a), UInt8(Double(color.b) * a), UInt8(255 * a)]
                    }
                }
                let image = SpriteImage(width: side, height: side, pixels: px, pixelRatio: pixelRatio)
                images[key] = image
                return image
            }
        }
    }

    /// Pins with a symbol in the head (two shapes and a sprite) form runs too, without
    /// multisampling: the sprite is laid over the stamp in its shader, and the pixels are those
    /// of drawing each pin's parts and sprite one by one within two levels (one rounding where
    /// there were three) on a small share of them, at pixel ratios 1, 1.5 and 2 and pin sizes 1
    /// and 1.25 (the planner puts the sprite a whole number of device pixels from the pin's
    /// snapped anchor). 300 brown pins in blocks of 50 of one size become 2 triangles each; the
    /// last 100 cycle through four colours whose symbols are white or near-black by turns, so
    /// their runs break at every pin and they are drawn one by one. With multisampling all are
    /// drawn one by one: exactly the same pixels.
    @Test(arguments: [(0, 1.0), (0, 2.0), (0, 1.5), (4, 1.0)]) func symbolPinsBatch(samples: Int, ratio: Double) throws {
        for style in [MarkerStyle.pin, .dot] { try symbolMarkersBatch(style, samples: samples, ratio: ratio) }
    }

    /// Pins or dots with a symbol: batched as one by one (see `symbolPinsBatch`).
    func symbolMarkersBatch(_ style: MarkerStyle, samples: Int, ratio: Double) throws {
        let stub = SymbolStub()
        let batched = try MapRenderer(labelRasterizer: stub, samples: samples)
        let single = try MapRenderer(labelRasterizer: stub, samples: samples)
        single.instancing = false
        batched.partialRedraw = false
        single.partialRedraw = false
        var scene = Scene(background: Color(rgb: 0xF2EFE9))
        var rng = SplitMix64(seed: 5)
        for i in 0 ..< 400 {
            let p = LatLng(lat: 47.365 + 0.01 * rng.unit(), lon: 8.53 + 0.02 * rng.unit())
            let color = i < 300 ? Color(rgb: 0x8C5A2B) : Self.colors[i % 4]
            scene.add(.marker(try Marker(position: p, style: style, color: color, scale: i % 100 < 50 ? 1 : 1.25, symbol: "cafe")))
        }
        let cam = Camera(center: Self.center, zoom: 14, size: ScreenSize(width: 500, height: 400), pixelRatio: ratio)
        let a = try batched.render(scene: scene, camera: cam)
        let aTriangles = batched.lastTimings.triangles
        let b = try single.render(scene: scene, camera: cam)
        let bTriangles = single.lastTimings.triangles
        let (mx, bytes) = Self.compare(a, b)
        if samples == 0 {
            #expect(mx <= 2 && Double(bytes) < 0.1 * Double(a.pixels.count), "\(style) ratio \(ratio): \(bytes) bytes differ, by up to \(mx)")
            // 400 pins of about 254 triangles (dots about 270); the 300 brown ones as 2 each.
            #expect(aTriangles * 3 < bTriangles && aTriangles > bTriangles / 5, "\(aTriangles) against \(bTriangles) triangles")
        } else {
            #expect(mx == 0 && aTriangles == bTriangles, "\(style) ratio \(ratio), samples \(samples): \(bytes) bytes differ, by up to \(mx)")
        }
        // The symbols are drawn: white and near-black pixels inside brown heads.
        let white = stride(from: 0, to: a.pixels.count, by: 4).filter { a.pixels[$0] > 250 && a.pixels[$0 + 1] > 250 && a.pixels[$0 + 2] > 250 }.count
        #expect(white > 2000, "\(white) white pixels")
    }

    /// The painter's order holds inside a run: where a later pin overlaps an earlier one, the
    /// later one is on top (three pins in a row, 12 px apart, blue, green, red, at the end of a
    /// run of 20).
    @Test func laterMarkersStayOnTop() throws {
        let r = try MapRenderer(samples: 0)
        r.partialRedraw = false  // the second render is of the same scene: drawn again, not reused
        let cam = Camera(center: Self.center, zoom: 16, size: ScreenSize(width: 200, height: 200))
        var s = Scene(background: Color(rgb: 0xFFFFFF))
        let p = Self.center
        let dx = 12 / (512 * pow(2.0, 16.0)) * 360
        // First 17 grey pins along the bottom (about 90 px below), so that all 20 make one run.
        for k in 0 ..< 17 {
            s.add(.marker(try Marker(position: LatLng(lat: p.lat - 0.00065, lon: p.lon + Double(k - 8) * dx), style: .pin,
                                     color: Color(rgb: 0x808080))))
        }
        for (k, c) in [0x0000FF, 0x00FF00, 0xFF0000].enumerated() {
            s.add(.marker(try Marker(position: LatLng(lat: p.lat, lon: p.lon + Double(k) * dx), style: .pin, color: Color(rgb: UInt32(c)))))
        }
        let f = try r.render(scene: s, camera: cam)
        let batchedTriangles = r.lastTimings.triangles
        r.instancing = false
        let g = try r.render(scene: s, camera: cam)
        #expect(Self.compare(f, g).max <= 2)
        #expect(batchedTriangles < r.lastTimings.triangles / 10, "\(batchedTriangles) against \(r.lastTimings.triangles)")
        // Tips at (100, 100), (112, 100), (124, 100); head centres 21 px above them, white
        // outlines 9 px round, bodies 7.5 px, white dots 3 px. At x = 103 the second pin's outline
        // lies over the first pin's body; at x = 107 the second pin's body, clear of the third's
        // outline (from x = 115); at x = 129 the third pin's body.
        let y = 79
        let over = f.pixel(x: 103, y: y)!, mid = f.pixel(x: 107, y: y)!, last = f.pixel(x: 129, y: y)!
        #expect(over.r > 230 && over.g > 230 && over.b > 230, "\(over)")
        #expect(mid.g > 200 && mid.r < 60 && mid.b < 60, "\(mid)")
        #expect(last.r > 200 && last.g < 60 && last.b < 60, "\(last)")
    }

    /// A large dot is round at a high pixel ratio: each edge pixel's coverage is the true
    /// circle's (the half-pixel ramp, clamp(R + 0.5 − d)), also between the polygon's vertices.
    /// With the 32 sides dots had before, the ramp was cut off there (0 where 0.5 was due).
    @Test func largeDotsAreRound() throws {
        let r = try MapRenderer(samples: 0)
        var s = Scene(background: Color(rgb: 0xFFFFFF))
        s.add(.marker(try Marker(position: Self.center, style: .dot, color: Color(rgb: 0x0000FF), scale: 8)))
        let cam = Camera(center: Self.center, zoom: 14, size: ScreenSize(width: 200, height: 200), pixelRatio: 4)
        let f = try r.render(scene: s, camera: cam)
        // The blue disc: 6 · 8 logical px = 192 device px round the view's centre (400, 400), on
        // its white ring; a pixel's red channel is 255 · (1 − coverage).
        let radius = 192.0
        var checked = 0, worst = 0.0
        for y in 0 ..< 400 {
            for x in 400 ..< 800 {
                let d = ((Double(x) + 0.5 - 400) * (Double(x) + 0.5 - 400) + (Double(y) + 0.5 - 400) * (Double(y) + 0.5 - 400)).squareRoot()
                let expected = min(max(radius + 0.5 - d, 0), 1)
                guard expected > 0.05, expected < 0.95 else { continue }
                let measured = 1 - Double(f.pixel(x: x, y: y)!.r) / 255
                worst = max(worst, abs(measured - expected))
                checked += 1
            }
        }
        #expect(checked > 200)
        #expect(worst < 0.03, "largest coverage error \(worst) over \(checked) edge pixels")
    }

    /// Pixel circles with a translucent fill and a rim, the way a map of many places shows them,
    /// form runs: with multisampling they are instanced polygons, byte for byte what drawing each
    /// command gives; without it one square a circle (`ScreenBatch.pair`), within three levels on
    /// a small share of the pixels (one 8-bit blend where there were two: each way lies within
    /// 2.5 levels of the exact colour, `pairedCirclesMatchTheirCoverage`), with half the
    /// triangles. Either way a handful of draw calls, where there were one or two a
    /// circle. In blocks of 60: fill and rim, fill only, rim only, a thicker rim; colours
    /// random, translucent, overlapping.
    @Test(arguments: [(0, 1.0), (0, 2.0), (4, 1.0)]) func translucentCirclesBatch(samples: Int, ratio: Double) throws {
        let batched = try MapRenderer(samples: samples)
        let single = try MapRenderer(samples: samples)
        single.instancing = false
        batched.partialRedraw = false
        single.partialRedraw = false
        var scene = Scene(background: Color(rgb: 0xF2EFE9))
        var rng = SplitMix64(seed: 23)
        for i in 0 ..< 240 {
            let p = LatLng(lat: 47.365 + 0.01 * rng.unit(), lon: 8.53 + 0.02 * rng.unit())
            let fill = Self.colors[Int(rng.next() % 4)].withOpacity(0.3 + 0.5 * rng.unit())
            let rim = Self.colors[Int(rng.next() % 4)].withOpacity(0.5 + 0.5 * rng.unit())
            let circle: Circle
            switch i / 60 {
            case 0: circle = try Circle(center: p, radius: .pixels(5), fill: fill, stroke: .white, strokeWidth: 2)
            case 1: circle = try Circle(center: p, radius: .pixels(4), fill: fill, stroke: nil)
            case 2: circle = try Circle(center: p, radius: .pixels(7), fill: Color(rgb: 0, alpha: 0), stroke: rim, strokeWidth: 1.5)
            default: circle = try Circle(center: p, radius: .pixels(6), fill: fill, stroke: rim, strokeWidth: 4)
            }
            scene.add(.circle(circle))
        }
        for (pitch, bearing) in [(0.0, 0.0), (50.0, 25.0)] {
            let cam = Camera(center: Self.center, zoom: 14, bearing: bearing, pitch: pitch,
                             size: ScreenSize(width: 500, height: 400), pixelRatio: ratio)
            let a = try batched.render(scene: scene, camera: cam)
            let at = batched.lastTimings
            let b = try single.render(scene: scene, camera: cam)
            let bt = single.lastTimings
            let (mx, bytes) = Self.compare(a, b)
            #expect(at.drawCalls * 10 < bt.drawCalls, "pitch \(pitch): \(at.drawCalls) against \(bt.drawCalls) draw calls")
            if samples > 1 {
                #expect(mx == 0 && at.triangles == bt.triangles, "pitch \(pitch): \(bytes) bytes differ, by up to \(mx)")
            } else {
                #expect(mx <= 3 && Double(bytes) < 0.05 * Double(a.pixels.count),
                        "pitch \(pitch), ratio \(ratio): \(bytes) bytes differ, by up to \(mx)")
                // 120 of the circles in view are two squares one by one, one batched.
                #expect(at.triangles < bt.triangles * 4 / 5, "\(at.triangles) against \(bt.triangles) triangles")
            }
            let background = b.pixels.count / 4 - stride(from: 0, to: b.pixels.count, by: 4).filter {
                b.pixels[$0] == 0xF2 && b.pixels[$0 + 1] == 0xEF && b.pixels[$0 + 2] == 0xE9
            }.count
            #expect(background > b.pixels.count / 4 / 20)
        }
    }

    /// A run of circles drawn one square each has the colours their coverage defines, worked
    /// out here by hand: the fill's disc covers clamp(r + ½ − d) of a pixel whose centre lies d
    /// device px from the circle's, the rim's ring the product of clamp(r + h + ½ − d) and
    /// clamp(d − (r − h) + ½) (h half its width), the rim laid over the fill and both over white.
    /// Translucent red in a translucent blue rim, 32 circles apart from each other (half of them
    /// with a rim wider than the fill, which covers the fill as a disc), at pixel
    /// ratios 1 and 2, upright and under pitch and bearing (circles stay round on screen).
    @Test(arguments: [(1.0, 0.0, 0.0), (2.0, 0.0, 0.0), (1.0, 45.0, 30.0)])
    func pairedCirclesMatchTheirCoverage(ratio: Double, pitch: Double, bearing: Double) throws {
        let r = try MapRenderer(samples: 0)
        let fill = Color(rgb: 0xFF0000, alpha: 128), rim = Color(rgb: 0x0000FF, alpha: 153)
        // The second run's rims are wider than their fill: a disc over the fill (its inner radius
        // below 0), as a 2-px circle with a 6-px rim is drawn.
        let sizes = [(radius: 6.5, width: 3.0), (radius: 2.0, width: 6.0)]
        var scene = Scene(background: Color(rgb: 0xFFFFFF))
        let cam = Camera(center: Self.center, zoom: 15, bearing: bearing, pitch: pitch,
                         size: ScreenSize(width: 300, height: 200), pixelRatio: ratio)
        var centres: [(centre: ScreenPoint, radius: Double, width: Double)] = []
        for k in 0 ..< 32 {
            // Two runs of 16 (a run's circles are alike).
            let (radius, width) = sizes[k / 16]
            // An 8 × 4 grid 34 px apart, off the pixel grid by fractions that differ.
            let sx = 24 + 34 * Double(k % 8) + 0.13 * Double(k), sy = 30 + 44 * Double(k / 8) + 0.07 * Double(k)
            let p = try #require(cam.unproject(ScreenPoint(x: sx, y: sy)))
            scene.add(.circle(try Circle(center: p, radius: .pixels(radius), fill: fill, stroke: rim, strokeWidth: width)))
            let c = try #require(cam.project(p))
            centres.append((ScreenPoint(x: c.x * ratio, y: c.y * ratio), radius, width))
        }
        let f = try r.render(scene: scene, camera: cam)
        #expect(r.lastTimings.triangles == 2 * 32, "\(r.lastTimings.triangles) triangles")
        func ramp(_ v: Double) -> Double { min(max(v, 0), 1) }
        let fp = fill.premultiplied, sp = rim.premultiplied
        var worst = 0.0, checked = 0
        for (c, radius, width) in centres {
            let (rr, h) = (radius * ratio, width / 2 * ratio)
            for y in Int(c.y - 14 * ratio) ... Int(c.y + 14 * ratio) {
                for x in Int(c.x - 14 * ratio) ... Int(c.x + 14 * ratio) {
                    let d = ((Double(x) + 0.5 - c.x) * (Double(x) + 0.5 - c.x) + (Double(y) + 0.5 - c.y) * (Double(y) + 0.5 - c.y)).squareRoot()
                    let cf = ramp(rr + 0.5 - d), cr = ramp(rr + h + 0.5 - d) * ramp(d - (rr - h) + 0.5)
                    let top = [Double(sp.0), Double(sp.1), Double(sp.2), Double(sp.3)].map { $0 * cr }
                    let under = [Double(fp.0), Double(fp.1), Double(fp.2), Double(fp.3)].map { $0 * cf * (1 - top[3]) }
                    let alpha = top[3] + under[3]
                    let px = try #require(f.pixel(x: x, y: y))
                    for (k, v) in [px.r, px.g, px.b].enumerated() {
                        let expected = top[k] + under[k] + (1 - alpha)
                        worst = max(worst, abs(Double(v) / 255 - expected))
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 3000)
        #expect(worst < 2.5 / 255, "largest difference \(worst * 255) levels over \(checked) pixels")
    }

    /// Which commands make a run.
    @Test func runs() throws {
        let parts = (0 ..< 3).map { RenderPlanner.pinMesh(part: $0) }
        let o = (0 ..< 4).map { MapPoint(x: 0.5 + 0.001 * Double($0), y: 0.5) }
        func pin(_ at: MapPoint, alpha: Double = 1) -> [DrawCommand] {
            (0 ..< 3).map { DrawCommand(mesh: parts[$0], origin: at, color: Color(rgb: 0xD1242F).withOpacity(alpha), coverage: .shape) }
        }
        func run(_ cmds: [DrawCommand], from i: Int = 0) -> ScreenBatch.Run? {
            ScreenBatch.run(in: cmds, from: i, least: 2) { ScreenBatch.joinable(cmds[$0], anchored: { $0.isAnchored }) }
        }
        // Four pins: one run of four three-part markers.
        #expect(run(o.flatMap { pin($0) }) == ScreenBatch.Run(start: 0, parts: 3, markers: 4))
        // Two pins at one place are two markers, not one of six parts.
        #expect(run(pin(o[0]) + pin(o[0])) == ScreenBatch.Run(start: 0, parts: 3, markers: 2))
        // Fewer than `minMarkers` are drawn one by one.
        #expect(ScreenBatch.run(in: o.flatMap { pin($0) }, from: 0) { _ in true } == nil)
        // A lone pin is no run; nor is a translucent one (it needs the stencil).
        #expect(run(pin(o[0])) == nil)
        #expect(run(pin(o[0], alpha: 0.5) + pin(o[1], alpha: 0.5)) == nil)
        // A translucent pin ends the run before it.
        #expect(run(pin(o[0]) + pin(o[1]) + pin(o[2], alpha: 0.5)) == ScreenBatch.Run(start: 0, parts: 3, markers: 2))
        // Parts of one marker at different places do not form one.
        var split = pin(o[0]) + pin(o[1])
        split[4].origin = o[3]
        #expect(run(split) == nil)
        // A ground mesh is never part of a run.
        let ground = DrawCommand(mesh: Mesh(layout: .ground, vertices: [0, 0, 0, 0, 0, 0], indices: [0, 0, 0]),
                                 origin: o[0], color: .white)
        #expect(run([ground] + pin(o[0]) + pin(o[1])) == nil)
        #expect(run([ground] + pin(o[0]) + pin(o[1]), from: 1) == ScreenBatch.Run(start: 1, parts: 3, markers: 2))
        // Dots (a white ring's disc, then the coloured disc: ground discs) form runs of two parts;
        // ground strokes do not.
        let outer = RenderPlanner.pixelDisc(radius: 8, segments: 32), inner = RenderPlanner.pixelDisc(radius: 6, segments: 32)
        func dot(_ at: MapPoint, alpha: Double = 1) -> [DrawCommand] {
            [DrawCommand(mesh: outer, origin: at, color: .white, extrudeScale: 1, coverage: .disc),
             DrawCommand(mesh: inner, origin: at, color: Color(rgb: 0x1F6FEB).withOpacity(alpha), extrudeScale: 1, coverage: .disc)]
        }
        #expect(run(o.flatMap { dot($0) }) == ScreenBatch.Run(start: 0, parts: 2, markers: 4))
        // Translucent ones too (each pixel is blended once a part, as one by one).
        #expect(run(dot(o[0], alpha: 0.5) + dot(o[1], alpha: 0.5)) == ScreenBatch.Run(start: 0, parts: 2, markers: 2))
        var stroked = dot(o[0]) + dot(o[1])
        for k in stroked.indices { stroked[k].coverage = .stroke }
        #expect(run(stroked) == nil)
        // A dot and a pin are different markers: a run of pins after a dot starts after it.
        #expect(run(dot(o[0]) + pin(o[1]) + pin(o[2])) == nil)
        #expect(run(dot(o[0]) + pin(o[1]) + pin(o[2]), from: 2) == ScreenBatch.Run(start: 2, parts: 3, markers: 2))
        // A pin with a sprite in its head (two shapes, then a textured quad of one image): a run
        // only where stamps are drawn (`sprites`), and only while the image stays the same.
        let image = SpriteImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16))!
        let other = SpriteImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16))!
        let quad = Mesh(layout: .screen, vertices: [0, 0, -1, -1, 0, 0, 0, 0, 1, -1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, -1, 1, 0, 1],
                        indices: [0, 1, 2, 0, 2, 3])
        func symbolPin(_ at: MapPoint, _ img: SpriteImage = image) -> [DrawCommand] {
            Array(pin(at).prefix(2)) + [DrawCommand(mesh: quad, origin: at, color: .white, texture: img, blendOnce: false)]
        }
        func spriteRun(_ cmds: [DrawCommand], sprites: Bool = true) -> ScreenBatch.Run? {
            ScreenBatch.run(in: cmds, from: 0, least: 2, sprites: sprites) { ScreenBatch.joinable(cmds[$0], anchored: { $0.isAnchored }) }
        }
        #expect(spriteRun(o.flatMap { symbolPin($0) }) == ScreenBatch.Run(start: 0, parts: 3, markers: 4))
        #expect(spriteRun(o.flatMap { symbolPin($0) }, sprites: false) == nil)
        #expect(spriteRun(symbolPin(o[0]) + symbolPin(o[1]) + symbolPin(o[2], other)) == ScreenBatch.Run(start: 0, parts: 3, markers: 2))
        #expect(ScreenBatch.spriteLast(symbolPin(o[0])) && !ScreenBatch.spriteLast(pin(o[0])))
        // Its place in a stamp box 20 px square round (−10, −10): whole pixels at ratio 1, not at 1.5.
        let stampBox = (x: -10, y: -10, width: 20, height: 20)
        #expect(ScreenBatch.spriteRect(symbolPin(o[0])[2], ratio: 1, box: stampBox).map { [$0.x, $0.y, $0.width, $0.height] } == [9, 9, 2, 2])
        #expect(ScreenBatch.spriteRect(symbolPin(o[0])[2], ratio: 1.5, box: stampBox) == nil)
        // A mesh that is not anchored at its origin is drawn on its own.
        let loose = Mesh(layout: .screen, vertices: [1, 0, 0, 0, 0, 0, 1, 0, 5, 0, 0, 0, 1, 0, 0, 5, 0, 0], indices: [0, 1, 2])
        #expect(!loose.isAnchored)
        #expect(parts[0].isAnchored)
        // The stamp's box holds every vertex at ratio 2, with 2 to 3 px to spare on each side.
        let box = ScreenBatch.stampBox(pin(o[0]), ratio: 2)
        let xs = parts.flatMap { m in stride(from: 2, to: m.vertices.count, by: 6).map { 2 * Double(m.vertices[$0]) } }
        let ys = parts.flatMap { m in stride(from: 3, to: m.vertices.count, by: 6).map { -2 * Double(m.vertices[$0]) } }
        for (lo, size, vs) in [(box.x, box.width, xs), (box.y, box.height, ys)] {
            let spareLow = vs.min()! - Double(lo), spareHigh = Double(lo + size) - vs.max()!
            #expect(spareLow >= 2 && spareLow < 3 && spareHigh >= 2 && spareHigh < 3, "\(box) against \(vs.min()!)…\(vs.max()!)")
        }
        // Tip at the anchor (its fringe's miter reaches a little below), the head about 30 px
        // above it: about 60 device px high.
        #expect(ys.min()! > -3 && ys.max()! > 58 && ys.max()! < 64, "\(ys.min()!)…\(ys.max()!)")
    }
}

private extension SplitMix64 {
    /// A uniform double in [0, 1) from the top 53 bits.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
