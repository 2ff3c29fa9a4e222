import GeoKit
import MapCamera
@testable import MapRender
import MapScene
import Testing

/// `GroundCover.holdsView` and the plans it changes: an opaque set that would be drawn first and
/// one of whose polygons holds the whole view is left out, its colour the plan's `ground`.
/// The distances are hand-derived in logical pixels: the view is 400 × 400 px, and at pitch 0 a
/// pixel is 1/worldSize map units everywhere.
@Suite struct GroundCoverTests {
    static func camera(bearing: Double = 0, pitch: Double = 0) -> Camera {
        Camera(center: LatLng(lat: 46, lon: 7), zoom: 14, bearing: bearing, pitch: pitch, size: ScreenSize(width: 400, height: 400))
    }

    /// A ring of map points at (dx, dy) px from the camera's centre.
    static func ring(_ pts: [(Double, Double)], camera: Camera = camera()) throws -> GeoPath {
        let c = MapPoint(camera.center), s = camera.worldSize
        return try GeoPath(points: pts.map { MapPoint(x: c.x + $0.0 / s, y: c.y + $0.1 / s) })
    }

    /// A square of half side `h` px round (cx, cy) px from the centre.
    static func square(_ h: Double, at cx: Double = 0, _ cy: Double = 0) -> [(Double, Double)] {
        [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
    }

    func holds(_ polygons: [PolygonRings], _ camera: Camera = Self.camera()) -> Bool {
        GroundCover.holdsView(PolygonSet(polygons), camera: camera)
    }

    @Test func aSquareHoldsTheViewOnlyWithTheMarginToSpare() throws {
        // The view's edges are 200 px from its centre; the margin is 6 px.
        #expect(GroundCover.marginPx == 6)
        #expect(holds([PolygonRings(exterior: try Self.ring(Self.square(210)))]))
        #expect(!holds([PolygonRings(exterior: try Self.ring(Self.square(204)))]))
        // Off centre by 20 px: the near side is 190 px from the centre.
        #expect(!holds([PolygonRings(exterior: try Self.ring(Self.square(210, at: 20, 0)))]))
        #expect(holds([PolygonRings(exterior: try Self.ring(Self.square(230, at: 20, 0)))]))
        // Wound either way.
        #expect(holds([PolygonRings(exterior: try Self.ring(Self.square(210).reversed()))]))
    }

    @Test func aTurnedViewReachesFurther() throws {
        // Turned 45°, the view's corners are 200·√2 = 282.8 px from its centre along the axes.
        let turned = Self.camera(bearing: 45)
        #expect(!holds([PolygonRings(exterior: try Self.ring(Self.square(250), camera: turned))], turned))
        #expect(holds([PolygonRings(exterior: try Self.ring(Self.square(292), camera: turned))], turned))
        #expect(!holds([PolygonRings(exterior: try Self.ring(Self.square(286), camera: turned))], turned))
    }

    @Test func holesAndNotchesInTheViewCount() throws {
        // A hole in the middle of the view, and one outside it (its nearest edge 290 px away).
        let outer = try Self.ring(Self.square(600))
        #expect(!holds([PolygonRings(exterior: outer, holes: [try Self.ring(Self.square(5))])]))
        #expect(holds([PolygonRings(exterior: outer, holes: [try Self.ring(Self.square(10, at: 300, 300))])]))
        // A U whose bounds hold the view, the view in its notch (edges 400 px off): not inside.
        let u: [(Double, Double)] = [(-800, -800), (-400, -800), (-400, 400), (400, 400), (400, -800), (800, -800),
                                     (800, 800), (-800, 800)]
        #expect(!holds([PolygonRings(exterior: try Self.ring(u))]))
        // The same view held by the second polygon of a set.
        #expect(holds([PolygonRings(exterior: try Self.ring(u)), PolygonRings(exterior: try Self.ring(Self.square(300)))]))
    }

    @Test func aPitchedViewIsHeldWhileTheGroundFillsEveryRow() throws {
        let pitched = Self.camera(pitch: 50)
        #expect(pitched.topGroundY == 0)
        // Far enough for the top row (which reaches farther than 200 px straight down would).
        #expect(holds([PolygonRings(exterior: try Self.ring(Self.square(20_000), camera: pitched))], pitched))
        #expect(!holds([PolygonRings(exterior: try Self.ring(Self.square(300), camera: pitched))], pitched))
        // With the horizon or the far plane in view, rows above them are not ground.
        let steep = Self.camera(pitch: 85)
        #expect(steep.topGroundY > 0)
        #expect(!holds([PolygonRings(exterior: try Self.ring(Self.square(1e7), camera: steep))], steep))
    }

    @Test func theFirstOpaqueSetRoundTheViewBecomesTheGround() throws {
        let land = Color(rgb: 0xF2EFE9)
        let big = MultiPolygon(polygons: PolygonSet([PolygonRings(exterior: try Self.ring(Self.square(400)))]), fill: land)
        let lake = MultiPolygon(polygons: PolygonSet([PolygonRings(exterior: try Self.ring(Self.square(50)))]), fill: Color(rgb: 0x99BBDD))
        let planner = RenderPlanner()
        let plan = planner.plan(Scene(overlays: [.multiPolygon(big), .multiPolygon(lake)]), camera: Self.camera())
        #expect(plan.ground == land && plan.clearColor == land)
        #expect(plan.commands.count == 1, "the lake is drawn")
        // A lake round the view as well, in the land round it: the lake is the ground.
        let wide = MultiPolygon(polygons: PolygonSet([PolygonRings(exterior: try Self.ring(Self.square(300)))]), fill: Color(rgb: 0x99BBDD))
        let inLake = planner.plan(Scene(overlays: [.multiPolygon(big), .multiPolygon(wide), .multiPolygon(lake)]), camera: Self.camera())
        #expect(inLake.ground == Color(rgb: 0x99BBDD) && inLake.commands.count == 1, "the small lake is still drawn")
        // Not when asked not to, not translucent, not when something is drawn before it, not
        // when it does not hold the view.
        planner.clearsCoveredGround = false
        let drawn = planner.plan(Scene(overlays: [.multiPolygon(big), .multiPolygon(lake)]), camera: Self.camera())
        #expect(drawn.ground == nil && drawn.commands.count == 2)
        planner.clearsCoveredGround = true
        var faint = big
        faint.fill = Color(rgb: 0xF2EFE9, alpha: 0xF0)
        #expect(planner.plan(Scene(overlays: [.multiPolygon(faint)]), camera: Self.camera()).ground == nil)
        #expect(planner.plan(Scene(overlays: [.multiPolygon(lake), .multiPolygon(big)]), camera: Self.camera()).ground == nil)
        let small = MultiPolygon(polygons: PolygonSet([PolygonRings(exterior: try Self.ring(Self.square(150)))]), fill: land)
        #expect(planner.plan(Scene(overlays: [.multiPolygon(small)]), camera: Self.camera()).ground == nil)
    }
}
