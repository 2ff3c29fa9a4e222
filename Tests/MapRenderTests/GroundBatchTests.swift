import GeoKit
import MapCamera
@testable import MapRender
import MapScene
import Testing

/// `batchGround`: runs of consecutive opaque ground commands that differ only in their meshes
/// become one command whose mesh holds every part (re-based, fills' interiors before fringes);
/// anything that could draw differently merged stays alone.
@Suite struct GroundBatchTests {
    static let camera = Camera(center: LatLng(lat: 46, lon: 7), zoom: 14, size: ScreenSize(width: 400, height: 400))

    /// `n` small squares in a row across the view, 40 m apart.
    func squares(_ n: Int, fill: (Int) -> Color) throws -> [Overlay] {
        try (0 ..< n).map { i in
            let lat = 46.0 + Double(i % 10) * 0.0004 - 0.002, lon = 7.0 + Double(i / 10) * 0.0006 - 0.003
            return .polygon(try Polygon(exterior: [LatLng(lat: lat, lon: lon), LatLng(lat: lat, lon: lon + 0.0002),
                                                   LatLng(lat: lat + 0.0001, lon: lon + 0.0002), LatLng(lat: lat + 0.0001, lon: lon)],
                                        fill: fill(i)))
        }
    }

    @Test func alikeOpaqueFillsBecomeOneCommandHoldingEveryPart() throws {
        let planner = RenderPlanner()
        let overlays = try squares(60) { _ in Color(rgb: 0x336699) }
        let plan = planner.plan(Scene(overlays: overlays), camera: Self.camera)
        #expect(plan.commands.count == 1)
        let mesh = plan.commands[0].mesh
        // Each square: 2 interior triangles and a fringe quad (2 triangles) per edge.
        #expect(mesh.triangleCount == 60 * (2 + 8) && mesh.fringeStart == 60 * 2 * 3)
        // Every part's interior lies where its square is: re-based positions, checked against
        // the squares' corners in map units.
        let o = plan.commands[0].origin
        for overlay in overlays {
            guard case .polygon(let p) = overlay, let b = p.exterior.bounds else { continue }
            let inside = stride(from: 0, to: mesh.fringeStart!, by: 3).contains { t in
                let k = Int(mesh.indices[t]) * 6
                let x = Double(mesh.vertices[k]) + o.x, y = Double(mesh.vertices[k + 1]) + o.y
                return abs(x - b.minX) < 1e-9 || abs(x - b.maxX) < 1e-9 ? (y >= b.minY - 1e-9 && y <= b.maxY + 1e-9) : false
            }
            #expect(inside)
        }
        // The same view again: the merged mesh is re-used, not merged again.
        let again = planner.plan(Scene(overlays: overlays), camera: Self.camera)
        #expect(again.commands.count == 1 && again.commands[0].mesh === mesh)
    }

    @Test func whatCouldDrawDifferentlyStaysAlone() throws {
        let planner = RenderPlanner()
        // Alternating colours: no two neighbours alike.
        let alternating = try squares(20) { $0 % 2 == 0 ? Color(rgb: 0x336699) : Color(rgb: 0x993366) }
        #expect(planner.plan(Scene(overlays: alternating), camera: Self.camera).commands.count == 20)
        // Translucent fills overlap-blend differently once merged (blend-once per command).
        let translucent = try squares(20) { _ in Color(rgb: 0x336699, alpha: 0x80) }
        #expect(planner.plan(Scene(overlays: translucent), camera: Self.camera).commands.count == 20)
        // Pixel circles are screen-anchored shapes.
        let dots = try (0 ..< 10).map { i in
            Overlay.circle(try Circle(center: LatLng(lat: 46, lon: 7 + Double(i) * 0.001), radius: .pixels(4),
                                      fill: Color(rgb: 0x336699), stroke: nil))
        }
        #expect(planner.plan(Scene(overlays: dots), camera: Self.camera).commands.count >= 10)
        // Dashed lines keep their own dash phase.
        var dashed = LineStyle(width: .pixels(3), color: Color(rgb: 0x336699))
        dashed.dash = [4, 4]
        let lines = try (0 ..< 10).map { i in
            Overlay.polyline(try Polyline(coordinates: [LatLng(lat: 46 + Double(i) * 0.0003, lon: 6.99), LatLng(lat: 46 + Double(i) * 0.0003, lon: 7.01)],
                                      style: dashed))
        }
        #expect(planner.plan(Scene(overlays: lines), camera: Self.camera).commands.count == 10)
        var solid = dashed
        solid.dash = []
        let solidLines = try (0 ..< 10).map { i in
            Overlay.polyline(try Polyline(coordinates: [LatLng(lat: 46 + Double(i) * 0.0003, lon: 6.99), LatLng(lat: 46 + Double(i) * 0.0003, lon: 7.01)],
                                      style: solid))
        }
        #expect(planner.plan(Scene(overlays: solidLines), camera: Self.camera).commands.count == 1)
    }
}
