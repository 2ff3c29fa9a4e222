import Canvas2D
import MapImage
import MapTestSupport
import Testing

/// Sum of alpha over the bitmap, in whole pixels (255 = one fully covered pixel).
func coverage(_ b: Bitmap) -> Double {
    var sum = 0
    for i in stride(from: 3, to: b.pixels.count, by: 4) { sum += Int(b.pixels[i]) }
    return Double(sum) / 255
}

@Suite struct CanvasFillTests {
    /// A rectangle on integer coordinates covers whole pixels: x 2..<7, y 1..<4 at scale 1, and
    /// the same rectangle doubled (x 4..<14, y 2..<8) at scale 2. Hand-derived.
    @Test("a filled rectangle covers exactly its pixels", arguments: [1.0, 2.0])
    func filledRectangle(scale: Double) throws {
        let canvas = try Canvas(pixelWidth: Int(12 * scale), pixelHeight: Int(6 * scale), scale: scale)
        canvas.fill(.rect(CanvasRect(x: 2, y: 1, width: 5, height: 3)), color: RGBAColor(r8: 200, g8: 30, b8: 90))
        let b = try canvas.makeBitmap()
        let s = Int(scale)
        for y in 0..<b.height {
            for x in 0..<b.width {
                let inside = (2 * s..<7 * s).contains(x) && (1 * s..<4 * s).contains(y)
                #expect(b.pixel(x: x, y: y) == (inside ? RGBA8(r: 200, g: 30, b: 90) : .clear), "pixel \(x),\(y)")
            }
        }
    }

    /// Outer square 0..10, inner square 3..7 drawn in the same direction: non-zero fills the inner
    /// square (winding 2), even-odd leaves it empty (two crossings). Hand-derived areas: 100 and 84.
    @Test("fill rules: even-odd makes a hole, non-zero does not")
    func fillRules() throws {
        var path = CanvasPath()
        path.addRect(CanvasRect(x: 0, y: 0, width: 10, height: 10))
        path.addRect(CanvasRect(x: 3, y: 3, width: 4, height: 4))
        for (rule, area, centreAlpha) in [(FillRule.nonZero, 100.0, UInt8(255)), (.evenOdd, 84.0, UInt8(0))] {
            let canvas = try Canvas(pixelWidth: 10, pixelHeight: 10)
            canvas.fill(path, color: .black, rule: rule)
            let b = try canvas.makeBitmap()
            #expect(coverage(b) == area, "\(rule)")
            #expect(b.pixel(x: 5, y: 5)?.a == centreAlpha, "\(rule)")
        }
    }

    /// Area of a disc of radius r is πr²; antialiased coverage should match within 1 % (stated
    /// tolerance of the brief; Cairo's flattening and 8-bit coverage are far more accurate).
    @Test(
        "a filled circle's coverage is πr² within 1%", arguments: [(20.0, 1.0), (20.0, 2.0), (7.5, 1.0), (33.3, 3.0)])
    func circleArea(radius: Double, scale: Double) throws {
        let side = Int((2 * radius + 4) * scale)
        let canvas = try Canvas(pixelWidth: side, pixelHeight: side, scale: scale)
        canvas.fill(.circle(center: CanvasPoint(x: radius + 2, y: radius + 2), radius: radius), color: .black)
        let expected = Double.pi * radius * radius * scale * scale
        expectNear(
            coverage(try canvas.makeBitmap()), expected, tolerance: 0.01 * expected, "disc r=\(radius) @\(scale)x")
    }

    @Test("an ellipse built from Béziers has area πab within 1%")
    func ellipseArea() throws {
        var path = CanvasPath()
        path.addEllipse(in: CanvasRect(x: 2, y: 2, width: 60, height: 30))
        let canvas = try Canvas(pixelWidth: 64, pixelHeight: 34)
        canvas.fill(path, color: .black)
        let expected = Double.pi * 30 * 15
        expectNear(coverage(try canvas.makeBitmap()), expected, tolerance: 0.01 * expected)
    }

    /// Colour at a pixel centre x + 0.5 of a 0→255 ramp over 0…100 px is 255·(x + 0.5)/100;
    /// Cairo's 8-bit gradient may round either way: tolerance 1.5 levels.
    @Test("a linear gradient ramps linearly; a radial one starts at its first stop")
    func gradients() throws {
        let canvas = try Canvas(pixelWidth: 100, pixelHeight: 4)
        canvas.fill(
            .rect(CanvasRect(x: 0, y: 0, width: 100, height: 4)),
            with: .linearGradient(
                LinearGradient(
                    start: CanvasPoint(x: 0, y: 0), end: CanvasPoint(x: 100, y: 0),
                    stops: [GradientStop(0, .black), GradientStop(1, .white)])))
        let b = try canvas.makeBitmap()
        for x in [0, 10, 49, 77, 99] {
            let p = try #require(b.pixel(x: x, y: 2))
            expectNear(Double(p.r), 255 * (Double(x) + 0.5) / 100, tolerance: 1.5, "x=\(x)")
            #expect(p.a == 255)
        }
        let radial = try Canvas(pixelWidth: 41, pixelHeight: 41)
        radial.fill(
            .rect(CanvasRect(x: 0, y: 0, width: 41, height: 41)),
            with: .radialGradient(
                RadialGradient(
                    center: CanvasPoint(x: 20.5, y: 20.5), radius: 20,
                    stops: [
                        GradientStop(0, RGBAColor(r8: 255, g8: 0, b8: 0)),
                        GradientStop(1, RGBAColor(r8: 0, g8: 0, b8: 255)),
                    ])))
        let rb = try radial.makeBitmap()
        let centre = try #require(rb.pixel(x: 20, y: 20))
        #expect(centre.r >= 250 && centre.b <= 5, "\(centre)")
        let corner = try #require(rb.pixel(x: 0, y: 0))
        #expect(corner.b == 255 && corner.r == 0, "beyond the end circle the last stop pads: \(corner)")
    }

    @Test("translucent colour blends source-over")
    func translucent() throws {
        let canvas = try Canvas(pixelWidth: 4, pixelHeight: 4)
        canvas.clear(.white)
        canvas.fill(
            .rect(CanvasRect(x: 0, y: 0, width: 4, height: 4)), color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.5))
        // Black at 50 % over white: 255·0.5 = 127.5, either neighbour after 8-bit rounding.
        let p = try #require(try canvas.makeBitmap().pixel(x: 1, y: 1))
        #expect((127...128).contains(p.r) && p.a == 255, "\(p)")
    }
}

@Suite struct CanvasStrokeTests {
    /// A horizontal 2 px line centred on y = 5 covers rows 4 and 5 fully from x = 2 to 18
    /// (butt caps): 32 px. With square caps it grows by 1 px (half the width) at each end: 36 px.
    @Test(
        "a stroked horizontal line covers its rows exactly", arguments: [(CanvasLineCap.butt, 2, 18), (.square, 1, 19)])
    func horizontalLine(cap: CanvasLineCap, x0: Int, x1: Int) throws {
        let canvas = try Canvas(pixelWidth: 20, pixelHeight: 10)
        canvas.stroke(
            .polyline([CanvasPoint(x: 2, y: 5), CanvasPoint(x: 18, y: 5)]), color: .black,
            style: StrokeStyle(width: 2, cap: cap))
        let b = try canvas.makeBitmap()
        for y in 0..<10 {
            for x in 0..<20 {
                let inside = (4...5).contains(y) && (x0..<x1).contains(x)
                #expect(b.pixel(x: x, y: y)?.a == (inside ? 255 : 0), "pixel \(x),\(y)")
            }
        }
    }

    /// A diagonal stroke of length 50 (3-4-5 triangle: Δx 40, Δy 30) and width 3 with butt caps
    /// is a 50 × 3 rectangle: 150 px². Tolerance 1.5 %.
    @Test("a diagonal stroke's coverage is length × width")
    func diagonalCoverage() throws {
        let canvas = try Canvas(pixelWidth: 60, pixelHeight: 50)
        canvas.stroke(
            .polyline([CanvasPoint(x: 5, y: 5), CanvasPoint(x: 45, y: 35)]), color: .black,
            style: StrokeStyle(width: 3))
        expectNear(coverage(try canvas.makeBitmap()), 150, tolerance: 2.25)
    }

    /// Dash [4, 4] along y = 2.0 (width 2) from x = 0: on at 0..<4, 8..<12, off between.
    @Test("dashes alternate on and off")
    func dashes() throws {
        let canvas = try Canvas(pixelWidth: 16, pixelHeight: 4)
        canvas.stroke(
            .polyline([CanvasPoint(x: 0, y: 2), CanvasPoint(x: 16, y: 2)]), color: .black,
            style: StrokeStyle(width: 2, dash: [4, 4]))
        let b = try canvas.makeBitmap()
        for x in 0..<16 {
            #expect(b.pixel(x: x, y: 1)?.a == ((x / 4) % 2 == 0 ? 255 : 0), "x=\(x)")
        }
    }

    @Test("round joins and caps differ from miter/butt at a corner")
    func joins() throws {
        func draw(_ join: CanvasLineJoin) throws -> Double {
            let canvas = try Canvas(pixelWidth: 40, pixelHeight: 40)
            canvas.stroke(
                .polyline([CanvasPoint(x: 5, y: 30), CanvasPoint(x: 20, y: 10), CanvasPoint(x: 35, y: 30)]),
                color: .black, style: StrokeStyle(width: 6, join: join))
            return coverage(try canvas.makeBitmap())
        }
        let miter = try draw(.miter), round = try draw(.round), bevel = try draw(.bevel)
        #expect(miter > round && round > bevel, "miter \(miter) > round \(round) > bevel \(bevel)")
    }

    @Test("non-finite coordinates and widths draw nothing and do not crash")
    func nonFinite() throws {
        let canvas = try Canvas(pixelWidth: 10, pixelHeight: 10)
        var path = CanvasPath()
        path.move(to: CanvasPoint(x: .nan, y: 1))
        path.addLine(to: CanvasPoint(x: .infinity, y: 2))
        path.addArc(center: CanvasPoint(x: 5, y: 5), radius: .nan, startAngle: 0, endAngle: 1)
        #expect(path.isEmpty)
        canvas.stroke(
            .polyline([CanvasPoint(x: 1, y: 1), CanvasPoint(x: 8, y: 8)]), color: .black,
            style: StrokeStyle(width: .nan))
        canvas.translate(x: .nan, y: 0)
        canvas.scale(x: 0, y: 1)
        canvas.fill(path, color: .black)
        #expect(coverage(try canvas.makeBitmap()) == 0)
    }
}

@Suite struct CanvasImageTests {
    @Test("a bitmap drawn 2× with nearest interpolation becomes 2×2 blocks")
    func drawImage() throws {
        let source = try Bitmap(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 255, 255])
        let canvas = try Canvas(pixelWidth: 6, pixelHeight: 2)
        canvas.draw(source, in: CanvasRect(x: 1, y: 0, width: 4, height: 2), interpolation: .nearest)
        let b = try canvas.makeBitmap()
        for y in 0..<2 {
            #expect(b.pixel(x: 0, y: y) == .clear)
            for x in 1...2 { #expect(b.pixel(x: x, y: y) == RGBA8(r: 255, g: 0, b: 0)) }
            for x in 3...4 { #expect(b.pixel(x: x, y: y) == RGBA8(r: 0, g: 0, b: 255)) }
            #expect(b.pixel(x: 5, y: y) == .clear)
        }
    }

    @Test("a canvas made from a bitmap returns the same opaque and transparent pixels")
    func bitmapRoundTrip() throws {
        let source = try Bitmap(width: 3, height: 1, pixels: [1, 2, 3, 255, 250, 128, 7, 255, 0, 0, 0, 0])
        #expect(try Canvas(bitmap: source).makeBitmap() == source)
    }

    @Test(
        "bad canvas sizes and scales are errors",
        arguments: [
            (0, 10, 1.0), (10, -1, 1.0), (20_000, 10, 1.0),
            (10, 10, .nan), (10, 10, 0), (10, 10, 100),
        ])
    func badCanvas(width: Int, height: Int, scale: Double) {
        #expect(throws: CanvasError.self) { try Canvas(pixelWidth: width, pixelHeight: height, scale: scale) }
    }

    @Test("colours parse from hex and refuse anything else")
    func hexColours() throws {
        #expect(try RGBAColor(hex: "#FF8000") == RGBAColor(r8: 255, g8: 128, b8: 0))
        #expect(try RGBAColor(hex: "00000080") == RGBAColor(r8: 0, g8: 0, b8: 0, a8: 128))
        #expect(try RGBAColor(hex: "1e88e5").description == "#1E88E5FF")
        for bad in ["", "#", "12345", "GG0000", "#1234567", "+12345", "red"] {
            let error = #expect(throws: CanvasError.self, "\(bad)") { try RGBAColor(hex: bad) }
            #expect(error?.parameter == "colour")
        }
        #expect(
            RGBAColor(red: .nan, green: 2, blue: -1, alpha: 0.5) == RGBAColor(red: 0, green: 1, blue: 0, alpha: 0.5))
    }
}
