import Foundation
import MapImage
import MapTestSupport
import Testing

/// `mapwright symbols`: the Maki names, filtered, and the sheet that shows them.
@Suite struct SymbolsCLITests {
    /// One name a line, sorted; `--matching` keeps those containing the text (any case); no
    /// match is an error that says so.
    @Test func listsNames() throws {
        let all = try runMapwright(["symbols"])
        #expect(all.status == 0)
        let names = all.stdout.split(separator: "\n").map(String.init)
        #expect(names.count == 214 && names == names.sorted() && names.contains("bus") && names.contains("bank-JP"))
        let rail = try runMapwright(["symbols", "--matching", "RAIL"])
        #expect(rail.stdout == "rail\nrail-light\nrail-metro\n")
        let none = try runMapwright(["symbols", "--matching", "zzz"])
        #expect(none.status != 0 && none.stderr.contains("no Maki icon name contains 'zzz'") && none.stdout.isEmpty)
    }

    /// The sheet: 8 cells of 112 × 64 px to a row (at `--scale 2`, twice that), each with the
    /// icon's dark ink (#1f2328) in its 30-px box and the grey name below; cells past the last
    /// name stay white. A bad scale or an unwritable path is an error and leaves no file.
    @Test func drawsASheet() throws {
        let dir = try ScratchDirectory("symbols")
        let out = dir.url.appendingPathComponent("rail.png").path
        let r = try runMapwright(["symbols", "--matching", "rail", "--sheet", out, "--scale", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try Bitmap(pngData: Array(try Data(contentsOf: URL(fileURLWithPath: out))))
        #expect(image.width == 3 * 112 * 2 && image.height == 64 * 2)
        for cell in 0 ..< 3 {
            var ink = 0, grey = 0
            for y in 0 ..< 128 {
                for x in cell * 224 ..< (cell + 1) * 224 {
                    let p = image.pixel(x: x, y: y)!
                    if p.r < 0x30 && p.g < 0x30 && p.b < 0x30 { ink += 1; #expect(y >= 16 && y < 16 + 60) }
                    if abs(Int(p.r) - 0x57) < 12 && abs(Int(p.b) - 0x6A) < 12 && y > 76 { grey += 1 }
                }
            }
            // A rail icon fills a good part of its 60-px box; the name is a few dozen pixels of text.
            #expect(ink > 600 && grey > 30, "cell \(cell): \(ink) ink, \(grey) text pixels")
        }
        let full = try runMapwright(["symbols", "--sheet", dir.url.appendingPathComponent("all.png").path])
        #expect(full.status == 0 && full.stdout.contains("896x1728  214 icons"))
        let badScale = try runMapwright(["symbols", "--sheet", dir.url.appendingPathComponent("x.png").path, "--scale", "9"])
        #expect(badScale.status != 0 && badScale.stderr.contains("--scale must be in 1…4"))
        let nowhere = dir.url.appendingPathComponent("missing/dir/x.png").path
        let badPath = try runMapwright(["symbols", "--sheet", nowhere])
        #expect(badPath.status != 0 && badPath.stderr.contains(nowhere) && !FileManager.default.fileExists(atPath: nowhere))
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("x.png").path))
    }
}
