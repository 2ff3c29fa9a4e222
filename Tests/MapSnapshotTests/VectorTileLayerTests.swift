import Foundation
import GeoKit
import MapCamera
import MapImage
import MapScene
import MapSnapshot
import MapTiles
import Testing

/// Vector tiles drawn as a basemap: GDAL's archive of a lake with an island, a road, a path, a
/// building, a place and a layer of no known schema (`MapTilesTests/Fixtures/vector`), each
/// checked where its GeoJSON coordinates land on screen, in the style's colours.
@Suite struct VectorTileLayerTests {
    static let archive = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../MapTilesTests/Fixtures/vector/vector-fixture.mbtiles").standardized.path

    func render(center: LatLng, zoom: Double, size: Double = 800, style: VectorTileStyle = .light,
                pitch: Double = 0, opacity: Double = 1, labels: Bool = true) throws -> (Bitmap, Camera, MapSnapshotter) {
        let layer = TileLayer(source: try MBTilesSource(path: Self.archive), opacity: opacity)
        #expect(layer.isVector && layer.tileSize == 512)
        layer.vectorStyle = style
        let camera = Camera(center: center, zoom: zoom, pitch: pitch, size: ScreenSize(width: size, height: size))
        var snap = Snapshot(camera: camera, basemapStyle: nil, background: Color(rgb: 0x0000FF), attribution: false)
        snap.placeLabels = labels
        snap.tileLayers = [layer]
        snap.tileWait = 10
        let snapshotter = try MapSnapshotter()
        let image = try snapshotter.render(snap)
        #expect(snapshotter.lastTileProblems.isEmpty, "\(snapshotter.lastTileProblems)")
        return (image, camera, snapshotter)
    }

    func pixel(_ image: Bitmap, _ camera: Camera, _ lat: Double, _ lon: Double) throws -> RGBA8 {
        guard let s = camera.project(LatLng(lat: lat, lon: lon)), let p = image.pixel(x: Int(s.x), y: Int(s.y)) else {
            Issue.record("\(lat),\(lon) is off the image")
            return RGBA8(r: 0, g: 0, b: 0, a: 0)
        }
        return p
    }

    func rgb(_ c: BasemapColor) -> RGBA8 {
        RGBA8(r: UInt8((c.r * 255).rounded()), g: UInt8((c.g * 255).rounded()), b: UInt8((c.b * 255).rounded()), a: 255)
    }

    func close(_ a: RGBA8?, _ b: RGBA8, _ tolerance: Int = 2) -> Bool {
        guard let a else { return false }
        return abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance && abs(Int(a.b) - Int(b.b)) <= tolerance
            && a.a == 255
    }

    @Test func eachFeatureIsDrawnWhereItsCoordinatesAreInTheStylesColours() throws {
        let style = VectorTileStyle.light
        let (image, camera, _) = try render(center: LatLng(lat: 46.026, lon: 7.012), zoom: 13)
        func at(_ lat: Double, _ lon: Double) throws -> RGBA8 { try pixel(image, camera, lat, lon) }
        // The lake, and its island (a hole: the tile's ground shows through).
        #expect(close(try at(46.004, 7.005), rgb(style.colors[.water]!)))
        #expect(close(try at(46.010, 7.015), rgb(style.background)))
        // The building (drawn from zoom 13), the layer no schema names, the primary road's middle.
        #expect(close(try at(46.036, 7.0115), rgb(style.colors[.building]!)))
        #expect(close(try at(46.0475, 7.005), rgb(style.colors[.otherArea]!)))
        #expect(close(try at(46.03, 7.0), rgb(style.colors[.majorRoad]!), 6))
        // The path is left out below zoom 14; the ground is there instead.
        #expect(close(try at(46.025, 7.005), rgb(style.background)))
        // Past the archive's bounds (east of 7.03°, south of 46°) its tiles still paint their
        // squares: the tile at this zoom reaches a little further, then the background.
        let outside = image.pixel(x: 799, y: 799)
        #expect(outside == RGBA8(r: 0, g: 0, b: 255, a: 255) || close(outside, rgb(style.background)))
        // The place's name, right of its dot: dark text pixels.
        let p = try #require(camera.project(LatLng(lat: 46.04, lon: 7.02)))
        var dark = 0
        for y in Int(p.y) - 8 ... Int(p.y) + 8 {
            for x in Int(p.x) + 6 ... Int(p.x) + 70 where (image.pixel(x: x, y: y)?.r ?? 255) < 100 { dark += 1 }
        }
        #expect(dark > 40, "Testville's label: \(dark) dark pixels")
    }

    /// A kind recoloured transparent is hidden: the building and the primary road (casing and
    /// all) leave the ground showing where they were; the other kinds are drawn as before.
    @Test func aKindRecolouredTransparentIsHidden() throws {
        var style = VectorTileStyle.light
        style.colors[.building] = BasemapColor(r: 1, g: 0, b: 0, a: 0)
        style.colors[.majorRoad] = BasemapColor(r: 1, g: 0, b: 0, a: 0)
        #expect(rgb(style.casing) != rgb(style.background))
        let center = LatLng(lat: 46.026, lon: 7.012)
        let (image, camera, _) = try render(center: center, zoom: 13, style: style, labels: false)
        #expect(close(try pixel(image, camera, 46.036, 7.0115), rgb(style.background)))
        // Across the road (about 5 px wide with its casing at zoom 13): only the ground.
        let road = try #require(camera.project(LatLng(lat: 46.03, lon: 7.0)))
        for dy in -6 ... 6 {
            let p = image.pixel(x: Int(road.x), y: Int(road.y) + dy)
            #expect(close(p, rgb(style.background)), "\(dy) px from the road's middle: \(String(describing: p))")
        }
        #expect(close(try pixel(image, camera, 46.004, 7.005), rgb(style.colors[.water]!)))
        #expect(close(try pixel(image, camera, 46.0475, 7.005), rgb(style.colors[.otherArea]!)))
        // The same view in the plain style does draw them there.
        let (plain, _, _) = try render(center: center, zoom: 13, labels: false)
        #expect(close(try pixel(plain, camera, 46.036, 7.0115), rgb(VectorTileStyle.light.colors[.building]!)))
        #expect(close(try pixel(plain, camera, 46.03, 7.0), rgb(VectorTileStyle.light.colors[.majorRoad]!), 6))
    }

    @Test func theDarkStyleAndZoomsPastTheArchive() throws {
        // Dark: the lake in the dark style's water.
        let (dark, camera, _) = try render(center: LatLng(lat: 46.026, lon: 7.012), zoom: 13, style: .dark)
        #expect(close(try pixel(dark, camera, 46.004, 7.005), rgb(VectorTileStyle.dark.colors[.water]!)))
        // Zoom 17, three past the archive's deepest (14): over-zoomed, the island's corner sharp.
        let corner = LatLng(lat: 46.012, lon: 7.012)  // the island's north-west corner
        let (close17, c17, _) = try render(center: corner, zoom: 17, size: 256)
        let s = try #require(c17.project(corner))
        #expect(close(close17.pixel(x: Int(s.x) - 6, y: Int(s.y) - 6), rgb(VectorTileStyle.light.colors[.water]!)))
        #expect(close(close17.pixel(x: Int(s.x) + 6, y: Int(s.y) + 6), rgb(VectorTileStyle.light.background)))
        #expect(close(close17.pixel(x: Int(s.x) + 6, y: Int(s.y) - 6), rgb(VectorTileStyle.light.colors[.water]!)))
        // The path appears from zoom 14: at 17, 1.5 px of its colour (red 189 against the ground's 242).
        let (z17, c17b, _) = try render(center: LatLng(lat: 46.025, lon: 7.005), zoom: 17, size: 256)
        let c = try #require(c17b.project(LatLng(lat: 46.025, lon: 7.005)))
        let reds = (-3 ... 3).compactMap { z17.pixel(x: Int(c.x) + $0, y: Int(c.y))?.r }
        #expect(reds.min()! < 200 && reds.max()! >= 240, "across the path: \(reds)")
    }

    /// A faded layer is faded as a whole, as a faded raster tile is: every pixel is the opaque
    /// layer's mixed with the background at the layer's opacity, where roads lie over their
    /// casings and areas over the ground, and where tiles' buffers repeat a neighbour's shapes.
    @Test func aFadedLayerIsFadedAsAWhole() throws {
        let center = LatLng(lat: 46.026, lon: 7.012)
        let (opaque, _, _) = try render(center: center, zoom: 12.5, size: 600, labels: false)
        let (faded, _, _) = try render(center: center, zoom: 12.5, size: 600, opacity: 0.4, labels: false)
        var worst = 0
        for y in 0 ..< 600 {
            for x in 0 ..< 600 {
                let a = opaque.pixel(x: x, y: y)!, f = faded.pixel(x: x, y: y)!
                let expected = [0.4 * Double(a.r), 0.4 * Double(a.g), 0.4 * Double(a.b) + 0.6 * 255]
                for (v, e) in zip([f.r, f.g, f.b], expected) { worst = max(worst, abs(Int(v) - Int(e.rounded()))) }
            }
        }
        #expect(worst <= 1, "largest difference from 0.4 × the opaque layer over blue: \(worst)")
        // The road's middle: its own colour faded, not its casing's showing through.
        let road = rgb(VectorTileStyle.light.colors[.majorRoad]!)
        let (image, camera, _) = try render(center: center, zoom: 13, opacity: 0.4, labels: false)
        let p = try pixel(image, camera, 46.03, 7.0)
        let want = (Double(road.r) * 0.4, Double(road.g) * 0.4, Double(road.b) * 0.4 + 153)
        #expect(abs(Double(p.r) - want.0) <= 6 && abs(Double(p.g) - want.1) <= 6 && abs(Double(p.b) - want.2) <= 6, "\(p)")
    }

    @Test func pitchedViewsDrawTheGroundToo() throws {
        let (image, camera, _) = try render(center: LatLng(lat: 46.012, lon: 7.015), zoom: 14, size: 400, pitch: 55)
        #expect(close(try pixel(image, camera, 46.016, 7.02), rgb(VectorTileStyle.light.colors[.water]!)))
        #expect(close(try pixel(image, camera, 46.010, 7.015), rgb(VectorTileStyle.light.background)))
    }
}
