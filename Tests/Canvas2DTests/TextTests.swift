import Canvas2D
import MapImage
import MapTestSupport
import Testing

/// Bounding box of pixels whose alpha and darkness pass a test, or nil.
func inkBox(_ b: Bitmap, where predicate: (RGBA8) -> Bool) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
    var box: (Int, Int, Int, Int)?
    for y in 0..<b.height {
        for x in 0..<b.width {
            guard let p = b.pixel(x: x, y: y), predicate(p) else { continue }
            if let (a, c, d, e) = box { box = (min(a, x), min(c, y), max(d, x), max(e, y)) } else { box = (x, y, x, y) }
        }
    }
    return box.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3) }
}

@Suite struct TextTests {
    @Test("text measures wider for longer strings and bold, scales with size")
    func measurement() {
        let a = Canvas.measure("Berlin", font: Font(size: 20))
        let b = Canvas.measure("Berlin Mitte", font: Font(size: 20))
        let bold = Canvas.measure("Berlin", font: Font(size: 20, weight: .bold))
        let big = Canvas.measure("Berlin", font: Font(size: 40))
        #expect(a.width > 30 && b.width > a.width && bold.width > a.width)
        // Unhinted metrics scale linearly with the size (tolerance: float rounding).
        expectNear(big.width, 2 * a.width, tolerance: 0.01)
        // DejaVu Sans: ascent ≈ 0.93 em, descent ≈ 0.24 em (font's hhea metrics); loose bounds.
        #expect(a.ascent > 15 && a.ascent < 22 && a.descent > 3 && a.descent < 7, "\(a)")
        #expect(Canvas.measure("", font: Font(size: 20)).width == 0)
        #expect(Canvas.measure("x", font: Font(size: .nan)).width == 0)
    }

    /// Dark ink lands where Cairo's text extents say, offset by the pen origin (tolerance 1 px
    /// for antialiasing), and nowhere else.
    @Test("drawn text has ink where measured", arguments: [1.0, 2.0])
    func inkPosition(scale: Double) throws {
        let canvas = try Canvas(pixelWidth: Int(200 * scale), pixelHeight: Int(50 * scale), scale: scale)
        let font = Font(size: 20)
        let origin = CanvasPoint(x: 10, y: 35)
        canvas.drawText("Mapwright", at: origin, font: font, color: .black)
        let m = canvas.measure("Mapwright", font: font)
        let box = try #require(inkBox(try canvas.makeBitmap()) { $0.a > 24 })
        let tol = 1.0 * scale + 0.5
        expectNear(Double(box.minX), (origin.x + m.inkBounds.x) * scale, tolerance: tol)
        expectNear(Double(box.maxX + 1), (origin.x + m.inkBounds.maxX) * scale, tolerance: tol)
        expectNear(Double(box.minY), (origin.y + m.inkBounds.y) * scale, tolerance: tol)
        expectNear(Double(box.maxY + 1), (origin.y + m.inkBounds.maxY) * scale, tolerance: tol)
    }

    @Test("a halo surrounds dark ink with light pixels")
    func halo() throws {
        let canvas = try Canvas(pixelWidth: 120, pixelHeight: 40)
        canvas.clear(RGBAColor(r8: 0, g8: 0, b8: 255))
        canvas.drawText(
            "Halo", at: CanvasPoint(x: 10, y: 28), font: Font(size: 20), color: .black,
            halo: TextHalo(color: .white, width: 3))
        let b = try canvas.makeBitmap()
        let dark = try #require(inkBox(b) { $0.r < 40 && $0.b < 40 })
        let light = try #require(inkBox(b) { $0.r > 230 && $0.g > 230 })
        // The halo reaches ~3 px beyond the glyphs on every side (at least 2 px, given antialiasing).
        #expect(light.minX <= dark.minX - 2 && light.maxX >= dark.maxX + 2)
        #expect(light.minY <= dark.minY - 2 && light.maxY >= dark.maxY + 2)
    }
}

@Suite struct ConcurrentCanvasTests {
    /// Canvases share nothing: many drawing text at once (fontconfig, Cairo font caches) give the
    /// same pixels as one drawing alone.
    @Test("canvases on many tasks at once draw identical labels")
    func concurrentLabels() async throws {
        let reference = try MapSprites.label("Concurrency 42", scale: 2).bitmap
        let results = try await withThrowingTaskGroup(of: Bitmap.self) { group in
            for _ in 0..<16 {
                group.addTask { try MapSprites.label("Concurrency 42", scale: 2).bitmap }
            }
            var all: [Bitmap] = []
            for try await b in group { all.append(b) }
            return all
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == reference })
    }
}
