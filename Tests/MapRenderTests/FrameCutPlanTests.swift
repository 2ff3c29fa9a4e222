import Foundation
import GeoKit
import MapCamera
@testable import MapRender
import MapScene
import Testing

/// Polygons cut to a frame (`PolygonSet.frame`: a tile): a concave shape clipped along a side
/// of the frame by Sutherland–Hodgman keeps its pieces joined by a zero-width corridor on that
/// side. Such corridors are cuts, not keyholes, so an opaque set fills the polygon as a wedge
/// fill; corridors anywhere else keep the fringe (`corridorsLeftByClippersKeepTheFringe`).
@Suite struct FrameCutPlanTests {
    /// Map units: 10⁻⁵ of the world per step, from (0.5, 0.3); the frame is 10 steps square.
    static func p(_ x: Double, _ y: Double) -> MapPoint { MapPoint(x: 0.5 + x * 1e-5, y: 0.3 + y * 1e-5) }
    static let frame = MapRect(origin: p(0, 0), width: 10e-5, height: 10e-5)

    /// A U with its arms at x 2–4 and 6–8 reaching up past the frame's top (y 0, y down) to its
    /// base at y −4…−2, clipped to y ≥ 0 by hand as Sutherland–Hodgman does: the clipped ring
    /// runs along the top from the first arm to the second and back across the gap between them.
    static func clippedU() throws -> PolygonRings {
        let ring = [(2.0, 0.0), (8, 0), (8, 8), (6, 8), (6, 0), (4, 0), (4, 8), (2, 8)].map { p($0.0, $0.1) }
        return PolygonRings(exterior: try GeoPath(points: ring))
    }

    @Test func aCorridorAlongTheFrameIsACut() throws {
        let u = try Self.clippedU()
        #expect(RenderPlanner.hasRetracedEdges(u))
        #expect(!RenderPlanner.hasRetracedEdges(u, frame: Self.frame))
        #expect(RenderPlanner.fillKind(u, opaque: true) == .fringed)
        #expect(RenderPlanner.fillKind(u, opaque: true, frame: Self.frame) == .wedge)
        // A translucent set's polygons keep their fringes whatever the frame.
        #expect(RenderPlanner.fillKind(u, opaque: false, frame: Self.frame) == .fringed)
        // The same corridor with the frame's top a step higher: not on a side.
        let higher = MapRect(origin: Self.p(0, -1), width: 10e-5, height: 11e-5)
        #expect(RenderPlanner.hasRetracedEdges(u, frame: higher))
    }

    @Test func aKeyholeInsideTheFrameKeepsTheFringe() throws {
        // A square with a square hole reached from its left side by a corridor at y 5 (the
        // fill on both sides of it), wholly inside the frame.
        let ring = [(1.0, 1.0), (9, 1), (9, 9), (1, 9), (1, 5), (3, 5), (3, 7), (7, 7), (7, 3), (3, 3), (3, 5), (1, 5)]
        let keyhole = PolygonRings(exterior: try GeoPath(points: ring.map { Self.p($0.0, $0.1) }))
        #expect(RenderPlanner.hasRetracedEdges(keyhole, frame: Self.frame))
        #expect(RenderPlanner.fillKind(keyhole, opaque: true, frame: Self.frame) == .fringed)
    }

    @Test func anOpaqueSetCutToItsFrameDrawsTheClippedUAsAWedgeFill() throws {
        // (At zoom 9 the frame is 27 px wide: the set is meshed whole, not by view cell.)
        let u = try Self.clippedU()
        let camera = Camera(center: MapPoint(x: 0.5 + 5e-5, y: 0.3 + 5e-5).latLng, zoom: 9, size: ScreenSize(width: 160, height: 120))
        func layouts(_ set: PolygonSet) -> [VertexLayout] {
            RenderPlanner().plan(Scene(overlays: [.multiPolygon(MultiPolygon(polygons: set, fill: Color(rgb: 0x336699)))]), camera: camera)
                .commands.map(\.mesh.layout)
        }
        #expect(layouts(PolygonSet([u], frame: Self.frame)) == [.wedgeFill])
        #expect(layouts(PolygonSet([u])) == [.ground])
    }
}
