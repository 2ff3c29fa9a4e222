import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus

/// Metrics and logs: swift-metrics bootstrapped once per process with a Prometheus registry,
/// and a swift-log handler that writes one JSON object per line.
public enum Observability {
    /// The registry `/metrics` exports.
    public static let registry = PrometheusCollectorRegistry()

    private static let once: Void = {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [.milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                                                   .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
                                                   .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10)]
        MetricsSystem.bootstrap(factory)
    }()

    /// Points swift-metrics at the Prometheus registry (once; later calls do nothing).
    public static func bootstrapMetrics() { _ = once }

    /// Sets swift-log up for the process: `text` (swift-log's stream handler) or `json` lines, on stderr.
    public static func bootstrapLogging(format: String, level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var h: any LogHandler = format == "json" ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            h.logLevel = level
            return h
        }
    }
}

/// One JSON object per line on stderr: `{"time":…,"level":…,"label":…,"message":…,…metadata}`.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String
    private static let lock = NSLock()

    public init(label: String) { self.label = label }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let level = event.level, message = event.message, metadata = event.metadata
        var o: [String: Any] = [
            "time": Date().ISO8601Format(), "level": "\(level)", "label": label, "message": "\(message)",
        ]
        for (k, v) in self.metadata.merging(metadata ?? [:], uniquingKeysWith: { $1 }) { o[k] = "\(v)" }
        guard var data = try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        data.append(10)
        Self.lock.withLock { FileHandle.standardError.write(data) }
    }
}

/// Counts and times every request by route and status; turns unexpected errors into a JSON 500
/// (logged), and refuses over-long URLs with 414.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger
    let maxURLLength: Int

    static func route(_ path: String) -> String {
        if path == "/" { return "index" }
        let first = path.dropFirst().prefix { $0 != "/" }
        switch first {
        case "static", "styles", "tiles", "data", "healthz", "metrics", "leaflet": return String(first)
        case "tiles.json": return "tilejson"
        default: return "other"
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let route = Self.route(request.uri.path)
        func record(_ status: Int) {
            Counter(label: "mapwright_requests_total", dimensions: [("route", route), ("status", "\(status)")]).increment()
            Timer(label: "mapwright_request_duration_seconds", dimensions: [("route", route)])
                .recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start))
        }
        do {
            guard request.uri.string.utf8.count <= maxURLLength else {
                throw APIError(.uriTooLong, "the URL is longer than \(maxURLLength) bytes", parameter: "url")
            }
            let response = try await next(request, context)
            record(response.status.code)
            return response
        } catch let e as APIError {
            record(e.status.code)
            throw e
        } catch let e as HTTPResponseError {
            record(e.status.code)
            if e.status.code == 404 { throw APIError(.notFound, "no such endpoint", parameter: "path") }
            if e.status.code == 413 { throw APIError(.contentTooLarge, "the body is too large", parameter: "body") }
            throw e
        } catch {
            record(500)
            logger.error("request failed", metadata: ["path": "\(request.uri.path.prefix(200))", "error": "\(error)"])
            throw APIError(.internalServerError, "the server could not render this request")
        }
    }
}
