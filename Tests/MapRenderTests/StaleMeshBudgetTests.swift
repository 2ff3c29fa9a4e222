import Foundation
import GeoKit
import MapCamera
@testable import MapRender
import MapScene
import Testing

/// The planner's mesh cache past `keepGenerations` plans unused: meshes stay while the stale
/// ones hold at most the budget (`RenderPlanner.staleMeshBytes`), the least recently used
/// dropped first, so that a view met a few views ago (a server's tile beside the last ones)
/// is drawn again without tessellating.
@Suite struct StaleMeshBudgetTests {
    /// Three sets of 60 L-shapes (`MultiShapePlanTests.ells`, each set a mesh of 240 wedge
    /// triangles: 720 vertices of 20 floats and 720 indices, 60 480 bytes, and two empty ones).
    static func scenes() throws -> [Scene] {
        try (0 ..< 3).map { _ in
            Scene(overlays: [.multiPolygon(MultiPolygon(polygons: PolygonSet(try MultiShapePlanTests.ells(60)), fill: Color(rgb: 0x336699)))])
        }
    }

    /// Plans A, then B, then C ten times (A and B stale), then B and A again: the meshes made.
    static func misses(budget: Int) throws -> (afterC: Int, b: Int, a: Int) {
        let planner = RenderPlanner()
        planner.staleMeshBudget = budget
        let s = try scenes()
        let camera = MultiShapePlanTests.camera
        _ = planner.plan(s[0], camera: camera)
        _ = planner.plan(s[1], camera: camera)
        for _ in 0 ..< 10 { _ = planner.plan(s[2], camera: camera) }
        let afterC = planner.statistics.misses
        _ = planner.plan(s[1], camera: camera)
        let b = planner.statistics.misses - afterC
        _ = planner.plan(s[0], camera: camera)
        return (afterC, b, planner.statistics.misses - afterC - b)
    }

    @Test func staleMeshesWithinTheBudgetAreKept() throws {
        let mesh = RenderPlanner().plan(try Self.scenes()[0], camera: MultiShapePlanTests.camera).commands[0].mesh
        #expect((mesh.vertices.count + mesh.indices.count) * 4 == 720 * 20 * 4 + 720 * 4)
        // A set's three entries count its mesh and a kilobyte each.
        let bytes = 60_480 + 3 * 1024
        // Three meshes a set (wedge fills, and the empty fringed and convex ones).
        let kept = try Self.misses(budget: RenderPlanner.staleMeshBytes)
        #expect(kept.afterC == 9 && kept.b == 0 && kept.a == 0)
        // No budget: both stale sets were dropped (the cache as it was before the budget).
        let none = try Self.misses(budget: 0)
        #expect(none.afterC == 9 && none.b == 3 && none.a == 3)
        // Room for one set's mesh: the more recently used (B) is kept, A is dropped.
        let one = try Self.misses(budget: bytes)
        #expect(one.afterC == 9 && one.b == 0 && one.a == 3)
    }
}
