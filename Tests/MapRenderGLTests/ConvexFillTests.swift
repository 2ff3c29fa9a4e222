import Foundation
import GeoKit
import MapCamera
import MapRender
import MapRenderGL
import MapScene
import Testing

/// Convex fills (a `MultiPolygon`'s small convex parts, drawn with coverage from their own
/// triangles instead of a fringe) against the same polygons drawn as `Polygon`s (with fringes),
/// and against the 16× supersampled reference.
@Suite(.serialized) struct ConvexFillTests {
    /// Rectangles turned every 11°, triangles and a thin sliver of a quadrilateral, around the
    /// middle of `AntialiasingQualityTests`' view, some touching.
    static func rings() throws -> [PolygonRings] {
        let at = ReferenceImageTests.at
        var rings: [PolygonRings] = []
        for k in 0 ..< 16 {
            let a = Double(k) * 11 * .pi / 180, cx = -100 + Double(k % 8) * 27, cy = k < 8 ? -40.0 : 10
            let (w, h) = (9.0 + Double(k % 3) * 4, 5.0 + Double(k % 4) * 3)
            let corners = [(-w, -h), (w, -h), (w, h), (-w, h)].map { p in
                at(cx + p.0 * cos(a) - p.1 * sin(a), cy + p.0 * sin(a) + p.1 * cos(a))
            }
            rings.append(PolygonRings(exterior: try GeoPath(coordinates: corners)))
        }
        rings.append(PolygonRings(exterior: try GeoPath(coordinates: [at(-100, 45), at(-60, 52), at(-85, 75)])))
        rings.append(PolygonRings(exterior: try GeoPath(coordinates: [at(-50, 45), at(-20, 80), at(-55, 70)])))
        rings.append(PolygonRings(exterior: try GeoPath(coordinates: [at(0, 50), at(60, 53), at(61, 56), at(1, 54)])))
        // Two squares sharing an edge.
        rings.append(PolygonRings(exterior: try GeoPath(coordinates: [at(70, 45), at(90, 45), at(90, 65), at(70, 65)])))
        rings.append(PolygonRings(exterior: try GeoPath(coordinates: [at(90, 45), at(110, 45), at(110, 65), at(90, 65)])))
        return rings
    }

    static let fill = Color(rgb: 0x0969DA)

    static func scenes() throws -> (convex: Scene, fringed: Scene) {
        let set = PolygonSet(try rings())
        let multi = MultiPolygon(polygons: set, fill: fill)
        var a = Scene(background: Color(rgb: 0xF6F8FA)), b = Scene(background: Color(rgb: 0xF6F8FA))
        a.add(.multiPolygon(multi))
        for i in set.polygons.indices { b.add(.polygon(multi.part(i))) }
        return (a, b)
    }

    @Test func theSetUsesConvexFillsForEveryPart() throws {
        let (convex, _) = try Self.scenes()
        let plan = RenderPlanner().plan(convex, camera: ReferenceImageTests.camera(ratio: 1))
        #expect(plan.commands.count == 1 && plan.commands[0].mesh.layout == .convexFill)
    }

    /// At pitch 0 (bearing 0 or 30°, 1× or 2×) the convex fills draw what the fringes draw: half
    /// a pixel of fade outside each edge, mitered corners, the same pixels touched, a few edge
    /// pixels apart where a pixel's centre lies on an edge. (Pitched, the fringes' reach is not exactly half a pixel: see
    /// the next test.)
    @Test(arguments: [(0.0, 1.0), (30.0, 1.0), (0.0, 2.0)])
    func convexFillsDrawWhatFringesDraw(bearing: Double, ratio: Double) throws {
        let (convex, fringed) = try Self.scenes()
        var camera = ReferenceImageTests.camera(ratio: ratio)
        camera.bearing = bearing
        let renderer = try MapRenderer(samples: 0)
        let a = try renderer.render(scene: convex, camera: camera), b = try renderer.render(scene: fringed, camera: camera)
        var differ = 0, worst = 0, covered = (0, 0)
        for y in 0 ..< a.height {
            for x in 0 ..< a.width {
                let p = a.pixel(x: x, y: y)!, q = b.pixel(x: x, y: y)!
                let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
                worst = max(worst, d)
                if d > 8 { differ += 1 }
                if p.r != 0xF6 { covered.0 += 1 }
                if q.r != 0xF6 { covered.1 += 1 }
            }
        }
        print("convex fills vs fringes, bearing \(bearing) @\(ratio)x: \(differ) pixels differ by > 8 (worst \(worst)); covered \(covered.0) vs \(covered.1)")
        #expect(covered.1 > 3000 * Int(ratio * ratio), "the shapes are on screen")
        #expect(covered.0 == covered.1, "the same pixels touched")
        // Pixels whose centre lies exactly on an edge (this scene's edges run through pixel
        // centres) are inside by the rasteriser's rule for one and on the edge (half covered)
        // for the other: at most one pixel in a thousand.
        #expect(differ <= covered.1 / 1000, "\(differ) pixels differ by more than 8 levels")
    }

    /// Against 16× supersampling (`AntialiasingQualityTests`), flat, at 2× and pitched 50°, the
    /// convex fills' edges are as close as the fringes'. (Fills are not held to 4× MSAA here:
    /// both ways keep every pixel whose centre is inside fully covered, so that fills sharing an
    /// edge leave no crack, which puts their edges a quarter of a pixel out on average.)
    @Test(arguments: [(0.0, 0.0, 1.0), (0.0, 0.0, 2.0), (25.0, 50.0, 1.0)])
    func convexFillEdgesAreAsCloseToSupersamplingAsFringes(bearing: Double, pitch: Double, ratio: Double) throws {
        let (convex, fringed) = try Self.scenes()
        let camera = { (r: Double) -> Camera in
            var c = ReferenceImageTests.camera(ratio: r)
            c.bearing = bearing
            c.pitch = pitch
            return c
        }
        let e = try AntialiasingQualityTests.edgeErrors(convex, ratio: ratio, name: "convex fills, bearing \(bearing) pitch \(pitch)", camera: camera)
        let ref = try AntialiasingQualityTests.supersampled(fringed, ratio: ratio, camera: camera)
        let fringes = AntialiasingQualityTests.meanEdgeError(try MapRenderer(samples: 0).render(scene: fringed, camera: camera(ratio)), ref)
        print("  the same as Polygons with fringes: \(String(format: "%.2f", fringes))")
        #expect(e.edges > 700 * Int(ratio), "the scene has edges to compare (\(e.edges))")
        #expect(e.shader <= fringes * 1.01, "convex fills \(e.shader) vs fringes \(fringes)")
        #expect(e.aliased > 1.5 * e.shader, "the comparison tells antialiased edges from aliased ones")
    }
}
