import Foundation
import GeoKit
import Hummingbird
import HummingbirdTesting
import MapImage
@testable import MapServer
import MapTiles
import Testing

/// `--tiles` whose tiles fail: the image is answered without them but is neither cached by the
/// server nor by anyone downstream, and once the source is mended (after the layer's retry
/// interval) the image is whole and cached again.
@Suite struct TileOutageTests {
    @Test func anImageMissingTilesIsNotCachedAndTheServerRecovers() async throws {
        // A z/x/y directory at zoom 1 whose tile 1/0/0 is damaged (not an image).
        let root = TestServer.scratch.appendingPathComponent("outage-\(UUID().uuidString)")
        let green = try Bitmap(width: 256, height: 256, fill: RGBA8(r: 20, g: 160, b: 60, a: 255)).pngData()
        for x in 0 ..< 2 {
            for y in 0 ..< 2 {
                let dir = root.appendingPathComponent("1/\(x)")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                try Data(x == 0 && y == 0 ? Array("not a png".utf8) : green).write(to: dir.appendingPathComponent("\(y).png"))
            }
        }
        var c = ServerConfig()
        c.workers = 1
        c.tiles = [root.path]
        let server = try MapServer(config: c)
        defer { server.shutdown() }
        server.layers[0].retryFailuresAfter = 1.5
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            let uri = "/static?center=0,0&zoom=1&size=200x200&attribution=false"
            for _ in 0 ..< 2 {
                // Rendered each time (not from the image cache): the header says what is missing.
                let r = try await client.execute(uri: uri, method: .get)
                #expect(r.status == .ok)
                #expect(r.headers[.cacheControl] == "no-store")
                #expect(r.headers[MapServer.missingTilesHeader] == "1")
                let img = try Bitmap(imageData: Array(r.body.readableBytesView))
                #expect(img.pixel(x: 150, y: 150) == RGBA8(r: 20, g: 160, b: 60, a: 255))  // tile 1/1/1
                #expect(img.pixel(x: 50, y: 50) != RGBA8(r: 20, g: 160, b: 60, a: 255))  // tile 1/0/0
            }
            let m = try await client.execute(uri: "/metrics", method: .get)
            #expect(String(buffer: m.body).contains("mapwright_incomplete_images_total"))
            // Mended; after the retry interval the tile is read again and the image is whole.
            try Data(green).write(to: root.appendingPathComponent("1/0/0.png"))
            try await Task.sleep(nanoseconds: 1_700_000_000)
            let r = try await client.execute(uri: uri, method: .get)
            #expect(r.headers[MapServer.missingTilesHeader] == nil)
            #expect(r.headers[.cacheControl]?.hasPrefix("public, max-age=") == true)
            let img = try Bitmap(imageData: Array(r.body.readableBytesView))
            #expect(img.pixel(x: 50, y: 50) == RGBA8(r: 20, g: 160, b: 60, a: 255))
            // Now cached: the same ETag answers 304.
            let etag = try #require(r.headers[.eTag])
            let again = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
        }
    }
}
