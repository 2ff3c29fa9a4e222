import Foundation
import GeoKit
import Testing
@testable import MapRender

@Suite struct SimplifyClipTests {
    @Test func dropsNoiseBelowTolerance() {
        // A straight line with 0 / 0.4 wiggles (ends at y = 0) and tolerance 0.5 collapses to its two ends.
        let pts = (0 ... 100).map { MapPoint(x: Double($0), y: $0 % 2 == 0 ? 0 : 0.4) }
        let s = Simplify.simplify(pts, tolerance: 0.5)
        #expect(s.count == 2)
        #expect(s.first == pts.first && s.last == pts.last)
    }

    @Test func keepsCornersAboveTolerance() {
        // A square wave of amplitude 10 keeps every corner (each is 10 ≫ 0.5 from any chord).
        var pts: [MapPoint] = []
        for k in 0 ..< 10 { pts += [MapPoint(x: Double(10 * k), y: 0), MapPoint(x: Double(10 * k), y: 10)] }
        let s = Simplify.simplify(pts, tolerance: 0.5)
        #expect(s.count == pts.count)
    }

    @Test func keepsBacktracks() {
        // Out and back along the x axis: distance to the chord (0→0) is the full excursion.
        let pts = [MapPoint(x: 0, y: 0), MapPoint(x: 50, y: 0), MapPoint(x: 0, y: 0)]
        #expect(Simplify.simplify(pts, tolerance: 0.5).count == 3)
    }

    @Test func clipsSegmentsWithDistances() {
        let r = MapRect(origin: MapPoint(x: 0, y: 0), width: 10, height: 10)
        // In at x = 0 after 5 units, out at x = 10, back in later.
        let pts = [MapPoint(x: -5, y: 5), MapPoint(x: 15, y: 5), MapPoint(x: 15, y: 8), MapPoint(x: 5, y: 8)]
        let pieces = Clip.polyline(pts, to: r)
        #expect(pieces.count == 2)
        #expect(pieces[0].points == [MapPoint(x: 0, y: 5), MapPoint(x: 10, y: 5)])
        #expect(pieces[0].start == 5)
        // Second piece starts at x = 10 on the last leg: 20 + 3 + 5 = 28 along the line.
        #expect(pieces[1].points == [MapPoint(x: 10, y: 8), MapPoint(x: 5, y: 8)])
        #expect(pieces[1].start == 28)
    }

    @Test func clipsRingToRectangle() {
        // A 20×20 square centred on a 10×10 clip box clips to the box itself: area 100.
        let r = MapRect(origin: MapPoint(x: 0, y: 0), width: 10, height: 10)
        let ring = [MapPoint(x: -5, y: -5), MapPoint(x: 15, y: -5), MapPoint(x: 15, y: 15), MapPoint(x: -5, y: 15)]
        let c = Clip.ring(ring, to: r)
        var area = 0.0
        for i in 0 ..< c.count { let a = c[i], b = c[(i + 1) % c.count]; area += a.x * b.y - b.x * a.y }
        #expect(abs(abs(area) / 2 - 100) < 1e-9)
    }

    @Test func greatCircleFollowsTheSphere() {
        // Equator to pole along a meridian stays on the meridian; along the equator stays on it.
        let m = GeodesicShapes.greatCircle([LatLng(lat: 0, lon: 10), LatLng(lat: 80, lon: 10)])
        #expect(m.allSatisfy { abs($0.latLng.lon - 10) < 1e-9 })
        // The great circle from (40N, 0) to (40N, 120E) passes north of 40N at its middle:
        // vertex latitude atan(tan 40° / cos 60°) = 59.21°  (Napier's rules; derivation: spherical right triangle).
        let g = GeodesicShapes.greatCircle([LatLng(lat: 40, lon: 0), LatLng(lat: 40, lon: 120)], maxStepDegrees: 0.5)
        let maxLat = g.map(\.latLng.lat).max() ?? 0
        #expect(abs(maxLat - 59.21) < 0.05)
    }
}

/// Rim points where Mercator bends a geodesic circle more than its radius suggests.
@Suite struct GeodesicRimRefinementTests {
    /// A 5 500 km circle round 50°N, 0° passes beyond the North Pole (to 80.7°N at 180°). With
    /// the 505 equal azimuths its size gives, the rim there strays up to 0.47 px (zoom 4) from
    /// its 76 px chords (computed with GeographicLib's Direct in Python). Refined to 0.3 px, every
    /// true rim point near the pole (azimuths within 20° of north, 1 600 of them) lies within
    /// 0.3 px of the drawn line, where the unrefined line misses some by more than 0.4 px; fewer
    /// than 200 points are added in all.
    @Test func capRimsGetPointsWhereMercatorBendsThem() throws {
        let center = LatLng(lat: 50, lon: 0), radius = 5_500_000.0, ws = 512.0 * 16
        let refined = GeodesicShapes.circle(center: center, radius: radius, count: 505, tolerance: 0.3 / ws)
        let plain = GeodesicShapes.circle(center: center, radius: radius, count: 505)
        let line = try #require(refined.rims.first), plainLine = try #require(plain.rims.first)
        #expect(line.count > plainLine.count && line.count < 700)
        func worst(_ pts: [MapPoint]) -> Double {
            var worst = 0.0
            for i in 0 ... 1_600 {
                let az = -20 + 40 * Double(i) / 1_600
                let p = GeodesicLine(Geodesic.wgs84, from: center, azimuth: az).position(distance: radius).point
                let t = MapPoint(p)
                var best = Double.infinity
                for k in 0 ..< pts.count - 1 {
                    // The rim's x is continuous; compare on the copy nearest the segment.
                    let a = pts[k], b = pts[k + 1]
                    var q = t
                    q.x += ((a.x + b.x) / 2 - q.x).rounded()
                    let dx = b.x - a.x, dy = b.y - a.y
                    let l2 = dx * dx + dy * dy
                    let u = l2 > 0 ? min(1, max(0, ((q.x - a.x) * dx + (q.y - a.y) * dy) / l2)) : 0
                    best = min(best, hypot(q.x - a.x - u * dx, q.y - a.y - u * dy))
                }
                worst = max(worst, best * ws)
            }
            return worst
        }
        #expect(worst(line) <= 0.3)
        #expect(worst(plainLine) > 0.4)
    }
}
