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

    @Test func theSetUsesConvexFillsForEveryPart() throws {
        let plan = RenderPlanner().plan(FillComparison.scenes(try Self.rings()).set, camera: ReferenceImageTests.camera(ratio: 1))
        #expect(plan.commands.count == 1 && plan.commands[0].mesh.layout == .convexFill)
    }

    /// At pitch 0 (bearing 0 or 30°, 1× or 2×) the convex fills draw what the fringes draw: half
    /// a pixel of fade outside each edge, mitered corners, the same pixels touched, a few edge
    /// pixels apart where a pixel's centre lies on an edge. (Pitched, the fringes' reach is not exactly half a pixel: see
    /// the next test.)
    @Test(arguments: [(0.0, 1.0), (30.0, 1.0), (0.0, 2.0)])
    func convexFillsDrawWhatFringesDraw(bearing: Double, ratio: Double) throws {
        let (differ, _, covered) = try FillComparison.againstParts(try Self.rings(), bearing: bearing, ratio: ratio, name: "convex fills")
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
        let e = try FillComparison.edgeErrors(try Self.rings(), bearing: bearing, pitch: pitch, ratio: ratio, name: "convex fills")
        let fringes = e.fringes
        #expect(e.edges > 700 * Int(ratio), "the scene has edges to compare (\(e.edges))")
        #expect(e.set <= fringes * 1.01, "convex fills \(e.set) vs fringes \(fringes)")
        #expect(e.aliased > 1.5 * e.set, "the comparison tells antialiased edges from aliased ones")
    }
}
