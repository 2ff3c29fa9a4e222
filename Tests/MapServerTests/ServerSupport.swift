import Foundation
import Hummingbird
import HummingbirdTesting
import MapImage
import MapServer
import MapTestSupport
import MapTiles
import GeoKit

/// One server for the router-level tests (a renderer pool of one), with two archives written
/// by our writers under /data and an overlay scene on /tiles.
enum TestServer {
    static let scratch: URL = try! ScratchDirectory.removedAtExit("mapserver-tests").url

    /// Tile bytes stored in the archives: z/x/y → bytes (distinct PNGs, one per tile).
    static let stored: [TileID: [UInt8]] = {
        var out: [TileID: [UInt8]] = [:]
        for (i, id) in [try! TileID(z: 0, x: 0, y: 0), try! TileID(z: 1, x: 1, y: 0), try! TileID(z: 2, x: 3, y: 1)].enumerated() {
            let b = try! Bitmap(width: 4, height: 4, fill: RGBA8(r: UInt8(40 * i), g: 100, b: 200, a: 255))
            out[id] = try! b.pngData()
        }
        return out
    }()

    static let shared: Result<MapServer, Error> = Result {
        let mb = scratch.appendingPathComponent("a.mbtiles").path
        let w = try MBTilesWriter(path: mb)
        for (id, data) in stored { try w.add(id, data: data) }
        try w.setMetadata("format", "png")
        try w.setMetadata("name", "test")
        try w.finish()
        let pm = scratch.appendingPathComponent("b.pmtiles").path
        let p = try PMTilesWriter(path: pm)
        for (id, data) in stored { try p.add(id, data: data) }
        var h = PMTiles.Header()
        h.tileType = .png
        h.minZoom = 0; h.maxZoom = 2
        try p.finish(header: h, metadata: ["name": "test"])
        // A magenta circle of 40 px around 0,0 on every tile.
        let scene = scratch.appendingPathComponent("dot.json").path
        try ##"{"overlays":[{"type":"circle","position":[0,0],"radius":40,"radiusUnit":"px","fill":"#ff00ff","stroke":"#ff00ff"}]}"##
            .write(toFile: scene, atomically: true, encoding: .utf8)
        var c = ServerConfig()
        c.workers = 1
        c.data = ["mb": mb, "pm": pm]
        c.scenes = [scene]
        // (Every router test's requests queue behind this one renderer at once: more than the
        // default 16 waiting were refused as busy, a 503, once a 25th test was added. The queue
        // limit and deadlines are tested on pools of their own, `GrammarTests`.)
        c.queue = 256
        c.deadline = 60
        return try MapServer(config: c)
    }

    static func app() throws -> some ApplicationProtocol {
        Application(router: try shared.get().router())
    }
}

extension ByteBuffer {
    var bytes: [UInt8] { Array(readableBytesView) }
    var text: String { String(buffer: self) }
}

/// Web Mercator by hand: pixel position of a point in a `gz`-zoom world of 256-px tiles (Google's zoom).
func worldPixel(lat: Double, lon: Double, googleZoom gz: Double) -> (x: Double, y: Double) {
    let size = 256 * pow(2, gz)
    let phi = lat * .pi / 180
    return ((lon + 180) / 360 * size, (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * size)
}

/// Pixel of `p` in a `w`×`h` image centred on `c` at Google zoom `gz`.
func imagePixel(_ p: (Double, Double), center c: (Double, Double), googleZoom gz: Double, w: Double, h: Double) -> (x: Double, y: Double) {
    let a = worldPixel(lat: p.0, lon: p.1, googleZoom: gz), o = worldPixel(lat: c.0, lon: c.1, googleZoom: gz)
    return (a.x - o.x + w / 2, a.y - o.y + h / 2)
}

/// The largest difference over R, G and B between a pixel and a colour (999 outside the image).
func distance(_ p: RGBA8?, _ rgb: UInt32) -> Int {
    guard let p else { return 999 }
    return max(abs(Int(p.r) - Int(rgb >> 16 & 255)), abs(Int(p.g) - Int(rgb >> 8 & 255)), abs(Int(p.b) - Int(rgb & 255)))
}

/// The bounding box of the pixels within `tolerance` of `rgb`, or nil when there are none.
func extent(of rgb: UInt32, in b: Bitmap, tolerance: Int = 24) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
    var box: (Int, Int, Int, Int)?
    for y in 0 ..< b.height {
        for x in 0 ..< b.width where distance(b.pixel(x: x, y: y), rgb) <= tolerance {
            box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
        }
    }
    return box.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3) }
}
