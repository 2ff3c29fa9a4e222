import Canvas2D
import Foundation
import MapImage
import MapTestSupport
import Testing

@Suite struct MarkerSpriteTests {
    static let blue = RGBAColor(r8: 0x1E, g8: 0x88, b8: 0xE5)

    /// Default dot: colour to radius 6, white ring 6–8, so the pixel whose centre is 7 logical px
    /// right of the centre lies wholly inside the ring (its square spans 6.5–7.5 px at 1×,
    /// 14–15 output px = 7–7.5 px at 2×) and must be exactly white.
    @Test("marker dot: centre in the marker colour, white ring at radius 7 px", arguments: [1.0, 2.0, 3.0])
    func dot(scale: Double) throws {
        let sprite = try MapSprites.markerDot(color: Self.blue, scale: scale)
        let b = sprite.bitmap
        #expect(b.width == Int(19 * scale) && b.height == b.width)
        expectNear(sprite.anchor.x, 9.5 * scale, tolerance: 0)
        expectNear(sprite.anchor.y, 9.5 * scale, tolerance: 0)
        let cx = Int(sprite.anchor.x), cy = Int(sprite.anchor.y)
        #expect(b.pixel(x: cx, y: cy) == RGBA8(r: 0x1E, g: 0x88, b: 0xE5))
        let r = Int(7 * scale)
        for (x, y) in [
            (cx + r, cy), (cx, cy + r), (cx - r - (scale == 1 ? 0 : 1), cy), (cx, cy - r - (scale == 1 ? 0 : 1)),
        ] {
            #expect(b.pixel(x: x, y: y) == .white, "ring pixel \(x),\(y) at \(scale)x")
        }
        #expect(b.pixel(x: 0, y: 0)?.a == 0, "corners are transparent")
    }

    @Test("marker pin: anchored at the tip, coloured above it, empty below")
    func pin() throws {
        for scale in [1.0, 2.0] {
            let sprite = try MapSprites.markerPin(color: Self.blue, scale: scale)
            let b = sprite.bitmap
            let ax = Int(sprite.anchor.x), ay = Int(sprite.anchor.y)
            #expect(abs(sprite.anchor.x - Double(b.width) / 2) < 0.01, "tip centred horizontally")
            let above = try #require(b.pixel(x: ax, y: ay - Int(4 * scale)))
            #expect(above.a == 255 && above.b > 200 && above.r < 80, "just above the tip: \(above)")
            #expect((b.pixel(x: ax, y: ay + Int(2 * scale))?.a ?? 0) < 40, "below the tip is (nearly) empty")
            // The head's white dot: centre of the head, r = 0.34 · 30 px below the top margin.
            let head = try #require(b.pixel(x: ax, y: Int((2.5 + 10.2) * scale)))
            #expect(head == .white, "\(head)")
        }
    }
}

@Suite struct ScaleBarTests {
    /// Hand-derived: longest 1/2/5 × 10ⁿ m not over metresPerPixel × maxLength.
    @Test(
        "nice distance choice",
        arguments: [
            (1.0, 100.0, 100.0, "100 m"),  // 100 m fits exactly
            (1.3, 100.0, 100.0, "100 m"),  // 130 m → 100 m (76.9 px)
            (2.5, 100.0, 200.0, "200 m"),  // 250 m → 200 m (80 px)
            (5.0, 100.0, 500.0, "500 m"),  // 500 m exactly
            (6.0, 100.0, 500.0, "500 m"),  // 600 m → 500 m
            (9.99, 100.0, 500.0, "500 m"),  // 999 m → 500 m
            (12.0, 100.0, 1000.0, "1 km"),  // 1200 m → 1 km
            (25.0, 100.0, 2000.0, "2 km"),  // 2500 m → 2 km
            (0.5, 150.0, 50.0, "50 m"),  // 75 m → 50 m
            (0.0373, 100.0, 2.0, "2 m"),  // zoom-22-ish: 3.73 m → 2 m
            (0.001, 100.0, 0.1, "10 cm"),  // 10 cm exactly
            (0.0042, 100.0, 0.2, "20 cm"),  // 42 cm → 20 cm
            (78_271.517, 100.0, 5_000_000.0, "5000 km"),  // zoom 0 at the equator: 7827 km → 5000 km
            (1_000_000.0, 60.0, 50_000_000.0, "50000 km"),
        ])
    func choice(metresPerPixel: Double, maxLength: Double, metres: Double, label: String) throws {
        let c = try MapSprites.scaleBarChoice(metresPerPixel: metresPerPixel, maxLength: maxLength)
        expectNear(c.metres, metres, tolerance: metres * 1e-12)
        expectNear(c.length, metres / metresPerPixel, tolerance: 1e-9)
        #expect(c.length <= maxLength * (1 + 1e-9))
        #expect(c.label == label)
    }

    @Test(
        "scale bar inputs that are not positive, finite and in range are errors",
        arguments: [(0.0, 100.0), (-1, 100), (.nan, 100), (.infinity, 100), (1, 0), (1, .nan), (1e-6, 100), (1e7, 100)])
    func badInput(metresPerPixel: Double, maxLength: Double) {
        #expect(throws: CanvasError.self) {
            try MapSprites.scaleBarChoice(metresPerPixel: metresPerPixel, maxLength: maxLength)
        }
        #expect(throws: CanvasError.self) {
            try MapSprites.scaleBar(metresPerPixel: metresPerPixel, maxLength: maxLength)
        }
    }

    @Test("the drawn bar is as long as the choice says")
    func barLength() throws {
        // 2.5 m/px, 100 px max → 200 m over 80 px; the bar starts 4 px in from the left.
        let scale = 2.0
        let sprite = try MapSprites.scaleBar(metresPerPixel: 2.5, scale: scale)
        let b = sprite.bitmap
        let row = Int((Double(b.height) / scale - 4) * scale)  // bar centre line, output px
        let dark = (0..<b.width).filter { x in (b.pixel(x: x, y: row)?.r ?? 255) < 90 }
        let first = try #require(dark.first), last = try #require(dark.last)
        // Square caps extend 0.75 px beyond each end of the 80 px bar: 81.5 px (163 output px).
        expectNear(Double(last - first + 1), 81.5 * scale, tolerance: 2)
        expectNear(Double(first), (4 - 0.75) * scale, tolerance: 1)
        #expect(sprite.anchor == CanvasPoint(x: 0, y: Double(b.height)))
    }
}

@Suite struct CompassTests {
    /// North on screen for bearing b and pitch p: (−sin b, −cos b · squash), squash = max(cos p, 0.3).
    /// Samples along the needle at 0.25 r and 0.45 r (tip at 0.6 r) must be the needle's red; the
    /// opposite direction must not be red.
    @Test(
        "the red north needle turns with the bearing", arguments: [0.0, 30.0, 45.0, 90.0, 135.0, 180.0, 270.0, -60.0])
    func needle(bearing: Double) throws {
        try checkNeedle(bearing: bearing, pitch: 0)
        try checkNeedle(bearing: bearing, pitch: 0, size: 96)  // big enough to test right by the tip
    }

    @Test("pitch foreshortens the rose vertically", arguments: [(0.0, 60.0), (20.0, 45.0), (90.0, 70.0)])
    func pitched(bearing: Double, pitch: Double) throws {
        try checkNeedle(bearing: bearing, pitch: pitch)
        expectNear(MapSprites.compassSquash(pitch: 60), 0.5, tolerance: 1e-12, "cos 60° = 1/2")
        expectNear(MapSprites.compassSquash(pitch: 85), 0.3, tolerance: 0, "floored at 0.3")
    }

    func checkNeedle(bearing: Double, pitch: Double, size: Double = 48) throws {
        let scale = 2.0
        let sprite = try MapSprites.compass(bearing: bearing, pitch: pitch, size: size, scale: scale)
        let r = size / 2 - 1
        let b = bearing * .pi / 180
        let squash = MapSprites.compassSquash(pitch: pitch)
        func sample(_ k: Double) throws -> RGBA8 {
            let x = sprite.anchor.x + -sin(b) * k * r * scale
            let y = sprite.anchor.y + -cos(b) * k * r * squash * scale
            return try #require(sprite.bitmap.pixel(x: Int(x.rounded(.down)), y: Int(y.rounded(.down))))
        }
        func isRed(_ p: RGBA8) -> Bool { p.r > 180 && p.g < 90 && p.b < 90 && p.a > 200 }
        // Needle half-width at distance k·r from the centre is 0.22 r (1 − k/0.6); foreshortening
        // shrinks it, so sample where the needle is at least ~1.5 output px wide.
        for k in [0.15, 0.25, 0.45, 0.55] where 0.22 * r * (1 - k / 0.6) * squash * scale >= 1.5 || k < 0.3 {
            let p = try sample(k)
            #expect(isRed(p), "bearing \(bearing), pitch \(pitch): sample at \(k) r is \(p)")
            let q = try sample(-k)
            #expect(!isRed(q), "bearing \(bearing): south at \(k) r is \(q)")
        }
    }

    @Test("compass rejects non-finite bearings and pitches outside 0–90")
    func badInput() {
        #expect(throws: CanvasError.self) { try MapSprites.compass(bearing: .nan) }
        #expect(throws: CanvasError.self) { try MapSprites.compass(bearing: 0, pitch: -1) }
        #expect(throws: CanvasError.self) { try MapSprites.compass(bearing: 0, pitch: 91) }
        #expect(throws: CanvasError.self) { try MapSprites.compass(bearing: 0, size: 0) }
        #expect(throws: CanvasError.self) { try MapSprites.compass(bearing: 0, scale: 0) }
    }
}

@Suite struct LabelSpriteTests {
    @Test("label: non-empty ink, halo around it, anchor on the text box", arguments: LabelAnchor.allCases)
    func label(anchor: LabelAnchor) throws {
        let sprite = try MapSprites.label("Zürich", font: Font(size: 14), anchor: anchor, scale: 2)
        let b = sprite.bitmap
        let dark = try #require(inkBox(b) { $0.a > 200 && $0.r < 90 })
        let halo = try #require(inkBox(b) { $0.a > 200 && $0.r > 230 })
        #expect(halo.minX < dark.minX && halo.maxX > dark.maxX && halo.minY < dark.minY && halo.maxY > dark.maxY)
        // The anchor sits on the ink's side the anchor names (box ≈ ink horizontally; 2 px slack at 2×
        // for side bearings, and the box's line height vertically).
        let (ax, ay) = (sprite.anchor.x, sprite.anchor.y)
        switch anchor {
        case .left, .topLeft, .bottomLeft: #expect(abs(ax - Double(dark.minX)) < 4, "\(anchor): \(ax) vs \(dark)")
        case .right, .topRight, .bottomRight:
            #expect(abs(ax - Double(dark.maxX + 1)) < 4, "\(anchor): \(ax) vs \(dark)")
        default: #expect(abs(ax - Double(dark.minX + dark.maxX + 1) / 2) < 2, "\(anchor): \(ax) vs \(dark)")
        }
        switch anchor {
        case .top, .topLeft, .topRight: #expect(ay <= Double(dark.minY))
        case .bottom, .bottomLeft, .bottomRight: #expect(ay >= Double(dark.maxY))
        default: #expect(ay > Double(dark.minY) && ay < Double(dark.maxY))
        }
    }

    @Test("multi-line labels stack lines 1.2 em apart")
    func multiline() throws {
        let one = try MapSprites.label("Line", font: Font(size: 10), scale: 1)
        let two = try MapSprites.label("Line\nLine", font: Font(size: 10), scale: 1)
        #expect(two.bitmap.height - one.bitmap.height == 12, "one extra line of 1.2 × 10 px")
    }

    @Test("empty label text and bad fonts are errors")
    func badInput() {
        #expect(throws: CanvasError.self) { try MapSprites.label("") }
        #expect(throws: CanvasError.self) { try MapSprites.label(" \n ") }
        #expect(throws: CanvasError.self) { try MapSprites.label("x", font: Font(size: 0)) }
        #expect(throws: CanvasError.self) { try MapSprites.label("x", font: Font(size: .infinity)) }
        #expect(throws: CanvasError.self) { try MapSprites.attribution("") }
        #expect(throws: CanvasError.self) { try MapSprites.attribution("a\nb") }
    }

    @Test("attribution: dark text on a translucent white box anchored bottom-right")
    func attribution() throws {
        let sprite = try MapSprites.attribution("Natural Earth", scale: 2)
        let b = sprite.bitmap
        #expect(sprite.anchor == CanvasPoint(x: Double(b.width), y: Double(b.height)))
        let corner = try #require(b.pixel(x: 0, y: 0))
        #expect(corner.r == 255 && corner.g == 255 && (170...190).contains(corner.a), "white at 0.7 alpha: \(corner)")
        #expect(inkBox(b) { $0.r < 100 && $0.a > 200 } != nil, "has dark text")
    }
}

/// Callouts stand above their point by default, and below it or to one side where the box would
/// leave the view (MapLibre's popup anchors).
@Suite struct CalloutSpriteTests {
    @Test func theAnchorThatFitsTheView() {
        let size = (width: 120.0, height: 40.0), view = (width: 600.0, height: 400.0)
        func a(_ x: Double, _ y: Double) -> CalloutAnchor { CalloutAnchor.fitting(size: size, tip: (x, y), view: view) }
        #expect(a(300, 200) == .bottom)
        #expect(a(300, 41) == .bottom && a(300, 39) == .top)  // 40 px of box above the tip, or not
        #expect(a(61, 200) == .bottom && a(59, 200) == .bottomLeft)  // half the box, 60 px, left of the tip
        #expect(a(539, 200) == .bottom && a(541, 200) == .bottomRight)
        #expect(a(20, 20) == .topLeft && a(590, 20) == .topRight && a(590, 380) == .bottomRight)
        // No room either way: the default side.
        #expect(CalloutAnchor.fitting(size: (100, 500), tip: (300, 10), view: view) == .bottom)
        #expect(CalloutAnchor.fitting(size: (700, 40), tip: (10, 200), view: view) == .bottom)
    }

    @Test("the pointer's tip is the anchor, the box above or below it", arguments: [1.0, 2.0])
    func anchors(scale: Double) throws {
        let lines = ["Summit", "2 864 m"]
        let base = try MapSprites.callout(lines, scale: scale)
        let w = Double(base.bitmap.width) / scale, h = Double(base.bitmap.height) / scale
        for anchor in CalloutAnchor.allCases {
            let s = try MapSprites.callout(lines, scale: scale, anchor: anchor)
            #expect(s.bitmap.width == base.bitmap.width && s.bitmap.height == base.bitmap.height, "\(anchor)")
            // Tip x: the middle, or 13 px (1 + corner radius 4 + pointer 8) from the pointer's end.
            let x: Double = switch anchor {
            case .bottom, .top: w / 2
            case .bottomLeft, .topLeft: 13
            case .bottomRight, .topRight: w - 13
            }
            let below = anchor == .top || anchor == .topLeft || anchor == .topRight
            expectNear(s.anchor.x, x * scale, tolerance: 1e-9, "\(anchor)")
            expectNear(s.anchor.y, (below ? 2 : h - 2) * scale, tolerance: 1e-9, "\(anchor)")
            // Just inside the tip the pointer is drawn; 6 px to either side of it, nothing.
            let iy = Int(s.anchor.y + (below ? 2 : -2) * scale)
            #expect((s.bitmap.pixel(x: Int(s.anchor.x), y: iy)?.a ?? 0) > 100, "\(anchor)")
            for dx in [-6.0, 6.0] { #expect(s.bitmap.pixel(x: Int(s.anchor.x + dx * scale), y: iy)?.a == 0, "\(anchor)") }
            // The text sits in the box, on the far side of the pointer.
            let ink = try #require(inkBox(s.bitmap) { $0.r < 100 && $0.a > 200 })
            if below { #expect(Double(ink.minY) > 10 * scale) } else { #expect(Double(ink.maxY) < (h - 10) * scale) }
        }
        #expect(base == (try MapSprites.callout(lines, scale: scale, anchor: .bottom)))
    }
}

/// `labelSize` (measured, not drawn: what label placement uses) is the size of the bitmap
/// `label` draws, for any text, font size, halo and scale.
@Suite struct LabelSizeTests {
    @Test func measuredSizeIsTheDrawnBitmapsSize() throws {
        let texts = ["A", "Cathedral", "Notre-Dame de Paris", "Hôtel de Ville", "ä\nTwo lines", "مرحبا", "東京駅", "  padded  "]
        for text in texts {
            for size in [9.0, 14, 23.5] {
                for halo in [nil, TextHalo(), TextHalo(width: 4.5)] {
                    for scale in [1.0, 1.5, 2, 3] {
                        let font = Font(size: size)
                        let drawn = try MapSprites.label(text, font: font, halo: halo, anchor: .topLeft, scale: scale).bitmap
                        let measured = try MapSprites.labelSize(text, font: font, halo: halo, scale: scale)
                        #expect(measured.width == drawn.width && measured.height == drawn.height,
                                "'\(text)' \(size) px, halo \(halo?.width ?? 0), scale \(scale)")
                    }
                }
            }
        }
        #expect(throws: CanvasError.self) { _ = try MapSprites.labelSize(" \n ") }
    }
}
