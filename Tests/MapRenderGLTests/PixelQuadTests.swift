import Foundation
import GeoKit
import MapCamera
@testable import MapRender
@testable import MapRenderGL
import MapScene
import Testing

/// Small pixel discs and rings drawn as a square each (`RenderPlanner.pixelQuad`) with shader
/// coverage: two triangles, the circle cut out by the fragment shader. Checked against the
/// geometry of the circle itself: the ink adds up to the circle's area, nothing is drawn past
/// the half-pixel ramp (the square's corners stay clear), a ring's hole stays clear, and the
/// polygons stay for multisampling and for large circles.
@Suite(.serialized) struct PixelQuadTests {
    static let center = LatLng(lat: 10, lon: 20)

    /// Coverage of every pixel of a black circle on white (1 − red / 255) and the circle's
    /// centre in device pixels.
    static func coverage(_ circle: Circle, ratio: Double, samples: Int = 0, pitch: Double = 0,
                         bearing: Double = 0) throws -> (cov: [Double], width: Int, centre: ScreenPoint, triangles: Int) {
        let renderer = try MapRenderer(samples: samples)
        var scene = Scene(background: Color(rgb: 0xFFFFFF))
        scene.add(.circle(circle))
        let cam = Camera(center: center, zoom: 5, bearing: bearing, pitch: pitch,
                         size: ScreenSize(width: 96, height: 80), pixelRatio: ratio)
        let frame = try renderer.render(scene: scene, camera: cam)
        let c = try #require(cam.project(center))
        let cov = stride(from: 0, to: frame.pixels.count, by: 4).map { 1 - Double(frame.pixels[$0]) / 255 }
        return (cov, frame.width, ScreenPoint(x: c.x * ratio, y: c.y * ratio), renderer.lastTimings.triangles)
    }

    /// Discs of 2.5 to 40 px at ratios 1 and 2, upright and under pitch and bearing: 2 triangles,
    /// ink within 1.5 % (and 0.6 device px of rim) of πr², full inside r − 0.5, empty beyond
    /// r + 0.5 (device px from the pixel's centre).
    @Test(arguments: [2.5, 6, 13.3, 40]) func discs(radius: Double) throws {
        for ratio in [1.0, 2.0] {
            for (pitch, bearing) in [(0.0, 0.0), (45.0, 30.0)] {
                let circle = try Circle(center: Self.center, radius: .pixels(radius), fill: Color(rgb: 0), stroke: nil)
                let (cov, w, c, triangles) = try Self.coverage(circle, ratio: ratio, pitch: pitch, bearing: bearing)
                #expect(triangles == 2)
                let r = radius * ratio
                var ink = 0.0
                for (i, v) in cov.enumerated() {
                    ink += v
                    let d = ((Double(i % w) + 0.5 - c.x) * (Double(i % w) + 0.5 - c.x)
                        + (Double(i / w) + 0.5 - c.y) * (Double(i / w) + 0.5 - c.y)).squareRoot()
                    if d > r + 0.5 { #expect(v == 0, "r \(radius) ratio \(ratio): \(v) at \(d) px") }
                    if d < r - 0.5 { #expect(v > 0.99, "r \(radius) ratio \(ratio): \(v) at \(d) px") }
                }
                let area = Double.pi * r * r
                #expect(abs(ink - area) < max(0.015 * area, 2 * Double.pi * r * 0.02),
                        "r \(radius) ratio \(ratio) pitch \(pitch): ink \(ink) against \(area)")
            }
        }
    }

    /// A ring (a 12 px circle's 3 px stroke, no fill): 2 triangles; its ink is the annulus's area,
    /// and its hole and the square's corners are clear.
    @Test func ring() throws {
        let circle = try Circle(center: Self.center, radius: .pixels(12), fill: Color(rgb: 0, alpha: 0),
                                stroke: Color(rgb: 0), strokeWidth: 3)
        let (cov, w, c, triangles) = try Self.coverage(circle, ratio: 1)
        #expect(triangles == 2)
        var ink = 0.0
        for (i, v) in cov.enumerated() {
            ink += v
            let d = ((Double(i % w) + 0.5 - c.x) * (Double(i % w) + 0.5 - c.x)
                + (Double(i / w) + 0.5 - c.y) * (Double(i / w) + 0.5 - c.y)).squareRoot()
            if d < 10.5 - 0.5 || d > 13.5 + 0.5 { #expect(v == 0, "\(v) at \(d) px") }
            if d > 10.5 + 0.5 && d < 13.5 - 0.5 { #expect(v > 0.99, "\(v) at \(d) px") }
        }
        let area = Double.pi * (13.5 * 13.5 - 10.5 * 10.5)
        #expect(abs(ink - area) < 0.015 * area, "ink \(ink) against \(area)")
    }

    /// Multisampling keeps the polygons (the polygon is the edge there), and so does a circle
    /// past `pixelQuadMaxRadius` device px.
    @Test func polygonsStay() throws {
        let small = try Circle(center: Self.center, radius: .pixels(6), fill: Color(rgb: 0), stroke: nil)
        #expect(try Self.coverage(small, ratio: 1, samples: 4).triangles > 2)
        let large = try Circle(center: Self.center, radius: .pixels(RenderPlanner.pixelQuadMaxRadius / 2 + 1),
                               fill: Color(rgb: 0), stroke: nil)
        #expect(try Self.coverage(large, ratio: 2).triangles > 2)
        #expect(try Self.coverage(large, ratio: 1).triangles == 2)
    }
}
