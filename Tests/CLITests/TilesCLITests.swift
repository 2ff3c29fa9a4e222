import Foundation
import GeoKit
import MapCamera
import MapImage
import MapTestSupport
import Testing

/// `mapwright tiles`: pyramids read back by other tools and shown by Leaflet.
@Suite(.serialized) struct TilesCLITests {
    let dir: ScratchDirectory
    init() throws { dir = try ScratchDirectory("tiles-cli") }

    static let oracles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Oracles")

    /// A hike around Lake Cerknica with named waypoints.
    func hike() throws -> String {
        try dir.write("hike.gpx", """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            <wpt lat="45.78" lon="14.36"><name>Dolenje Jezero</name></wpt>
            <trk><trkseg>
            <trkpt lat="45.78" lon="14.36"/><trkpt lat="45.77" lon="14.40"/><trkpt lat="45.75" lon="14.42"/>
            <trkpt lat="45.73" lon="14.43"/><trkpt lat="45.72" lon="14.47"/>
            </trkseg></trk></gpx>
            """)
    }

    /// Max channel difference and the share of pixels that differ by more than 8.
    func compare(_ a: Bitmap, _ b: Bitmap) -> (mad: Double, far: Double) {
        var sum = 0, far = 0
        for i in 0 ..< a.width * a.height {
            var m = 0
            for c in 0 ..< 4 {
                let d = abs(Int(a.pixels[i * 4 + c]) - Int(b.pixels[i * 4 + c]))
                sum += d
                m = max(m, d)
            }
            if m > 8 { far += 1 }
        }
        return (Double(sum) / Double(a.width * a.height * 4), Double(far) / Double(a.width * a.height))
    }

    /// Our MBTiles (read with Python's sqlite3) and PMTiles (the PyPI pmtiles reader) hold every
    /// tile of the bounds, each equal to what `render` draws for that tile's own view.
    @Test(arguments: ["pyramid.mbtiles", "pyramid.pmtiles"])
    func ourArchivesReadBackTileForTileAsRenderDrawsThem(_ name: String) throws {
        let base = try #require(try TileArchives.views()["gdal2tiles"]).path
        let scene = ["--tiles", base, "--route", try hike(), "--no-waypoints", "--circle", "45.75,14.40,1500m"]
        let out = dir.path(name)
        let r = try runMapwright(["tiles", "-o", out, "--bounds", "45.70,14.30,45.80,14.50", "--zooms", "10-12"] + scene)
        #expect(r.status == 0, "\(r.stderr)")
        let python = name.hasSuffix(".pmtiles") ? TileArchives.venvPython : "/usr/bin/python3"
        let dump = try runProgram(python, [Self.oracles.appendingPathComponent("dump_tiles.py").path, out, dir.path("dump-\(name)")])
        #expect(dump.status == 0, "\(dump.stderr)")
        struct Dump: Decodable { let count: Int }
        let d = try JSONDecoder().decode(Dump.self, from: Data(dump.stdout.utf8))
        let bounds = try GeoBounds(south: 45.70, west: 14.30, north: 45.80, east: 14.50)
        let expected = try (10 ... 12).reduce(0) { $0 + (try TileID.coverCount(bounds, zoom: $1)) }
        #expect(d.count == expected, "\(d.count) tiles, expected \(expected)")
        for tile in try TileID.covering(bounds, zoom: 12) + TileID.covering(bounds, zoom: 10) {
            let stored = try Bitmap(contentsOfPNGFile: dir.path("dump-\(name)/\(tile.z)_\(tile.x)_\(tile.y).png"))
            #expect(stored.width == 256 && stored.height == 256)
            let c = tile.mapRect
            let centre = MapPoint(x: c.minX + c.width / 2, y: c.minY + c.height / 2).latLng
            let single = dir.path("single-\(tile.z)-\(tile.x)-\(tile.y).png")
            let s = try runMapwright(["render", "-o", single, "--center", "\(centre.lat),\(centre.lon)", "--zoom", "\(tile.z - 1)",
                                      "--size", "256x256", "--no-attribution"] + scene)
            #expect(s.status == 0, "\(s.stderr)")
            let (mad, far) = compare(stored, try Bitmap(contentsOfPNGFile: single))
            #expect(mad < 0.5 && far < 0.002, "\(tile): mean difference \(mad), \(far * 100) % of pixels off by more than 8")
        }
    }

    /// Leaflet (Debian's libjs-leaflet) in headless Chromium shows a directory pyramid we wrote
    /// as `render` draws the same view.
    @Test func leafletInChromiumShowsOurDirectoryPyramid() throws {
        let view = try #require(try TileArchives.views()["gdal2tiles"])
        let scene = ["--tiles", view.path, "--route", try hike(), "--no-waypoints"]
        let pyramid = dir.path("leaflet") + "/"
        let r = try runMapwright(["tiles", "-o", pyramid, "--bounds", "45.70,14.30,45.82,14.50", "--zooms", "11-12"] + scene)
        #expect(r.status == 0, "\(r.stderr)")
        let html = """
            <!DOCTYPE html><html><head><link rel="stylesheet" href="file:///usr/share/javascript/leaflet/leaflet.css">
            <script src="file:///usr/share/javascript/leaflet/leaflet.js"></script>
            <style>html,body,#map{margin:0;width:512px;height:512px;overflow:hidden}</style></head><body><div id="map"></div><script>
            var map = L.map('map', {zoomControl: false, attributionControl: false, fadeAnimation: false, zoomAnimation: false})
              .setView([\(view.lat), \(view.lon)], 12);
            L.tileLayer('{z}/{x}/{y}.png', {maxZoom: 12}).addTo(map);
            </script></body></html>
            """
        try html.write(toFile: pyramid + "index.html", atomically: true, encoding: .utf8)
        let shot = dir.path("leaflet.png")
        let c = try runProgram(chromiumPath, ["--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                                                     "--hide-scrollbars", "--window-size=512,512", "--virtual-time-budget=5000",
                                                     "--screenshot=\(shot)", "file://\(pyramid)index.html"])
        #expect(c.status == 0, "\(c.stderr)")
        let ours = dir.path("ours.png")
        let o = try runMapwright(["render", "-o", ours, "--center", "\(view.lat),\(view.lon)", "--zoom", "11", "--size", "512x512",
                                  "--no-attribution"] + scene)
        #expect(o.status == 0, "\(o.stderr)")
        let a = try Bitmap(contentsOfPNGFile: shot), b = try Bitmap(contentsOfPNGFile: ours)
        #expect(a.width == 512 && a.height == 512)
        let (mad, far) = compare(a, b)
        #expect(mad < 1 && far < 0.01, "Leaflet's view differs: mean \(mad), \(far * 100) % of pixels off by more than 8")
    }

    @Test func inspectTellsFormatZoomsBoundsAndCounts() throws {
        let out = dir.path("world.pmtiles")
        let r = try runMapwright(["tiles", "-o", out, "--bounds", "-60,-180,80,180", "--zooms", "0-2"])
        #expect(r.status == 0, "\(r.stderr)")
        let i = try runMapwright(["tiles", "inspect", out])
        #expect(i.status == 0, "\(i.stderr)")
        for line in ["kind: PMTiles v3 (clustered", "format: png", "zooms: 0-2", "bounds: -60.000000,-180.000000,80.000000,180.000000",
                     "tile count: 17", "  z0: 1", "  z1: 4", "  z2: 12"] {
            #expect(i.stdout.contains(line), "missing '\(line)' in:\n\(i.stdout)")
        }
        // An archive made by GDAL: its metadata and counts.
        let gdal = try #require(try TileArchives.views()["gdal.mbtiles"]).path
        let g = try runMapwright(["tiles", "inspect", gdal])
        #expect(g.status == 0 && g.stdout.contains("kind: MBTiles") && g.stdout.contains("zooms: 9-12"), "\(g.stdout)\(g.stderr)")
    }

    @Test func badArgumentsAndCorruptArchivesAreClearErrors() throws {
        let cases: [([String], String)] = [
            (["tiles", "-o", dir.path("x.png"), "--bounds", "0,0,1,1", "--zooms", "0-1"], "expected OUT.mbtiles, OUT.pmtiles"),
            (["tiles", "-o", dir.path("x.mbtiles"), "--bounds", "0,0,1", "--zooms", "0-1"], "--bounds"),
            (["tiles", "-o", dir.path("x.mbtiles"), "--bounds", "0,0,1,1", "--zooms", "3-1"], "--zooms"),
            (["tiles", "-o", dir.path("x.mbtiles"), "--bounds", "-80,-180,80,180", "--zooms", "0-20"], "over the limit"),
        ]
        for (args, message) in cases {
            let r = try runMapwright(args)
            #expect(r.status != 0 && r.stderr.contains(message), "\(args): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("x.mbtiles")))
        let junk = try dir.write("junk.pmtiles", "PMTiles but not really")
        let r = try runMapwright(["render", "--tiles", junk, "--center", "45,14", "--zoom", "5", "-o", dir.path("j.png")])
        #expect(r.status != 0 && r.stderr.contains(junk) && r.stderr.contains("PMTiles header"), "\(r.stderr)")
        let bad = try dir.write("bad.mbtiles", String(repeating: "not sqlite ", count: 100))
        let m = try runMapwright(["tiles", "inspect", bad])
        #expect(m.status != 0 && m.stderr.contains("not an MBTiles archive"), "\(m.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("j.png")))
    }

    @Test func aDirectoryPyramidThatFailsPartWayTakesBackItsTiles() throws {
        // A file named 2 where zoom 2's directory would go: zooms 0 and 1 are written first
        // (5 tiles), then zoom 2 fails. What was there before stays; this run's tiles and the
        // directories it made go.
        let pyr = dir.url.appendingPathComponent("pyr")
        try FileManager.default.createDirectory(at: pyr, withIntermediateDirectories: true)
        _ = try dir.write("pyr/keep.txt", "mine")
        _ = try dir.write("pyr/2", "in the way")
        let r = try runMapwright(["tiles", "-o", pyr.path + "/", "--bounds", "-60,-180,80,180", "--zooms", "0-2", "--workers", "1"])
        #expect(r.status != 0 && r.stderr.contains("pyr/2/0") && r.stderr.contains("Not a directory"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: pyr.path).sorted() == ["2", "keep.txt"])
        // A scene that fails to load leaves no directory.
        let s = try runMapwright(["tiles", "-o", dir.path("fresh") + "/", "--bounds", "0,0,1,1", "--zooms", "0-1",
                                  "--scene", dir.path("missing.json")])
        #expect(s.status != 0 && s.stderr.contains("missing.json"), "\(s.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("fresh")))
    }
}
