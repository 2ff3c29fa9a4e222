import ArgumentParser
import Foundation
import Logging
import MapFormats
import MapServer

/// `mapwright serve`: the map server (static maps, tiles, archives) on Hummingbird.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve static maps (Google and Mapbox URL grammars, posted scenes), tiles and tile archives over HTTP.",
        discussion: """
        Endpoints: GET /static?… (Google Static Maps grammar), GET /styles/v1/{user}/{style}/static/… (Mapbox \
        Static Images grammar), POST /static (a scene JSON body), GET /tiles/{z}/{x}/{y}[@2x].png, GET /tiles.json, \
        GET /data/{name}/{z}/{x}/{y}.{ext}, GET / (a slippy map), GET /healthz, GET /metrics (Prometheus).
        Stops on SIGTERM or SIGINT after the requests in flight are answered.
        """
    )

    @Option(help: "The address to listen on.")
    var host: String?
    @Option(help: "The port (0: any free port; the one bound is printed).")
    var port: Int?
    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("A raster basemap under everything rendered: MBTiles, PMTiles, a z/x/y directory or an XYZ URL template (repeatable).", valueName: "SOURCE"))
    var tiles: [String] = []
    @Option(help: ArgumentHelp("Serve an archive's own tiles under /data/NAME/{z}/{x}/{y}.{ext} (repeatable).", valueName: "NAME=ARCHIVE"))
    var data: [String] = []
    @Option(help: ArgumentHelp("A scene file whose overlays are drawn on /tiles (repeatable).", valueName: "FILE"))
    var scene: [String] = []
    @Option(help: "Renderer threads, each with its own GL context (default: one per core).")
    var workers: Int?
    @Option(help: "Requests that may wait for a renderer before the server answers 503 (default: 8 per worker, at least 16).")
    var queue: Int?
    @Option(help: "Seconds a request may take, waiting and rendering (default 10).")
    var deadline: Double?
    @Flag(name: .customLong("no-cache"), help: "Turn every cache off: no rendered-image cache, Cache-Control: no-store (for benchmarks).")
    var noCache = false
    @Option(name: .customLong("cache-mb"), help: "The rendered-image cache in megabytes (default 256; 0 turns it off).")
    var cacheMB: Int?
    @Option(help: "The style of the embedded basemap and of vector tiles: light (default) or dark.")
    var style: String?
    @Option(name: .customLong("tile-cache"), help: ArgumentHelp("A disk cache for HTTP tile sources.", valueName: "DIR"))
    var tileCache: String?
    @Option(name: .customLong("tile-cache-mb"), help: "The most megabytes each tile source keeps in --tile-cache (default 1024; 0: no limit).")
    var tileCacheMB: Int?
    @Flag(help: "Read HTTP tile sources from their disk cache only.")
    var offline = false
    @Option(name: .customLong("log-format"), help: "text (default) or json (one JSON object per line on stderr).")
    var logFormat: String?
    @Option(name: .customLong("log-level"), help: "trace, debug, info (default), notice, warning, error or critical.")
    var logLevel: String?
    @Option(help: ArgumentHelp("Access-Control-Allow-Origin for browsers on other origins: * (default), one origin, or none.", valueName: "ORIGIN"))
    var cors: String?
    @Option(help: ArgumentHelp("A JSON configuration file with the same keys as the flags (flags win).", valueName: "FILE"))
    var config: String?

    func run() throws {
        var c = ServerConfig()
        if let config {
            let d: Data
            do { d = Data(try InputFile.read(config, limit: 16 << 20)) } catch {
                throw CLIError("mapwright serve: cannot read --config '\(InputFile.displayName(config))': \(error.reason)")
            }
            do { c = try JSONDecoder().decode(ServerConfig.self, from: d) } catch {
                throw CLIError("mapwright serve: --config '\(config)': \((error as? DecodingError).map(SceneDocument.describe) ?? "\(error)")")
            }
        }
        if let host { c.host = host }
        if let port { c.port = port }
        if !tiles.isEmpty { c.tiles = tiles }
        for item in data {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex, item.index(after: eq) != item.endIndex else {
                throw CLIError("mapwright serve: --data '\(item)': expected NAME=ARCHIVE")
            }
            c.data[String(item[..<eq])] = String(item[item.index(after: eq)...])
        }
        if !scene.isEmpty { c.scenes = scene }
        if let workers { c.workers = workers }
        if let queue { c.queue = queue }
        if let deadline { c.deadline = deadline }
        if noCache { c.cache = false }
        if let cacheMB { c.cacheMegabytes = cacheMB }
        if let style { c.style = style }
        if let tileCache { c.tileCache = tileCache }
        if let tileCacheMB { c.tileCacheMegabytes = tileCacheMB }
        if offline { c.offline = true }
        if let logFormat { c.logFormat = logFormat }
        if let logLevel { c.logLevel = logLevel }
        if let cors { c.cors = cors }
        guard let level = Logger.Level(rawValue: c.logLevel) else {
            throw CLIError("mapwright serve: --log-level '\(c.logLevel)': expected trace, debug, info, notice, warning, error or critical")
        }
        do { try c.validate() } catch { throw CLIError("mapwright serve: \(error)") }
        Observability.bootstrapLogging(format: c.logFormat, level: level)
        let logger = Logger(label: "mapwright.serve")
        let server: MapServer
        do { server = try MapServer(config: c, logger: logger) } catch { throw CLIError("mapwright serve: \(error)") }
        let host = c.host
        let workers = server.pool.workers
        let device = server.pool.deviceDescription
        final class Outcome: @unchecked Sendable { var error: Error? }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await server.run { port in
                    print("mapwright serve: listening on http://\(host):\(port) (\(workers) renderers, \(device))")
                    fflush(nil)
                    logger.info("listening", metadata: ["host": "\(host)", "port": "\(port)", "workers": "\(workers)"])
                }
            } catch {
                outcome.error = error
            }
            done.signal()
        }
        done.wait()
        if let e = outcome.error { throw CLIError("mapwright serve: \(e)") }
        logger.info("stopped")
    }
}
