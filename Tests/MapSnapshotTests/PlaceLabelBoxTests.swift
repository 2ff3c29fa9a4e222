import Canvas2D
import GeoKit
import MapCamera
@testable import MapSnapshot
import MapTiles
import Testing

/// A city's place in the label placement holds its dot as well as its name, so no other name is
/// placed over the dot. The truth is geometry: the dot is a disc of `placeDotSize / 2` around the
/// projected place; a name's text is the label image's logical rectangle at its anchor and offset.
@Suite struct PlaceLabelBoxTests {
    let style = BasemapStyle.light
    let labels = CairoLabelRasterizer()

    func city(_ name: String, _ at: LatLng, rank: Int) -> BasemapPlace {
        BasemapPlace(name: name, position: at, point: MapPoint(at), rank: rank, labelRank: rank, minZoom: 0,
                     population: 0, isCapital: false, isRegionalCapital: false, isMajorCity: false, isCountry: false)
    }

    /// The text rectangle (minX, minY, maxX, maxY) of a placed name, in logical px.
    func textRect(_ p: PlaceLabel, _ camera: Camera) throws -> LabelBox {
        let s = try #require(camera.project(p.label.position))
        let image = try #require(labels.rasterize(p.label, pixelRatio: camera.pixelRatio))
        let x = s.x - p.label.anchor.x * image.logicalWidth + p.label.offset.x
        let y = s.y - p.label.anchor.y * image.logicalHeight + p.label.offset.y
        return (x, y, x + image.logicalWidth, y + image.logicalHeight)
    }

    /// Whether a rectangle reaches into the disc of radius r round c (the nearest point of the
    /// rectangle closer than r).
    func covers(_ b: LabelBox, _ c: ScreenPoint, _ r: Double) -> Bool {
        let dx = max(b.0 - c.x, 0, c.x - b.2), dy = max(b.1 - c.y, 0, c.y - b.3)
        return dx * dx + dy * dy < r * r
    }

    @Test func aNameJustLeftOfACityIsNotPlacedOverItsDot() throws {
        let camera = Camera(center: LatLng(lat: 0, lon: 0), zoom: 6, size: ScreenSize(width: 800, height: 400))
        let a = city("Alpha", LatLng(lat: 0, lon: 0), rank: 1)
        let aAt = try #require(camera.project(a.point))
        // Beta, less important, sits left of Alpha on the same line, its name ending 1.5 px left
        // of Alpha's point: over the left edge of Alpha's dot (2 px in radius).
        var probe = city("Beta", LatLng(lat: 0, lon: 0), rank: 2)
        let betaText = try #require(BasemapLayers.placeLabels([probe], camera: camera, style: style, labels: labels,
                                                               reserved: []).first.map { try textRect($0, camera) })
        let dot = style.placeDotSize / 2
        let w = betaText.2 - betaText.0
        #expect(covers((aAt.x - 1.5 - w, betaText.1, aAt.x - 1.5, betaText.3), aAt, dot))  // the case is what it says
        let textStart = betaText.0 - aAt.x  // the name starts this far right of its own point
        let betaX = aAt.x - 1.5 - w - textStart
        probe.position = try #require(camera.unproject(ScreenPoint(x: betaX, y: aAt.y)))
        probe.point = MapPoint(probe.position)
        let placed = BasemapLayers.placeLabels([a, probe], camera: camera, style: style, labels: labels, reserved: [])
        // Beta's name would cover Alpha's dot: only Alpha is placed. (Before the dot was in its
        // box, Alpha's box began 1 px right of its point and Beta was placed.)
        #expect(placed.map(\.label.text) == ["Alpha"])
        // Moved 1.5 px further left it still reaches into the dot (its text ends 3 px left of
        // Alpha's point, its box, 2 px further on, 1 px left of it: inside the dot's 2 px);
        // moved 4 px it fits (its box ends 3.5 px left of the point, clear of the dot).
        probe.position = try #require(camera.unproject(ScreenPoint(x: betaX - 1.5, y: aAt.y)))
        probe.point = MapPoint(probe.position)
        #expect(BasemapLayers.placeLabels([a, probe], camera: camera, style: style, labels: labels, reserved: []).count == 1)
        probe.position = try #require(camera.unproject(ScreenPoint(x: betaX - 4, y: aAt.y)))
        probe.point = MapPoint(probe.position)
        let both = BasemapLayers.placeLabels([a, probe], camera: camera, style: style, labels: labels, reserved: [])
        #expect(both.map(\.label.text) == ["Alpha", "Beta"])
    }

    @Test func noPlacedNameCoversAnotherPlacesDotOverTheEmbeddedBasemap() throws {
        let basemap = try EmbeddedBasemap.shared()
        let views: [(LatLng, Double)] = [
            (LatLng(lat: 50, lon: 10), 2), (LatLng(lat: 48, lon: 8), 4), (LatLng(lat: 51, lon: 5), 5.5),
            (LatLng(lat: 35, lon: 135), 5), (LatLng(lat: 40, lon: -75), 6), (LatLng(lat: 23, lon: 80), 4.5),
        ]
        var checked = 0
        for (centre, zoom) in views {
            let camera = Camera(center: centre, zoom: zoom, size: ScreenSize(width: 1024, height: 768))
            let rect = try #require(BasemapLayers.visibleRect(camera))
            let placed = BasemapLayers.placeLabels(basemap.places(in: rect, zoom: zoom), camera: camera, style: style,
                                                   labels: labels, reserved: [])
            let texts = try placed.map { try textRect($0, camera) }
            for (i, p) in placed.enumerated() {
                guard let d = p.dot, let c = camera.project(d.center) else { continue }
                let r = style.placeDotSize / 2 + 0.5  // the capitals' 1 px rim
                for (j, t) in texts.enumerated() where j != i {
                    #expect(!covers(t, c, r), "\(placed[j].label.text) over \(p.label.text)'s dot at zoom \(zoom)")
                }
                checked += 1
            }
        }
        #expect(checked > 100)
    }
}
