import CFuzzerDriver
import Foundation
import GeoKit
import MapFormats
import MapImage
import MapServer
import MapSnapshot
import MapTiles
import MapViewer

// Each target takes arbitrary bytes and must return (a value or a thrown error) without
// crashing, hanging or leaking; the sanitizers and libFuzzer's -timeout/-rss_limit_mb catch the
// rest. Which one runs is MAPWRIGHT_FUZZ_TARGET's value (scripts/fuzz.sh sets it).

/// The targets by name, in the order of `scripts/fuzz.sh --list`.
let targets: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
    ("csv", { bytes in _ = try? TrackReader.read(bytes, options: TrackReadOptions(format: .csv)) }),
    ("gpx", { bytes in _ = try? TrackReader.read(bytes, options: TrackReadOptions(format: .gpx)) }),
    ("geojson", { bytes in _ = try? TrackReader.read(bytes, options: TrackReadOptions(format: .geojson)) }),
    ("polyline", { bytes in
        _ = try? TrackReader.read(bytes, options: TrackReadOptions(format: .polyline))
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? PolylineCodec.decode(text)
        _ = try? PolylineCodec.decode(text, precision: 6)
    }),
    ("scene", fuzzScene),
    ("png", { bytes in _ = try? Bitmap(pngData: bytes) }),
    ("jpeg", { bytes in _ = try? Bitmap(jpegData: bytes) }),
    ("webp", { bytes in _ = try? Bitmap(webpData: bytes) }),
    ("image", { bytes in _ = try? Bitmap(imageData: bytes) }),
    ("pmtiles", fuzzPMTiles),
    ("mbtiles", fuzzMBTiles),
    ("mvt", fuzzVectorTile),
    ("google", { bytes in
        let raw = String(decoding: bytes, as: UTF8.self)
        guard let query = try? QueryString.parse(Substring(raw)) else { return }
        _ = try? GoogleStatic.parse(query: query, limits: RequestLimits())
    }),
    ("mapbox", { bytes in
        // PATH?QUERY, as the router hands them over (the part after /styles/v1/).
        let raw = String(decoding: bytes, as: UTF8.self)
        let parts = raw.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query = parts.count > 1 ? ((try? QueryString.parse(parts[1])) ?? []) : []
        _ = try? MapboxStatic.parse(path: parts.first ?? "", query: query, limits: RequestLimits())
    }),
    ("query", { bytes in
        let raw = String(decoding: bytes, as: UTF8.self)
        _ = try? QueryString.parse(Substring(raw))
        _ = try? QueryString.decode(Substring(raw), what: "value")
    }),
    ("gestures", { bytes in _ = try? ViewerScript.parse(String(decoding: bytes, as: UTF8.self)) }),
    ("svgpath", { bytes in _ = try? SVGPath(String(decoding: bytes, as: UTF8.self)) }),
]

/// Scene JSON: decoded, then (when it names no tile source or cache, which would touch the
/// network or the disk) built into an animated snapshot and evaluated at a few times, as
/// `mapwright render`/`animate` and `POST /static` do before drawing. Relative file paths resolve
/// in an empty directory.
func fuzzScene(_ bytes: [UInt8]) {
    guard let doc = try? SceneDocument.decode(Data(bytes), file: "fuzz.json") else { return }
    guard doc.tiles == nil, doc.tileCache == nil else { return }
    let loader = SceneLoader(baseDirectory: emptyDirectory)
    guard let animated = try? loader.animatedSnapshot(from: doc) else { return }
    for t in [0, 0.4, 1.7, 59.9] { _ = animated.frame(at: t) }
}

/// An empty directory for scene files' relative paths, removed when the fuzzer exits.
let emptyDirectory: URL = {
    let url = emptyDirectoryURL()
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { _ = rmdir(emptyDirectoryURL().path) }
    return url
}()

func emptyDirectoryURL() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("mapwright-fuzz-empty-\(getpid())")
}

/// An archive in memory.
final class MemoryReader: SyncByteRangeReader, @unchecked Sendable {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var length: UInt64? { UInt64(bytes.count) }
    func readNow(offset: UInt64, count: Int) throws -> [UInt8] {
        guard count >= 0, offset <= UInt64(bytes.count), UInt64(count) <= UInt64(bytes.count) - offset else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return Array(bytes[Int(offset) ..< Int(offset) + count])
    }
}

/// The tiles every archive target asks for: the root, a few deep ones, the corners.
let probeTiles: [TileID] = [(0, 0, 0), (1, 1, 0), (3, 4, 2), (7, 66, 43), (12, 2200, 1400), (14, 0, 16383)].compactMap {
    try? TileID(z: $0.0, x: $0.1, y: $0.2)
}

/// PMTiles: the header, root directory, metadata and leaf directories of the bytes.
func fuzzPMTiles(_ bytes: [UInt8]) {
    guard let source = try? PMTilesSource(reader: MemoryReader(bytes), name: "fuzz.pmtiles") else { return }
    for id in probeTiles { _ = try? blockingAwait { try await source.tileData(id) } }
}

/// MBTiles: the bytes written to a file (SQLite needs one) and opened, then tiles read.
func fuzzMBTiles(_ bytes: [UInt8]) {
    let path = emptyDirectory.appendingPathComponent("fuzz.mbtiles").path
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
    defer { try? FileManager.default.removeItem(atPath: path) }
    guard let source = try? MBTilesSource(path: path) else { return }
    for id in probeTiles { _ = try? blockingAwait { try await source.tileData(id) } }
}

/// A vector tile: decoded (gzip or not), each feature read by the schema and placed on the map,
/// as `TileLayer` does with every tile it fetches.
func fuzzVectorTile(_ bytes: [UInt8]) {
    guard let tile = try? VectorTile(data: bytes) else { return }
    let id = try! TileID(z: 14, x: 8704, y: 5972)
    for layer in tile.layers {
        for f in layer.features {
            switch f.geometry {
            case .polygons(let p):
                _ = VectorTileSchema.kind(layer: layer.name, properties: f.properties, isArea: true)
                for rings in p { for ring in rings { for q in ring { _ = layer.mapPoint(q, tile: id) } } }
            case .lines(let l):
                _ = VectorTileSchema.kind(layer: layer.name, properties: f.properties, isArea: false)
                _ = VectorTileSchema.lineLabel(layer: layer.name, properties: f.properties)
                for line in l { for q in line { _ = layer.mapPoint(q, tile: id) } }
            case .points(let pts):
                for q in pts {
                    let point = layer.mapPoint(q, tile: id)
                    _ = VectorTileSchema.place(layer: layer.name, properties: f.properties, point: point)
                    _ = VectorTileSchema.poi(layer: layer.name, properties: f.properties, point: point)
                    _ = VectorTileSchema.waterName(layer: layer.name, properties: f.properties, point: point)
                }
            }
        }
    }
}

let selected: @Sendable ([UInt8]) -> Void = {
    let name = ProcessInfo.processInfo.environment["MAPWRIGHT_FUZZ_TARGET"] ?? ""
    guard let t = targets.first(where: { $0.name == name }) else {
        let names = targets.map(\.name).joined(separator: " ")
        FileHandle.standardError.write(Data("mapwright-fuzz: set MAPWRIGHT_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    return t.run
}()

/// One input, as libFuzzer hands it over.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selected(bytes)
    return 0
}

/// The executable's entry point (SwiftPM names it after the module): libFuzzer's driver.
@_cdecl("mapwright_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) }
}
