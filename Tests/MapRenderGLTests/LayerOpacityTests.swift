import Foundation
import GeoKit
import MapCamera
import MapRender
import MapRenderGL
import MapScene
import Testing

/// A basemap layer drawn at an opacity (`Scene.basemapGroups`) is faded as one layer: each pixel
/// once, however many of its shapes cover it (a road over its casing, tiles' buffers repeating a
/// neighbour's areas), as a faded raster tile would be.
@Suite(.serialized) struct LayerOpacityTests {
    static let center = LatLng(lat: 47.37, lon: 8.54)
    static let camera = Camera(center: center, zoom: 11, size: ScreenSize(width: 400, height: 300))
    static let red = Color(rgb: 0xFF0000), blue = Color(rgb: 0x0000FF), green = Color(rgb: 0x00C000)

    /// Two overlapping opaque squares and a wide line across both, as a basemap; a black square
    /// over them as an overlay (not in the layer).
    static func scene(opacity: Double?, markerAt lon: Double = 8.565) throws -> Scene {
        func square(_ lat: Double, _ lon: Double, _ color: Color) throws -> Overlay {
            .polygon(try Polygon(exterior: [LatLng(lat: lat - 0.01, lon: lon - 0.015), LatLng(lat: lat - 0.01, lon: lon + 0.015),
                                            LatLng(lat: lat + 0.01, lon: lon + 0.015), LatLng(lat: lat + 0.01, lon: lon - 0.015)],
                                 fill: color))
        }
        var s = Scene(background: .white)
        s.basemap = [try square(47.37, 8.53, red), try square(47.375, 8.545, blue),
                     .polyline(try Polyline(coordinates: [LatLng(lat: 47.36, lon: 8.51), LatLng(lat: 47.38, lon: 8.57)],
                                            style: LineStyle(width: .pixels(12), color: green))),
                     // A pin on bare ground: markers are faded too (a layer of their own, over
                     // the range's flat overlays).
                     .marker(try Marker(position: LatLng(lat: 47.395, lon: 8.49), style: .pin))]
        if let opacity { s.basemapGroups = [BasemapGroup(range: 0 ..< 4, opacity: opacity)] }
        s.add(try square(47.365, lon, .black))
        return s
    }

    func opaque0(_ renderer: MapRenderer) throws -> Frame {
        try renderer.render(scene: try Self.scene(opacity: nil), camera: Self.camera)
    }

    func at(_ frame: Frame, _ lat: Double, _ lon: Double) throws -> (r: Int, g: Int, b: Int) {
        guard let p = Self.camera.project(LatLng(lat: lat, lon: lon)), let c = frame.pixel(x: Int(p.x), y: Int(p.y)) else {
            Issue.record("\(lat), \(lon) is off the frame")
            return (-1, -1, -1)
        }
        return (Int(c.r), Int(c.g), Int(c.b))
    }

    func near(_ a: (r: Int, g: Int, b: Int), _ b: (Int, Int, Int), _ tolerance: Int = 1) -> Bool {
        abs(a.r - b.0) <= tolerance && abs(a.g - b.1) <= tolerance && abs(a.b - b.2) <= tolerance
    }

    @Test(arguments: [0, 4]) func eachPixelIsFadedOnce(samples: Int) throws {
        let renderer = try MapRenderer(samples: samples)
        let faded = try renderer.render(scene: try Self.scene(opacity: 0.5), camera: Self.camera)
        // Hand-derived: each colour half-way to white, wherever the layer's shapes overlap.
        #expect(near(try at(faded, 47.366, 8.52), (255, 128, 128)))   // red alone
        #expect(near(try at(faded, 47.374, 8.535), (128, 128, 255)))  // blue over red
        #expect(near(try at(faded, 47.37, 8.54), (128, 224, 128)))    // the line over both squares
        #expect(near(try at(faded, 47.39, 8.50), (255, 255, 255)))    // nothing: the background
        // The pin's head, a little above its tip: its opaque colour half-way to white.
        let head = try at(opaque0(renderer), 47.3975, 8.49), fadedHead = try at(faded, 47.3975, 8.49)
        #expect(head.g < 200 && near(fadedHead, ((head.r + 256) / 2, (head.g + 256) / 2, (head.b + 256) / 2)), "\(head) → \(fadedHead)")
        // The overlay over the layer is not faded.
        #expect(near(try at(faded, 47.365, 8.565), (0, 0, 0)))
        // Everywhere off the overlay: the opaque layer mixed half-way with white.
        let opaque = try renderer.render(scene: try Self.scene(opacity: nil), camera: Self.camera)
        // (Off the overlay and its antialiased rim, 2 px around it.)
        let corners = try [(47.355, 8.55), (47.375, 8.58)].map { try #require(Self.camera.project(LatLng(lat: $0.0, lon: $0.1))) }
        let xs = (min(corners[0].x, corners[1].x) - 2) ... (max(corners[0].x, corners[1].x) + 2)
        let ys = (min(corners[0].y, corners[1].y) - 2) ... (max(corners[0].y, corners[1].y) + 2)
        var worst = 0, compared = 0
        for y in 0 ..< faded.height {
            for x in 0 ..< faded.width where !(xs.contains(Double(x) + 0.5) && ys.contains(Double(y) + 0.5)) {
                let a = opaque.pixel(x: x, y: y)!, f = faded.pixel(x: x, y: y)!
                #expect(f.a == 255)
                compared += 1
                for (o, v) in [(a.r, f.r), (a.g, f.g), (a.b, f.b)] {
                    worst = max(worst, abs(Int(v) - (Int(o) + 255 + 1) / 2))
                }
            }
        }
        #expect(compared > 40_000)
        #expect(worst <= 1, "largest difference from half-way: \(worst)")
    }

    @Test func opacityZeroDrawsNothingAndOneDrawsAsIs() throws {
        let renderer = try MapRenderer(samples: 0)
        let none = try renderer.render(scene: try Self.scene(opacity: 0), camera: Self.camera)
        #expect(near(try at(none, 47.374, 8.535), (255, 255, 255)))
        #expect(near(try at(none, 47.365, 8.565), (0, 0, 0)))
        let one = try renderer.render(scene: try Self.scene(opacity: 1), camera: Self.camera)
        let plain = try renderer.render(scene: try Self.scene(opacity: nil), camera: Self.camera)
        #expect(one.pixels == plain.pixels)
    }

    /// A partial redraw (the overlay moved) through a faded layer gives a full redraw's pixels.
    @Test func partialRedrawsThroughALayer() throws {
        let partial = try MapRenderer(samples: 0)
        let full = try MapRenderer(samples: 0)
        full.partialRedraw = false
        for (n, lon) in [8.565, 8.566, 8.57].enumerated() {
            let scene = try Self.scene(opacity: 0.4, markerAt: lon)
            let a = try partial.render(scene: scene, camera: Self.camera)
            let b = try full.render(scene: scene, camera: Self.camera)
            let same = a.pixels == b.pixels
            #expect(same, "frame \(n) differs from the full redraw")
            if n > 0 { #expect(partial.lastRedrawFraction < 0.5, "frame \(n): \(partial.lastRedrawFraction)") }
        }
    }
}
