import Foundation
import GeoKit
import MapCamera
import MapImage
import MapTestSupport
import Testing

/// `mapwright render` with columns, extrusions and arcs, end to end through the built binary.
@Suite(.serialized) struct ThreeDCLITests {
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory("mapwright-3d") }

    func path(_ name: String) -> String { scratch.path(name) }

    func write(_ name: String, _ text: String) throws -> String { try scratch.write(name, text) }

    func differs(_ p: RGBA8?, _ r: Int, _ g: Int, _ b: Int) -> Int { colorDistance(p, r, g, b) }

    static let center = LatLng(lat: 47.37, lon: 8.54)

    /// A point `dx`, `dy` world pixels from the centre at zoom 16 (x east, y south).
    static func at(_ dx: Double, _ dy: Double) -> LatLng {
        let ws = 512 * pow(2, 16.0)
        let c = MapPoint(center)
        return MapPoint(x: c.x + dx / ws, y: c.y + dy / ws).latLng
    }

    /// The top of a `--column` is where `Camera.project(lat, lon, height:)` puts it, lit as an
    /// upward face: 0.45 + 0.55 · 0.8111 = 0.896 of its colour (hand derivation in
    /// MapRenderGLTests/ThreeDTests), ±6 per channel; at scales 1 and 2.
    @Test(arguments: [(45.0, 30.0, 1.0), (60, 0, 2)])
    func columnTop(pitch: Double, bearing: Double, scale: Double) throws {
        let out = path("c.png")
        let p = Self.at(20, 40)
        let r = try runMapwright([
            "render", "-o", out, "--basemap", "none", "--no-attribution", "--center",
            "\(Self.center.lat),\(Self.center.lon)",
            "--zoom", "16", "--pitch", "\(pitch)", "--bearing", "\(bearing)", "--size", "320x320", "--scale",
            "\(scale)",
            "--column", "\(p.lat),\(p.lon),60,6", "--column-color", "ff0000",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try Bitmap(contentsOfPNGFile: out)
        let cam = Camera(
            center: Self.center, zoom: 16, bearing: bearing, pitch: pitch, size: ScreenSize(width: 320, height: 320))
        let top = try #require(cam.project(p, height: 60))
        let px = image.pixel(x: Int(top.x * scale), y: Int(top.y * scale))
        #expect(differs(px, 228, 0, 0) <= 6, "top: \(String(describing: px))")
    }

    /// `--extrude` raises GeoJSON polygons to `--height-property`: the roof centre of each
    /// building is where the camera puts (centre, height) and has the lit roof colour.
    @Test func extrudeWithHeightProperty() throws {
        func square(_ cx: Double, _ cy: Double, _ half: Double) -> String {
            let pts = [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1), (-1, -1)].map {
                Self.at(cx + $0.0 * half, cy + $0.1 * half)
            }
            return "[[" + pts.map { "[\($0.lon),\($0.lat)]" }.joined(separator: ",") + "]]"
        }
        let geojson = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"h":40},"geometry":{"type":"Polygon","coordinates":\(square(-50, 30, 20))}},
            {"type":"Feature","properties":{"h":"15"},"geometry":{"type":"Polygon","coordinates":\(square(50, 30, 20))}}]}
            """
        let file = try write("b.geojson", geojson)
        let out = path("e.png")
        let r = try runMapwright([
            "render", "-o", out, "--basemap", "none", "--no-attribution", "--center",
            "\(Self.center.lat),\(Self.center.lon)",
            "--zoom", "16", "--pitch", "50", "--size", "320x240", "--extrude", file, "--height-property", "h",
            "--column-color", "0000ff",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try Bitmap(contentsOfPNGFile: out)
        let cam = Camera(center: Self.center, zoom: 16, pitch: 50, size: ScreenSize(width: 320, height: 240))
        for (cx, h) in [(-50.0, 40.0), (50, 15)] {
            let roof = try #require(cam.project(Self.at(cx, 30), height: h))
            let px = image.pixel(x: Int(roof.x), y: Int(roof.y))
            #expect(differs(px, 0, 0, 228) <= 6, "roof of the \(h) m building: \(String(describing: px))")
        }
    }

    /// `--arc` with a height: the arc's middle (the geodesic midpoint, GeoKit direct at half the
    /// inverse distance, at the given height) carries the arc colour.
    @Test func arcApex() throws {
        let a = Self.at(-100, 60), b = Self.at(100, 60)
        let out = path("a.png")
        let r = try runMapwright([
            "render", "-o", out, "--basemap", "none", "--no-attribution", "--center",
            "\(Self.center.lat),\(Self.center.lon)",
            "--zoom", "16", "--pitch", "40", "--size", "320x240", "--arc", "\(a.lat),\(a.lon),\(b.lat),\(b.lon),80",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try Bitmap(contentsOfPNGFile: out)
        let inv = Geodesic.wgs84.inverse(a, b)
        let mid = Geodesic.wgs84.direct(from: a, azimuth: inv.azimuth1, distance: inv.distance / 2).point
        let cam = Camera(center: Self.center, zoom: 16, pitch: 40, size: ScreenSize(width: 320, height: 240))
        let apex = try #require(cam.project(mid, height: 80))
        let px = image.pixel(x: Int(apex.x), y: Int(apex.y))
        #expect(differs(px, 0x1F, 0x6F, 0xEB) <= 24, "apex: \(String(describing: px))")
        // The ground under the apex is background (the arc is in the air).
        let ground = try #require(cam.project(mid))
        #expect(differs(image.pixel(x: Int(ground.x), y: Int(ground.y)), 0x1F, 0x6F, 0xEB) > 100)
    }

    /// The scene JSON says the same: a column, an arc and an extrusion.
    @Test func sceneFileWith3D() throws {
        let p = Self.at(20, 40)
        let ring = [Self.at(-80, -20), Self.at(-40, -20), Self.at(-40, 10), Self.at(-80, 10)]
        let scene = try write(
            "s.json",
            """
            {"size": [320, 320], "basemap": "none", "attribution": false,
             "camera": {"center": [\(Self.center.lat), \(Self.center.lon)], "zoom": 16, "pitch": 45, "bearing": 30},
             "overlays": [
              {"type": "column", "position": [\(p.lat), \(p.lon)], "height": 60, "radius": 6, "color": "#ff0000"},
              {"type": "arc", "from": [\(Self.at(-100, 80).lat), \(Self.at(-100, 80).lon)], "to": [\(Self.at(100, 80).lat), \(Self.at(100, 80).lon)], "height": 50, "color": "00ff00", "toColor": "0000ff", "width": 4},
              {"type": "extrusion", "rings": [[\(ring.map { "[\($0.lat), \($0.lon)]" }.joined(separator: ", "))]], "height": 20, "color": "888888"}
             ]}
            """)
        let out = path("s.png")
        let r = try runMapwright(["render", "--scene", scene, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try Bitmap(contentsOfPNGFile: out)
        let cam = Camera(
            center: Self.center, zoom: 16, bearing: 30, pitch: 45, size: ScreenSize(width: 320, height: 320))
        let top = try #require(cam.project(p, height: 60))
        #expect(differs(image.pixel(x: Int(top.x), y: Int(top.y)), 228, 0, 0) <= 6)
    }

    /// `sides` in a scene file: seen from straight above, a 4-sided column is the diamond of its
    /// rim's corners (at east, south, west and north, radius r) and a round one the disc. At
    /// 0.85 r from the axis the top covers the point towards east in both, the point towards
    /// north-east only in the disc (the diamond's edge is at r/√2 ≈ 0.71 r there). Points are
    /// projected at the top's height; out-of-range and fractional counts are located errors.
    @Test func columnSidesFromASceneFile() throws {
        let cam = Camera(center: Self.center, zoom: 16, size: ScreenSize(width: 200, height: 200))
        let c = MapPoint(Self.center)
        let radius = 30.0, height = 40.0
        let rMap = radius * MapPoint.unitsPerMeter(atLatitude: Self.center.lat) // map units
        func pixel(_ image: Bitmap, _ dx: Double, _ dy: Double) throws -> RGBA8? {
            let ll = MapPoint(x: c.x + dx * rMap, y: c.y + dy * rMap).latLng
            let s = try #require(cam.project(ll, height: height))
            return image.pixel(x: Int(s.x), y: Int(s.y))
        }
        for sides in [4, 24] {
            let scene = try write(
                "sides\(sides).json",
                """
                {"size": [200, 200], "basemap": "none", "attribution": false,
                 "camera": {"center": [\(Self.center.lat), \(Self.center.lon)], "zoom": 16},
                 "overlays": [{"type": "column", "position": [\(Self.center.lat), \(Self.center.lon)],
                               "height": \(height), "radius": \(radius), "sides": \(sides), "color": "#0000ff"}]}
                """)
            let out = path("sides\(sides).png")
            let r = try runMapwright(["render", "--scene", scene, "-o", out])
            #expect(r.status == 0, "\(r.stderr)")
            let image = try Bitmap(contentsOfPNGFile: out)
            // The top faces the light fully: the column's colour, not the white background.
            let east = try pixel(image, 0.85, 0)
            #expect(differs(east, 255, 255, 255) > 150, "sides \(sides): top at 0.85 r east")
            let ne = try pixel(image, 0.85 / 2.squareRoot(), -0.85 / 2.squareRoot())
            if sides == 4 {
                #expect(differs(ne, 255, 255, 255) <= 6, "the box's top leaves the north-east point white")
            } else {
                #expect(differs(ne, 255, 255, 255) > 150, "the disc covers the north-east point")
            }
        }
        for (value, expected) in [("4.5", "overlays[0].sides: expected a whole number, found 4.5"),
                                  ("2", "overlays[0].sides: 2 is not in 3…64"), ("65", "overlays[0].sides: 65 is not in 3…64")] {
            let scene = try write(
                "bad.json",
                #"{"overlays": [{"type": "column", "position": [1, 2], "height": 10, "sides": \#(value)}]}"#)
            let r = try runMapwright(["render", "--scene", scene, "-o", path("bad.png")])
            #expect(r.status != 0 && r.stderr.contains(expected), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path("bad.png")))
        }
    }

    /// Without --center/--zoom a pitched camera fits the columns with their tops: the top of each
    /// (projected with the printed camera) lies inside the image less the 24 px padding and shows
    /// the column.
    @Test func fittedPitchedCameraKeepsTheTopsInView() throws {
        let out = path("fit.png")
        let cols = [(47.37, 8.54, 300.0), (47.375, 8.55, 100.0)]
        var args = [
            "render", "-o", out, "--basemap", "none", "--no-attribution", "--pitch", "70", "--size", "600x400",
            "--print-camera", "--column-color", "0000ff",
        ]
        for c in cols { args += ["--column", "\(c.0),\(c.1),\(c.2),20"] }
        let r = try runMapwright(args)
        #expect(r.status == 0, "\(r.stderr)")
        let v = r.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
        try #require(v.count == 5)
        let cam = Camera(
            center: LatLng(lat: v[0], lon: v[1]), zoom: v[2], bearing: v[3], pitch: v[4],
            size: ScreenSize(width: 600, height: 400))
        let image = try Bitmap(contentsOfPNGFile: out)
        for c in cols {
            let top = try #require(cam.project(LatLng(lat: c.0, lon: c.1), height: c.2))
            #expect(top.x >= 23 && top.x <= 577 && top.y >= 23 && top.y <= 377, "top of \(c) at \(top)")
            // The top is a thin ellipse at pitch 70 (about 2 px tall): its pixel is the column's
            // (blue, lit or shaded), not the white background.
            let p = try #require(image.pixel(x: Int(top.x), y: Int(top.y) + 1))
            #expect(p.b > 100 && p.r < 40 && p.g < 40, "pixel at the top: \(p)")
        }
    }

    /// Bad 3D input: non-zero exit, where and why, no file.
    @Test(
        arguments: [
            (["--column", "47,8"], "--column #1"),
            (["--column", "47,8,-5"], "height"),
            (["--column", "47,8,10,abc"], "'abc' is not a number"),
            (["--column", "47,8,10,0"], "radius"),
            (["--arc", "47,8,48"], "--arc #1"),
            (["--arc", "47,8,95,9"], "latitude"),
            (["--extrude", "GEOJSON", "--height-property", "nope"], "needs a height"),
            (["--extrude", "GEOJSON", "--height-property", "bad"], "property 'bad'"),
            (["--height-property", "h", "--center", "0,0", "--zoom", "1"], "--extrude"),
            (["--scene", "BADSCENE"], "overlays[0].height"),
        ] as [([String], String)])
    func badInputFailsCleanly(args: [String], expected: String) throws {
        let geojson = try write(
            "g.geojson",
            """
            {"type":"Feature","properties":{"bad":"tall"},"geometry":{"type":"Polygon","coordinates":[[[8,47],[8.01,47],[8.01,47.01],[8,47]]]}}
            """)
        let badScene = try write("bad.json", #"{"overlays": [{"type": "column", "position": [1, 2], "height": -3}]}"#)
        let argv = args.map { $0 == "GEOJSON" ? geojson : $0 == "BADSCENE" ? badScene : $0 }
        let out = path("never.png")
        let r = try runMapwright(["render", "-o", out] + argv)
        #expect(r.status != 0)
        #expect(r.stderr.contains(expected), "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
