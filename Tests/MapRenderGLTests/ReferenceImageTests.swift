import Foundation
import GeoKit
import MapCamera
import MapRender
import MapRenderGL
import MapScene
import Testing

/// Reference images, one folder per case under References/<case>/expected.png (see `expectImage`;
/// `MAPWRIGHT_RECORD=1` re-records). Each was looked at when recorded.
@Suite struct ReferenceImageTests {
    static let center = LatLng(lat: 37.7651335, lon: -122.4191805)

    /// A point `dx`, `dy` logical pixels from the centre at zoom 16 (y down), for laying out cases.
    static func at(_ dx: Double, _ dy: Double) -> LatLng {
        let ws = 512 * pow(2, 16.0)
        let c = MapPoint(center)
        return MapPoint(x: c.x + dx / ws, y: c.y + dy / ws).latLng
    }

    static func camera(ratio: Double, bearing: Double = 0) -> Camera {
        Camera(center: center, zoom: 16, bearing: bearing, size: ScreenSize(width: 240, height: 160), pixelRatio: ratio)
    }

    static func routes() throws -> Scene {
        var s = Scene(background: Color(rgb: 0xF6F8FA))
        let zig = { (y: Double) in [at(-100, y), at(-60, y - 25), at(-30, y + 10), at(0, y - 20)] }
        s.add(.polyline(try Polyline(coordinates: zig(-45), style: LineStyle(width: .pixels(8), color: Color(rgb: 0x1F6FEB), join: .round, cap: .round))))
        s.add(.polyline(try Polyline(coordinates: zig(5), style: LineStyle(width: .pixels(8), color: Color(rgb: 0xCF222E), join: .miter, cap: .square))))
        s.add(.polyline(try Polyline(coordinates: zig(55), style: LineStyle(width: .pixels(8), color: Color(rgb: 0x1A7F37), join: .bevel, cap: .butt))))
        // Dashed, translucent, with a dark casing; it crosses itself (blended once where it overlaps).
        s.add(.polyline(try Polyline(coordinates: [at(20, -60), at(100, 40), at(100, -40), at(20, 60)],
                                     style: LineStyle(width: .pixels(6), color: Color(rgb: 0x8250DF, alpha: 0xB0), join: .round,
                                                      cap: .butt, dash: [14, 6], casingColor: Color(rgb: 0x24292F), casingWidth: 1.5))))
        return s
    }

    static func polygon() throws -> Scene {
        var s = Scene(background: Color(rgb: 0xF6F8FA))
        let outer = [at(-90, -60), at(80, -65), at(100, 10), at(30, 0), at(60, 60), at(-80, 55)]
        let hole = [at(-50, -30), at(-50, 20), at(0, 20), at(0, -30)]
        s.add(.polygon(try Polygon(exterior: outer, holes: [hole], fill: Color(rgb: 0x1F6FEB, alpha: 0x60),
                                   stroke: Color(rgb: 0x0A3069), strokeWidth: 2)))
        return s
    }

    static func circles() throws -> Scene {
        var s = Scene(background: Color(rgb: 0xF6F8FA))
        s.add(.circle(try Circle(center: at(-45, 0), radius: .meters(45), fill: Color(rgb: 0xFF0000, alpha: 0x40),
                                 stroke: Color(rgb: 0xFF0000), strokeWidth: 2)))
        s.add(.circle(try Circle(center: at(60, -20), radius: .pixels(30), fill: Color(rgb: 0x1A7F37, alpha: 0x80),
                                 stroke: Color(rgb: 0x116329), strokeWidth: 3)))
        s.add(.circle(try Circle(center: at(60, 45), radius: .pixels(10), fill: Color(rgb: 0x9A6700), stroke: nil)))
        return s
    }

    /// A 16×16 premultiplied diamond icon, drawn by hand (no Canvas2D needed).
    static let diamond: SpriteImage? = {
        var px = [UInt8](repeating: 0, count: 16 * 16 * 4)
        for y in 0 ..< 16 {
            for x in 0 ..< 16 where abs(Double(x) - 7.5) + abs(Double(y) - 7.5) <= 7.5 {
                let i = (y * 16 + x) * 4
                px[i] = 0xBF; px[i + 1] = 0x87; px[i + 2] = 0x00; px[i + 3] = 0xFF
            }
        }
        return SpriteImage(width: 16, height: 16, pixels: px)
    }()

    static func markers() throws -> Scene {
        var s = Scene(background: Color(rgb: 0xE6EDF3))
        s.add(.marker(try Marker(position: at(-70, 0))))
        s.add(.marker(try Marker(position: at(-20, 20), style: .pin)))
        s.add(.marker(try Marker(position: at(30, 20), style: .pin, color: Color(rgb: 0x1A7F37))))
        if let d = diamond {
            s.add(.marker(try Marker(position: at(80, 0), style: .image(d, anchor: (0.5, 0.5)))))
        }
        return s
    }

    @Test(arguments: [("route-joins-caps-dash-casing", 1.0), ("route-joins-caps-dash-casing@2x", 2.0)])
    func routes(name: String, ratio: Double) throws {
        let frame = try RenderHarness.renderer().render(scene: try Self.routes(), camera: Self.camera(ratio: ratio))
        try expectImage(frame, named: name)
    }

    @Test(arguments: [("polygon-with-hole", 1.0), ("polygon-with-hole-bearing30@2x", 2.0)])
    func polygon(name: String, ratio: Double) throws {
        let frame = try RenderHarness.renderer().render(scene: try Self.polygon(),
                                                        camera: Self.camera(ratio: ratio, bearing: ratio == 2 ? 30 : 0))
        try expectImage(frame, named: name)
    }

    @Test(arguments: [("circles-meters-pixels", 1.0), ("circles-meters-pixels@2x", 2.0)])
    func circles(name: String, ratio: Double) throws {
        let frame = try RenderHarness.renderer().render(scene: try Self.circles(), camera: Self.camera(ratio: ratio))
        try expectImage(frame, named: name)
    }

    @Test(arguments: [("markers-dot-pin-image", 1.0), ("markers-dot-pin-image@2x", 2.0)])
    func markers(name: String, ratio: Double) throws {
        let frame = try RenderHarness.renderer().render(scene: try Self.markers(), camera: Self.camera(ratio: ratio, bearing: 40))
        try expectImage(frame, named: name)
    }
}
