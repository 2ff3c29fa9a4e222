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
        standIn.groundStandIn = [picture.groundImage]
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
            moved.groundStandIn = [picture.groundImage]
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
            moved.groundStandIn = [picture.groundImage]
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

/// The ground's pictures cut along the tile grid (`GroundTiles`), as a window's frames in motion
/// draw them.
@Suite struct GroundTilesTests {
    /// A view of 512 × 384 px at zoom 13 whose centre is a tile corner: the tiles' pictures land
    /// on whole pixels.
    static func camera(zoom: Double = 13, bearing: Double = 0) -> Camera {
        let n = Double(1 << 13)
        let corner = MapPoint(x: Double(Int(MapPoint(GroundPictureTests.center).x * n)) / n,
                              y: Double(Int(MapPoint(GroundPictureTests.center).y * n)) / n)
        return Camera(center: corner.latLng, zoom: zoom, bearing: bearing, size: ScreenSize(width: 512, height: 384))
    }

    @Test func theCoverIsAtTheRoundedZoom() {
        #expect(Set(GroundTiles.cover(for: Self.camera(zoom: 13.4)).map(\.z)) == [13])
        #expect(Set(GroundTiles.cover(for: Self.camera(zoom: 13.6)).map(\.z)) == [14])
        // Centred on a tile corner at zoom 13 (tiles of 512 px): four tiles. Grown by 0.6 of the
        // longer side (307.2 px) beyond each edge, the view reaches 563.2 px either side of the
        // corner (four columns of tiles) and 499.2 px above and below it (still two rows).
        #expect(GroundTiles.cover(for: Self.camera()).count == 4)
        #expect(GroundTiles.cover(for: Self.camera(), grownBy: 0.6).count == 8)
    }

    @Test func theTilesPicturesAtTheViewsZoomAreTheFrame() throws {
        let snapshotter = try MapSnapshotter()
        let tiles = GroundTiles()
        let snap = try GroundPictureTests().snapshot(Self.camera())
        let cover = GroundTiles.cover(for: snap.camera)
        #expect(tiles.wanted(cover, generation: 0) == cover)
        for t in cover { #expect(try tiles.draw(t, of: snap, with: snapshotter, generation: 0)) }
        #expect(tiles.wanted(cover, generation: 0).isEmpty && tiles.drawn == 4)
        let exact = try snapshotter.render(snap)
        var standIn = snap
        standIn.groundStandIn = tiles.images(for: cover)
        #expect(standIn.groundStandIn?.count == 4)
        let d = GroundPictureTests.difference(exact, try snapshotter.render(standIn))
        #expect(d.off < 0.002 && d.mean < 0.2, "mean \(d.mean), \(d.off * 100) % off")
        // Turned, the same pictures stay on the ground (see GroundPictureTests).
        var turned = try GroundPictureTests().snapshot(Self.camera(bearing: 30))
        let exactTurned = try snapshotter.render(turned)
        let turnedCover = GroundTiles.cover(for: turned.camera)
        #expect(tiles.wanted(turnedCover, generation: 0).count < turnedCover.count)
        for t in tiles.wanted(turnedCover, generation: 0) { try tiles.draw(t, of: turned, with: snapshotter, generation: 0) }
        turned.groundStandIn = tiles.images(for: turnedCover)
        let drawn = try snapshotter.render(turned)
        var over = turned.camera
        over.center = GroundPictureTests.panned(Self.camera(), dx: 2, dy: 0).center
        var shiftedSnap = turned
        shiftedSnap.camera = over
        shiftedSnap.groundStandIn = nil
        let shifted = try snapshotter.render(shiftedSnap)
        let edges = GroundPictureTests.differenceWhere(exactTurned, shifted, shifted)
        let off = GroundPictureTests.differenceWhere(exactTurned, shifted, drawn)
        #expect(edges.count > 100 && off.mean < edges.mean / 3, "\(off.mean) against \(edges.mean)")
    }

    /// A tile without a picture is stood in for by its children's pictures over its nearest
    /// ancestor's part for it; the part's texture rectangle is the tile's quarter of the
    /// ancestor's picture (worked out by hand).
    @Test func missingTilesAreStoodInForByAncestorsAndChildren() throws {
        let snapshotter = try MapSnapshotter()
        let tiles = GroundTiles()
        let snap = try GroundPictureTests().snapshot(Self.camera())
        let parent = try #require(GroundTiles.cover(for: Self.camera(zoom: 12)).first)
        #expect(parent.z == 12)
        try tiles.draw(parent, of: snap, with: snapshotter, generation: 0)
        func corners(_ t: CoverTile) -> [MapPoint] {
            let n = Double(1 << t.z)
            return [MapPoint(x: Double(t.x) / n, y: Double(t.y) / n), MapPoint(x: Double(t.x + 1) / n, y: Double(t.y) / n),
                    MapPoint(x: Double(t.x + 1) / n, y: Double(t.y + 1) / n), MapPoint(x: Double(t.x) / n, y: Double(t.y + 1) / n)]
        }
        func rect(_ g: GroundImage) -> [Double] { [g.textureRect.u0, g.textureRect.v0, g.textureRect.u1, g.textureRect.v1] }
        // The tile at 13 in the parent's bottom-right quarter: that quarter of its picture.
        let tile = CoverTile(z: 13, x: 2 * parent.x + 1, y: 2 * parent.y + 1)
        let alone = tiles.images(for: [tile])
        #expect(alone.count == 1 && alone.first.map(rect) == [0.5, 0.5, 1, 1] && alone.first?.corners == corners(tile))
        // One of its children at 14 pictured: the part, then that child over it.
        let children = (0 ..< 4).map { CoverTile(z: 14, x: 2 * tile.x + $0 % 2, y: 2 * tile.y + $0 / 2) }
        try tiles.draw(children[3], of: snap, with: snapshotter, generation: 0)
        let one = tiles.images(for: [tile])
        #expect(one.count == 2 && one.first.map(rect) == [0.5, 0.5, 1, 1] && one.last.map(rect) == [0, 0, 1, 1])
        #expect(one.last?.corners == corners(children[3]))
        // All four children pictured: they alone.
        for c in children.prefix(3) { try tiles.draw(c, of: snap, with: snapshotter, generation: 0) }
        let four = tiles.images(for: [tile])
        #expect(four.count == 4 && four.allSatisfy { rect($0) == [0, 0, 1, 1] })
        // The tile's own picture: it alone. And a world to the east, moved by one world.
        try tiles.draw(tile, of: snap, with: snapshotter, generation: 0)
        #expect(tiles.images(for: [tile]).map(\.corners) == [corners(tile)])
        let east = CoverTile(z: 13, x: tile.x, y: tile.y, wrap: 1)
        #expect(tiles.images(for: [east]).map(\.corners) == [corners(tile).map { MapPoint(x: $0.x + 1, y: $0.y) }])
        // Four levels up at most: at 18 the child at 14 stands in (1/16 of its picture), at 19
        // nothing does.
        let deep = tiles.images(for: [CoverTile(z: 18, x: 32 * tile.x, y: 32 * tile.y)])
        #expect(deep.count == 1 && deep.first.map(rect) == [0, 0, 0.0625, 0.0625])
        #expect(tiles.images(for: [CoverTile(z: 19, x: 64 * tile.x, y: 64 * tile.y)]).isEmpty)
    }

    @Test func incompletePicturesAreWantedAgainWhenTheGroundChanges() throws {
        let snapshotter = try MapSnapshotter()
        let tiles = GroundTiles()
        let snap = try GroundPictureTests().snapshot(Self.camera())
        let cover = GroundTiles.cover(for: snap.camera)
        for t in cover { try tiles.draw(t, of: snap, with: snapshotter, generation: 0) }
        // The fixture's tiles were all loaded (tileWait) and meshed before the frame: complete,
        // so a change of the ground elsewhere does not ask for them again.
        #expect(tiles.wanted(cover, generation: 1).isEmpty && tiles.stale(cover, generation: 1).isEmpty)
        // A layer whose tiles are not loaded: each picture lacks them, and is wanted again once
        // the ground has changed.
        var loading = snap
        let layer = TileLayer(source: try MBTilesSource(path: VectorTileLayerTests.archive))
        loading.tileLayers = [layer]
        loading.tileWait = nil
        let fresh = GroundTiles()
        let tile = try #require(cover.first)
        try fresh.draw(tile, of: loading, with: snapshotter, generation: 0)
        #expect(fresh.wanted([tile], generation: 0).isEmpty && fresh.stale([tile], generation: 0).isEmpty)
        #expect(fresh.wanted([tile], generation: 1) == [tile] && fresh.stale([tile], generation: 1) == [tile])
        // A tile without a picture is wanted but not stale.
        let other = try #require(cover.last)
        #expect(fresh.wanted([other], generation: 1) == [other] && fresh.stale([other], generation: 1).isEmpty)
    }

    @Test func thePicturesAreKeptWithinTheirMemory() throws {
        let snapshotter = try MapSnapshotter()
        let tiles = GroundTiles()
        tiles.capacityBytes = 3 * 512 * 512 * 4
        let snap = try GroundPictureTests().snapshot(Self.camera())
        let cover = GroundTiles.cover(for: snap.camera)
        for t in cover { try tiles.draw(t, of: snap, with: snapshotter, generation: 0) }
        // Four pictures of 1 MiB for three: the first drawn went.
        #expect(tiles.wanted(cover, generation: 0) == [cover[0]])
        // What a view just used stays, even over the limit.
        _ = tiles.images(for: cover)
        try tiles.draw(cover[0], of: snap, with: snapshotter, generation: 0)
        #expect(tiles.wanted(cover, generation: 0).count <= 1)
    }
}
