import Foundation
import GeoKit
import MapCamera
import MapImage
import MapScene
import MapSnapshot
import MapTiles
import Testing

/// A raster layer over a tile source that fails for a while: the failure is named, not retried
/// at once, retried once `retryFailuresAfter` has passed, and the image is whole again.
@Suite struct RasterTileRecoveryTests {
    /// One 256-px tile (0/0/0), solid red; while `broken`, every request throws an HTTP 503.
    final class FlakySource: TileSource, @unchecked Sendable {
        let info = TileSourceInfo(name: "flaky", format: "png", minZoom: 0, maxZoom: 0)
        let lock = NSLock()
        var broken = true
        var calls = 0
        let png: [UInt8]
        init() throws { png = try Bitmap(width: 256, height: 256, fill: RGBA8(r: 255, g: 0, b: 0, a: 255)).pngData() }
        func tileData(_ id: TileID) async throws -> [UInt8]? {
            let broken = lock.withLock { calls += 1; return self.broken }
            if broken { throw TileError(.fetch, "tile \(id): HTTP 503 (flaky)") }
            return png
        }
        var count: Int { lock.withLock { calls } }
        func heal() { lock.withLock { broken = false } }
    }

    @Test func aFailedTileIsNamedThenFetchedAgainAfterTheRetryInterval() throws {
        let source = try FlakySource()
        let layer = TileLayer(source: source)
        layer.retryFailuresAfter = 2
        let camera = Camera(center: LatLng(lat: 0, lon: 0), zoom: 0, size: ScreenSize(width: 256, height: 256))
        let snapshotter = try MapSnapshotter()
        var snap = Snapshot(camera: camera, basemapStyle: nil, background: Color(rgb: 0x0000FF), attribution: false,
                            scaleBar: false, compass: false)
        snap.tileLayers = [layer]
        snap.tileWait = 5

        // Failing: the view's one tile is named with why, and the background shows.
        let broken = try snapshotter.render(snap)
        #expect(source.count == 1)
        #expect(snapshotter.lastTileProblems.count == 1 && snapshotter.lastTileProblems[0].contains("HTTP 503"),
                "\(snapshotter.lastTileProblems)")
        #expect(layer.takeWarnings().contains { $0.contains("tile 0/0/0: HTTP 503") })
        #expect(broken.pixel(x: 128, y: 128) == RGBA8(r: 0, g: 0, b: 255, a: 255))

        // Healed, but within the interval: the failure is not asked about again.
        source.heal()
        _ = try snapshotter.render(snap)
        #expect(source.count == 1)
        #expect(snapshotter.lastTileProblems.count == 1)

        // Past the interval: fetched again, drawn, and the image is complete.
        Thread.sleep(forTimeInterval: 2.1)
        let healed = try snapshotter.render(snap)
        #expect(source.count == 2)
        #expect(snapshotter.lastTileProblems.isEmpty, "\(snapshotter.lastTileProblems)")
        #expect(healed.pixel(x: 128, y: 128) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(layer.problems(for: camera).isEmpty)
    }

    /// A tile the server says does not exist (HTTP 404, as a sparse pyramid served by nginx
    /// answers) is warned about but is an answer, not an outage: the view counts as complete and
    /// the tile is not asked for again.
    @Test func aTileThatDoesNotExistIsNotAProblemNorRetried() throws {
        final class SparseSource: TileSource, @unchecked Sendable {
            let info = TileSourceInfo(name: "sparse", format: "png", minZoom: 0, maxZoom: 0)
            let lock = NSLock()
            var calls = 0
            func tileData(_ id: TileID) async throws -> [UInt8]? {
                lock.withLock { calls += 1 }
                throw TileError(.notFound, "tile \(id): HTTP 404 (sparse)")
            }
        }
        let source = SparseSource()
        let layer = TileLayer(source: source)
        layer.retryFailuresAfter = 0
        let camera = Camera(center: LatLng(lat: 0, lon: 0), zoom: 0, size: ScreenSize(width: 256, height: 256))
        layer.load(for: camera, timeout: 5)
        #expect(layer.takeWarnings() == ["tile 0/0/0: HTTP 404 (sparse)"])
        #expect(layer.problems(for: camera).isEmpty)
        layer.load(for: camera, timeout: 5)
        #expect(source.lock.withLock { source.calls } == 1)
    }

    /// A view whose tiles are all there reports no problems; one whose tile is still loading (a
    /// window's `request`) reports it as not loaded.
    @Test func aCompleteViewHasNoProblemsAndAPendingTileIsNamed() throws {
        let source = try FlakySource()
        source.heal()
        let layer = TileLayer(source: source)
        let camera = Camera(center: LatLng(lat: 0, lon: 0), zoom: 0, size: ScreenSize(width: 256, height: 256))
        #expect(layer.problems(for: camera) == ["tile 0/0/0: not loaded (flaky)"])
        layer.load(for: camera, timeout: 5)
        #expect(layer.problems(for: camera).isEmpty)
    }
}
