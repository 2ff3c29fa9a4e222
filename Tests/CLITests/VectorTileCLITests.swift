import Foundation
import GeoKit
import MapCamera
import MapImage
import MapTestSupport
import Testing

/// Vector tiles from the command line: GDAL's archive (`MapTilesTests/Fixtures/vector`) drawn
/// in the dark style and read back by Pillow, the same archive converted to PMTiles by PyPI's
/// `pmtiles-convert` drawing the same pixels, `tiles inspect --tile`, and a damaged tile.
@Suite(.serialized) struct VectorTileCLITests {
    let dir: ScratchDirectory
    init() throws { dir = try ScratchDirectory("vector-tiles") }

    static let archive = repositoryRoot.appendingPathComponent("Tests/MapTilesTests/Fixtures/vector/vector-fixture.mbtiles").path
    static let view = ["--center", "46.026,7.012", "--zoom", "13", "--size", "640x640", "--no-attribution"]

    /// Pillow's reading of pixels of a PNG, as "r,g,b" lines.
    func pillow(_ png: String, _ points: [(Int, Int)]) throws -> [String] {
        let code = "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1]).convert('RGB')\n"
            + "for a in sys.argv[2:]:\n    x, y = map(int, a.split(','))\n    print('%d,%d,%d' % im.getpixel((x, y)))\n"
        let r = try runProgram("/usr/bin/python3", ["-c", code, png] + points.map { "\($0.0),\($0.1)" })
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    func screen(_ lat: Double, _ lon: Double) -> (Int, Int) {
        let camera = Camera(center: LatLng(lat: 46.026, lon: 7.012), zoom: 13, size: ScreenSize(width: 640, height: 640))
        let s = camera.project(LatLng(lat: lat, lon: lon))!
        return (Int(s.x), Int(s.y))
    }

    @Test func theDarkStyleDrawsGDALsLakeAndItsIsland() throws {
        let out = dir.path("dark.png")
        let r = try runMapwright(["render", "--tiles", Self.archive, "--style", "dark", "-o", out] + Self.view)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        // The lake in the dark water (0x0F1B2D), the island in the dark land (0x454A53).
        #expect(try pillow(out, [screen(46.016, 7.006), screen(46.010, 7.015)]) == ["15,27,45", "69,74,83"])
    }

    @Test func thePMTilesConversionDrawsTheSamePixels() throws {
        let pm = dir.path("fixture.pmtiles")
        let convert = repositoryRoot.appendingPathComponent(".venv-oracles/bin/pmtiles-convert").path
        let c = try runProgram(convert, [Self.archive, pm])
        #expect(c.status == 0, "\(c.stderr)")
        let a = try runMapwright(["render", "--tiles", Self.archive, "-o", dir.path("a.png")] + Self.view)
        let b = try runMapwright(["render", "--tiles", pm, "-o", dir.path("b.png")] + Self.view)
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        let pa = try Bitmap(contentsOfPNGFile: dir.path("a.png")), pb = try Bitmap(contentsOfPNGFile: dir.path("b.png"))
        #expect(pa.pixels == pb.pixels)
        #expect(try pillow(dir.path("b.png"), [screen(46.016, 7.006)]) == ["170,211,223"])
    }

    @Test func inspectPrintsATilesLayersAndValues() throws {
        let r = try runMapwright(["tiles", "inspect", Self.archive, "--tile", "10/531/364"])
        #expect(r.status == 0, "\(r.stderr)")
        for line in ["5 layers", "layer water (extent 4096): 1 features (1 polygons)", "  class: lake ×1",
                     "layer transportation (extent 4096): 2 features (2 lines)", "  class: path ×1, primary ×1",
                     "layer place (extent 4096): 1 features (1 points)", "  name: Testville ×1", "  intermittent: false ×1"] {
            #expect(r.stdout.contains(line), "\(line) in \(r.stdout)")
        }
        let lang = try runMapwright(["render", "--tiles", Self.archive, "--tiles-language", "e n", "-o", dir.path("lang.png")] + Self.view)
        #expect(lang.status != 0 && lang.stderr.contains("'e n' is not a language code"), "\(lang.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("lang.png")))
        let bad = try runMapwright(["tiles", "inspect", Self.archive, "--tile", "10/5310/364"])
        #expect(bad.status != 0 && bad.stderr.contains("Z/X/Y"), "\(bad.stderr)")
    }

    /// A tile whose bytes are not a vector tile: a warning naming it and why, the ancestor drawn
    /// instead; with `--strict`, an error and no image.
    @Test func aDamagedTileIsNamedAndStrictRefusesTheImage() throws {
        let copy = dir.path("damaged.mbtiles")
        try FileManager.default.copyItem(atPath: Self.archive, toPath: copy)
        // Zoom 13, the lake's tile (TMS row), replaced by bytes that end inside a field.
        let py = "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
            + "c.execute('update tiles set tile_data = ? where zoom_level = 13 and tile_column = 4255 and tile_row = 5277', (bytes([0x1a, 0x40, 0x0a]),))\n"
            + "c.commit()\nprint(c.total_changes)\n"
        let s = try runProgram("/usr/bin/python3", ["-c", py, copy])
        #expect(s.stdout.hasPrefix("1"), "\(s.stdout) \(s.stderr)")
        let out = dir.path("damaged.png")
        let r = try runMapwright(["render", "--tiles", copy, "-o", out] + Self.view)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("tile 13/4255/2914") && r.stderr.contains("vector tile: byte 1"), "\(r.stderr)")
        // The parent (zoom 12) stands in: the lake is still there.
        #expect(try pillow(out, [screen(46.016, 7.006)]) == ["170,211,223"])
        let strict = try runMapwright(["render", "--tiles", copy, "--strict", "-o", dir.path("strict.png")] + Self.view)
        #expect(strict.status != 0 && strict.stderr.contains("tile 13/4255/2914"), "\(strict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("strict.png")))
    }

    /// The archive exported by PyPI's `mb-util` to a `z/x/y.pbf` tree, read as a directory and
    /// served over HTTP on 127.0.0.1 (a `…/{y}.pbf` template is a vector source): both draw the
    /// archive's pixels.
    @Test func aDirectoryAndAnHTTPServerOfPbfTilesDrawTheArchivesPixels() throws {
        let tree = dir.path("tree")
        let mbutil = repositoryRoot.appendingPathComponent(".venv-oracles/bin/mb-util").path
        let e = try runProgram(mbutil, ["--image_format=pbf", "--scheme=xyz", Self.archive, tree])
        #expect(e.status == 0, "\(e.stderr)")
        #expect(FileManager.default.fileExists(atPath: tree + "/13/4255/2914.pbf"))
        let a = try runMapwright(["render", "--tiles", Self.archive, "-o", dir.path("archive.png")] + Self.view)
        let d = try runMapwright(["render", "--tiles", tree, "-o", dir.path("tree.png")] + Self.view)
        #expect(a.status == 0 && d.status == 0, "\(a.stderr) \(d.stderr)")
        let want = try Bitmap(contentsOfPNGFile: dir.path("archive.png")).pixels
        #expect(try Bitmap(contentsOfPNGFile: dir.path("tree.png")).pixels == want)

        let portFile = dir.path("port")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Oracles/fault_tile_server.py").path,
                            tree, portFile]
        try server.run()
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        for _ in 0 ..< 100 where !FileManager.default.fileExists(atPath: portFile) { usleep(50_000) }
        let port = try String(contentsOfFile: portFile, encoding: .utf8)
        // The server has tiles only where the archive does: the others are 404s (warnings; their
        // ancestors stand in, so only the archive's own tiles are compared).
        let h = try runMapwright(["render", "--tiles", "http://127.0.0.1:\(port)/{z}/{x}/{y}.pbf", "-o", dir.path("http.png")] + Self.view)
        #expect(h.status == 0, "\(h.stderr)")
        let got = try Bitmap(contentsOfPNGFile: dir.path("http.png"))
        let archive = try Bitmap(contentsOfPNGFile: dir.path("archive.png"))
        let camera = Camera(center: LatLng(lat: 46.026, lon: 7.012), zoom: 13, size: ScreenSize(width: 640, height: 640))
        var compared = 0, differing = 0
        for y in 0 ..< 640 {
            for x in 0 ..< 640 {
                // Tiles 13/4255/2912…2914 hold the lake, the road, the building and the place.
                guard let g = camera.unproject(ScreenPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)),
                      let t = try? TileID.containing(g, zoom: 13), t.x == 4255, (2912 ... 2914).contains(t.y),
                      let p = got.pixel(x: x, y: y), let q = archive.pixel(x: x, y: y) else { continue }
                compared += 1
                if max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b))) > 2 { differing += 1 }
            }
        }
        // A neighbour's ancestor, standing in for its 404, overlaps the edge of the layer that
        // crosses into it by its buffer: a few antialiased edge pixels, nothing else.
        #expect(compared > 100_000 && differing * 1000 < compared, "\(differing) of \(compared) pixels differ")
        let log = (try? String(contentsOfFile: tree + "/requests.log", encoding: .utf8)) ?? ""
        #expect(log.contains("/13/4255/2914.pbf"), "\(log)")
    }

    /// `--vector-style`: colours by kind over the built-in style, and clear errors for an
    /// unknown kind, a bad colour or a file that is not a style object.
    @Test func aVectorStyleFileRecoloursKindsAndRefusesWhatItDoesNotKnow() throws {
        let good = try dir.write("style.json", ##"{"base": "dark", "background": "#EEEEEE", "colors": {"water": "#FF0000"}}"##)
        let r = try runMapwright(["render", "--tiles", Self.archive, "--vector-style", good, "-o", dir.path("styled.png")] + Self.view)
        #expect(r.status == 0, "\(r.stderr)")
        // The lake red, the island (the ground) #EEEEEE; the road keeps the dark style's colour.
        #expect(try pillow(dir.path("styled.png"), [screen(46.016, 7.006), screen(46.010, 7.015), screen(46.03, 7.0)])
            == ["255,0,0", "238,238,238", "128,134,143"])
        for (text, why) in [(##"{"colors": {"lake": "#FF0000"}}"##, "vectorStyle.colors.lake: unknown kind (known: earth,"),
                            (##"{"colors": {"water": "#FF00"}}"##, "vectorStyle.colors.water: unknown colour"),
                            (##"{"poiColors": {"snacks": "#FF0000"}}"##, "vectorStyle.poiColors.snacks: unknown category (known: food,"),
                            (##"{"poiColors": {"food": "nope"}}"##, "vectorStyle.poiColors.food: unknown colour"),
                            (#"{"base": "sepia"}"#, "vectorStyle.base: unknown style 'sepia'"),
                            ("[1]", "not a vector style")] {
            let file = try dir.write("bad.json", text)
            let b = try runMapwright(["render", "--tiles", Self.archive, "--vector-style", file, "-o", dir.path("bad.png")] + Self.view)
            #expect(b.status != 0 && b.stderr.contains(why), "\(text): \(b.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.path("bad.png")))
        }
    }

    /// `labelText` and `labelHalo` recolour the names (here Testville's, right of its dot), read
    /// back with Pillow: red letters in a green halo, where the built-in style has neither.
    @Test func aVectorStyleRecoloursTheNames() throws {
        let style = try dir.write("names.json", ##"{"labelText": "#FF0000", "labelHalo": "#00FF00"}"##)
        let dot = screen(46.04, 7.02)
        let region = (dot.1 - 10 ... dot.1 + 10).flatMap { y in (dot.0 + 4 ... dot.0 + 80).map { (max(0, min(639, $0)), y) } }
        func count(_ extra: [String]) throws -> (red: Int, green: Int) {
            let out = dir.path("names-\(extra.count).png")
            let r = try runMapwright(["render", "--tiles", Self.archive, "-o", out] + extra + Self.view)
            #expect(r.status == 0, "\(r.stderr)")
            let rgb = try pillow(out, region).map { $0.split(separator: ",").compactMap { Int($0) } }
            return (rgb.filter { $0[0] > 200 && $0[1] < 80 && $0[2] < 80 }.count, rgb.filter { $0[1] > 200 && $0[0] < 80 && $0[2] < 80 }.count)
        }
        let plain = try count([]), styled = try count(["--vector-style", style])
        #expect(plain.red == 0 && plain.green == 0, "\(plain)")
        #expect(styled.red > 30 && styled.green > 60, "\(styled)")
        let bad = try dir.write("badnames.json", ##"{"labelHalo": "nope"}"##)
        let b = try runMapwright(["render", "--tiles", Self.archive, "--vector-style", bad, "-o", dir.path("bad.png")] + Self.view)
        #expect(b.status != 0 && b.stderr.contains("vectorStyle.labelHalo: unknown colour"), "\(b.stderr)")
    }

    /// Dark vector tiles: past the archive's tiles the image is the dark ground, not a light one.
    @Test func theGroundPastTheTilesFollowsTheStyle() throws {
        let r = try runMapwright(["render", "--tiles", Self.archive, "--style", "dark", "--center", "46.5,7.5", "--zoom", "13",
                                  "--size", "64x64", "--no-attribution", "-o", dir.path("beyond.png")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try pillow(dir.path("beyond.png"), [(32, 32)]) == ["69,74,83"])
    }
}
