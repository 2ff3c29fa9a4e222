import Foundation
import GeoKit
import MapCamera
import MapRender
import MapRenderGL
import MapScene
import Testing

/// Two white squares sharing an edge over a blue background, rotated: no background may show
/// through the shared edge (MSAA samples on a shared edge belong to exactly one triangle), with or
/// without extra vertices (a T-junction) on one side of it.
@Suite struct SeamTests {
    @Test(arguments: [false, true]) func adjacentPolygonsLeaveNoCrack(tjunction: Bool) throws {
        let r = try RenderHarness.renderer()
        let cam = Camera(center: LatLng(lat: 48, lon: 10), zoom: 4, bearing: 30, size: ScreenSize(width: 400, height: 400))
        let c = MapPoint(cam.center), ws = cam.worldSize
        func P(_ dx: Double, _ dy: Double) -> MapPoint { MapPoint(x: c.x + dx / ws, y: c.y + dy / ws) }
        var s = Scene(background: Color(rgb: 0x0000FF))
        var left = [P(-300, -300), P(0, -300)]
        if tjunction { left += [P(0, -123.4567), P(0, 77.7777)] }
        left += [P(0, 300), P(-300, 300)]
        let right = [P(0, -300), P(300, -300), P(300, 300), P(0, 300)]
        for ring in [left, right] {
            s.add(.polygon(Polygon(exterior: try GeoPath(points: ring), fill: Color(rgb: 0xFFFFFF))))
        }
        let f = try r.render(scene: s, camera: cam)
        var blueish = 0
        for y in 100 ..< 300 { for x in 100 ..< 300 { if let p = f.pixel(x: x, y: y), Int(p.b) > Int(p.r) + 5 { blueish += 1 } } }
        #expect(blueish == 0, "\(blueish) pixels of background show through the shared edge")
    }

    /// Two squares joined by a zero-width corridor, as a clipper (or an upstream tile cutter)
    /// leaves a polygon that leaves its box and comes back: with shader antialiasing no line of
    /// fill colour may show along the corridor, which is no edge of the shape (its sides are
    /// antialiased as usual).
    @Test func zeroWidthCorridorDrawsNoLine() throws {
        let r = try MapRenderer(samples: 0)
        try #require(r.shaderAntialiasing)
        let cam = Camera(center: LatLng(lat: 48, lon: 10), zoom: 4, bearing: 30, size: ScreenSize(width: 400, height: 400))
        let c = MapPoint(cam.center), ws = cam.worldSize
        func P(_ dx: Double, _ dy: Double) -> MapPoint { MapPoint(x: c.x + dx / ws, y: c.y + dy / ws) }
        let ring = [P(-150, -40), P(-40, -40), P(40, -40), P(150, -40), P(150, 60), P(40, 60), P(40, -40), P(-40, -40),
                    P(-40, 60), P(-150, 60)]
        var s = Scene(background: Color(rgb: 0x0000FF))
        s.add(.polygon(Polygon(exterior: try GeoPath(points: ring), fill: Color(rgb: 0xFFFFFF))))
        let f = try r.render(scene: s, camera: cam)
        var lit = 0
        for k in -30 ... 30 {
            guard let q = cam.project(P(Double(k), -40).latLng) else { continue }
            for dy in -2 ... 2 {
                for dx in -2 ... 2 {
                    if let p = f.pixel(x: Int(q.x) + dx, y: Int(q.y) + dy), p.r > 8 { lit += 1 }
                }
            }
        }
        #expect(lit == 0, "\(lit) pixels of fill colour along the corridor")
        // The squares themselves are drawn, with antialiased sides.
        let inside = try #require(cam.project(P(-100, 10).latLng))
        #expect(f.pixel(x: Int(inside.x), y: Int(inside.y))?.r == 255)
    }
}
