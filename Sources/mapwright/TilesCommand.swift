import ArgumentParser
import Foundation
import GeoKit
import MapCamera
import MapFormats
import MapImage
import MapScene
import MapSnapshot
import MapTiles

/// `mapwright tiles`: tile pyramids out (render), and what an archive holds (inspect).
struct TilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "Render tile pyramids (MBTiles, PMTiles or a z/x/y directory) or inspect an archive.",
        subcommands: [TilesRenderCommand.self, TilesInspectCommand.self],
        defaultSubcommand: TilesRenderCommand.self
    )
}

struct TilesRenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render the basemap and overlays (every flag of `render`) as a tile pyramid for Leaflet, MapLibre or OpenLayers.",
        discussion: """
        OUT ending in .mbtiles writes MBTiles 1.3 (with metadata), .pmtiles a clustered PMTiles v3 \
        archive (identical tiles stored once), and a path ending in / a directory of z/x/y.png.
        Tiles are rendered in meta-tiles of up to 4 × 4 on every core. With --basemap none the \
        pyramid is transparent overlays only, and fully transparent tiles are left out.
        """
    )

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("OUT.mbtiles, OUT.pmtiles or DIR/.", valueName: "OUT"))
    var output: String
    @Option(parsing: .unconditional, help: ArgumentHelp("The area to cover, degrees.", valueName: "S,W,N,E"))
    var bounds: String
    @Option(help: ArgumentHelp("The zoom levels (tile pyramid zooms, as in the z of z/x/y), 0…20.", valueName: "MIN-MAX"))
    var zooms: String
    @Option(name: .customLong("tile-pixels"), help: "Tile size in logical pixels: 256 (default) or 512.")
    var tilePixels: Int = 256
    @Option(help: "Worker threads, each with its own GL context (default: one per core).")
    var workers: Int?
    @OptionGroup var options: SceneOptions

    /// Tiles are small: one deflate stream each (the workers run in parallel).
    static let tilePNG: PNGOptions = {
        var o = PNGOptions.fast
        o.threads = 1
        return o
    }()

    /// The most tiles one run renders.
    static let maxTiles = 2_000_000

    func run() throws {
        // Ctrl-C or SIGTERM part-way leaves no half-written archive.
        InterruptCleanup.install()
        do { try renderPyramid() } catch let e as CLIError { throw e } catch { throw CLIError("mapwright tiles: \(error)") }
    }

    enum Output { case mbtiles, pmtiles, directory }

    private func renderPyramid() throws {
        let kind: Output
        if output.hasSuffix("/") { kind = .directory } else if output.lowercased().hasSuffix(".mbtiles") { kind = .mbtiles }
        else if output.lowercased().hasSuffix(".pmtiles") { kind = .pmtiles } else {
            throw CLIError("mapwright tiles: -o '\(output)': expected OUT.mbtiles, OUT.pmtiles or a directory ending in /")
        }
        let b = bounds.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard b.count == 4, let s = b[0], let w = b[1], let n = b[2], let e = b[3] else {
            throw CLIError("mapwright tiles: --bounds '\(bounds)': expected S,W,N,E in degrees")
        }
        let area: GeoBounds
        do { area = try GeoBounds(south: s, west: w, north: n, east: e) } catch { throw CLIError("mapwright tiles: --bounds: \(error)") }
        guard n > s else { throw CLIError("mapwright tiles: --bounds: north must be above south") }
        let z = zooms.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard (z.count == 1 || z.count == 2), let z0 = z.first!, let z1 = z.last!, 0 <= z0, z0 <= z1, z1 <= 20 else {
            throw CLIError("mapwright tiles: --zooms '\(zooms)': expected MIN-MAX within 0…20")
        }
        guard tilePixels == 256 || tilePixels == 512 else { throw CLIError("mapwright tiles: --tile-pixels must be 256 or 512") }
        var total = 0
        for zoom in z0 ... z1 { total += (try? TileID.coverCount(area, zoom: zoom)) ?? Int.max / 32 }
        guard total <= Self.maxTiles else {
            throw CLIError("mapwright tiles: \(total) tiles is over the limit of \(Self.maxTiles); narrow --bounds or --zooms")
        }
        let workerCount = max(1, min(16, workers ?? ProcessInfo.processInfo.activeProcessorCount))
        // A directory is made with the sink, once the scene has loaded (an error before leaves nothing).
        if kind != .directory {
            let parent = URL(fileURLWithPath: output).deletingLastPathComponent().path
            guard FileManager.default.fileExists(atPath: parent) else {
                throw CLIError("mapwright tiles: cannot write '\(output)': the directory does not exist")
            }
        }

        // The scene: every flag of `render`; the camera is set per meta-tile.
        var (doc, base) = try options.loadDocument(command: "tiles")
        if doc.camera?.center == nil || doc.camera?.zoom == nil {
            var cam = doc.camera ?? SceneDocument.CameraSpec()
            cam.center = [(s + n) / 2, (w + e) / 2]
            cam.zoom = 0
            doc.camera = cam
        }
        doc.size = [Double(tilePixels), Double(tilePixels)]
        doc.attribution = false
        var template = try options.loader(for: doc, base: base).snapshot(from: doc)
        template.scaleBar = false
        template.compass = false
        let overlayOnly = template.basemapStyle == nil && template.tileLayers.isEmpty
        if overlayOnly { template.background = .transparent }
        let scale = template.camera.pixelRatio

        // Meta-tiles: blocks of up to 4 × 4 tiles rendered as one image and cut.
        struct Job { let z: Int; let x0: Int; let y0: Int; let cols: Int; let rows: Int; let wanted: Set<TileID> }
        var jobs: [Job] = []
        for zoom in z0 ... z1 {
            let tiles = try TileID.covering(area, zoom: zoom, limit: Self.maxTiles)
            var blocks: [Int: [TileID]] = [:]
            for t in tiles { blocks[(t.y / 4) << 32 | (t.x / 4), default: []].append(t) }
            for (_, members) in blocks.sorted(by: { $0.key < $1.key }) {
                let xs = members.map(\.x), ys = members.map(\.y)
                let x0 = xs.min()!, y0 = ys.min()!
                jobs.append(Job(z: zoom, x0: x0, y0: y0, cols: xs.max()! - x0 + 1, rows: ys.max()! - y0 + 1, wanted: Set(members)))
            }
        }

        let sink: TileSink
        switch kind {
        case .mbtiles: sink = try MBTilesSink(path: output)
        case .pmtiles: sink = try PMTilesSink(path: output)
        case .directory:
            let dir = String(output.dropLast())
            let madeRoot = !FileManager.default.fileExists(atPath: dir)
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw CLIError("mapwright tiles: cannot create '\(dir)': \(error.localizedDescription)")
            }
            sink = DirectorySink(root: dir, madeRoot: madeRoot)
        }
        final class State: @unchecked Sendable {
            let lock = NSLock()
            var next = 0, done = 0, written = 0
            var failure: Error?
            let sink: TileSink
            let progress: ProgressLine
            init(sink: TileSink, progress: ProgressLine) { self.sink = sink; self.progress = progress }
        }
        let state = State(sink: sink, progress: ProgressLine(total: total, unit: "tiles"))
        let lock = state.lock
        let start = DispatchTime.now().uptimeNanoseconds
        let group = DispatchGroup()
        for _ in 0 ..< workerCount {
            group.enter()
            let thread = Thread { [options, jobs, template] in
                defer { group.leave() }
                let snapshotter: MapSnapshotter
                do { snapshotter = try options.makeSnapshotter(command: "tiles") } catch {
                    lock.withLock { state.failure = state.failure ?? error }
                    return
                }
                snapshotter.renderer.partialRedraw = false
                while true {
                    let job: Job? = lock.withLock {
                        guard state.failure == nil, state.next < jobs.count else { return nil }
                        defer { state.next += 1 }
                        return jobs[state.next]
                    }
                    guard let job else { return }
                    do {
                        let px = Double(tilePixels)
                        let worldTiles = Double(1 << job.z)
                        let centre = MapPoint(x: (Double(job.x0) + Double(job.cols) / 2) / worldTiles,
                                              y: (Double(job.y0) + Double(job.rows) / 2) / worldTiles)
                        var snap = template
                        snap.camera = Camera(center: centre.latLng, zoom: Double(job.z) + log2(px / 512),
                                             size: ScreenSize(width: px * Double(job.cols), height: px * Double(job.rows)),
                                             pixelRatio: scale)
                        let image = try snapshotter.render(snap)
                        let side = Int((px * scale).rounded())
                        var encoded: [(TileID, [UInt8])] = []
                        for row in 0 ..< job.rows {
                            for col in 0 ..< job.cols {
                                let id = try TileID(z: job.z, x: job.x0 + col, y: job.y0 + row)
                                guard job.wanted.contains(id) else { continue }
                                let tile = try image.cropped(x: col * side, y: row * side, width: side, height: side)
                                if overlayOnly, tile.isFullyTransparent { continue }
                                encoded.append((id, try tile.pngData(options: Self.tilePNG)))
                            }
                        }
                        try lock.withLock {
                            for (id, data) in encoded { try state.sink.add(id, data) }
                            state.written += encoded.count
                            state.done += job.wanted.count
                            state.progress.update(done: state.done)
                        }
                    } catch {
                        lock.withLock { state.failure = state.failure ?? error }
                        return
                    }
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        state.progress.clear()
        let written = state.written
        if let failure = state.failure { sink.abort(); throw failure }
        // The layers are shared by the workers and keep their warnings until taken: all at once here.
        do { try options.reportTileWarnings(template.tileLayers, command: "tiles") } catch { sink.abort(); throw error }
        let centre = LatLng(lat: (s + n) / 2, lon: (w + e) / 2)
        let attribution = template.tileLayers.compactMap(\.attribution).joined(separator: " · ")
        try sink.finish(PyramidInfo(bounds: area, minZoom: z0, maxZoom: z1, center: centre, overlay: overlayOnly,
                                    attribution: attribution.isEmpty ? (template.basemapStyle != nil ? "Natural Earth" : nil) : attribution,
                                    tilePixels: tilePixels, scale: scale))
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        FileHandle.standardError.write(Data(String(format: "tiles: %d tiles (%d written) in %.2f s (%.1f tiles/s) with %d workers\n",
                                                   total, written, seconds, Double(total) / max(seconds, 1e-9), workerCount).utf8))
    }
}

/// What a pyramid's metadata says.
struct PyramidInfo {
    let bounds: GeoBounds
    let minZoom: Int, maxZoom: Int
    let center: LatLng
    let overlay: Bool
    let attribution: String?
    let tilePixels: Int
    let scale: Double
}

protocol TileSink: AnyObject {
    func add(_ id: TileID, _ data: [UInt8]) throws
    func finish(_ info: PyramidInfo) throws
    func abort()
}

final class MBTilesSink: TileSink {
    let writer: MBTilesWriter
    init(path: String) throws { writer = try MBTilesWriter(path: path) }
    func add(_ id: TileID, _ data: [UInt8]) throws { try writer.add(id, data: data) }
    func finish(_ info: PyramidInfo) throws {
        let b = info.bounds
        let meta: [(String, String)] = [
            ("name", "Mapwright"), ("format", "png"), ("type", info.overlay ? "overlay" : "baselayer"), ("version", "1.3"),
            ("description", "Rendered by mapwright tiles"),
            ("bounds", "\(b.west),\(b.south),\(b.east),\(b.north)"),
            ("center", "\(info.center.lon),\(info.center.lat),\(info.minZoom)"),
            ("minzoom", "\(info.minZoom)"), ("maxzoom", "\(info.maxZoom)"),
        ] + (info.attribution.map { [("attribution", $0)] } ?? [])
        for (k, v) in meta { try writer.setMetadata(k, v) }
        try writer.finish()
    }
    func abort() {}
}

final class PMTilesSink: TileSink {
    let writer: PMTilesWriter
    init(path: String) throws { writer = try PMTilesWriter(path: path) }
    func add(_ id: TileID, _ data: [UInt8]) throws { try writer.add(id, data: data) }
    func finish(_ info: PyramidInfo) throws {
        var h = PMTiles.Header()
        h.tileType = .png
        h.minZoom = info.minZoom; h.maxZoom = info.maxZoom
        h.minLon = info.bounds.west; h.minLat = info.bounds.south; h.maxLon = info.bounds.east; h.maxLat = info.bounds.north
        h.centerZoom = info.minZoom; h.centerLon = info.center.lon; h.centerLat = info.center.lat
        var meta: [String: Any] = ["name": "Mapwright", "type": info.overlay ? "overlay" : "baselayer", "format": "png",
                                   "description": "Rendered by mapwright tiles"]
        if let a = info.attribution { meta["attribution"] = a }
        try writer.finish(header: h, metadata: meta)
    }
    func abort() {}
}

/// A `z/x/y.png` directory. Interrupted (SIGINT, SIGTERM, SIGHUP) or failing part-way, it removes
/// the tiles this run wrote and the directories it made, as `animate` does with its frames: a
/// run leaves a whole pyramid or none of its own tiles.
final class DirectorySink: TileSink, @unchecked Sendable {
    let root: String
    private let lock = NSLock()
    /// Tiles written, and directories made (root first), by this run.
    private var written: [TileID] = []
    private var made: [String]
    private var stopped = false
    private var handler: Int?

    /// `madeRoot`: whether this run created `root` (then it goes too).
    init(root: String, madeRoot: Bool) {
        self.root = root
        made = madeRoot ? [root] : []
        handler = InterruptCleanup.addHandler { [self] in self.removeWritten() }
    }

    func add(_ id: TileID, _ data: [UInt8]) throws {
        try lock.withLock {
            guard !stopped else { throw CLIError("mapwright tiles: stopped") }
            for dir in ["\(root)/\(id.z)", "\(root)/\(id.z)/\(id.x)"] {
                if mkdir(dir, 0o755) == 0 { made.append(dir) } else if errno != EEXIST {
                    throw CLIError("mapwright tiles: cannot create '\(dir)': \(String(cString: strerror(errno)))")
                }
            }
            written.append(id)  // before the file exists: an interruption then removes it
            try AtomicFile.write(data, to: "\(root)/\(id.z)/\(id.x)/\(id.y).png")
        }
    }

    /// Stops the sink and removes what it wrote: tiles, then the directories it made, deepest
    /// first (only when empty: another program's files stay).
    private func removeWritten() {
        lock.withLock {
            stopped = true
            for id in written { unlink("\(root)/\(id.z)/\(id.x)/\(id.y).png") }
            for dir in made.reversed() { rmdir(dir) }
            written = []; made = []
        }
    }

    func finish(_ info: PyramidInfo) throws {
        defer { handler.map(InterruptCleanup.removeHandler) }
        let b = info.bounds
        var meta: [String: Any] = ["name": "Mapwright", "format": "png", "minzoom": info.minZoom, "maxzoom": info.maxZoom,
                                   "bounds": [b.west, b.south, b.east, b.north], "scheme": "xyz",
                                   "tiles": ["{z}/{x}/{y}.png"], "tilejson": "3.0.0"]
        if let a = info.attribution { meta["attribution"] = a }
        let data = try JSONSerialization.data(withJSONObject: meta, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        do { try AtomicFile.write([UInt8](data), to: "\(root)/metadata.json") } catch {
            removeWritten()
            throw error
        }
    }
    func abort() {
        removeWritten()
        handler.map(InterruptCleanup.removeHandler)
    }
}

struct TilesInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print what an MBTiles or PMTiles archive (or z/x/y directory) holds: format, zooms, bounds, tile counts."
    )

    @Argument(help: ArgumentHelp("The archive.", valueName: "FILE"))
    var file: String

    @Option(name: .customLong("tile"), help: ArgumentHelp(
        "Print one vector tile's layers instead: features by geometry, and each property with a few of its values.",
        valueName: "Z/X/Y"))
    var tile: String?

    func run() throws {
        do {
            let source = try TileSources.open(file)
            if let tile {
                print(try Self.describeVectorTile(source, tile))
                return
            }
            let info = source.info
            var lines = ["file: \(file)"]
            var counts: [Int: Int] = [:]
            switch source {
            case let pm as PMTilesSource:
                let h = pm.header
                lines.append("kind: PMTiles v3 (\(h.clustered ? "clustered" : "not clustered"), internal compression \(h.internalCompression), tile compression \(h.tileCompression))")
                for e in try pm.allEntries() {
                    for k in 0 ..< UInt64(e.runLength) {
                        if let t = PMTiles.tile(e.tileID + k) { counts[t.z, default: 0] += 1 }
                    }
                }
                lines.append("tiles: \(h.addressedTiles) addressed, \(h.tileEntries) entries, \(h.tileContents) distinct contents")
            case let mb as MBTilesSource:
                lines.append("kind: MBTiles\(mb.metadata["version"].map { " \($0)" } ?? "")")
                counts = try mb.tileCounts()
                if let t = mb.metadata["type"] { lines.append("type: \(t)") }
            case let d as DirectoryTileSource:
                lines.append("kind: directory of z/x/y tiles")
                for z in info.minZoom ... info.maxZoom {
                    let xs = (try? FileManager.default.contentsOfDirectory(atPath: "\(d.path)/\(z)")) ?? []
                    counts[z] = xs.reduce(0) { $0 + ((try? FileManager.default.contentsOfDirectory(atPath: "\(d.path)/\(z)/\($1)"))?.count ?? 0) }
                }
            default:
                lines.append("kind: \(type(of: source))")
            }
            lines.append("format: \(info.format ?? "unknown")")
            lines.append("zooms: \(info.minZoom)-\(info.maxZoom)")
            if let b = info.bounds {
                lines.append(String(format: "bounds: %.6f,%.6f,%.6f,%.6f (S,W,N,E)", b.south, b.west, b.north, b.east))
            }
            if let a = info.attribution { lines.append("attribution: \(a)") }
            let total = counts.values.reduce(0, +)
            lines.append("tile count: \(total)")
            for z in counts.keys.sorted() { lines.append("  z\(z): \(counts[z]!)") }
            print(lines.joined(separator: "\n"))
        } catch {
            throw CLIError("mapwright tiles inspect: \(error)")
        }
    }

    /// One vector tile's layers: extent, feature counts by geometry, and each property's values
    /// (the most frequent first, at most eight), for writing a style against an archive.
    static func describeVectorTile(_ source: any TileSource, _ spec: String) throws -> String {
        let parts = spec.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2], let id = try? TileID(z: z, x: x, y: y) else {
            throw CLIError("--tile \(spec): expected Z/X/Y with 0 ≤ X, Y < 2^Z (e.g. 14/8710/5958)")
        }
        guard let bytes = try blockingAwait({ try await source.tileData(id) }) else {
            return "tile \(id): not in \(source.info.name)"
        }
        let tile = try VectorTile(data: bytes)
        var lines = ["tile \(id): \(bytes.count) bytes, \(tile.layers.count) layers"]
        for layer in tile.layers {
            var kinds: [String: Int] = [:]
            var values: [String: [String: Int]] = [:]
            for f in layer.features {
                let kind = switch f.geometry { case .points: "points"; case .lines: "lines"; case .polygons: "polygons" }
                kinds[kind, default: 0] += 1
                for (k, v) in f.properties { values[k, default: [:]][v.description, default: 0] += 1 }
            }
            let counts = kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            lines.append("layer \(layer.name) (extent \(layer.extent)): \(layer.features.count) features\(counts.isEmpty ? "" : " (\(counts))")")
            for key in values.keys.sorted() {
                let top = values[key]!.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                let shown = top.prefix(8).map { "\($0.key.count > 40 ? String($0.key.prefix(39)) + "…" : $0.key) ×\($0.value)" }
                lines.append("  \(key): \(shown.joined(separator: ", "))\(top.count > 8 ? ", … (\(top.count) values)" : "")")
            }
        }
        return lines.joined(separator: "\n")
    }
}
