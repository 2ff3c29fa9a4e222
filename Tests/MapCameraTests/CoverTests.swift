import Foundation
import GeoKit
import MapTestSupport
import Testing
@testable import MapCamera

@Suite struct CoverTests {
    /// Flat views: exactly mercantile's tiles over the screen's bounds.
    @Test(arguments: CoverFixtures.flat)
    func flatCoverMatchesMercantile(_ c: (Double, Double, Double, Double, Double, [String])) {
        let cam = Camera(center: LatLng(lat: c.0, lon: c.1), zoom: c.2, size: ScreenSize(width: c.3, height: c.4))
        let tiles = cam.coveringTiles()
        #expect(tiles.map(\.description).sorted() == c.5)
        #expect(tiles.compactMap(\.tileID).map(\.description).sorted() == c.5)
    }

    /// 256-px raster tiles sit one level deeper: zoom 2.3 asks for level 3.
    @Test func rasterTileSizeOneLevelDeeper() {
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 2.3, size: ScreenSize(width: 800, height: 600))
        #expect(cam.coveringTiles(tileSize: 256).allSatisfy { $0.z == 3 })
        #expect(cam.coveringTiles(maxZoom: 1).allSatisfy { $0.z == 1 })
        #expect(cam.coveringTiles(minZoom: 5).isEmpty)
    }

    /// Across the antimeridian the cover includes tiles of the next world copy.
    @Test func antimeridianWraps() {
        let cam = Camera(center: LatLng(lat: 0, lon: 179.5), zoom: 4, size: ScreenSize(width: 800, height: 600))
        let tiles = cam.coveringTiles()
        #expect(tiles.contains { $0.wrap == 1 && $0.x == 0 })
        #expect(tiles.contains { $0.wrap == 0 && $0.x == 15 })
    }

    /// Steep views: farther tiles at lower zoom. Checks, at bearings 0/45/−30 and pitch 70/85:
    /// every tile touches the visible ground, the tiles at the target level include the one
    /// under the centre, some tiles are coarser, no tile overlaps another, and sample points
    /// of the visible ground all fall in some tile.
    @Test(arguments: [(0.0, 70.0), (45, 85), (-30, 85)])
    func pitchedCoverUsesLowerZoomFarAway(_ a: (Double, Double)) throws {
        let cam = Camera(
            center: LatLng(lat: 47.37, lon: 8.54), zoom: 13.4, bearing: a.0, pitch: a.1,
            size: ScreenSize(width: 1280, height: 720))
        let tiles = cam.coveringTiles()
        #expect(tiles.count < 200)
        #expect(tiles.first?.z == 13)  // nearest the centre first, at the target level
        #expect(tiles.contains { $0.z < 12 })
        #expect(tiles.allSatisfy { $0.z <= 13 })
        // Tile boxes in normalised Mercator (x unwrapped with `wrap`).
        func box(_ t: CoverTile) -> (Double, Double, Double, Double) {
            let n = Double(1 << t.z)
            return (
                (Double(t.x) / n + Double(t.wrap)), Double(t.y) / n, (Double(t.x + 1) / n + Double(t.wrap)),
                Double(t.y + 1) / n
            )
        }
        // No overlaps: no tile is an ancestor of, or equal to, another.
        for (i, t) in tiles.enumerated() {
            for u in tiles[(i + 1)...] {
                let b1 = box(t), b2 = box(u)
                let overlap = min(b1.2, b2.2) - max(b1.0, b2.0) > 1e-15 && min(b1.3, b2.3) - max(b1.1, b2.1) > 1e-15
                #expect(!overlap, "\(t) overlaps \(u)")
            }
        }
        // Sample the visible ground on a screen grid below the far-plane line.
        let top = cam.topGroundY
        for i in 0...16 {
            for j in 0...16 {
                let s = ScreenPoint(x: Double(i) / 16 * 1280, y: top + (720 - top) * Double(j) / 16)
                guard let p = cam.unprojectToMapPoint(s) else { continue }
                let inside = tiles.contains { t in
                    let b = box(t)
                    return p.x >= b.0 - 1e-12 && p.x <= b.2 + 1e-12 && p.y >= b.1 - 1e-12 && p.y <= b.3 + 1e-12
                }
                #expect(inside, "\(s) not covered")
            }
        }
        // Distance rule: a target-level tile lies within 3 tiles (Chebyshev, in target-level
        // tiles) of the centre, since anything farther than 3 + 2^0 − 2 = 1 ... is split only
        // when nearer than 3 + 2^(13−z) − 2 at its parent's level.
        let c = cam.centerMapPoint
        for t in tiles where t.z < 13 {
            let b = box(t)
            let n = 8192.0
            let dx = max(b.0 - c.x, 0, c.x - b.2) * n, dy = max(b.1 - c.y, 0, c.y - b.3) * n
            #expect(max(dx, dy) > 3 + Double(1 << (13 - t.z)) - 2, "\(t) should have been split")
        }
    }

    @Test func nonFiniteCameraCoversNothing() {
        var cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 3, size: ScreenSize(width: 800, height: 600))
        cam.zoom = .nan
        #expect(cam.coveringTiles().isEmpty)
        #expect(cam.visibleGroundPolygon.isEmpty)
    }
}
