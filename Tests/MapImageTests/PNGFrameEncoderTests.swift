import Foundation
import MapImage
import MapTestSupport
import Testing

/// The frame encoder re-uses the compressed bands of the previous frame where the pixels did not
/// change. Each frame must decode exactly, through libpng and through an independent decoder
/// (`scripts/fixtures/png_decode.py`: Python's zlib, every CRC and the Adler-32 checked), and be
/// byte-for-byte what a fresh encoder writes for that frame alone.
@Suite struct PNGFrameEncoderTests {
    /// Changes a `size`×`size` square at (`x`, `y`) to a colour of its own.
    static func paint(_ b: inout Bitmap, x: Int, y: Int, size: Int, _ c: RGBA8) {
        for yy in y ..< min(b.height, y + size) { for xx in x ..< min(b.width, x + size) { b.setPixel(x: xx, y: yy, to: c) } }
    }

    @Test("frames re-use unchanged bands and decode exactly", arguments: [true, false])
    func successiveFrames(opaque: Bool) throws {
        var frame = try BandedPNGTests.image(seed: 7, opaque: opaque)  // 701×1031
        let encoder = PNGFrameEncoder()
        // Bands hold ⌈65536 / (1 + 701·channels)⌉ rows: 32 rows (RGB, 2104-byte scanlines) or
        // 24 rows (RGBA, 2805-byte scanlines).
        let rows = opaque ? 32 : 24
        let bands = (1031 + rows - 1) / rows
        var expectedReused = 0
        // Frame 0 is all new; frame 1 repeats it; then a square moves down the image; the last
        // frame changes a single pixel of the last band.
        var edits: [(x: Int, y: Int, size: Int)?] = [nil, nil]
        for i in 0 ..< 4 { edits.append((50 + 60 * i, 100 + 230 * i, 40)) }
        edits.append((700, 1030, 1))
        for (n, edit) in edits.enumerated() {
            if let e = edit {
                Self.paint(&frame, x: e.x, y: e.y, size: e.size, RGBA8(r: UInt8(40 * n), g: 200, b: 30, a: opaque ? 255 : 128))
            }
            let png = try encoder.encode(frame)
            // The bands the edit touched are new; every other band is re-used (none in frame 0).
            if n > 0 {
                let touched = edit.map { Set(($0.y ..< min(1031, $0.y + $0.size)).map { $0 / rows }).count } ?? 0
                expectedReused += bands - touched
            }
            #expect(encoder.totalBands == bands * (n + 1))
            #expect(encoder.reusedBands == expectedReused, "frame \(n)")
            #expect(png == (try PNGFrameEncoder().encode(frame)), "frame \(n) differs from a fresh encoding")
            #expect(try Bitmap(pngData: png) == frame, "frame \(n) through libpng")
            #expect(try BandedPNGTests.decodeWithPython(png) == frame.pixels, "frame \(n) through python3 zlib")
        }
    }

    @Test("a new size or colour type starts afresh")
    func sizeChange() throws {
        let encoder = PNGFrameEncoder()
        let a = try Bitmap(width: 300, height: 200, fill: RGBA8(r: 1, g: 2, b: 3))
        let b = try Bitmap(width: 200, height: 300, fill: RGBA8(r: 1, g: 2, b: 3))
        let c = try Bitmap(width: 200, height: 300, fill: RGBA8(r: 1, g: 2, b: 3, a: 100))
        for image in [a, b, c, a] {
            let png = try encoder.encode(image)
            #expect(try Bitmap(pngData: png) == image)
            #expect(try BandedPNGTests.decodeWithPython(png) == image.pixels)
        }
        #expect(encoder.reusedBands == 0)
    }
}
