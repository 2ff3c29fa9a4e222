import Foundation
import MapImage
import MapTestSupport
import Testing


func randomBitmap(width: Int, height: Int, seed: UInt64, opaque: Bool = false) throws -> Bitmap {
    var rng = SplitMix64(state: seed)
    var pixels = (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    if opaque { for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 } }
    return try Bitmap(width: width, height: height, pixels: pixels)
}

/// The PNG colour type byte: offset 8 (signature) + 8 (length, "IHDR") + 9 (width, height, depth).
func colorType(_ png: [UInt8]) -> UInt8 { png[25] }

@Suite struct PNGRoundTripTests {
    static let options: [PNGOptions] = [
        .fast, .balanced, .smallest,
        PNGOptions(compressionLevel: 0, filter: .none),
        PNGOptions(compressionLevel: 2, filter: .paeth, strategy: .filtered),
        PNGOptions(compressionLevel: 1, filter: .sub, strategy: .runLength, dropOpaqueAlpha: false),
        PNGOptions(compressionLevel: 42, filter: .average),  // level clamped to 9
    ]

    @Test("encode → decode is exact for random straight-alpha pixels", arguments: options)
    func roundTrip(options: PNGOptions) throws {
        for (width, height, seed) in [(1, 1, 1 as UInt64), (7, 3, 2), (64, 33, 3), (300, 2, 4)] {
            let bitmap = try randomBitmap(width: width, height: height, seed: seed)
            let png = try bitmap.pngData(options: options)
            #expect(colorType(png) == 6, "a bitmap with transparency stays RGBA")
            #expect(try Bitmap(pngData: png) == bitmap)
        }
    }

    @Test("an opaque bitmap is written as RGB and decodes back with alpha 255")
    func opaqueDropsAlpha() throws {
        let bitmap = try randomBitmap(width: 17, height: 9, seed: 7, opaque: true)
        let rgb = try bitmap.pngData()
        #expect(colorType(rgb) == 2)
        #expect(try Bitmap(pngData: rgb) == bitmap)
        let kept = try bitmap.pngData(options: PNGOptions(compressionLevel: 1, filter: .none, dropOpaqueAlpha: false))
        #expect(colorType(kept) == 6)
        #expect(try Bitmap(pngData: kept) == bitmap)
    }

    @Test("the fast preset compresses flat map-like colour far below raw size")
    func fastCompresses() throws {
        let bitmap = try Bitmap(width: 512, height: 512, fill: RGBA8(r: 170, g: 211, b: 223))
        let png = try bitmap.pngData()
        // Raw RGB is 786,432 bytes; a flat image at zlib level 1 is well under 1% of that.
        #expect(png.count < 8_000, "\(png.count) bytes")
    }
}

@Suite struct PNGDecodeFixtureTests {
    struct Expected: Decodable {
        let width: Int
        let height: Int
        let rgba: [UInt8]
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        return [UInt8](try Data(contentsOf: url))
    }

    /// Files built by scripts/fixtures/make_png_fixtures.py (by hand from the PNG spec, and one by
    /// ImageMagick); expected pixels derived there from the samples written.
    @Test(
        "decodes PNGs made elsewhere to the expected RGBA",
        arguments: [
            "rgb8_3x2.png", "rgba8_filters_3x3.png", "palette_trns_4x2.png", "gray16_2x2.png",
            "gray1_10x1.png", "grayalpha8_2x1.png", "imagemagick_interlaced_5x4.png",
        ])
    func decodesFixture(name: String) throws {
        let all = try JSONDecoder().decode([String: Expected].self, from: Data(try Self.fixture("expected.json")))
        let expected = try #require(all[name])
        let bitmap = try Bitmap(pngData: try Self.fixture(name))
        #expect(bitmap.width == expected.width)
        #expect(bitmap.height == expected.height)
        #expect(bitmap.pixels == expected.rgba)
    }

    @Test(
        "refuses images over the size limits before reading their pixels",
        arguments: ["huge_side.png", "huge_area.png"])
    func refusesHuge(name: String) throws {
        let error = #expect(throws: MapImageError.self) { try Bitmap(pngData: try Self.fixture(name)) }
        #expect(error?.kind == .invalidPNG)
    }
}

@Suite struct PNGBrokenInputTests {
    static func validPNG() throws -> [UInt8] {
        try randomBitmap(width: 20, height: 10, seed: 11).pngData()
    }

    @Test("garbage, empty and truncated data are errors, not crashes")
    func brokenData() throws {
        let png = try Self.validPNG()
        var cases: [(String, [UInt8])] = [
            ("empty", []),
            ("text", Array("hello, not a png".utf8)),
            ("signature only", Array(png[0..<8])),
            ("header cut", Array(png[0..<20])),
            ("no IEND", Array(png[0..<(png.count - 12)])),
        ]
        for cut in stride(from: 33, to: png.count - 12, by: 97) { cases.append(("cut at \(cut)", Array(png[0..<cut]))) }
        for (label, data) in cases {
            let error = #expect(throws: MapImageError.self, "\(label)") { try Bitmap(pngData: data) }
            #expect(error?.kind == .invalidPNG, "\(label)")
            #expect(error?.description.hasPrefix("invalid PNG: ") == true, "\(label): \(String(describing: error))")
        }
    }

    @Test("a corrupted IDAT (bad CRC, bad zlib stream) is an error")
    func corruptedIDAT() throws {
        var png = try Self.validPNG()
        // The IDAT payload starts after signature (8) + IHDR chunk (25) + IDAT length and type (8).
        png[8 + 25 + 8 + 5] ^= 0xFF
        let error = #expect(throws: MapImageError.self) { try Bitmap(pngData: png) }
        #expect(error?.kind == .invalidPNG)
    }
}

@Suite struct BitmapTests {
    @Test(
        "sizes out of range are errors",
        arguments: [
            (0, 1), (1, 0), (-5, 10), (Bitmap.maxSide + 1, 1), (9000, 9000), (Int.max, 2),
        ])
    func invalidSizes(width: Int, height: Int) {
        let error = #expect(throws: MapImageError.self) { try Bitmap(width: width, height: height) }
        #expect(error?.kind == .invalidSize)
    }

    @Test("a pixel buffer of the wrong length is an error")
    func wrongPixelCount() {
        let error = #expect(throws: MapImageError.self) { try Bitmap(width: 2, height: 2, pixels: [0, 0, 0]) }
        #expect(error?.kind == .invalidPixelData)
    }

    @Test("fill, pixel access and opacity")
    func fillAndAccess() throws {
        var bitmap = try Bitmap(width: 3, height: 2, fill: RGBA8(r: 1, g: 2, b: 3))
        #expect(bitmap.isOpaque)
        #expect(bitmap.pixel(x: 2, y: 1) == RGBA8(r: 1, g: 2, b: 3))
        #expect(bitmap.pixel(x: 3, y: 0) == nil)
        bitmap.setPixel(x: 1, y: 1, to: RGBA8(r: 9, g: 8, b: 7, a: 6))
        #expect(Array(bitmap.pixels[16..<20]) == [9, 8, 7, 6], "pixel (1,1) is at (1*3+1)*4 = 16")
        #expect(!bitmap.isOpaque)
    }

    /// Hand-derived: 200·128/255 = 100.39 → 100, 100·128/255 = 50.2 → 50, 50·128/255 = 25.1 → 25;
    /// back: 100·255/128 = 199.2 → 199, 50·255/128 = 99.6 → 100, 25·255/128 = 49.8 → 50.
    @Test("premultiply and unpremultiply round to nearest")
    func premultiply() throws {
        let straight = try Bitmap(width: 2, height: 1, pixels: [200, 100, 50, 128, 10, 20, 30, 0])
        #expect(straight.premultipliedPixels() == [100, 50, 25, 128, 0, 0, 0, 0])
        let back = try Bitmap(width: 2, height: 1, premultipliedPixels: [100, 50, 25, 128, 5, 5, 5, 0])
        #expect(back.pixels == [199, 100, 50, 128, 0, 0, 0, 0])
    }
}

@Suite struct PNGMutationTests {
    /// Deterministic mutation fuzzing: each damaged copy of valid PNGs (random byte flips,
    /// truncations, chunk-length changes) must decode or throw `invalidPNG` — never crash or hang.
    @Test("damaged PNGs decode or throw, never crash")
    func mutations() throws {
        let sources = [
            try randomBitmap(width: 23, height: 11, seed: 21).pngData(),
            try randomBitmap(width: 16, height: 16, seed: 22, opaque: true).pngData(options: .smallest),
        ]
        var rng = SplitMix64(state: 99)
        var decoded = 0
        var refused = 0
        for round in 0..<400 {
            var data = sources[round % sources.count]
            switch round % 4 {
            case 0, 1:
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let i = Int.random(in: 8..<data.count, using: &rng)
                    data[i] ^= UInt8.random(in: 1...255, using: &rng)
                }
            case 2:
                data = Array(data[0..<Int.random(in: 0..<data.count, using: &rng)])
            default:
                // Overwrite the IHDR or IDAT length field (bytes 8–11 or 33–36) with a large value.
                let at = Bool.random(using: &rng) ? 8 : 33
                for k in 0..<4 { data[at + k] = UInt8.random(in: 0...255, using: &rng) }
            }
            do {
                _ = try Bitmap(pngData: data)
                decoded += 1
            } catch {
                #expect(error.kind == .invalidPNG, "round \(round): \(error)")
                refused += 1
            }
        }
        #expect(decoded + refused == 400)
        #expect(refused > 200, "most damage is detected (CRC, zlib checks): \(refused) refused")
    }
}
