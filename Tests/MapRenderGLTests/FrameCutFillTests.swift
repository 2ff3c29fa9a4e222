import Foundation
import GeoKit
import MapCamera
import MapImage
import MapRender
import MapRenderGL
import MapScene
import Testing

/// A concave shape cut into two tiles (Sutherland–Hodgman, by hand): the lower tile's piece
/// keeps its two arms joined by a zero-width corridor along the cut (`FrameCutPlanTests`).
/// Drawn as two sets, each cut to its tile (`PolygonSet.frame`), the lower one as a wedge fill,
/// the tiles show the shape drawn whole.
@Suite struct FrameCutFillTests {
    /// The U of `FrameCutPlanTests` in steps of 1.2 · 10⁻⁷ of the world (4.03 px at zoom 16):
    /// arms at x 2–4 and 6–8 from y 8 up to its base at y −4…−2; the tiles are y 0…10 and
    /// −10…0. The view's centre is off the pixel grid by `shift` of a pixel.
    @Test(arguments: [0.0, 0.37, 0.5])
    func aShapeCutIntoTilesIsDrawnWhole(_ shift: Double) throws {
        let s = 1.2e-7
        func p(_ x: Double, _ y: Double) -> MapPoint { MapPoint(x: 0.5 + x * s, y: 0.3 + y * s) }
        func rings(_ pts: [(Double, Double)]) throws -> PolygonRings {
            PolygonRings(exterior: try GeoPath(points: pts.map { p($0.0, $0.1) }))
        }
        let whole = [(2.0, 8.0), (2, -4), (8, -4), (8, 8), (6, 8), (6, -2), (4, -2), (4, 8)]
        let lower = [(2.0, 0.0), (8, 0), (8, 8), (6, 8), (6, 0), (4, 0), (4, 8), (2, 8)]
        let upper = [(2.0, 0.0), (2, -4), (8, -4), (8, 0), (6, 0), (6, -2), (4, -2), (4, 0)]
        let lowerTile = MapRect(origin: p(0, 0), width: 10 * s, height: 10 * s)
        let upperTile = MapRect(origin: p(0, -10), width: 10 * s, height: 10 * s)
        let fill = Color(rgb: 0x336699), background = Color(rgb: 0xF6F8FA)
        let ws = 512 * pow(2, 16.0)
        let centre = MapPoint(x: 0.5 + 5 * s + shift / ws, y: 0.3 + shift / ws)
        let camera = Camera(center: centre.latLng, zoom: 16, size: ScreenSize(width: 96, height: 96))
        let renderer = try MapRenderer(samples: 0)
        func draw(_ sets: [PolygonSet]) throws -> [RGBA8] {
            let scene = Scene(background: background, overlays: sets.map { .multiPolygon(MultiPolygon(polygons: $0, fill: fill)) })
            let plan = RenderPlanner().plan(scene, camera: camera)
            #expect(plan.commands.allSatisfy { $0.mesh.layout == .wedgeFill }, "\(plan.commands.map(\.mesh.layout))")
            let image = try renderer.render(scene: scene, camera: camera)
            return (0 ..< image.height).flatMap { y in
                (0 ..< image.width).map { let q = image.pixel(x: $0, y: y)!; return RGBA8(r: q.r, g: q.g, b: q.b, a: q.a) }
            }
        }
        let shape = try draw([PolygonSet([try rings(whole)])])
        let tiles = try draw([PolygonSet([try rings(lower)], frame: lowerTile), PolygonSet([try rings(upper)], frame: upperTile)])
        // The U covers 2 × 2 × 12 + 2 × 2 steps of 4.03 px: 844 px², and its edges' pixels.
        let covered = shape.filter { $0 != RGBA8(r: background.r, g: background.g, b: background.b) }.count
        #expect(covered >= 844 && covered < 1000, "\(covered) pixels covered")
        // Only where the cut crosses the shape's sides (x 2, 4, 6 and 8 on y 0) may a pixel
        // differ: there each tile's corner takes its share of the side's edge pixel.
        let crossings = try [2.0, 4, 6, 8].map { try #require(camera.project(p($0, 0).latLng)) }
        var differ = 0, worst = 0
        for (i, (a, b)) in zip(shape, tiles).enumerated() {
            let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
            let x = Double(i % 96) + 0.5, y = Double(i / 96) + 0.5
            if crossings.contains(where: { abs($0.x - x) < 1.5 && abs($0.y - y) < 1.5 }) { continue }
            worst = max(worst, d)
            if d > 2 { differ += 1 }
        }
        #expect(differ == 0, "\(differ) pixels differ by more than 2 levels from the shape (worst \(worst))")
    }
}
