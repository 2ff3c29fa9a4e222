import Foundation
import GeoKit
import MapCamera
import MapRender
import MapRenderGL
import MapScene
import Testing

/// A frame whose first command was an opaque set round the whole view, cleared to its colour
/// instead (`RenderPlan.ground`), against the same frame with the set drawn.
@Suite(.serialized) struct GroundCoverRenderTests {
    static let center = LatLng(lat: 46, lon: 7)

    /// Land round the view (a ring of 4 000 px half side, with a bay whose edges come no nearer
    /// than 500 px), a lake and an island in it, a route across, a translucent circle in metres
    /// and a marker, over a blue background.
    static func scene(camera: Camera) throws -> Scene {
        let c = MapPoint(camera.center), s = camera.worldSize
        func ring(_ pts: [(Double, Double)]) throws -> GeoPath {
            try GeoPath(points: pts.map { MapPoint(x: c.x + $0.0 / s, y: c.y + $0.1 / s) })
        }
        func at(_ dx: Double, _ dy: Double) -> LatLng { MapPoint(x: c.x + dx / s, y: c.y + dy / s).latLng }
        var scene = Scene(background: Color(rgb: 0xAAD3DF))
        let land: [(Double, Double)] = [(-4000, -4000), (4000, -4000), (4000, 4000), (900, 4000), (900, 500), (-900, 500),
                                        (-900, 4000), (-4000, 4000)]
        scene.add(.multiPolygon(MultiPolygon(polygons: PolygonSet([PolygonRings(exterior: try ring(land))]),
                                             fill: Color(rgb: 0xF2EFE9))))
        let lake = PolygonRings(exterior: try ring([(-120, -90), (60, -110), (110, 20), (-30, 80), (-130, 10)]),
                                holes: [try ring([(-40, -20), (10, -30), (0, 15)])])
        scene.add(.multiPolygon(MultiPolygon(polygons: PolygonSet([lake]), fill: Color(rgb: 0xAAD3DF))))
        scene.add(.polyline(try Polyline(coordinates: [at(-300, 150), at(-50, 40), at(120, 130), at(320, -170)],
                                         style: LineStyle(width: .pixels(5), color: Color(rgb: 0x1F6FEB)))))
        scene.add(.circle(try Circle(center: at(80, -60), radius: .meters(400), fill: Color(rgb: 0xFF0000, alpha: 0x40),
                                     stroke: Color(rgb: 0xFF0000), strokeWidth: 2)))
        scene.add(.marker(try Marker(position: at(-60, 90))))
        return scene
    }

    @Test(arguments: [(0.0, 0.0, 1.0), (30.0, 0.0, 1.0), (0.0, 0.0, 2.0), (20.0, 50.0, 1.0)])
    func theClearedGroundDrawsWhatTheFillDraws(bearing: Double, pitch: Double, ratio: Double) throws {
        let cleared = try MapRenderer(), drawn = try MapRenderer()
        drawn.planner.clearsCoveredGround = false
        let camera = Camera(center: Self.center, zoom: 14, bearing: bearing, pitch: pitch,
                            size: ScreenSize(width: 320, height: 240), pixelRatio: ratio)
        let scene = try Self.scene(camera: camera)
        #expect(cleared.planner.plan(scene, camera: camera).ground == Color(rgb: 0xF2EFE9), "the land holds the view")
        let a = try cleared.render(scene: scene, camera: camera)
        let b = try drawn.render(scene: scene, camera: camera)
        #expect(drawn.lastTimings.triangles > cleared.lastTimings.triangles)
        var differing = 0, largest = 0, water = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            let d = (0 ..< 4).map { abs(Int(a.pixels[i + $0]) - Int(b.pixels[i + $0])) }.max() ?? 0
            if d > 0 { differing += 1 }
            largest = max(largest, d)
            // The lake's colour, which only the lake (never the background) gives here.
            if a.pixels[i] == 0xAA && a.pixels[i + 1] == 0xD3 && a.pixels[i + 2] == 0xDF { water += 1 }
        }
        #expect(water > 2000, "the lake is drawn (\(water) px)")
        #expect(largest <= 1 && differing <= a.pixels.count / 4 / 1000,
                "\(differing) pixels differ, by up to \(largest) levels")
    }

    /// With the bay in view the land does not hold it: drawn as before.
    @Test func aViewOverTheCoastIsDrawn() throws {
        let renderer = try MapRenderer()
        let camera = Camera(center: Self.center, zoom: 14, size: ScreenSize(width: 320, height: 240))
        let scene = try Self.scene(camera: camera)
        // 300 px south the view's bottom edge (120 px below its centre) is 420 px down: the bay's
        // top edge at 500 px is 80 px beyond it; 420 px south it is in view.
        func plan(_ dy: Double) -> RenderPlan {
            var c = camera
            c.center = MapPoint(x: MapPoint(camera.center).x, y: MapPoint(camera.center).y + dy / camera.worldSize).latLng
            return renderer.planner.plan(scene, camera: c)
        }
        #expect(plan(300).ground != nil)
        #expect(plan(420).ground == nil)
    }
}
