import Foundation
import MapImage
import MapTestSupport
import Testing

/// JPEG and WebP decoding against Pillow (Debian python3-pil), which writes the files and says
/// what their pixels are.
@Suite struct JPEGWebPDecodeTests {
    @Test func jpegAndWebPDecodeAsPillowDecodesThem() throws {
        let scratch = try ScratchDirectory("dec"), dir = scratch.path
        let script = """
            import sys
            from PIL import Image
            d = sys.argv[1]
            im = Image.new('RGBA', (37, 23))
            im.putdata([(x * 7 % 256, y * 11 % 256, (x * y) % 256, 255 if (x + y) % 5 else 128) for y in range(23) for x in range(37)])
            im.convert('RGB').save(d + '/a.jpg', quality=92)
            im.save(d + '/a.webp', lossless=True)
            im.convert('RGB').save(d + '/p.jpg', quality=80, progressive=True)
            for name in ('a.jpg', 'a.webp', 'p.jpg'):
                open(d + '/' + name + '.rgba', 'wb').write(Image.open(d + '/' + name).convert('RGBA').tobytes())
            """
        let r = try runProgram("/usr/bin/python3", ["-c", script, dir])
        #expect(r.status == 0, "\(r.stderr)")
        for (name, tolerance) in [("a.jpg", 2), ("a.webp", 0), ("p.jpg", 2)] {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name)")))
            let image = try Bitmap(imageData: bytes)
            let truth = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name).rgba")))
            #expect(image.width == 37 && image.height == 23)
            #expect(image.pixels.count == truth.count)
            let worst = zip(image.pixels, truth).map { abs(Int($0) - Int($1)) }.max() ?? 999
            #expect(worst <= tolerance, "\(name): largest difference \(worst)")
        }
    }

    @Test func damagedAndHugeImagesAreClearErrors() throws {
        #expect(throws: MapImageError.self) { try Bitmap(imageData: [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]) }
        #expect(throws: MapImageError.self) { try Bitmap(imageData: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) }
        do { _ = try Bitmap(imageData: Array("<html>".utf8)); Issue.record("decoded HTML") } catch {
            #expect(error.description.contains("not a PNG, JPEG or WebP"))
        }
        // A JPEG header that declares 60000 × 60000 pixels: refused before any pixel memory.
        var sof: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0xEA, 0x60, 0xEA, 0x60, 0x03,
                            0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
        sof += [0xFF, 0xD9]
        do { _ = try Bitmap(imageData: sof); Issue.record("decoded a 60000² JPEG") } catch {
            #expect(error.description.contains("over the limit") || error.description.contains("JPEG"), "\(error)")
        }
    }
}
