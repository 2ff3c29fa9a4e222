import Foundation
import GeoKit
import MapCamera
import MapImage
import MapScene
import MapTestSupport
@testable import MapSnapshot
import MapTiles
import Testing

/// A picture of the ground standing in for it while a view moves (`MapSnapshotter.pictureGround`,
/// `Snapshot.groundStandIn`), checked against the frames drawn in full at the same cameras: GDAL's
/// vector fixture (a lake with an island, roads, a building, a place name) at zoom 13.
@Suite struct GroundPictureTests {
    static let center = LatLng(lat: 46.026, lon: 7.012)

    func snapshot(_ camera: Camera) throws -> Snapshot {
        let layer = TileLayer(source: try MBTilesSource(path: VectorTileLayerTests.archive))
        layer.vectorStyle = .light
        var snap = Snapshot(camera: camera, basemapStyle: nil, background: Color(rgb: 0x0000FF), attribution: false)
        snap.tileLayers = [layer]
        snap.tileWait = 10
        return snap
    }

    static func camera(bearing: Double = 0, pitch: Double = 0, zoom: Double = 13) -> Camera {
        Camera(center: center, zoom: zoom, bearing: bearing, pitch: pitch, size: ScreenSize(width: 400, height: 300))
    }

    /// `camera` moved so that the map slides `dx`, `dy` px on screen (north up, flat).
    static func panned(_ camera: Camera, dx: Double, dy: Double) -> Camera {
        var c = camera
        let m = MapPoint(camera.center)
        c.center = MapPoint(x: m.x - dx / camera.worldSize, y: m.y - dy / camera.worldSize).latLng
        return c
    }

    /// Mean absolute RGB difference, and the share of pixels off by more than `tolerance` in a channel.
    static func difference(_ a: Bitmap, _ b: Bitmap, tolerance: Int = 2) -> (mean: Double, off: Double) {
        #expect(a.width == b.width && a.height == b.height)
        var sum = 0, off = 0
        for i in stride(from: 0, to: min(a.pixels.count, b.pixels.count), by: 4) {
            var worst = 0
            for c in 0 ..< 3 {
                let d = abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c]))
                sum += d
                worst = max(worst, d)
            }
            if worst > tolerance { off += 1 }
        }
        let n = Double(a.pixels.count / 4)
        return (Double(sum) / (3 * n), Double(off) / n)
    }

    @Test func atItsOwnCameraThePictureIsTheFrame() throws {
        let snapshotter = try MapSnapshotter()
        let snap = try snapshot(Self.camera())
        let exact = try snapshotter.render(snap)
        let picture = try #require(try snapshotter.pictureGround(snap, margin: 0.25))
        // 100 px (a quarter of the longer side) beyond each side.
        #expect(picture.image.width == 600 && picture.image.height == 500)
        #expect(picture.complete)
        var standIn = snap
        standIn.groundStandIn = picture
        let drawn = try snapshotter.render(standIn)
        let d = Self.difference(exact, drawn)
        #expect(d.off == 0 && d.mean < 0.1, "mean \(d.mean), \(d.off * 100) % off")
    }

    @Test func pannedByWholePixelsThePictureIsTheFrame() throws {
        let snapshotter = try MapSnapshotter()
        let snap = try snapshot(Self.camera())
        let picture = try #require(try snapshotter.pictureGround(snap, margin: 0.25))
        for (dx, dy) in [(60.0, -40.0), (-95.0, 80.0)] {
            var moved = try snapshot(Self.panned(Self.camera(), dx: dx, dy: dy))
            let exact = try snapshotter.render(moved)
            moved.groundStandIn = picture
            let drawn = try snapshotter.render(moved)
            let d = Self.difference(exact, drawn)
            #expect(d.off < 0.001 && d.mean < 0.2, "pan \(dx),\(dy): mean \(d.mean), \(d.off * 100) % off")
        }
    }

    /// Mean absolute RGB difference between `a` and `b` over the pixels where `a` and `c` differ
    /// by more than 24 in a channel, and how many those are.
    static func differenceWhere(_ a: Bitmap, _ c: Bitmap, _ b: Bitmap) -> (mean: Double, count: Int) {
        var sum = 0, count = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4)
            where (0 ..< 3).contains(where: { abs(Int(a.pixels[i + $0]) - Int(c.pixels[i + $0])) > 24 }) {
            count += 1
            for k in 0 ..< 3 { sum += abs(Int(a.pixels[i + k]) - Int(b.pixels[i + k])) }
        }
        return (Double(sum) / Double(max(1, 3 * count)), count)
    }

    /// Turned, tilted and zoomed, the picture is resampled (not as sharp as the frame) but stays
    /// where the ground is: where the frame drawn in full and that frame two pixels over differ
    /// (the edges of roads, water and buildings), the picture is far closer to the frame.
    @Test func turnedTiltedAndZoomedThePictureStaysOnTheGround() throws {
        let snapshotter = try MapSnapshotter()
        let snap = try snapshot(Self.camera())
        let picture = try #require(try snapshotter.pictureGround(snap, margin: 0.25))
        for camera in [Self.camera(bearing: 25), Self.camera(bearing: -10, pitch: 30), Self.camera(zoom: 13.5)] {
            #expect(picture.canStandIn(for: camera), "\(camera)")
            var moved = try snapshot(camera)
            let exact = try snapshotter.render(moved)
            moved.groundStandIn = picture
            let drawn = try snapshotter.render(moved)
            var over = camera
            over.center = Self.panned(Self.camera(zoom: camera.zoom), dx: 2, dy: 0).center
            let shifted = try snapshotter.render(try snapshot(over))
            let edges = Self.differenceWhere(exact, shifted, shifted)
            let d = Self.differenceWhere(exact, shifted, drawn)
            #expect(edges.count > 100)
            #expect(d.mean < edges.mean / 3,
                    "bearing \(camera.bearing) pitch \(camera.pitch) zoom \(camera.zoom): \(d.mean) against \(edges.mean) two pixels over, \(edges.count) px")
        }
    }

    @Test func coverageCountsTheViewsPointsOnThePicture() throws {
        let snapshotter = try MapSnapshotter()
        let picture = try #require(try snapshotter.pictureGround(try snapshot(Self.camera()), margin: 0.25))
        // The picture spans x −100…500 of the view's pixels. Panned 160 px (the map slides left),
        // the view's lattice columns at 160 + 50 i, i = 0…8, are on it for i ≤ 6: 7 of 9.
        expectNear(picture.coverage(of: Self.panned(Self.camera(), dx: -160, dy: 0)), 7.0 / 9, tolerance: 1e-9)
        #expect(!picture.canStandIn(for: Self.panned(Self.camera(), dx: -160, dy: 0)))
        expectNear(picture.coverage(of: Self.panned(Self.camera(), dx: -90, dy: 90)), 1, tolerance: 1e-9)
        #expect(picture.canStandIn(for: Self.panned(Self.camera(), dx: -90, dy: 90)))
        // Over a level of zoom away, the picture's pixels would be over twice or under half the view's.
        #expect(picture.canStandIn(for: Self.camera(zoom: 14)))
        #expect(!picture.canStandIn(for: Self.camera(zoom: 14.01)))
        #expect(picture.coverage(of: Self.camera(zoom: 12.01)) < 0.9)
        #expect(!picture.canStandIn(for: Self.camera(zoom: 11.9)))
    }

    @Test func aViewOfTheSkyHasNoPicture() throws {
        let snapshotter = try MapSnapshotter()
        var camera = Self.camera(pitch: 85)
        camera.size = ScreenSize(width: 300, height: 400)
        #expect(try snapshotter.pictureGround(try snapshot(camera)) == nil)
        // Without a basemap or tiles there is no ground to picture.
        let bare = Snapshot(camera: Self.camera(), basemapStyle: nil, background: Color(rgb: 0x0000FF), attribution: false)
        #expect(try snapshotter.pictureGround(bare) == nil)
    }

    @Test func theQuadrilateralTest() {
        let q = [MapPoint(x: 0, y: 0), MapPoint(x: 2, y: 0), MapPoint(x: 2, y: 1), MapPoint(x: 0, y: 1)]
        #expect(GroundPicture.contains(q, MapPoint(x: 1, y: 0.5)))
        #expect(GroundPicture.contains(Array(q.reversed()), MapPoint(x: 1, y: 0.5)))
        #expect(GroundPicture.contains(q, MapPoint(x: 2, y: 1)))
        #expect(!GroundPicture.contains(q, MapPoint(x: 2.001, y: 0.5)))
        #expect(!GroundPicture.contains(q, MapPoint(x: 1, y: -0.001)))
    }
}
