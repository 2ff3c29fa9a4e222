import Foundation
import GeoKit
import MapCamera
@testable import MapRender
import MapScene
import MapTestSupport
import Testing

/// Towards the horizon of a pitched view a screen pixel covers more ground, so a set lying
/// wholly there is meshed as coarsely as its nearest point allows (`PlanView.detail(for:)`):
/// fewer triangles, and still within the planner's 0.5–0.71 px of its lines on screen.
@Suite struct PitchedDetailTests {
    /// Zoom 14, pitched 70°, looking north over 46° N 7° E.
    static var camera: Camera {
        var c = Camera(center: LatLng(lat: 46, lon: 7), zoom: 14, size: ScreenSize(width: 400, height: 400))
        c.pitch = 70
        return c
    }

    /// Ten zigzags across `x ± 300` world pixels at `y`: a point every 3 world pixels (at zoom
    /// 14), alternately 1 world pixel either side, each line 12 world pixels below the last.
    static func zigzags(around centre: MapPoint) throws -> PathSet {
        let ws = 512.0 * 16384
        return PathSet(try (0 ..< 10).map { k in
            try GeoPath(points: (0 ... 200).map { i in
                MapPoint(x: centre.x + (Double(i) * 3 - 300) / ws,
                         y: centre.y + (Double(k) * 12 + (i % 2 == 0 ? 1 : -1)) / ws)
            })
        })
    }

    /// The line's centre points as drawn (the stroke's vertices sit on the simplified line,
    /// their extrusions apart), each zigzag's in order along x.
    static func centreLines(_ plan: RenderPlan) -> [[MapPoint]] {
        var points = Set<[Double]>()
        for c in plan.commands where c.mesh.layout == .ground {
            for v in stride(from: 0, to: c.mesh.vertices.count, by: 6) {
                points.insert([Double(c.mesh.vertices[v]) + c.origin.x, Double(c.mesh.vertices[v + 1]) + c.origin.y])
            }
        }
        // Grouped by line (12 world pixels apart, far more than a zigzag's 3).
        let ws = 512.0 * 16384
        let rows = Dictionary(grouping: points) { ($0[1] * ws / 12).rounded() }
        return rows.keys.sorted().map { k in rows[k]!.sorted { $0[0] < $1[0] }.map { MapPoint(x: $0[0], y: $0[1]) } }
    }

    static func style() -> LineStyle { LineStyle(width: .pixels(1), color: Color(rgb: 0x333333)) }

    @Test func aFarSetIsMeshedCoarselyAndStaysWithinHalfAPixelOnScreen() throws {
        let camera = Self.camera
        let projector = camera.projector
        // Where the ground lies five times as deep as the centre: 4·d / sin 70° world pixels north.
        let d = 1.5 * 400.0  // the eye 1.5 view heights from the centre (MapLibre: tan(fov/2) = 1/3)
        let ahead = 4 * d / sin(70 * Double.pi / 180) / camera.worldSize
        let c = MapPoint(camera.center)
        let far = MapPoint(x: c.x, y: c.y - ahead)
        expectNear(projector.depthRatio(far), 5, tolerance: 1e-9)
        let set = try Self.zigzags(around: far)
        let scene = Scene(overlays: [.multiPolyline(MultiPolyline(paths: set, style: Self.style()))])
        let pitched = RenderPlanner().plan(scene, camera: camera)
        // The same lines seen straight down at zoom 14 keep every zigzag.
        var flat = Camera(center: far.latLng, zoom: 14, size: ScreenSize(width: 400, height: 400))
        flat.pitch = 0
        let full = RenderPlanner().plan(scene, camera: flat)
        let coarse = pitched.commands.reduce(0) { $0 + $1.mesh.triangleCount }
        let fine = full.commands.reduce(0) { $0 + $1.mesh.triangleCount }
        #expect(fine >= 10 * 200 * 2, "every zigzag segment kept straight down: \(fine) triangles")
        #expect(coarse * 4 < fine, "far away: \(coarse) triangles against \(fine)")
        // On screen, every point of the lines lies within 0.71 px of the line drawn (there the
        // zigzags' 2 world pixels from crest to trough are under 0.4 px), which keeps both ends.
        let lines = Self.centreLines(pitched)
        try #require(lines.count == 10)
        var worst = 0.0
        for (path, drawn) in zip(set.paths, lines) {
            let screen = drawn.compactMap { projector.project($0) }
            try #require(screen.count == drawn.count && screen.count >= 2)
            for (a, b) in [(path.points.first!, drawn.first!), (path.points.last!, drawn.last!)] {
                #expect(abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9, "an end moved: \(a) → \(b)")
            }
            for p in path.points {
                let s = try #require(projector.project(p))
                var best = Double.infinity
                for i in 1 ..< screen.count {
                    best = min(best, Self.distance(s, screen[i - 1], screen[i]))
                }
                worst = max(worst, best)
            }
        }
        #expect(worst <= 0.71, "farthest point from the drawn line: \(worst) px")
        #expect(worst > 0.01, "the zigzags were simplified away: \(worst) px")
    }

    @Test func aSetReachingTheNearSideKeepsTheViewsDetail() throws {
        // Across the centre (and below it, nearer than the centre) the set is meshed as in a view
        // straight down at the camera's zoom, point for point.
        let camera = Self.camera
        let c = MapPoint(camera.center)
        let set = try Self.zigzags(around: MapPoint(x: c.x, y: c.y - 20 / camera.worldSize))
        let scene = Scene(overlays: [.multiPolyline(MultiPolyline(paths: set, style: Self.style()))])
        let pitched = RenderPlanner().plan(scene, camera: camera)
        var flat = camera
        flat.pitch = 0
        let full = RenderPlanner().plan(scene, camera: flat)
        let a = pitched.commands.map(\.mesh.vertices), b = full.commands.map(\.mesh.vertices)
        #expect(!a.isEmpty && a == b)
    }

    @Test func detailFollowsTheNearestCorner() {
        let camera = Self.camera
        let view = PlanView(camera: camera)
        let c = MapPoint(camera.center)
        let d = 1.5 * 400.0, ws = camera.worldSize  // the eye 1.5 view heights from the centre (MapLibre)
        let perRatio = d / sin(70 * Double.pi / 180) / ws  // map units north per unit of depth ratio
        func box(_ near: Double, _ far: Double) -> MapRect {
            MapRect(origin: MapPoint(x: c.x - 1e-4, y: c.y - (far - 1) * perRatio), width: 2e-4, height: (far - near) * perRatio)
        }
        // Nearest corner at depth 1.2 (under √2): the view's own bucket, 28.
        #expect(view.detail(for: box(1.2, 6)) == view.detail)
        #expect(view.detail.bucket == 28)
        // At depth 2: zoom 13, bucket 26; at depth 4: zoom 12, bucket 24; at 3: zoom 12.415, bucket 24.
        #expect(view.detail(for: box(2.0001, 9)).bucket == 25)
        #expect(view.detail(for: box(1.9999, 9)).bucket == 26)
        #expect(view.detail(for: box(3, 9)).bucket == 24)
        #expect(view.detail(for: box(4.0001, 9)).bucket == 23)
        expectNear(view.detail(for: box(4.0001, 9)).tolerance, 0.5 / (512 * pow(2.0, 11.5)), tolerance: 1e-18)
        // Straight down, everything is the view's own.
        var flat = camera
        flat.pitch = 0
        #expect(PlanView(camera: flat).detail(for: box(3, 9)) == PlanView(camera: flat).detail)
    }

    /// The distance from `p` to the segment `a`–`b`.
    static func distance(_ p: ScreenPoint, _ a: ScreenPoint, _ b: ScreenPoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let l2 = dx * dx + dy * dy
        let t = l2 > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2)) : 0
        return hypot(a.x + t * dx - p.x, a.y + t * dy - p.y)
    }
}
