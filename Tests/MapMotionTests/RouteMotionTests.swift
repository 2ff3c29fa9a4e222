import Foundation
import GeoKit
import MapCamera
import MapMotion
import MapRender
import MapScene
import MapTestSupport
import Testing

/// Routes in motion: measuring, trimming with chunk re-use, moving markers, live tracks whose
/// appends cost O(new points), and the follow camera.
struct RouteMotionTests {
    /// A wiggly 5 000-point route eastwards along 47°N, ~5 m between points.
    static func route(_ n: Int = 5000) -> [LatLng] {
        (0..<n).map { i in LatLng(lat: 47 + 0.00002 * sin(Double(i) / 7), lon: 8 + 0.00007 * Double(i)) }
    }

    /// Distances are GeoKit's geodesic sums (GeographicLib-verified); positions interpolate on the
    /// drawn segment; times interpolate linearly.
    @Test func measuresAndLocates() throws {
        let pts = [LatLng(lat: 0, lon: 0), LatLng(lat: 0, lon: 1), LatLng(lat: 1, lon: 1)]
        let r = try RoutePath(points: pts, times: [0, 100, 300])
        expectNear(r.length, Geodesic.wgs84.inverse(pts[0], pts[1]).distance + Geodesic.wgs84.inverse(pts[1], pts[2]).distance,
                   tolerance: 1e-6)
        let half = r.position(atDistance: r.distances[1] / 2)
        expectNear(half.position.lon, 0.5, tolerance: 1e-9)
        expectNear(half.heading, 90, tolerance: 1e-9)
        expectNear(r.position(atDistance: r.distances[1] + 1).heading, 0, tolerance: 1e-9)
        expectNear(r.distance(atTime: 200) ?? 0, r.distances[1] + (r.distances[2] - r.distances[1]) / 2, tolerance: 1e-6)
        #expect(r.distance(atTime: -5) == 0 && r.distance(atTime: 1e9) == r.length)
        #expect(throws: MotionError.self) { try RoutePath(points: pts, times: [0, 10, 5]) }
        #expect(throws: MotionError.self) { try RoutePath(points: [pts[0]]) }
        #expect(throws: MotionError.self) { try RoutePath(points: pts + [LatLng(lat: .nan, lon: 0)]) }
    }

    /// A trim re-uses the route's own chunk paths for every whole chunk inside it (so their meshes
    /// stay cached), and its pieces run exactly from the point at `from` to the point at `to`.
    @Test func trimsReuseWholeChunks() throws {
        let r = try RoutePath(points: Self.route())
        let a = r.distances[300] + 1.5, b = r.distances[3500] + 2.5
        let p1 = r.pieces(from: a, to: b, style: LineStyle())
        let p2 = r.pieces(from: a, to: r.distances[3600], style: LineStyle())
        #expect(p1.count == 4)  // a prefix, chunks 1 and 2 (points 1024…3072), a suffix
        #expect(p1[1].path === p2[1].path && p1[2].path === p2[2].path)
        #expect(p1[1].path.count == RoutePath.chunkSize + 1)
        let first = p1[0].path.points[0].latLng, last = try #require(p1.last?.path.points.last).latLng
        expectNear(first, r.position(atDistance: a).position, tolerance: 1e-9)
        expectNear(last, r.position(atDistance: b).position, tolerance: 1e-9)
        for k in 1..<p1.count { #expect(p1[k - 1].path.points.last == p1[k].path.points.first) }
        #expect(r.pieces(from: 50, to: 50, style: LineStyle()).isEmpty)
    }

    /// By the track's times: the marker is at the time-interpolated position and points along travel.
    @Test func movingMarkerByTime() throws {
        let pts = [LatLng(lat: 10, lon: 10), LatLng(lat: 10, lon: 10.01), LatLng(lat: 10.01, lon: 10.01)]
        let r = try RoutePath(points: pts, times: [1000, 1010, 1040])
        let m = MovingMarker(route: r, drive: .time(start: 1000, speed: 2), marker: try Marker(position: pts[0], style: .arrow))
        let s = m.state(at: 10)  // track time 1020: a third of the way up the second segment
        expectNear(s.position.lat, 10 + 0.01 / 3, tolerance: 1e-6)
        expectNear(s.heading, 0, tolerance: 1e-6)
        guard case .marker(let mk) = m.overlays(at: 2).first else { Issue.record("no marker"); return }
        expectNear(mk.rotation ?? -1, 90, tolerance: 1e-6)
    }

    /// Appending one point to a 100 000-point live track re-tessellates one mesh (the open tail),
    /// whatever the length: the planner's cache misses go up by exactly one.
    @Test func liveTrackAppendsCostOnlyTheTail() throws {
        let track = LiveTrack()
        let pts = Self.route(100_000)
        for start in stride(from: 0, to: pts.count, by: 1000) { try track.append(Array(pts[start..<(start + 1000)])) }
        #expect(track.count == 100_000)
        #expect(track.pieceCount <= 40, "\(track.pieceCount) pieces")
        let planner = RenderPlanner()
        let cam = Camera(center: LatLng(lat: 47, lon: 13.5), zoom: 7, size: ScreenSize(width: 800, height: 600))
        func plan() -> Int {
            var scene = Scene()
            for l in track.polylines() { scene.add(.polyline(l)) }
            _ = planner.plan(scene, camera: cam)
            return planner.statistics.misses
        }
        let before = track.polylines().map { ObjectIdentifier($0.path) }
        let m0 = plan()
        #expect(plan() == m0)  // nothing appended: nothing tessellated
        try track.append(LatLng(lat: 47.001, lon: 15.0001))
        let m1 = plan()
        #expect(m1 - m0 == 1, "an append of one point tessellated \(m1 - m0) meshes")
        let after = track.polylines().map { ObjectIdentifier($0.path) }
        #expect(Array(after.dropLast()) == Array(before.dropLast()))
        // The drawn points are exactly the appended ones, in order.
        var drawn: [MapPoint] = []
        for l in track.polylines() { for p in l.path.points where drawn.last != p { drawn.append(p) } }
        #expect(drawn.count == 100_001 && drawn.first == MapPoint(pts[0]) && drawn.last == MapPoint(LatLng(lat: 47.001, lon: 15.0001)))
        #expect(throws: MotionError.self) { try track.append(LatLng(lat: 95, lon: 0)) }
    }

    /// Following: centred on the head, and on a zig-zag (±20 m across, 100 m legs) the smoothed
    /// bearing stays within 10° of the overall direction (east, 90°) while a leg's own heading is
    /// ~22° off it.
    @Test func followCameraSmoothsTheBearing() throws {
        var pts: [LatLng] = []
        for i in 0...200 { pts.append(LatLng(lat: 47 + (i % 2 == 0 ? 0 : 0.00036), lon: 8 + 0.00131 * Double(i))) }
        let r = try RoutePath(points: pts)
        let drive = RouteDrive.distance(Animation(from: 0, to: r.length, timing: try AnimationTiming(duration: 200)))
        let f = FollowCamera(route: r, drive: drive, base: Camera(center: pts[0], zoom: 16, pitch: 50,
                                                                   size: ScreenSize(width: 400, height: 300)), smoothing: 4)
        for t in stride(from: 5.0, to: 195, by: 3.3) {
            let cam = f.camera(at: t)
            expectNear(cam.bearing, 90, tolerance: 10, "t \(t)")
            expectNear(cam.center, r.position(atDistance: drive.distance(on: r, at: t)).position, tolerance: 1e-9)
            #expect(cam.pitch == 50 && cam.zoom == 16)
        }
        #expect(abs(r.position(atDistance: 50).heading - 90) > 15)
    }
}
