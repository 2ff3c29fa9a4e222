import Foundation
import MapImage
import MapTestSupport
import Testing

/// Palette PNGs and GIFs: the quantiser against hand-derived errors, the files against Pillow.
@Suite struct PaletteTests {
    /// 200 colours, some translucent, one fully transparent: kept exactly.
    func fewColours() throws -> Bitmap {
        var b = try Bitmap(width: 40, height: 30)
        for y in 0 ..< 30 {
            for x in 0 ..< 40 {
                let k = (x / 2 + y * 20) % 200
                let c = k == 0 ? RGBA8.clear : RGBA8(r: UInt8(k), g: UInt8(255 - k), b: UInt8(k * 7 % 256), a: k % 5 == 0 ? 128 : 255)
                b.setPixel(x: x, y: y, to: c)
            }
        }
        return b
    }

    @Test func anImageOf256ColoursOrFewerKeepsThemExactly() throws {
        let b = try fewColours()
        let p = b.paletted()
        #expect(p.palette.count == 200)
        #expect(try p.bitmap() == b)
        // Our decoder reads the palette PNG back as the image.
        let png = try b.png8Data()
        #expect(png[25] == 3, "IHDR colour type \(png[25]), not a palette")
        #expect(try Bitmap(pngData: png) == b)
    }

    @Test func aGradientIsCutIntoEvenBoxes() throws {
        // R = x, G = y over 256 × 256 (65 536 colours), B = 128. A uniform square splits evenly
        // (the least-error cut of a uniform range is its middle), so 256 colours are a 16 × 16
        // grid of boxes 16 values wide, each drawn in its mean (7.5 rounded to 8 above its
        // lowest value): |v − 8| over v = 0…15 averages (36 + 28) / 16 = 4, and is at most 8.
        var b = try Bitmap(width: 256, height: 256)
        for y in 0 ..< 256 { for x in 0 ..< 256 { b.setPixel(x: x, y: y, to: RGBA8(r: UInt8(x), g: UInt8(y), b: 128)) } }
        let q = try b.paletted().bitmap()
        var err = (0, 0, 0), worst = 0
        for y in 0 ..< 256 {
            for x in 0 ..< 256 {
                let a = b.pixel(x: x, y: y)!, c = q.pixel(x: x, y: y)!
                let d = (abs(Int(a.r) - Int(c.r)), abs(Int(a.g) - Int(c.g)), abs(Int(a.b) - Int(c.b)))
                err.0 += d.0; err.1 += d.1; err.2 += d.2
                worst = max(worst, d.0, d.1, d.2)
                #expect(c.a == 255)
            }
        }
        let n = 65_536.0
        #expect(abs(Double(err.0) / n - 4) < 0.05 && abs(Double(err.1) / n - 4) < 0.05 && err.2 == 0, "\(err)")
        #expect(worst == 8)
    }

    @Test func pillowReadsOurPalettePNGAndGIF() throws {
        let scratch = try ScratchDirectory("palette")
        let b = try fewColours()
        try Data(try b.png8Data()).write(to: URL(fileURLWithPath: scratch.path("a.png")))
        try Data(try b.gifData()).write(to: URL(fileURLWithPath: scratch.path("a.gif")))
        // Pillow's view of each: mode, transparency and every pixel as RGBA.
        let script = """
            import sys, json
            from PIL import Image
            out = {}
            for name in ("a.png", "a.gif"):
                im = Image.open(sys.argv[1] + "/" + name)
                out[name] = {"mode": im.mode, "format": im.format, "size": im.size,
                             "transparency": im.info.get("transparency") if name.endswith("gif") else None,
                             "pixels": [list(p) for p in im.convert("RGBA").getdata()]}
            print(json.dumps(out))
            """
        let r = try runProgram("/usr/bin/python3", ["-c", script, scratch.path])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try #require(try JSONSerialization.jsonObject(with: r.data) as? [String: [String: Any]])
        func pixels(_ name: String) -> [[Int]] { (o[name]?["pixels"] as? [[Int]]) ?? [] }
        #expect(o["a.png"]?["mode"] as? String == "P" && o["a.png"]?["format"] as? String == "PNG")
        #expect(o["a.gif"]?["mode"] as? String == "P" && o["a.gif"]?["format"] as? String == "GIF")
        #expect(o["a.gif"]?["transparency"] is Int)
        let png = pixels("a.png"), gif = pixels("a.gif")
        #expect(png.count == 1200 && gif.count == 1200)
        for i in 0 ..< min(1200, png.count, gif.count) {
            let p = b.pixel(x: i % 40, y: i / 40)!
            // The PNG keeps every colour and alpha; the GIF draws the half-transparent ones (128)
            // opaque and the clear one transparent.
            #expect(png[i] == [Int(p.r), Int(p.g), Int(p.b), Int(p.a)], "png pixel \(i)")
            if p.a == 0 { #expect(gif[i][3] == 0, "gif pixel \(i)") }
            else { #expect(gif[i] == [Int(p.r), Int(p.g), Int(p.b), 255], "gif pixel \(i)") }
        }
    }

    @Test func tinyBlankAndNoisyImagesEncode() throws {
        // One pixel; all transparent; 300 × 200 of noise (60 000 colours, most of them once).
        var noise = try Bitmap(width: 300, height: 200)
        var seed: UInt64 = 12345
        for y in 0 ..< 200 {
            for x in 0 ..< 300 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                noise.setPixel(x: x, y: y, to: RGBA8(r: UInt8(truncatingIfNeeded: seed >> 24), g: UInt8(truncatingIfNeeded: seed >> 32),
                                                     b: UInt8(truncatingIfNeeded: seed >> 40), a: UInt8(truncatingIfNeeded: seed >> 48)))
            }
        }
        for b in [try Bitmap(width: 1, height: 1, fill: RGBA8(r: 1, g: 2, b: 3)), try Bitmap(width: 7, height: 5), noise] {
            let p = b.paletted()
            #expect(p.palette.count <= 256 && p.indices.count == b.width * b.height && p.indices.allSatisfy { Int($0) < p.palette.count })
            let back = try Bitmap(pngData: try b.png8Data())
            #expect(back.width == b.width && back.height == b.height)
            #expect(ImageFormat.sniff(try b.gifData()) == .gif)
        }
        #expect(try Bitmap(pngData: try Bitmap(width: 7, height: 5).png8Data()) == (try Bitmap(width: 7, height: 5)))
    }

    @Test func aGIFIsWrittenNotRead() throws {
        let gif = try fewColours().gifData()
        #expect(ImageFormat.sniff(gif) == .gif)
        #expect(throws: MapImageError.self) { try Bitmap(imageData: gif) }
        do { _ = try Bitmap(imageData: gif) } catch { #expect("\(error)".contains("convert it to PNG")) }
    }
}
