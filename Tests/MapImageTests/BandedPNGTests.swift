import Foundation
import MapImage
import MapTestSupport
import Testing

/// The banded (parallel) deflate writer used for filter `.none`: its PNGs must decode exactly
/// through libpng (our decoder) and through an independent decoder, Python's zlib + struct
/// (`scripts/fixtures/png_decode.py`, which checks every CRC and the Adler-32 itself).
@Suite struct BandedPNGTests {
    /// Band counts 1…8 on images large enough to use them (≥ 64 rows and 256 Ki samples a band).
    /// Levels 1 and 2 deflate with ISA-L, the others with zlib.
    static let cases: [(threads: Int, opaque: Bool, level: Int)] = [
        (1, false, 1), (2, false, 1), (3, true, 1), (4, false, 6), (8, true, 9), (2, true, 0), (0, false, 1),
        (1, true, 2), (3, false, 2),
    ]

    /// A map-like image: flat colour areas, a few random-noise stripes (hard to compress, so
    /// each band emits several deflate blocks) and, unless opaque, translucent pixels.
    static func image(seed: UInt64, opaque: Bool) throws -> Bitmap {
        var bitmap = try Bitmap(width: 701, height: 1031, fill: RGBA8(r: 170, g: 211, b: 223))
        var rng = SplitMix64(state: seed)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where (x / 50 + y / 70) % 5 == 0 || y % 97 < 3 {
                let a: UInt8 = opaque ? 255 : UInt8.random(in: 0...255, using: &rng)
                bitmap.setPixel(x: x, y: y, to: RGBA8(r: UInt8.random(in: 0...255, using: &rng),
                                                      g: UInt8(x & 255), b: UInt8(y & 255), a: a))
            }
        }
        return bitmap
    }

    @Test("banded PNGs round-trip exactly through libpng and an independent decoder", arguments: cases)
    func roundTrip(threads: Int, opaque: Bool, level: Int) throws {
        let bitmap = try Self.image(seed: UInt64(threads * 10 + level), opaque: opaque)
        var options = PNGOptions(compressionLevel: level, filter: .none)
        options.threads = threads
        let png = try bitmap.pngData(options: options)
        #expect(colorType(png) == (opaque ? 2 : 6))
        #expect(try Bitmap(pngData: png) == bitmap)
        let independent = try Self.decodeWithPython(png)
        #expect(independent == bitmap.pixels, "python3 zlib/struct decode differs")
    }

    @Test("incompressible noise at the ISA-L levels (output larger than first allocated) round-trips",
          arguments: [(1, 1), (2, 1), (3, 2)])
    func noise(threads: Int, level: Int) throws {
        // Every pixel random: the deflated bands come out about as large as their input, more
        // than the quarter the writer allocates first, so its output buffer has to grow.
        var rng = SplitMix64(state: UInt64(40 + threads))
        let pixels = (0..<(640 * 480 * 4)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let bitmap = try Bitmap(width: 640, height: 480, pixels: pixels)
        var options = PNGOptions(compressionLevel: level, filter: .none)
        options.threads = threads
        let png = try bitmap.pngData(options: options)
        #expect(png.count > pixels.count * 9 / 10)
        #expect(try Bitmap(pngData: png) == bitmap)
        #expect(try Self.decodeWithPython(png) == bitmap.pixels, "python3 zlib/struct decode differs")
    }

    @Test("bands change the stream only slightly: within 2% of the single-stream size")
    func sizeCost() throws {
        // Each band restarts with an empty 32 KiB window and ends with a 5-byte sync marker;
        // on this image that costs well under 2% (measured 0.1–0.5%).
        let bitmap = try Self.image(seed: 5, opaque: true)
        var one = PNGOptions.fast, four = PNGOptions.fast
        one.threads = 1; four.threads = 4
        let a = try bitmap.pngData(options: one).count, b = try bitmap.pngData(options: four).count
        #expect(Double(b) <= Double(a) * 1.02)
    }

    static func decodeWithPython(_ png: [UInt8]) throws -> [UInt8] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let script = dir.appendingPathComponent("../../scripts/fixtures/png_decode.py").standardizedFileURL.path
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mw-banded-\(UUID().uuidString).png")
        try Data(png).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try runProgram("python3", [script, file.path])
        guard run.status == 0 else { throw DecodeFailure(message: run.stderr) }
        return [UInt8](run.data)
    }

    struct DecodeFailure: Error { let message: String }
}
