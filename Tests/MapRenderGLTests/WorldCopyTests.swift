import Foundation
import GeoKit
import MapCamera
import MapRender
import MapRenderGL
import MapScene
import Testing

/// Overlays across the antimeridian and in the copies of the world a wide view shows, read back
/// at hand-derived pixel positions: at zoom z the world is 512·2^z px wide, so a longitude Δ
/// degrees east of the centre lies 512·2^z·Δ/360 px right of it, whichever side of ±180° either is.
@Suite struct WorldCopyTests {
    static let red = Color(rgb: 0xFF0000), blue = Color(rgb: 0x0000FF)

    /// Pixels within 60 per channel of `color` in the (2r+1)² box round (x, y).
    static func near(_ frame: Frame, _ x: Double, _ y: Double, _ color: Color, radius: Int = 1) -> Bool {
        for dy in -radius ... radius {
            for dx in -radius ... radius {
                guard let p = frame.pixel(x: Int(x.rounded(.down)) + dx, y: Int(y.rounded(.down)) + dy) else { continue }
                if abs(Int(p.r) - Int(color.r)) <= 60 && abs(Int(p.g) - Int(color.g)) <= 60 && abs(Int(p.b) - Int(color.b)) <= 60 {
                    return true
                }
            }
        }
        return false
    }

    /// Screen y of a latitude for a camera at latitude 0 (Web Mercator by hand).
    static func y(_ lat: Double, worldPx: Double, height: Double) -> Double {
        let m = log(tan(.pi / 4 + lat * .pi / 360))
        return height / 2 - m / (2 * .pi) * worldPx
    }

    @Test func overlaysAcrossTheAntimeridianShowNextToTheCentre() throws {
        // The view is centred on 180°; a marker at −170° is 10° east of it, a route from 170° to
        // −170° takes the 20° across the antimeridian, not the 340° back round the world.
        let r = try RenderHarness.renderer()
        let camera = Camera(center: LatLng(lat: 0, lon: 180), zoom: 3, size: ScreenSize(width: 600, height: 400))
        var s = Scene(background: .white)
        s.add(.polyline(try Polyline(coordinates: [LatLng(lat: 10, lon: 170), LatLng(lat: -10, lon: -170)],
                                     style: LineStyle(width: .pixels(5), color: Self.blue))))
        s.add(.marker(try Marker(position: LatLng(lat: -10, lon: -170), color: Self.red)))
        let frame = try r.render(scene: s, camera: camera)
        try? RenderHarness.bitmap(frame).writePNG(to: "/tmp/worldcopy-antimeridian.png", options: .fast)
        let world = 512 * 8.0, deg = world / 360
        let markerX = 300 + 10 * deg, markerY = Self.y(-10, worldPx: world, height: 400)
        #expect(Self.near(frame, markerX, markerY, Self.red, radius: 0), "marker at \(markerX), \(markerY)")
        // The route's middle crosses 180° at the equator: the centre of the view.
        #expect(Self.near(frame, 300, 200, Self.blue))
        // Its ends, 10° either side (the far end under the marker's dot).
        #expect(Self.near(frame, 300 - 10 * deg, Self.y(10, worldPx: world, height: 400), Self.blue))
        // The long way round would run along the left edge, through the equator at x = 0.
        let leftEdge = (0 ..< 400).contains { Self.near(frame, 2, Double($0), Self.blue, radius: 0) }
        #expect(!leftEdge)
    }

    @Test func aViewWiderThanTheWorldShowsEveryCopy() throws {
        // Zoom 0: the world is 512 px across a 1400 px view centred on 0°, so the copies of a
        // marker at 90°E lie at 700 + 128 + 512·k for k = −2…1 (−84 is off the left edge).
        let r = try RenderHarness.renderer()
        let camera = Camera(center: LatLng(lat: 0, lon: 0), zoom: 0, size: ScreenSize(width: 1400, height: 300))
        var s = Scene(background: .white)
        s.add(.marker(try Marker(position: LatLng(lat: 0, lon: 90), color: Self.red)))
        // A 300 km circle on the antimeridian (about 4 px at zoom 0): at 956 + 512·k, so 444 and 956.
        s.add(.circle(try Circle(center: LatLng(lat: 0, lon: 180), radius: .meters(300_000), fill: Self.blue)))
        let frame = try r.render(scene: s, camera: camera)
        try? RenderHarness.bitmap(frame).writePNG(to: "/tmp/worldcopy-wide.png", options: .fast)
        for x in [316.0, 828, 1340] {
            #expect(Self.near(frame, x, 150, Self.red, radius: 0), "marker copy at \(x)")
        }
        for x in [444.0, 956] {
            #expect(Self.near(frame, x, 150, Self.blue, radius: 0), "circle copy at \(x)")
        }
        // Between the copies: white.
        for x in [572.0, 1084] {
            let p = try #require(frame.pixel(x: Int(x), y: 150))
            #expect(p.r == 255 && p.g == 255 && p.b == 255, "background at \(x)")
        }
    }
}
