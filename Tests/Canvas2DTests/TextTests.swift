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

/// Text beyond what DejaVu Sans draws letter by letter: glyphs from a fallback font, and scripts
/// that are shaped (joined, written right to left). The truths are the scripts' own rules.
@Suite struct ComplexTextTests {
    /// The ink mask (alpha > 96) of one line drawn in black at 40 px on a clear canvas.
    static func mask(_ text: String, width: Int = 200) throws -> (bits: [[Bool]], bitmap: Bitmap) {
        let canvas = try Canvas(pixelWidth: width, pixelHeight: 64)
        canvas.drawText(text, at: CanvasPoint(x: 10, y: 46), font: Font(size: 40), color: .black)
        let b = try canvas.makeBitmap()
        return ((0 ..< b.height).map { y in (0 ..< b.width).map { x in (b.pixel(x: x, y: y)?.a ?? 0) > 96 } }, b)
    }

    /// 4-connected components of set pixels.
    static func components(_ m: [[Bool]]) -> Int {
        var seen = m.map { $0.map { _ in false } }
        var count = 0
        for y in m.indices {
            for x in m[y].indices where m[y][x] && !seen[y][x] {
                count += 1
                var stack = [(x, y)]
                seen[y][x] = true
                while let (px, py) = stack.popLast() {
                    for (nx, ny) in [(px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)]
                    where ny >= 0 && ny < m.count && nx >= 0 && nx < m[ny].count && m[ny][nx] && !seen[ny][nx] {
                        seen[ny][nx] = true
                        stack.append((nx, ny))
                    }
                }
            }
        }
        return count
    }

    @Test func cjkTakesItsGlyphsFromAFallbackFont() throws {
        // Han characters are full width: each advances exactly one em (40 px), which DejaVu
        // Sans's missing-glyph box does not.
        let m = Canvas.measure("東京", font: Font(size: 40))
        expectNear(m.width, 80, tolerance: 0.5)
        // The two halves hold different glyphs (missing-glyph boxes would be the same).
        let (bits, _) = try Self.mask("東京")
        let left = bits.map { Array($0[10 ..< 50]) }, right = bits.map { Array($0[50 ..< 90]) }
        let inkLeft = left.joined().filter { $0 }.count, inkRight = right.joined().filter { $0 }.count
        #expect(inkLeft > 150 && inkRight > 150, "ink \(inkLeft), \(inkRight)")
        let differ = zip(left.joined(), right.joined()).filter { $0 != $1 }.count
        #expect(differ > 100, "halves differ in \(differ) px")
    }

    @Test func hebrewRunsRightToLeft() throws {
        // Alef then bet, in logical order: read right to left, alef is the right-hand glyph.
        let alef = Canvas.measure("א", font: Font(size: 40)), bet = Canvas.measure("ב", font: Font(size: 40))
        let both = Canvas.measure("אב", font: Font(size: 40))
        expectNear(both.width, alef.width + bet.width, tolerance: 1)
        let (pair, _) = try Self.mask("אב"), (a, _) = try Self.mask("א"), (b, _) = try Self.mask("ב")
        // Alef's ink drawn alone at the pen, moved right by bet's advance, matches the pair's
        // right-hand part; drawn at the pen, it does not.
        func overlap(_ glyph: [[Bool]], shift: Int) -> Double {
            var hit = 0, total = 0
            for y in glyph.indices {
                for x in glyph[y].indices where glyph[y][x] {
                    total += 1
                    if x + shift < pair[y].count, pair[y][x + shift] { hit += 1 }
                }
            }
            return total > 0 ? Double(hit) / Double(total) : 0
        }
        let shift = Int(bet.width.rounded())
        #expect(overlap(a, shift: shift) > 0.9, "alef on the right")
        #expect(overlap(b, shift: 0) > 0.9, "bet on the left")
        #expect(overlap(a, shift: 0) < 0.6, "alef is not on the left")
    }

    @Test func arabicLettersJoin() throws {
        // Seen joins on both sides: "سسس" is one connected stroke when shaped, three glyphs when not.
        let (bits, _) = try Self.mask("سسس")
        #expect(Self.components(bits) == 1)
        // Alef joins nothing on its left: "اا" stays two separate strokes.
        let (alefs, _) = try Self.mask("اا")
        #expect(Self.components(alefs) == 2)
    }

    @Test func haloesSurroundShapedText() throws {
        // As for Latin text: light halo pixels reach about the halo width (3 px) beyond the ink.
        let canvas = try Canvas(pixelWidth: 120, pixelHeight: 50)
        canvas.clear(RGBAColor(r8: 0, g8: 0, b8: 255))
        canvas.drawText("東京", at: CanvasPoint(x: 10, y: 36), font: Font(size: 24), color: .black,
                        halo: TextHalo(color: .white, width: 3))
        let b = try canvas.makeBitmap()
        let dark = try #require(inkBox(b) { $0.r < 40 && $0.b < 40 })
        let light = try #require(inkBox(b) { $0.r > 230 && $0.g > 230 })
        for (l, d) in [(light.minX, dark.minX - 3), (light.minY, dark.minY - 3)] { #expect(abs(l - d) <= 1, "\(light) \(dark)") }
        for (l, d) in [(light.maxX, dark.maxX + 3), (light.maxY, dark.maxY + 3)] { #expect(abs(l - d) <= 1, "\(light) \(dark)") }
    }

    @Test func latinKeepsCairosOwnPath() throws {
        // Text DejaVu Sans draws letter by letter is measured as before (Cairo's toy API): the
        // advance of "Berlin" at 20 px matches the sum of its letters' advances (no kerning pair
        // in it), and the same string with a Han character appended is wider by one em.
        let word = Canvas.measure("Berlin", font: Font(size: 20))
        let letters = "Berlin".map { Canvas.measure(String($0), font: Font(size: 20)).width }.reduce(0, +)
        expectNear(word.width, letters, tolerance: 0.01)
        expectNear(Canvas.measure("Berlin東", font: Font(size: 20)).width, word.width + 20, tolerance: 0.5)
    }
}
