import Canvas2D
import Dispatch
import Foundation
import MapImage
import Testing

/// PNG encoding speed on a map-like 1024×768 image. Not a timed assertion: it prints medians.
/// Run with `bash scripts/bench-png.sh` (release build, MAPWRIGHT_BENCH=1).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MAPWRIGHT_BENCH"] == "1"))
struct PNGEncodeBenchmark {
    /// A deterministic map-like scene: ocean, land blobs with coastline, dashed borders, roads,
    /// translucent circles, markers and labels — flat colours with antialiased edges, like a render.
    static func mapLikeImage(width: Int = 1024, height: Int = 768) throws -> Bitmap {
        let canvas = try Canvas(pixelWidth: width, pixelHeight: height)
        canvas.clear(RGBAColor(r8: 0xAA, g8: 0xD3, b8: 0xDF))
        var seed: UInt64 = 42
        func rand() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let w = Double(width), h = Double(height)
        for _ in 0..<6 {
            let cx = rand() * w, cy = rand() * h, r = 80 + rand() * 220
            var p = CanvasPath()
            let n = 60
            for i in 0..<n {
                let a = Double(i) / Double(n) * 2 * .pi
                let rr = r * (0.7 + 0.3 * sin(3 * a + rand()) + 0.05 * rand())
                let pt = CanvasPoint(x: cx + rr * cos(a), y: cy + rr * sin(a))
                if i == 0 { p.move(to: pt) } else { p.addLine(to: pt) }
            }
            p.closeSubpath()
            canvas.fill(p, color: RGBAColor(r8: 0xF2, g8: 0xEF, b8: 0xE9))
            canvas.stroke(p, color: RGBAColor(r8: 0x9E, g8: 0xB8, b8: 0xC4), style: StrokeStyle(width: 1))
        }
        for _ in 0..<8 {
            let pts = (0..<12).map { _ in CanvasPoint(x: rand() * w, y: rand() * h) }
            canvas.stroke(
                .polyline(pts), color: RGBAColor(r8: 0x99, g8: 0x88, b8: 0xAA),
                style: StrokeStyle(width: 1, dash: [4, 3]))
        }
        for _ in 0..<5 {
            var pts = [CanvasPoint(x: rand() * w, y: rand() * h)]
            for _ in 0..<200 {
                let last = pts[pts.count - 1]
                pts.append(CanvasPoint(x: last.x + (rand() - 0.5) * 30, y: last.y + (rand() - 0.5) * 30))
            }
            canvas.stroke(
                .polyline(pts), color: RGBAColor(r8: 0xE5, g8: 0x39, b8: 0x35),
                style: StrokeStyle(width: 4, join: .round, cap: .round))
        }
        for _ in 0..<6 {
            canvas.fill(
                .circle(center: CanvasPoint(x: rand() * w, y: rand() * h), radius: 20 + rand() * 80),
                color: RGBAColor(r8: 0x1E, g8: 0x88, b8: 0xE5, a8: 0x40))
        }
        for i in 0..<40 {
            let x = rand() * w, y = rand() * h
            canvas.fill(.circle(center: CanvasPoint(x: x, y: y), radius: 8), color: .white)
            canvas.fill(
                .circle(center: CanvasPoint(x: x, y: y), radius: 6), color: RGBAColor(r8: 0x1E, g8: 0x88, b8: 0xE5))
            canvas.drawText(
                "Place \(i)", at: CanvasPoint(x: x + 10, y: y + 4), font: Font(size: 12), color: .black,
                halo: TextHalo())
        }
        return try canvas.makeBitmap()
    }

    /// Medians of wall-clock and thread-CPU milliseconds over `runs` runs. CPU time is the
    /// steadier figure on a shared machine (it leaves out time spent waiting for a core).
    static func median(_ runs: Int, _ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        func cpuNow() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
        }
        var wall: [Double] = []
        var cpu: [Double] = []
        for _ in 0..<runs {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let c0 = cpuNow()
            try body()
            cpu.append(cpuNow() - c0)
            wall.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        }
        return (wall.sorted()[runs / 2], cpu.sorted()[runs / 2])
    }

    @Test("PNG encode 1024×768: medians per option set")
    func encode() throws {
        let image = try Self.mapLikeImage()
        if let out = ProcessInfo.processInfo.environment["MAPWRIGHT_BENCH_OUT"] {
            try image.writePNG(to: out + "/bench-map-like.png")
        }
        let variants: [(String, PNGOptions)] = [
            ("fast (default: level 1, none)", .fast),
            ("fast, one thread", { var o = PNGOptions.fast; o.threads = 1; return o }()),
            ("level 2, none, default", PNGOptions(compressionLevel: 2, filter: .none)),
            ("level 1, none, filtered (zlib)", PNGOptions(compressionLevel: 1, filter: .none, strategy: .filtered)),
            ("level 3, none, default (zlib)", PNGOptions(compressionLevel: 3, filter: .none)),
            ("level 1, up, RLE", PNGOptions(compressionLevel: 1, filter: .up, strategy: .runLength)),
            ("level 1, none, RLE", PNGOptions(compressionLevel: 1, filter: .none, strategy: .runLength)),
            ("level 1, sub, RLE", PNGOptions(compressionLevel: 1, filter: .sub, strategy: .runLength)),
            ("level 1, up, default", PNGOptions(compressionLevel: 1, filter: .up)),
            ("level 2, up, default", PNGOptions(compressionLevel: 2, filter: .up)),
            ("level 1, paeth, default", PNGOptions(compressionLevel: 1, filter: .paeth)),
            ("level 1, adaptive", PNGOptions(compressionLevel: 1, filter: .adaptive)),
            ("balanced (level 6, adaptive)", .balanced),
            ("smallest (level 9, adaptive)", .smallest),
            ("fast, keep alpha (RGBA)", PNGOptions(compressionLevel: 1, filter: .none, dropOpaqueAlpha: false)),
        ]
        print("PNG encode benchmark, 1024x768 map-like image, \(ProcessInfo.processInfo.processorCount) CPUs")
        for (name, options) in variants {
            var size = 0
            let runs = options.compressionLevel >= 6 ? 5 : 21
            let ms = try Self.median(runs) { size = try image.pngData(options: options).count }
            print(
                "  " + name.padding(toLength: 36, withPad: " ", startingAt: 0)
                    + String(format: " median %7.2f ms wall %7.2f ms cpu  %8d bytes", ms.wall, ms.cpu, size))
        }
        let png = try image.pngData()
        let decode = try Self.median(21) { _ = try Bitmap(pngData: png) }
        print(String(format: "  decode (fast-encoded file)           median %7.2f ms wall %7.2f ms cpu", decode.wall, decode.cpu))
        let noisy = try Bitmap(
            width: 1024, height: 768,
            pixels: (0..<(1024 * 768 * 4)).map { i -> UInt8 in
                // SplitMix64's finaliser of the index: bytes with no pattern zlib could find.
                var x = UInt64(i) &* 0x9E37_79B9_7F4A_7C15
                x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
                x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
                return UInt8(truncatingIfNeeded: x ^ (x >> 31))
            })
        let worst = try Self.median(11) { _ = try noisy.pngData() }
        print(String(format: "  fast, incompressible noise (RGBA)    median %7.2f ms wall %7.2f ms cpu", worst.wall, worst.cpu))
    }
}
