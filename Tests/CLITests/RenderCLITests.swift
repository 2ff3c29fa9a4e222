import Foundation
import GeoKit
import MapCamera
import MapImage
import MapTestSupport
import Testing

/// `mapwright render` end to end through the built binary: where things land, the fitted
/// camera, and that bad input fails cleanly without leaving a file behind.
@Suite(.serialized) struct RenderCLITests {
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory("mapwright-render") }

    func path(_ name: String) -> String { scratch.path(name) }

    func write(_ name: String, _ text: String) throws -> String { try scratch.write(name, text) }

    func differs(_ p: RGBA8?, _ r: Int, _ g: Int, _ b: Int) -> Int { colorDistance(p, r, g, b) }

    /// `mapwright render -o NAME ARGS…`, which must succeed, and the PNG it wrote.
    func render(_ name: String, _ args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Bitmap {
        let out = path(name)
        let r = try runMapwright(["render", "-o", out] + args)
        #expect(r.status == 0, "\(r.stderr)", sourceLocation: sourceLocation)
        return try Bitmap(contentsOfPNGFile: out)
    }

    /// A marker's centre pixel has the marker colour and the ring 7 px out is white, at the
    /// position `Camera.project` gives, at bearings 0 and 45 and scales 1 and 2.
    @Test(arguments: [(0.0, 1.0), (45, 1), (0, 2), (45, 2)])
    func markerLandsWhereTheCameraSays(bearing: Double, scale: Double) throws {
        let marker = LatLng(lat: 10.3, lon: 20.4)
        let image = try render("m-\(Int(bearing))-\(Int(scale)).png", [
            "--basemap", "none", "--no-attribution", "--center", "10,20", "--zoom", "7",
            "--bearing", "\(bearing)", "--size", "300x200", "--scale", "\(scale)",
            "--marker", "\(marker.lat),\(marker.lon)", "--marker-color", "00a000",
        ])
        #expect(image.width == Int(300 * scale) && image.height == Int(200 * scale))
        let cam = Camera(center: LatLng(lat: 10, lon: 20), zoom: 7, bearing: bearing,
                         size: ScreenSize(width: 300, height: 200))
        let s = try #require(cam.project(marker))
        let cx = Int(s.x * scale), cy = Int(s.y * scale)
        #expect(differs(image.pixel(x: cx, y: cy), 0, 0xA0, 0) <= 8, "centre \(String(describing: image.pixel(x: cx, y: cy)))")
        // The 2 px white ring spans radius 6…8 logical px.
        let ring = image.pixel(x: cx + Int(7 * scale), y: cy)
        #expect(differs(ring, 255, 255, 255) <= 24, "ring \(String(describing: ring))")
        // Far from the marker: the white background of --basemap none.
        #expect(differs(image.pixel(x: cx + Int(30 * scale), y: cy), 255, 255, 255) == 0)
    }

    /// Without --center/--zoom the camera fits the route: at bearing 0 the centre is the
    /// Mercator midpoint of the bounds and the zoom makes the drawn route touch the padded
    /// viewport: its vertices stay half the 4-px width (plus 1 px of antialiasing) further in,
    /// so with p = 20 + 3 (hand formula: zoom = log2(min((W − 2p)/(Δx·512), (H − 2p)/(Δy·512)))).
    /// `-o -` writes the PNG to standard output (a pipe here), as `-o /dev/stdout` does, and the
    /// device link is left as it was.
    @Test func standardOutputTakesThePNG() throws {
        let exe = mapwrightExecutable().path
        for target in ["-", "/dev/stdout"] {
            let r = try runProgram("/bin/sh", ["-c", "cd '\(scratch.url.path)' && '\(exe)' render --center 10,20 --zoom 3 --size 64x48 -o \(target) | cat"])
            #expect(r.status == 0, "\(target): \(r.stderr)")
            let image = try Bitmap(pngData: [UInt8](r.data))
            #expect(image.width == 64 && image.height == 48, "\(target)")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/dev/stdout").hasPrefix("/proc/self/fd"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("-")))
    }

    /// The extension of -o picks the format, checked by Pillow: .jpg/.jpeg a JPEG close to the PNG
    /// (its default quality 90, a lower --quality smaller), .webp a lossless WebP with the PNG's
    /// exact pixels (lossy with --quality), --palette a palette PNG and .gif a GIF close to it.
    /// Another extension, --quality on a PNG or GIF, or --palette on a JPEG, is refused before
    /// anything is drawn.
    @Test func theExtensionPicksTheFormat() throws {
        let args = ["--center", "37.77,-122.42", "--zoom", "11", "--size", "160x120", "--route-width", "6",
                    "--marker", "37.77,-122.42"]
        let png = try render("f.png", args)
        func pillow(_ file: String) throws -> (format: String, pixels: [UInt8]) {
            let r = try runProgram("/usr/bin/python3", ["-c", """
                import sys; from PIL import Image
                im = Image.open(sys.argv[1]); print(im.format, im.size[0], im.size[1])
                sys.stdout.flush(); sys.stdout.buffer.write(im.convert('RGB').tobytes())
                """, file])
            #expect(r.status == 0, "\(r.stderr)")
            let bytes = [UInt8](r.data)
            let newline = bytes.firstIndex(of: 10) ?? 0
            let head = String(decoding: bytes[..<newline], as: UTF8.self)
            #expect(head.hasSuffix(" 160 120"), "\(file): \(head)")
            return (String(head.split(separator: " ").first ?? ""), Array(bytes[(newline + 1)...]))
        }
        let rgb = (0..<(160 * 120)).flatMap { i -> [UInt8] in
            let p = png.pixels; return [p[i * 4], p[i * 4 + 1], p[i * 4 + 2]]
        }
        func meanDifference(_ a: [UInt8]) -> Double {
            zip(a, rgb).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(rgb.count)
        }
        for name in ["f.jpg", "f.JPEG"] {
            _ = try runMapwright(["render", "-o", path(name)] + args)
            let jpeg = try pillow(path(name))
            #expect(jpeg.format == "JPEG", "\(name): \(jpeg.format)")
            #expect(meanDifference(jpeg.pixels) < 3, "\(name): mean difference \(meanDifference(jpeg.pixels))")
        }
        _ = try runMapwright(["render", "-o", path("low.jpg"), "--quality", "20"] + args)
        let low = try FileManager.default.attributesOfItem(atPath: path("low.jpg"))[.size] as? Int ?? 0
        let high = try FileManager.default.attributesOfItem(atPath: path("f.jpg"))[.size] as? Int ?? 0
        #expect(low > 0 && low < high, "quality 20: \(low) bytes, 90: \(high)")
        _ = try runMapwright(["render", "-o", path("f.webp")] + args)
        let webp = try pillow(path("f.webp"))
        #expect(webp.format == "WEBP" && webp.pixels == rgb, "lossless WebP: \(webp.format), mean difference \(meanDifference(webp.pixels))")
        _ = try runMapwright(["render", "-o", path("lossy.webp"), "--quality", "60"] + args)
        let lossy = try pillow(path("lossy.webp"))
        #expect(lossy.format == "WEBP" && lossy.pixels != rgb && meanDifference(lossy.pixels) < 4)
        // A palette PNG and a GIF: at most 256 colours, within a level or two of the PNG on average.
        _ = try runMapwright(["render", "-o", path("p8.png"), "--palette"] + args)
        let p8 = try pillow(path("p8.png"))
        #expect(p8.format == "PNG" && meanDifference(p8.pixels) < 1.5, "palette PNG: mean difference \(meanDifference(p8.pixels))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("p8.png")))[25] == 3)
        _ = try runMapwright(["render", "-o", path("f.gif")] + args)
        let gif = try pillow(path("f.gif"))
        #expect(gif.format == "GIF" && meanDifference(gif.pixels) < 1.5, "GIF: mean difference \(meanDifference(gif.pixels))")
        for (extra, message) in [(["-o", path("f.bmp")], "'.bmp' is not an image format written here"),
                                 (["-o", path("f.png8")], "'.png8' is not an image format written here"),
                                 (["-o", path("q.png"), "--quality", "50"], "--quality applies to .jpg and .webp"),
                                 (["-o", path("q.gif"), "--quality", "50"], "--quality applies to .jpg and .webp"),
                                 (["-o", path("q.jpg"), "--palette"], "--palette applies to .png"),
                                 (["-o", path("q.jpg"), "--quality", "101"], "--quality: 101 is not in 1…100")] {
            let r = try runMapwright(["render"] + extra + args)
            #expect(r.status == 1 && r.stderr.contains(message), "\(extra): \(r.stderr)")
        }
        for name in ["f.bmp", "f.png8", "q.png", "q.gif", "q.jpg"] { #expect(!FileManager.default.fileExists(atPath: path(name)), "\(name)") }
    }

    @Test func fitsTheRouteAndPrintsTheCamera() throws {
        let csv = try write("fit.csv", "lat,lon\n47.0,8.0\n47.3,8.6\n46.9,8.9\n")
        let r = try runMapwright(["render", "-o", path("fit.png"), "--route", csv, "--size", "400x300",
                                  "--padding", "20", "--print-camera", "--basemap", "none"])
        #expect(r.status == 0, "\(r.stderr)")
        let v = r.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
        try #require(v.count == 5)
        let sw = MapPoint(LatLng(lat: 46.9, lon: 8.0)), ne = MapPoint(LatLng(lat: 47.3, lon: 8.9))
        let dx = ne.x - sw.x, dy = sw.y - ne.y
        let zoom = log2(min(354 / (dx * 512), 254 / (dy * 512)))
        let mid = MapPoint(x: (sw.x + ne.x) / 2, y: (sw.y + ne.y) / 2).latLng
        expectNear(v[2], zoom, tolerance: 1e-6, "fitted zoom")
        expectNear(LatLng(lat: v[0], lon: v[1]), mid, tolerance: 1e-7, "fitted centre")
        #expect(v[3] == 0 && v[4] == 0)
    }

    /// A route vertex and a circle's geodesic rim point (GeoKit direct, itself checked against
    /// GeographicLib) carry their colours.
    @Test func routeAndCircleRimLandWhereTheCameraSays() throws {
        let csv = try write("r.csv", "lat,lon\n51.50,-0.20\n51.52,-0.10\n51.49,-0.05\n")
        let center = LatLng(lat: 51.505, lon: -0.12)
        let image = try render("rc.png", [
            "--basemap", "none", "--no-attribution", "--center", "51.505,-0.12",
            "--zoom", "12", "--size", "512x384", "--route", csv, "--route-color", "0000ff", "--route-width", "6",
            "--circle", "51.505,-0.12,1500m", "--circle-fill", "00000000", "--circle-stroke", "ff0000",
            "--circle-stroke-width", "3",
        ])
        let cam = Camera(center: center, zoom: 12, size: ScreenSize(width: 512, height: 384))
        let v = try #require(cam.project(LatLng(lat: 51.52, lon: -0.10)))
        #expect(differs(image.pixel(x: Int(v.x), y: Int(v.y)), 0, 0, 255) <= 40)
        for az in [0.0, 100, 200, 300] {
            let rim = Geodesic.wgs84.direct(from: center, azimuth: az, distance: 1500).point
            let s = try #require(cam.project(rim))
            let p = image.pixel(x: Int(s.x.rounded(.down)), y: Int(s.y.rounded(.down)))
            #expect(differs(p, 255, 0, 0) <= 60, "rim at azimuth \(az): \(String(describing: p))")
        }
    }

    /// A scene file with every 2D overlay type renders, and --repeat reports timings.
    @Test func sceneFileRendersAndRepeatReports() throws {
        let scene = try write("s.json", """
            {"version": 1, "size": [320, 240], "basemap": "none", "compass": true, "scaleBar": true,
             "camera": {"center": [48.85, 2.35], "zoom": 11, "bearing": 20},
             "overlays": [
               {"type": "polygon", "rings": [[[48.80, 2.25], [48.90, 2.25], [48.90, 2.45], [48.80, 2.45]],
                                              [[48.84, 2.32], [48.86, 2.32], [48.86, 2.38], [48.84, 2.38]]],
                "fill": "#00ff0060", "stroke": "006000", "strokeWidth": 2},
               {"type": "route", "coordinates": [[48.82, 2.30], [48.88, 2.40]], "color": "1f6feb", "width": 5,
                "dash": [2, 1], "casing": {"color": "ffffff", "width": 1}},
               {"type": "circle", "position": [48.85, 2.35], "radius": 20, "radiusUnit": "px"},
               {"type": "marker", "position": [48.86, 2.34], "style": "pin", "label": "Here"},
               {"type": "label", "position": [48.83, 2.36], "text": "Paris", "size": 16}
             ]}
            """)
        let r = try runMapwright(["render", "--scene", scene, "-o", path("s.png"), "--repeat", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("render: 2 runs, median"))
        let image = try Bitmap(contentsOfPNGFile: path("s.png"))
        #expect(image.width == 320 && image.height == 240)
    }

    /// A scene file's `dash` counts line widths (MapLibre's `line-dasharray`): [2, 1] on a 4-px
    /// line is 8 px on, 4 px off, and on a line 305.75 m wide at the equator at zoom 10
    /// (40 075 016.686 m / (512 · 2^10) = 76.44 m a pixel: 4 px) the same. Run lengths are read
    /// along each line's centre row, a pixel counted "on" when it is more red than white.
    @Test func sceneDashesCountLineWidths() throws {
        let scene = try write("dash.json", """
            {"size": [400, 120], "basemap": "none", "attribution": false, "camera": {"center": [0, 0], "zoom": 10},
             "overlays": [
               {"type": "route", "coordinates": [[0.00, -1], [0.00, 1]], "width": 4, "dash": [2, 1], "cap": "butt", "color": "ff0000"},
               {"type": "route", "coordinates": [[-0.03, -1], [-0.03, 1]], "width": 305.75, "widthUnit": "m", "dash": [2, 1],
                "cap": "butt", "color": "ff0000"},
               {"type": "route", "coordinates": [[0.03, -1], [0.03, 1]], "width": 2, "dash": [3, 3], "cap": "butt", "color": "ff0000"}]}
            """)
        let r = try runMapwright(["render", "--scene", scene, "-o", path("dash.png")])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try Bitmap(contentsOfPNGFile: path("dash.png"))
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 10, size: ScreenSize(width: 400, height: 120))
        for (lat, on, off) in [(0.0, 8, 4), (-0.03, 8, 4), (0.03, 6, 6)] {
            let y = Int(try #require(cam.project(LatLng(lat: lat, lon: 0))).y)
            var runs: [(on: Bool, length: Int)] = []
            for x in 0 ..< 400 {
                guard let p = image.pixel(x: x, y: y) else { continue }
                let isOn = Int(p.g) < 128
                if let last = runs.last, last.on == isOn { runs[runs.count - 1].length += 1 } else { runs.append((isOn, 1)) }
            }
            // The runs between the first and last (which the image's edges cut).
            let inner = runs.dropFirst().dropLast()
            #expect(inner.count > 20, "line at \(lat): \(inner.count) runs")
            for run in inner {
                #expect(abs(run.length - (run.on ? on : off)) <= 1, "line at \(lat): a run \(run.on ? "on" : "off") of \(run.length) px")
            }
        }
        let bad = try write("dash9.json", #"{"overlays": [{"type": "route", "coordinates": [[0, 0], [1, 1]], "dash": [1, 1, 1, 1, 1, 1, 1, 1, 1]}]}"#)
        let e = try runMapwright(["render", "--scene", bad, "-o", path("dash9.png")])
        #expect(e.status == 1 && e.stderr.contains("overlays[0].dash: dash lengths are line widths: at most 8"), "\(e.stderr)")
    }

    /// `--geojson`: each feature drawn as its geometry, in its simplestyle colours, where the
    /// camera says. Over the white of `--basemap none`, a fill of #00ff00 at opacity 0.5 is
    /// (127.5, 255, 127.5) by hand; the red line's vertex is red; the blue pin stands on its point.
    /// A colour that is not one names the flag, the feature and the property.
    @Test func geojsonFeaturesDrawInTheirSimplestyleColours() throws {
        let file = try write("f.geojson", """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"fill": "#0f0", "fill-opacity": 0.5, "stroke-width": 0},
               "geometry": {"type": "Polygon", "coordinates": [[[2.30, 48.84], [2.34, 48.84], [2.34, 48.86], [2.30, 48.86], [2.30, 48.84]]]}},
              {"type": "Feature", "properties": {"stroke": "#ff0000", "stroke-width": 8},
               "geometry": {"type": "LineString", "coordinates": [[2.36, 48.84], [2.38, 48.86]]}},
              {"type": "Feature", "properties": {"marker-color": "#0000ff", "title": "Here"},
               "geometry": {"type": "Point", "coordinates": [2.35, 48.845]}}]}
            """)
        let image = try render("gj.png", ["--basemap", "none", "--no-attribution", "--center", "48.85,2.35", "--zoom", "12",
                                          "--size", "400x300", "--geojson", file])
        let cam = Camera(center: LatLng(lat: 48.85, lon: 2.35), zoom: 12, size: ScreenSize(width: 400, height: 300))
        let inside = try #require(cam.project(LatLng(lat: 48.85, lon: 2.32)))
        #expect(differs(image.pixel(x: Int(inside.x), y: Int(inside.y)), 128, 255, 128) <= 2, "fill: \(String(describing: image.pixel(x: Int(inside.x), y: Int(inside.y))))")
        let vertex = try #require(cam.project(LatLng(lat: 48.86, lon: 2.38)))
        #expect(differs(image.pixel(x: Int(vertex.x), y: Int(vertex.y)), 255, 0, 0) <= 8)
        // The pin's body is in the 33 px above its tip.
        let tip = try #require(cam.project(LatLng(lat: 48.845, lon: 2.35)))
        var blue = 0
        for y in max(0, Int(tip.y) - 34) ... Int(tip.y) {
            for x in Int(tip.x) - 12 ... Int(tip.x) + 12 where differs(image.pixel(x: x, y: y), 0, 0, 255) <= 24 { blue += 1 }
        }
        #expect(blue > 100, "\(blue) blue pixels above the pin's point")
        // Outside every feature: the white background.
        #expect(differs(image.pixel(x: 10, y: 10), 255, 255, 255) == 0)

        let bad = try write("bad.geojson", """
            {"type": "Feature", "properties": {"stroke": "blu"}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}
            """)
        let out = path("never.png")
        let r = try runMapwright(["render", "-o", out, "--geojson", bad])
        #expect(r.status != 0 && !FileManager.default.fileExists(atPath: out))
        #expect(r.stderr.contains("--geojson \(bad): feature 0: property 'stroke': 'blu' is not a colour"), "\(r.stderr)")
    }

    /// Bad input: non-zero exit, a message saying where and why, and no output file.
    @Test(arguments: [
        (["--route", "/nonexistent/track.csv"], "track.csv"),
        (["--route", "BADCSV"], "bad.csv:2:1: expected a latitude"),
        (["--center", "nan,0", "--zoom", "3"], "--center"),
        (["--circle", "nan,0,5m"], "--circle #1"),
        (["--circle", "10,20,5 parsecs"], "radius"),
        (["--size", "0x100", "--center", "0,0", "--zoom", "1"], "size"),
        (["--size", "9000x100", "--center", "0,0", "--zoom", "1"], "8192"),
        (["--size", "8192x8000", "--center", "0,0", "--zoom", "1"], "megapixels"),
        (["--size", "1000x1000", "--scale", "9", "--center", "0,0", "--zoom", "1"], "scale"),
        (["--route", "GOODCSV", "--route-color", "zzz"], "colour"),
        (["--marker", "95,0"], "latitude"),
        (["--scene", "BADSCENE"], "overlays[0].radius"),
        (["--center", "0,0", "--zoom", "1", "--style", "purple"], "style"),
        ([], "no center/zoom"),
    ] as [([String], String)])
    func badInputFailsCleanly(args: [String], expected: String) throws {
        let bad = try write("bad.csv", "lat,lon\nabc,def\n")
        let good = try write("good.csv", "lat,lon\n1,2\n3,4\n")
        let badScene = try write("bad.json", #"{"overlays": [{"type": "circle", "position": [1, 2], "radius": "big"}]}"#)
        let argv = args.map { $0 == "BADCSV" ? bad : $0 == "GOODCSV" ? good : $0 == "BADSCENE" ? badScene : $0 }
        let out = path("never.png")
        let r = try runMapwright(["render", "-o", out] + argv)
        #expect(r.status != 0)
        #expect(r.stderr.contains(expected), "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// Negative numbers after a flag are values, not flags (southern and western positions,
    /// anticlockwise bearings): `--center -33.87,151.21 --bearing -30`.
    @Test func negativeValuesParse() throws {
        let out = path("neg.png")
        let r = try runMapwright([
            "render", "-o", out, "--basemap", "none", "--center", "-33.87,-151.21", "--zoom", "9",
            "--bearing", "-30", "--size", "200x150", "--marker", "-33.9,-151.2", "--circle", "-33.8,-151.3,2km",
            "--column", "-33.85,-151.25,500", "--arc", "-33.9,-151.3,-33.8,-151.1",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
        let p = try runMapwright(["camera", "project", "--center", "-33.87,-151.21", "--zoom", "9", "--bearing", "-30",
                                  "--size", "200x150"], stdin: "-33.87 -151.21\n")
        #expect(p.status == 0, "\(p.stderr)")
        #expect(p.stdout == "100.0 75.0\n")
    }

    /// A metric circle around a pole fills the polar cap at every longitude (the rim does not
    /// close in longitude; the cap is closed along the Mercator edge) and nothing south of its rim.
    @Test func circleAroundThePoleFillsTheCap() throws {
        let image = try render("polar.png", [
            "--basemap", "none", "--no-attribution", "--center", "60,0", "--zoom", "1",
            "--size", "1024x700", "--circle", "80,0,3000km", "--circle-fill", "ff0000ff", "--circle-stroke-width", "0",
        ])
        let cam = Camera(center: LatLng(lat: 60, lon: 0), zoom: 1, size: ScreenSize(width: 1024, height: 700))
        // GeographicLib (Python): (84, ±175) is 1,785 km from (80, 0), (84, 0) closer still: inside;
        // (30, 0) is 5,565 km and (30, ±175) 7,795 km away: outside.
        for lon in [-175.0, -90, 0, 90, 175] {
            let s = try #require(cam.project(LatLng(lat: 84, lon: lon)))
            #expect(colorDistance(image.pixel(x: Int(s.x), y: Int(s.y)), 255, 0, 0) <= 8, "84°N, \(lon)°")
        }
        for lon in [-175.0, 0, 175] {
            let s = try #require(cam.project(LatLng(lat: 30, lon: lon)))
            #expect(colorDistance(image.pixel(x: Int(s.x), y: Int(s.y)), 255, 255, 255) == 0, "30°N, \(lon)°")
        }
    }

    /// A translucent polar cap is blended once at every longitude: one world of it per world
    /// copy, the copies meeting edge to edge (it used to be drawn twice over half the view, once
    /// as the cap's own second copy and once as the planner's world copy). Around either pole;
    /// where the copies meet (beyond the pole) there is no antialiased seam. Expected colour:
    /// #ff000080 over white, 255·(1 − 128/255) = 127 in green and blue, every 5° of longitude
    /// (the cuts are at 220° and −140°).
    @Test(arguments: [(80.0, 60.0, 3_000.0), (-88.0, -80.0, 1_500.0)])
    func translucentPolarCapsAreBlendedOnce(_ c: (lat: Double, view: Double, km: Double)) throws {
        let image = try render("cap\(c.lat).png", [
            "--basemap", "none", "--no-attribution", "--center", "\(c.view),40", "--zoom", "0.5",
            "--size", "1024x700", "--circle", "\(c.lat),40,\(Int(c.km))km", "--circle-fill", "ff000080",
            "--circle-stroke-width", "0",
        ])
        let cam = Camera(center: LatLng(lat: c.view, lon: 40), zoom: 0.5, size: ScreenSize(width: 1024, height: 700))
        let capLat = c.lat > 0 ? 80.0 : -80  // inside both caps at every longitude
        var seen = 0
        for lon in stride(from: -300.0, through: 380, by: 5) {
            guard let s = cam.project(LatLng(lat: capLat, lon: lon)), s.x >= 2, s.x < 1022, s.y >= 0, s.y < 700 else { continue }
            seen += 1
            #expect(colorDistance(image.pixel(x: Int(s.x), y: Int(s.y)), 255, 127, 127) <= 2, "\(capLat)°, \(lon)°")
        }
        #expect(seen > 80)  // the view is 1.4 worlds wide: copies meet in it
    }

    /// A circle whose rim runs past the Mercator edge (84°N, 300 km reaches 86.7°N) is drawn
    /// up to the edge; its rim is not drawn along the edge where it leaves the map.
    @Test func rimsLeaveTheMapAtItsEdge() throws {
        let cam = Camera(center: LatLng(lat: 83.5, lon: 30), zoom: 4, size: ScreenSize(width: 1024, height: 768))
        let image = try render("edge.png", [
            "--basemap", "none", "--no-attribution", "--center", "83.5,30", "--zoom", "4",
            "--circle", "84,30,300km", "--circle-fill", "ff000080", "--circle-stroke", "0000ff",
            "--circle-stroke-width", "4",
        ])
        let edge = try #require(cam.project(LatLng(lat: 85.0511, lon: 30)))
        #expect(edge.y > 10 && edge.y < 100)
        // Two pixels inside the map, below the edge, at the centre's longitude: the fill.
        #expect(colorDistance(image.pixel(x: Int(edge.x), y: Int(edge.y) + 2), 255, 127, 127) <= 2)
        // The rim where it is on the map: at the circle's southernmost point.
        let south = try #require(cam.project(LatLng(lat: 84 - 300_000 / 111_600, lon: 30)))
        let band = (-4...4).compactMap { image.pixel(x: Int(south.x), y: Int(south.y) + $0) }
        #expect(band.contains { colorDistance($0, 0, 0, 255) <= 16 })
    }

    /// Pango is loaded only when a line needs it: the dynamic loader (`LD_DEBUG=files`, glibc's
    /// own trace) never opens it for Latin labels, and opens it with `dlopen` ("dynamically
    /// loaded") for a Japanese one (`ComplexTextTests` check what it draws).
    @Test func pangoIsLoadedOnlyForTextThatNeedsIt() throws {
        var env = ProcessInfo.processInfo.environment
        env["LD_DEBUG"] = "files"
        let latin = try runMapwright(["render", "-o", path("latin.png"), "--center", "0,0", "--zoom", "3",
                                      "--marker", "0,0,Hello"], environment: env)
        #expect(latin.status == 0)
        #expect(latin.stderr.contains("file=libcairo.so.2"))  // the trace is there
        #expect(!latin.stderr.contains("libpango"))
        let cjk = try runMapwright(["render", "-o", path("cjk.png"), "--center", "0,0", "--zoom", "3",
                                    "--marker", "0,0,東京"], environment: env)
        #expect(cjk.status == 0)
        #expect(cjk.stderr.split(separator: "\n").contains {
            $0.contains("file=libpangocairo-1.0.so.0") && $0.contains("dynamically loaded")
        })
    }

    @Test func missingOutputDirectoryFailsCleanly() throws {
        let r = try runMapwright(["render", "-o", "/nonexistent-dir/x.png", "--center", "0,0", "--zoom", "1",
                                  "--basemap", "none"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("/nonexistent-dir/x.png"))
    }
}
