import Foundation
import GeoKit
import MapCamera
import MapImage
import MapRender
import MapRenderGL
import MapScene
import Testing

@Suite struct SmokeTests {
    @Test func rendersBenchLikeScene() throws {
        let r = try RenderHarness.renderer()
        let center = LatLng(lat: 37.7651335, lon: -122.4191805)
        let route = try Polyline(coordinates: [LatLng(lat: 37.77, lon: -122.42), LatLng(lat: 37.767, lon: -122.423),
                                               LatLng(lat: 37.764, lon: -122.419), LatLng(lat: 37.762, lon: -122.4187)],
                                 style: LineStyle(width: .pixels(4), color: try Color(parsing: "1f6feb")))
        var scene = Scene(background: Color(rgb: 0xF2EFE9))
        scene.add(.polyline(route))
        scene.add(.circle(try Circle(center: LatLng(lat: 37.76649, lon: -122.4214196), radius: .meters(120))))
        scene.add(.circle(try Circle(center: LatLng(lat: 37.7635399, lon: -122.4197586), radius: .pixels(30))))
        scene.add(.marker(try Marker(position: LatLng(lat: 37.77, lon: -122.42))))
        scene.add(.marker(try Marker(position: LatLng(lat: 37.7624633, lon: -122.4203828), style: .pin)))
        scene.add(.marker(try Marker(position: LatLng(lat: 37.7651335, lon: -122.4191805))))
        scene.add(.marker(try Marker(position: LatLng(lat: 37.7645, lon: -122.4180), style: .pin, color: Color(rgb: 0x2DA44E))))
        let dashed = LineStyle(width: .pixels(6), color: Color(rgb: 0x8250DF, alpha: 0xA0), join: .miter, cap: .butt,
                               dash: [12, 6], casingColor: .white, casingWidth: 2)
        scene.add(.polyline(try Polyline(coordinates: [LatLng(lat: 37.767, lon: -122.416), LatLng(lat: 37.7665, lon: -122.4125),
                                                        LatLng(lat: 37.7645, lon: -122.4155), LatLng(lat: 37.7668, lon: -122.4160)], style: dashed)))
        let camera = Camera(center: center, zoom: 15.5, bearing: 20, size: ScreenSize(width: 512, height: 384), pixelRatio: 1)
        let frame = try r.render(scene: scene, camera: camera)
        #expect(frame.width == 512 && frame.height == 384)
        try RenderHarness.bitmap(frame).writePNG(to: "/tmp/mapwright-smoke.png", options: .balanced)
        print("device:", r.deviceDescription)
    }

    /// One sample per pixel is no multisampling: the same renderer as 0 samples (shader
    /// coverage, no multisampled target to resolve), the same pixels.
    @Test func oneSampleIsNone() throws {
        let one = try MapRenderer(samples: 1), none = try MapRenderer(samples: 0)
        #expect(one.samples == 0 && one.shaderAntialiasing)
        var scene = Scene(background: .white)
        scene.add(.circle(try Circle(center: LatLng(lat: 37.7651, lon: -122.4192), radius: .meters(90))))
        let camera = Camera(center: LatLng(lat: 37.7651, lon: -122.4192), zoom: 15.5, bearing: 20, size: ScreenSize(width: 128, height: 96))
        #expect(try one.render(scene: scene, camera: camera).pixels == none.render(scene: scene, camera: camera).pixels)
    }
}
