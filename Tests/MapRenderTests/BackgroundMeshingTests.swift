import Foundation
import GeoKit
import MapCamera
@testable import MapRender
import MapScene
import Testing

/// Sets' meshes built off the planning thread (`RenderPlanner.backgroundMeshing`, a live view's
/// mode): nothing drawn until a set's first mesh is built, then that mesh (the one a planner
/// without it makes); at another zoom bucket the last mesh stands in until the bucket's own
/// arrives; `setsReady` says when a set can be drawn; stale requests are dropped, newest first.
@Suite struct BackgroundMeshingTests {
    static let camera = MultiShapePlanTests.camera

    /// A planner building in the background, and a count of its `onReady` calls.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func bump() { lock.withLock { n += 1 } }
        var value: Int { lock.withLock { n } }
    }

    static func waitIdle(_ b: BackgroundMeshing) throws {
        let deadline = Date().addingTimeInterval(20)
        while !b.isIdle && Date() < deadline { usleep(2_000) }
        try #require(b.isIdle, "background meshing did not finish in 20 s")
    }

    /// The triangles of a command's mesh as absolute positions and coverage inputs, rounded.
    static func triangles(_ c: DrawCommand) -> [[Double]] {
        c.mesh.indices.map { i in
            let k = Int(i) * c.mesh.layout.stride
            return [((Double(c.mesh.vertices[k]) + c.origin.x) * 1e7).rounded(), ((Double(c.mesh.vertices[k + 1]) + c.origin.y) * 1e7).rounded()]
                + (2 ..< c.mesh.layout.stride).map { Double(c.mesh.vertices[k + $0]) }
        }
    }

    static func scene() throws -> Scene {
        let polygons = PolygonSet(try MultiShapePlanTests.squares(40))
        let lines = PathSet(try (0 ..< 5).map { i in
            try GeoPath(coordinates: [LatLng(lat: 45.998 + 0.001 * Double(i), lon: 6.996), LatLng(lat: 46.0 + 0.001 * Double(i), lon: 7.0),
                                      LatLng(lat: 45.999 + 0.001 * Double(i), lon: 7.004)])
        })
        return Scene(overlays: [.multiPolygon(MultiPolygon(polygons: polygons, fill: Color(rgb: 0x336699))),
                                .multiPolyline(MultiPolyline(paths: lines, style: LineStyle(width: .pixels(5), color: .black)))])
    }

    @Test func aSetIsDrawnOnceItsMeshIsBuiltAndThenAsAPlannerWithoutItDrawsIt() throws {
        let scene = try Self.scene()
        let calls = Counter()
        let background = BackgroundMeshing(onReady: { calls.bump() })
        let planner = RenderPlanner()
        planner.backgroundMeshing = background
        // The first plan asks for the meshes and draws none; the scene is not ready. Four
        // meshes: the squares as convex fills, the set's other polygons with fringes and as
        // wedge fills (none: empty meshes) and the lines.
        background.held = true
        #expect(planner.plan(scene, camera: Self.camera).commands.isEmpty)
        #expect(!planner.setsReady(scene.overlays, camera: Self.camera))
        background.held = false
        try Self.waitIdle(background)
        #expect(calls.value == 4)
        #expect(planner.setsReady(scene.overlays, camera: Self.camera))
        let plan = planner.plan(scene, camera: Self.camera)
        let exact = RenderPlanner().plan(scene, camera: Self.camera)
        #expect(plan.commands.count == exact.commands.count && exact.commands.count == 2)
        for (a, b) in zip(plan.commands, exact.commands) {
            let same = Self.triangles(a) == Self.triangles(b)
            #expect(same, "differs from the exact mesh")
            #expect(a.color == b.color && a.extrudeScale == b.extrudeScale && a.coverage == b.coverage)
        }
        #expect(planner.statistics.misses == 4)
        // Nothing more was asked for: the meshes are the frame's own.
        #expect(background.isIdle)
        _ = planner.plan(scene, camera: Self.camera)
        #expect(background.isIdle && calls.value == 4)
    }

    @Test func atAnotherBucketTheLastMeshStandsInUntilItsOwnIsBuilt() throws {
        let scene = try Self.scene()
        let background = BackgroundMeshing(onReady: {})
        let planner = RenderPlanner()
        planner.backgroundMeshing = background
        _ = planner.plan(scene, camera: Self.camera)
        try Self.waitIdle(background)
        let before = planner.plan(scene, camera: Self.camera)
        // Half a level in: a new bucket. The old meshes are drawn at once, with the new zoom's
        // widths (the line is 5 px wide at any zoom).
        var closer = Self.camera
        closer.zoom = 14.6
        background.held = true
        let standIn = planner.plan(scene, camera: closer)
        #expect(standIn.commands.count == 2)
        #expect(standIn.commands[0].mesh === before.commands[0].mesh && standIn.commands[1].mesh === before.commands[1].mesh)
        #expect(standIn.commands[1].extrudeScale == 2.5)
        #expect(planner.setsReady(scene.overlays, camera: closer))
        #expect(!background.isIdle)
        background.held = false
        try Self.waitIdle(background)
        let own = planner.plan(scene, camera: closer)
        let exact = RenderPlanner().plan(scene, camera: closer)
        #expect(own.commands[0].mesh !== before.commands[0].mesh && own.commands[1].mesh !== before.commands[1].mesh)
        for (a, b) in zip(own.commands, exact.commands) {
            let same = Self.triangles(a) == Self.triangles(b)
            #expect(same, "differs from the exact mesh")
        }
    }

    @Test func setsReadyBuildsWholeSetsOutOfViewToo() throws {
        let far = Scene(overlays: [.multiPolygon(MultiPolygon(polygons: PolygonSet(try MultiShapePlanTests.squares(10, lat: 47, lon: 8)),
                                                              fill: Color(rgb: 0x336699)))])
        let background = BackgroundMeshing(onReady: {})
        let planner = RenderPlanner()
        planner.backgroundMeshing = background
        background.held = true
        #expect(!planner.setsReady(far.overlays, camera: Self.camera))
        background.held = false
        try Self.waitIdle(background)
        #expect(planner.setsReady(far.overlays, camera: Self.camera))
        // Culled when planned, as before; and a planner without background meshing is always ready.
        #expect(planner.plan(far, camera: Self.camera).commands.isEmpty)
        #expect(RenderPlanner().setsReady(far.overlays, camera: Self.camera))
    }

    /// A background whose first job waits for `gate`, so the queue behind it can be inspected.
    @Test func newestRequestsAreBuiltFirstAndStaleOnesAreDropped() throws {
        let gate = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        let order = Counter()
        let background = BackgroundMeshing(onReady: { order.bump() })
        let mesh = Mesh(layout: .ground, vertices: [], indices: [])
        func key(_ n: Int) -> MeshKey { MeshKey(source: .pixelDisc(radius: Double(n), segments: 4), bucket: 0, cell: nil) }
        let made = NSLock()
        nonisolated(unsafe) var built: [Int] = []
        func job(_ n: Int) -> @Sendable () -> (Mesh, MapPoint) {
            { if n == 0 { started.signal(); gate.wait() }; made.withLock { built.append(n) }; return (mesh, MapPoint(x: 0, y: 0)) }
        }
        #expect(background.take(generation: 1).isEmpty)
        background.request(key(0), retain: [], make: job(0))
        started.wait()  // the worker is inside job 0
        background.request(key(1), retain: [], make: job(1))
        background.request(key(2), retain: [], make: job(2))
        background.request(key(3), retain: [], make: job(3))
        // Plans 2 to 4 ask for 2 and 3 again, not for 1: by plan 5 it has waited past its patience.
        for g in 2 ... 4 {
            #expect(background.take(generation: g).isEmpty)
            background.request(key(2), retain: [], make: job(2))
            background.request(key(3), retain: [], make: job(3))
        }
        #expect(background.take(generation: 5).isEmpty)
        gate.signal()
        try Self.waitIdle(background)
        #expect(made.withLock { built } == [0, 3, 2])
        let taken = background.take(generation: 6)
        #expect(taken.map(\.key) == [key(0), key(3), key(2)])
        #expect(order.value == 3)
    }
}

/// Sets `meshedAtOnceWhenMissing` (the embedded basemap's tiles) under background meshing: with
/// nothing to stand in they are meshed at once, as a planner without it meshes them; at another
/// zoom bucket the last mesh stands in while the bucket's own is built in the background.
@Suite struct MeshedAtOnceTests {
    static func scene(atOnce: Bool) throws -> Scene {
        let base = try BackgroundMeshingTests.scene()
        return Scene(overlays: base.overlays.map { o in
            switch o {
            case .multiPolygon(var p): p.meshedAtOnceWhenMissing = atOnce; return .multiPolygon(p)
            case .multiPolyline(var l): l.meshedAtOnceWhenMissing = atOnce; return .multiPolyline(l)
            default: return o
            }
        })
    }

    @Test func aSetWithNothingToStandInIsMeshedAtOnce() throws {
        let scene = try Self.scene(atOnce: true)
        let background = BackgroundMeshing(onReady: {})
        let planner = RenderPlanner()
        planner.backgroundMeshing = background
        background.held = true
        defer { background.held = false }
        let camera = BackgroundMeshingTests.camera
        let plan = planner.plan(scene, camera: camera)
        let exact = RenderPlanner().plan(scene, camera: camera)
        #expect(plan.commands.count == 2 && exact.commands.count == 2)
        for (a, b) in zip(plan.commands, exact.commands) {
            #expect(BackgroundMeshingTests.triangles(a) == BackgroundMeshingTests.triangles(b))
        }
        #expect(planner.statistics.misses == 4 && background.isIdle && !planner.lastPlanStoodIn)
        // A zoom bucket away: the meshes just made stand in, the bucket's own are asked for.
        var zoomed = camera
        zoomed.zoom += 1
        let standIn = planner.plan(scene, camera: zoomed)
        #expect(standIn.commands.count == 2 && planner.lastPlanStoodIn && !background.isIdle)
        #expect(zip(standIn.commands, plan.commands).allSatisfy { $0.mesh === $1.mesh })
        // The same sets without the flag draw nothing until built.
        let other = RenderPlanner()
        other.backgroundMeshing = background
        #expect(other.plan(try Self.scene(atOnce: false), camera: camera).commands.isEmpty)
    }
}
