import Foundation
import GeoKit
import MapCamera
import MapImage
import MapRender
import MapScene
import MapTiles
import Testing
@testable import MapSnapshot

/// The embedded basemap is drawn as sets, one per tile and kind (`BasemapLayers`): the same
/// map as its features drawn one by one, as `Polygon`s and `Polyline`s (the planner's other
/// path: each polygon ear-clipped with a fringe, where a set's opaque polygons are wedge or
/// convex fills), and the same set objects frame after frame, so that meshes are kept.
@Suite struct BasemapSetsTests {
    static let views: [(LatLng, Double)] = [
        (LatLng(lat: 50, lon: 10), 3),      // Europe, 1:50m, tile cuts through France and Poland
        (LatLng(lat: 56, lon: 10), 6.3),    // Denmark's islands, 1:10m simplified
        (LatLng(lat: 10, lon: 0), 0.5),     // the world, 1:110m, twice across
    ]

    @Test(arguments: 0 ..< views.count)
    func setsDrawWhatTheFeaturesDrawOneByOne(_ i: Int) throws {
        let (center, zoom) = Self.views[i]
        let camera = Camera(center: center, zoom: zoom, size: ScreenSize(width: 640, height: 480))
        let style = BasemapStyle.light
        let snapshotter = try MapSnapshotter()
        var sets = Snapshot(camera: camera, basemapStyle: style, attribution: false)
        sets.placeLabels = false
        let drawn = try snapshotter.render(sets)

        // The reference: the features of the same rectangle and zoom, one overlay each, in the
        // sets' order (land, lakes, shores, borders).
        let rect = try #require(BasemapLayers.visibleRect(camera))
        let f = try EmbeddedBasemap.shared().features(in: rect, zoom: zoom)
        var overlays: [Overlay] = []
        for p in f.polygons {
            let rings = p.rings.map { try! GeoPath(points: $0) }
            var polygon = Polygon(exterior: rings[0], holes: Array(rings.dropFirst()),
                                  fill: Color(p.kind == .land ? style.land : style.lake))
            polygon.worldCopies = false
            overlays.append(.polygon(polygon))
        }
        for kinds in [[BasemapLine.Kind.coastline, .lakeShore], [.countryBorder]] {
            for l in f.lines where kinds.contains(l.kind) {
                let border = l.kind == .countryBorder
                var line = Polyline(path: try GeoPath(points: l.points),
                                    style: LineStyle(width: .pixels(border ? style.borderWidth(atZoom: zoom) : style.coastlineWidth),
                                                     color: Color(border ? style.border : style.coastline)))
                line.worldCopies = false
                overlays.append(.polyline(line))
            }
        }
        #expect(overlays.count > 10)
        let reference = try snapshotter.render(Snapshot(camera: camera, overlays: overlays, basemapStyle: nil,
                                                        background: Color(style.ocean), attribution: false))
        // Edges only may differ, by rounding of two ways to cover the same edge pixel (the
        // wedge fill's coverage is the fringe's, from the polygon's own triangles). Measured
        // 2026-12-01: means of 0.003–0.006 levels, 0–9 pixels of 307 200 over 16 levels apart,
        // the largest difference 16–27 levels.
        let land = Color(style.land)
        var sum = 0, over16 = 0, worst = 0, landPixels = 0
        for y in 0 ..< 480 {
            for x in 0 ..< 640 {
                let a = drawn.pixel(x: x, y: y)!, b = reference.pixel(x: x, y: y)!
                let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                sum += d
                worst = max(worst, d)
                if d > 16 { over16 += 1 }
                if a.r == land.r && a.g == land.g && a.b == land.b { landPixels += 1 }
            }
        }
        let n = Double(640 * 480)
        #expect(landPixels > 640 * 480 / 10, "the view shows land: \(landPixels) pixels")
        #expect(Double(sum) / n < 0.01, "mean difference \(Double(sum) / n)")
        #expect(over16 <= 30, "\(over16) pixels over 16 levels apart")
        #expect(worst <= 48, "largest difference \(worst)")
    }

    @Test func aTileKeepsItsSetsFromFrameToFrame() throws {
        let layers = BasemapLayers(basemap: try EmbeddedBasemap.shared())
        let camera = Camera(center: LatLng(lat: 50, lon: 10), zoom: 3.2, size: ScreenSize(width: 640, height: 480))
        func sets(_ c: Camera) -> [ObjectIdentifier] {
            let ground = layers.layers(for: c, style: .light).ground
            let ids = ground.compactMap { o -> ObjectIdentifier? in
                switch o {
                case .multiPolygon(let p): ObjectIdentifier(p.polygons)
                case .multiPolyline(let l): ObjectIdentifier(l.paths)
                default: nil
                }
            }
            #expect(ids.count == ground.count, "every overlay a set")
            return ids
        }
        let first = sets(camera)
        #expect(first.count > 4)
        #expect(sets(camera) == first)
        // Zoomed in within 1:50m's zooms: fewer of the same tiles, the same sets.
        var moved = camera
        moved.zoom = 3.6
        #expect(Set(sets(moved)).isSubset(of: first))
        // Zoomed into 1:10m: other tiles, other sets.
        moved.zoom = 6.5
        #expect(Set(sets(moved)).isDisjoint(with: first))
    }
}
