import Foundation
import GeoKit
import MapCamera
import MapFormats
import MapImage
import MapScene
import MapTestSupport
@testable import MapSnapshot
import Testing

/// Maki symbols against librsvg (`rsvg-convert`, an independent SVG renderer with its own path
/// parser and arc conversion): each embedded icon filled by our path reader, and a pin's symbol
/// as the renderer draws it in the head.
@Suite struct MakiSymbolTests {
    /// The icon as librsvg renders it, `side` px square: its alpha, row by row. `bleed` units
    /// round the 15-unit box are drawn too (the image shows −bleed…15 + bleed).
    static func librsvg(_ name: String, side: Int, bleed: Double = 0, in dir: ScratchDirectory) throws -> [UInt8] {
        let d = try #require(Maki.pathData(name))
        let svg = dir.url.appendingPathComponent("\(name).svg"), png = dir.url.appendingPathComponent("\(name).png")
        let view = "\(-bleed) \(-bleed) \(15 + 2 * bleed) \(15 + 2 * bleed)"
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="15" height="15" viewBox="\#(view)"><path d="\#(d)"/></svg>"#.utf8)
            .write(to: svg)
        let r = try runProgram("rsvg-convert", ["-w", "\(side)", "-h", "\(side)", "-o", png.path, svg.path])
        #expect(r.status == 0, "rsvg-convert: \(r.stderr)")
        let bitmap = try Bitmap(pngData: Array(try Data(contentsOf: png)))
        #expect(bitmap.width == side && bitmap.height == side)
        return stride(from: 3, to: bitmap.pixels.count, by: 4).map { bitmap.pixels[$0] }
    }

    /// Every icon, its box 60 px square, filled by `rasterizeSymbol` (our SVG path reader, arcs
    /// as cubics, Cairo's nonzero fill) has the coverage librsvg gives it, including the parts a
    /// few icons draw up to 0.2 units outside their box: a 66-px bitmap with the box 3 px in,
    /// whose outermost pixel stays empty, against librsvg's −0.5…15.5 units at 64 px; per icon
    /// the mean difference is under a level and no pixel is off by more than 24 levels (the two
    /// flatten the same curves by different code). Checked to fail with the arcs' sweep flag
    /// read backwards and with the box a pixel off; a first version's 1-px margin had ink in
    /// the outermost pixel (soccer, ferry, danger and four more were clipped).
    @Test func everyIconMatchesLibrsvg() throws {
        let dir = try ScratchDirectory("maki")
        let rasterizer = CairoLabelRasterizer()
        var worst = (name: "", mean: 0.0, max: 0)
        for name in Maki.names {
            let image = try #require(rasterizer.rasterizeSymbol(name, size: 60, color: .black, pixelRatio: 1))
            try #require(image.width == 66 && image.height == 66 && image.pixelRatio == 1)
            let theirs = try Self.librsvg(name, side: 64, bleed: 0.5, in: dir)
            var sum = 0, most = 0, margin = 0
            for y in 0 ..< 66 {
                for x in 0 ..< 66 {
                    let ours = Int(image.pixels[(y * 66 + x) * 4 + 3])
                    guard (1 ... 64).contains(x), (1 ... 64).contains(y) else { margin = max(margin, ours); continue }
                    let d = abs(ours - Int(theirs[(y - 1) * 64 + x - 1]))
                    sum += d; most = max(most, d)
                }
            }
            let mean = Double(sum) / (64 * 64)
            #expect(margin == 0, "\(name): ink in the margin")
            #expect(mean < 1 && most <= 24, "\(name): mean \(mean), max \(most)")
            if mean > worst.mean { worst = (name, mean, most) }
        }
        print("Maki against librsvg: worst mean \(worst.mean) (\(worst.name), max \(worst.max))")
    }

    /// A dark pin's symbol in its head, as the renderer draws it at 4 px per logical px: the
    /// 13-px box (52 device px) centred on the head's centre, 21 px above the tip, on the pin's
    /// axis; every pixel of the box inside the head's body (7.5 px round, less half a pixel) is
    /// the pin's colour under white at librsvg's coverage of the icon, within 3 levels (a pixel
    /// off in any direction: over 200). A glyph and a symbol together, or an unknown name, are
    /// refused.
    @Test func aPinsSymbolSitsInItsHead() throws {
        let body = Color(rgb: 0x202080)
        let here = LatLng(lat: 10, lon: 20)
        let camera = Camera(center: here, zoom: 5, size: ScreenSize(width: 120, height: 120), pixelRatio: 4)
        let pin = try Marker(position: here, style: .pin, color: body, symbol: "bus")
        let image = try MapSnapshotter().render(Snapshot(camera: camera, overlays: [.marker(pin)], basemapStyle: nil,
                                                         background: .white, attribution: false))
        #expect(image.width == 480 && image.height == 480)
        let dir = try ScratchDirectory("maki-pin")
        let coverage = try Self.librsvg("bus", side: 52, in: dir)
        // The tip (the anchor) is the centre of the image, a pixel corner.
        let left = 240 - 26, top = 240 - 84 - 26
        var most = 0
        for y in 0 ..< 52 {
            for x in 0 ..< 52 {
                let dx = Double(x) + 0.5 - 26, dy = Double(y) + 0.5 - 26
                guard dx * dx + dy * dy <= 28 * 28 else { continue }
                let a = Double(coverage[y * 52 + x]) / 255
                let p = try #require(image.pixel(x: left + x, y: top + y))
                for (got, under) in [(p.r, body.r), (p.g, body.g), (p.b, body.b)] {
                    let expected = Double(under) * (1 - a) + 255 * a
                    most = max(most, Int(abs(Double(got) - expected).rounded()))
                }
            }
        }
        #expect(most <= 3, "largest difference \(most) levels")
        #expect(throws: SceneError.self) { try Marker(position: here, style: .pin, glyph: "A", symbol: "bus") }
        do {
            _ = try Marker(position: here, symbol: "buss")
            Issue.record("an unknown symbol was taken")
        } catch {
            #expect(error.reason == "'buss' is not a Maki icon (did you mean 'bus'?)")
        }
    }

    /// Scene files take `symbol` on markers, and say where a name is unknown.
    @Test func sceneFilesTakeSymbols() throws {
        let loader = SceneLoader(baseDirectory: URL(fileURLWithPath: NSTemporaryDirectory()))
        func load(_ json: String) throws -> Snapshot {
            try loader.snapshot(from: try SceneDocument.decode(Data(json.utf8), file: "t.json"))
        }
        let s = try load(#"{"camera": {"center": [0, 0], "zoom": 3}, "overlays": [{"type": "marker", "position": [1, 2], "style": "pin", "symbol": "cafe"}]}"#)
        guard case .marker(let m) = s.overlays.first else { Issue.record("no marker"); return }
        #expect(m.symbol == "cafe" && m.glyph == nil)
        do {
            _ = try load(#"{"overlays": [{"type": "marker", "position": [1, 2], "symbol": "caffe"}]}"#)
            Issue.record("an unknown symbol was taken")
        } catch {
            #expect("\(error)" == "overlays[0] symbol: 'caffe' is not a Maki icon (did you mean 'cafe'?)")
        }
    }
}
