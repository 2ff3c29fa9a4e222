import Foundation
import GeoKit
import MapTestSupport
import Testing
@testable import MapCamera

@Suite struct FitTests {
    struct BoxCase: Sendable, CustomStringConvertible {
        var name: String
        var points: [LatLng]
        var width, height, padding: Double
        var description: String { name }
    }

    static let boxes: [BoxCase] = [
        BoxCase(
            name: "Berlin–Munich", points: [LatLng(lat: 52.52, lon: 13.405), LatLng(lat: 48.1351, lon: 11.582)],
            width: 800, height: 600, padding: 20),
        BoxCase(
            name: "wide route",
            points: [
                LatLng(lat: 40.7128, lon: -74.006), LatLng(lat: 34.05, lon: -118.24),
                LatLng(lat: 41.88, lon: -87.63),
            ], width: 1024, height: 400, padding: 0),
        BoxCase(
            name: "Svalbard (high latitude)", points: [LatLng(lat: 76.5, lon: 10.0), LatLng(lat: 80.8, lon: 33.5)],
            width: 640, height: 640, padding: 32),
        BoxCase(
            name: "Fiji (across the antimeridian)",
            points: [LatLng(lat: -16.0, lon: 177.0), LatLng(lat: -19.2, lon: -178.5)],
            width: 800, height: 600, padding: 10),
    ]

    /// Bearing 0, pitch 0: the centre is the Mercator midpoint of the bounds and the zoom makes
    /// the bounds just touch the padded viewport:
    /// zoom = log2(min((W − 2p)/(512·Δx), (H − 2p)/(512·Δy))) with Δx, Δy the bounds' size in
    /// normalised Mercator from the textbook formula (x = (λ + 180)/360, `mercY`), longitudes
    /// across the antimeridian taken the short way (−178.5° as 181.5°).
    @Test(arguments: boxes)
    func bearingZeroMatchesMercatorBounds(_ c: BoxCase) throws {
        let cam = try #require(
            Camera.fitting(
                c.points, size: ScreenSize(width: c.width, height: c.height),
                padding: EdgeInsets(all: c.padding)))
        var lons = c.points.map(\.lon)
        if lons.max()! - lons.min()! > 180 { lons = lons.map { $0 < 0 ? $0 + 360 : $0 } }
        let xs = lons.map { ($0 + 180) / 360 }, ys = c.points.map { mercY($0.lat) }
        let dx = xs.max()! - xs.min()!, dy = ys.max()! - ys.min()!
        let zoom = log2(min((c.width - 2 * c.padding) / (512 * dx), (c.height - 2 * c.padding) / (512 * dy)))
        // tolerance 1e-6 zoom (the acceptance bound)
        expectNear(cam.zoom, zoom, tolerance: 1e-6, "zoom")
        let mid = LatLng(lat: latFromMercY((ys.max()! + ys.min()!) / 2), lon: (xs.max()! + xs.min()!) / 2 * 360 - 180)
        // tolerance 1e-9°: a few ulps of the Mercator round trip
        expectNear(cam.center, mid, tolerance: 1e-9, "centre")
        #expect(cam.bearing == 0 && cam.pitch == 0)
    }

    /// Any bearing and pitch: every point inside the padded viewport (1e-6 px), at least one
    /// within 1 px of a side. Seeded random point sets at bearings 0/45/90/180/−30 and pitch
    /// 0/30/60, with asymmetric padding.
    @Test(arguments: [0.0, 45, 90, 180, -30])
    func anyBearingKeepsPointsInside(_ bearing: Double) throws {
        var rng = SeededRandom(seed: UInt64(bearing + 1000))
        for pitch in [0.0, 30, 60] {
            for _ in 0..<30 {
                let lat0 = Double.random(in: -60...60, using: &rng), lon0 = Double.random(in: -180...180, using: &rng)
                let spread = pow(10, Double.random(in: -3...1, using: &rng))
                let n = Int.random(in: 1...12, using: &rng)
                let pts = (0..<n).map { _ in
                    LatLng(
                        lat: lat0 + .random(in: -spread...spread, using: &rng),
                        lon: LatLng.wrapLongitude(lon0 + .random(in: -spread...spread, using: &rng)))
                }
                let size = ScreenSize(
                    width: .random(in: 300...1600, using: &rng), height: .random(in: 300...1200, using: &rng))
                let pad = EdgeInsets(
                    top: .random(in: 0...80, using: &rng), left: .random(in: 0...80, using: &rng),
                    bottom: .random(in: 0...80, using: &rng), right: .random(in: 0...80, using: &rng))
                let cam = try #require(
                    Camera.fitting(pts, size: size, padding: pad, bearing: bearing, pitch: pitch, maxZoom: 24))
                var closest = Double.infinity
                for p in pts {
                    let s = try #require(cam.project(p))
                    let gaps = [
                        s.x - pad.left, size.width - pad.right - s.x, s.y - pad.top, size.height - pad.bottom - s.y,
                    ]
                    // tolerance 1e-6 px inside
                    #expect(gaps.allSatisfy { $0 >= -1e-6 }, "\(p) at \(s) outside, bearing \(bearing) pitch \(pitch)")
                    closest = min(closest, gaps.min()!)
                }
                if n > 1 { #expect(closest <= 1, "no point touches: \(closest) px, bearing \(bearing) pitch \(pitch)") }
            }
        }
    }

    /// A single point cannot set a zoom: the fit stops at maxZoom, centred on the point.
    @Test func singlePointStopsAtMaxZoom() throws {
        let p = LatLng(lat: 35.68, lon: 139.77)
        let cam = try #require(Camera.fitting([p], size: ScreenSize(width: 800, height: 600), maxZoom: 16))
        #expect(cam.zoom == 16)
        expectNear(cam.center, p, tolerance: 1e-9)
        // Max zoom also caps a small set, which stays centred.
        let q = LatLng(lat: 35.6801, lon: 139.7701)
        let cam2 = try #require(Camera.fitting([p, q], size: ScreenSize(width: 800, height: 600), maxZoom: 10))
        #expect(cam2.zoom == 10)
        expectNear(cam2.center.lon, (p.lon + q.lon) / 2, tolerance: 1e-9)
    }

    /// Bounds given by corners, across the antimeridian when west > east.
    @Test func boundsAcrossAntimeridian() throws {
        let cam = try #require(
            Camera.fitting(
                southWest: LatLng(lat: -20, lon: 170), northEast: LatLng(lat: -10, lon: -170),
                size: ScreenSize(width: 600, height: 600)))
        expectNear(cam.center.lon, -180, tolerance: 1e-9)  // 180° written as −180
        // 20° of longitude across 600 px: zoom = log2(600 / (512 · 20/360)) (x limits: 20° is
        // wider than the 10° of latitude here, which is ~10.2° in Mercator units of longitude).
        expectNear(cam.zoom, log2(600 / (512 * 20.0 / 360)), tolerance: 1e-6)
        let viaBounds = try #require(
            Camera.fitting(
                try GeoBounds(south: -20, west: 170, north: -10, east: -170),
                size: ScreenSize(width: 600, height: 600)))
        #expect(viaBounds == cam)
    }

    /// Points reaching nearly to the Mercator edge (85°, as a polar cap does) across 120° of
    /// longitude: the Mercator midpoint of the bounds would put the view's top 180 px past the
    /// world's edge; the fit moves the view down until its top is on the edge (y = 0 in
    /// normalised Mercator), every point still in view. Turned 30°, a single point at 84°N
    /// stopped at zoom 3 (it could be anywhere in the view): the view's highest corner comes
    /// down to the edge. Far from the poles nothing moves.
    @Test(arguments: [(0.0, 22.0), (30, 3)])
    func viewsByAPoleStayInsideTheWorld(_ c: (bearing: Double, maxZoom: Double)) throws {
        let size = ScreenSize(width: 800, height: 600)
        let pts = c.bearing == 0
            ? [LatLng(lat: 85, lon: -60), LatLng(lat: 70, lon: -60), LatLng(lat: 70, lon: 60), LatLng(lat: 85, lon: 60)]
            : [LatLng(lat: 84, lon: 0)]
        let cam = try #require(Camera.fitting(pts, size: size, bearing: c.bearing, maxZoom: c.maxZoom))
        let ws = 512 * pow(2, cam.zoom)
        let b = c.bearing * .pi / 180
        let cornerYs = [(0.0, 0.0), (size.width, 0), (size.width, size.height), (0, size.height)].map { sx, sy in
            // Pitch 0: a screen offset turned by the bearing, in world pixels.
            let dx = sx - size.width / 2, dy = sy - size.height / 2
            return mercY(cam.center.lat) + (sin(b) * dx + cos(b) * dy) / ws
        }
        expectNear(cornerYs.min()!, 0, tolerance: 1e-9)
        #expect(cornerYs.max()! < 1)
        if c.bearing != 0 { #expect(cam.zoom == 3) }
        for p in pts {
            let s = try #require(cam.project(p))
            #expect(s.x >= -1e-6 && s.x <= size.width + 1e-6 && s.y >= -1e-6 && s.y <= size.height + 1e-6, "\(p)")
        }
        let mid = try #require(Camera.fitting([LatLng(lat: 10, lon: 0), LatLng(lat: 20, lon: 10)], size: size))
        expectNear(mercY(mid.center.lat), (mercY(10) + mercY(20)) / 2, tolerance: 1e-12)
    }

    /// A cap reaching the world's edge (85.0511°) with 24 px padding: the padding alone would
    /// keep a 24 px band of nothing above the map; it gives way, and the view's top is the edge
    /// with every point still inside the viewport (in the padding at the top).
    @Test func paddingGivesWayAtTheWorldsEdge() throws {
        let size = ScreenSize(width: 600, height: 400)
        let pts = [LatLng(lat: 85.0511, lon: -60), LatLng(lat: 85.0511, lon: 60), LatLng(lat: 75, lon: 0)]
        let cam = try #require(Camera.fitting(pts, size: size, padding: EdgeInsets(all: 24)))
        let ws = 512 * pow(2, cam.zoom)
        expectNear(mercY(cam.center.lat) - size.height / 2 / ws, 0, tolerance: 1e-9)
        // The zoom is the padded fit's: 120° of longitude across 600 − 48 px (the 294 px the
        // latitudes take at that zoom fit in 400 − 48).
        expectNear(cam.zoom, log2(552 / (512 * 120 / 360)), tolerance: 1e-9)
        for p in pts {
            let s = try #require(cam.project(p))
            #expect(s.y >= -1e-6 && s.y <= size.height - 24 + 1e-6, "\(p)")
        }
    }

    @Test func badInputGivesNil() {
        let size = ScreenSize(width: 800, height: 600)
        #expect(Camera.fitting([], size: size) == nil)
        #expect(Camera.fitting([LatLng(lat: .nan, lon: 0)], size: size) == nil)
        #expect(
            Camera.fitting([LatLng(lat: 0, lon: 0), LatLng(lat: 1, lon: 1)], size: size, padding: EdgeInsets(all: 400))
                == nil)
        #expect(Camera.fitting([LatLng(lat: 0, lon: 0)], size: ScreenSize(width: 0, height: 10)) == nil)
        #expect(Camera.fitting([LatLng(lat: 0, lon: 0)], size: size, bearing: .infinity) == nil)
    }
}
