import Foundation
import Hummingbird
import Logging
import MapFormats
import MapImage
import NIOCore
import NIOHTTP1
import ServiceLifecycle

extension MapServer {
    /// Every endpoint, with the metrics middleware in front.
    public func router() -> Router<BasicRequestContext> {
        // HEAD answers what GET would, without the body (uptime checks, caches, `curl -I`).
        let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
        if config.cors != "none" {
            // Browsers may use the tiles, TileJSON and images from pages on other origins. Outside
            // the metrics middleware, so refusals (made into JSON there) carry the headers too.
            router.add(middleware: CORSHeadersMiddleware(allowOrigin: config.cors))
        }
        router.add(middleware: RequestMetricsMiddleware(logger: logger, maxURLLength: config.limits.maxURLLength))
        let limits = config.limits

        // Google's own path too, so a client that builds Google URLs needs only the host changed.
        for path in ["/static", "/maps/api/staticmap"] {
            router.get(RouterPath(path)) { request, _ in
                let query = try QueryString.parse(Self.rawQuery(request))
                return try await self.renderStatic(try GoogleStatic.parse(query: query, limits: limits), request: request)
            }
        }
        router.post("/static") { request, context in
            if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limits.maxBodyBytes {
                throw APIError(.contentTooLarge, "the body is over \(limits.maxBodyBytes) bytes", parameter: "body")
            }
            let body: ByteBuffer
            do { body = try await request.body.collect(upTo: limits.maxBodyBytes) } catch {
                throw APIError(.contentTooLarge, "the body is over \(limits.maxBodyBytes) bytes", parameter: "body")
            }
            let query = try QueryString.parse(Self.rawQuery(request))
            let doc: SceneDocument
            do { doc = try SceneDocument.decode(Data(buffer: body), file: "body") } catch {
                throw APIError.bad("body", "\(error)")
            }
            return try await self.renderStatic(StaticRequest(scene: doc, format: try ImageFormat.requested(in: query)), request: request)
        }
        router.get("/styles/v1/**") { request, _ in
            let path = Substring(request.uri.path)
            guard let r = path.range(of: "/styles/v1/") else { throw APIError(.notFound, "no such endpoint", parameter: "path") }
            let query = try QueryString.parse(Self.rawQuery(request))
            return try await self.renderStatic(try MapboxStatic.parse(path: path[r.upperBound...], query: query, limits: limits), request: request)
        }
        router.get("/tiles/:z/:x/:y") { request, context in
            try await self.tile(z: context.parameters.get("z") ?? "", x: context.parameters.get("x") ?? "", y: context.parameters.get("y") ?? "", request: request)
        }
        router.get("/tiles.json") { request, _ in self.tileJSON(request) }
        router.get("/data/:name/:z/:x/:y") { _, context in
            try await self.dataTile(name: context.parameters.get("name") ?? "", z: context.parameters.get("z") ?? "",
                                    x: context.parameters.get("x") ?? "", y: context.parameters.get("y") ?? "")
        }
        router.get("/healthz") { _, _ in
            let o = "{\"status\":\"ok\",\"workers\":\(self.pool.workers),\"queue\":\(self.pool.depth)}\n"
            return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: o)))
        }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: Observability.registry.emitToBuffer())))
        }
        router.get("/") { request, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: SlippyPage.html(leaflet: self.leaflet != nil))))
        }
        router.get("/leaflet/:file") { _, context in
            guard let leaflet = self.leaflet else { throw APIError(.notFound, "Leaflet is not installed (Debian libjs-leaflet)", parameter: "file") }
            switch context.parameters.get("file") {
            case "leaflet.js": return Response(status: .ok, headers: [.contentType: "application/javascript", .cacheControl: "public, max-age=86400"],
                                               body: ResponseBody(byteBuffer: ByteBuffer(bytes: leaflet.js)))
            case "leaflet.css": return Response(status: .ok, headers: [.contentType: "text/css", .cacheControl: "public, max-age=86400"],
                                                body: ResponseBody(byteBuffer: ByteBuffer(bytes: leaflet.css)))
            default: throw APIError(.notFound, "only leaflet.js and leaflet.css", parameter: "file")
            }
        }
        return router
    }

    /// The query as sent, still percent-encoded.
    static func rawQuery(_ request: Request) -> Substring {
        let s = request.uri.string
        guard let q = s.firstIndex(of: "?") else { return "" }
        return s[s.index(after: q)...]
    }

    /// Serves until SIGTERM or SIGINT, then lets requests in flight finish and stops the renderers.
    /// `onListening` gets the bound port (useful with port 0).
    public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        // Socket errors before the server listens are about the address (ListenError).
        final class Flag: @unchecked Sendable {
            private let lock = NSLock()
            private var value = false
            func set() { lock.withLock { value = true } }
            var isSet: Bool { lock.withLock { value } }
        }
        let listening = Flag()
        let app = Application(
            router: router(),
            server: .http1(configuration: .init(additionalChannelHandlers: [ConnectionCloser()], idleTimeout: .seconds(30))),
            configuration: .init(address: .hostname(config.host, port: config.port), serverName: "Mapwright", backlog: 512),
            onServerRunning: { channel in
                listening.set()
                onListening(channel.localAddress?.port ?? 0)
            },
            logger: logger
        )
        do {
            try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } catch let io as IOError where !listening.isSet {
            shutdown()
            throw ListenError(host: config.host, port: config.port, errno: io.errnoCode)
        }
        shutdown()
    }
}

/// The server could not listen: the address and port, the system's reason and what to do
/// (NIO's own error names the system call: `bind(descriptor:ptr:bytes:): … (errno: 98)`).
public struct ListenError: Error, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let errno: Int32

    public var description: String {
        let hint = switch errno {
        case EADDRINUSE: ": another program listens there (--port 0 picks a free port)"
        case EADDRNOTAVAIL: ": that address is not one of this machine's (0.0.0.0 listens on all of them)"
        case EACCES: ": ports below 1024 need privileges"
        default: ""
        }
        return "cannot listen on \(host):\(port): \(String(cString: strerror(errno)))\(hint)"
    }
}

/// `GET /`: a page with a slippy map of `/tiles`.
enum SlippyPage {
    static func html(leaflet: Bool) -> String {
        let head = """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>Mapwright</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>html,body,#map{margin:0;height:100%;background:#dde6ee}</style>
        """
        if leaflet {
            return head + """
            <link rel="stylesheet" href="/leaflet/leaflet.css">
            <script src="/leaflet/leaflet.js"></script>
            </head><body><div id="map"></div>
            <script>
            var map = L.map('map', {worldCopyJump: true}).setView([20, 0], 2);
            L.tileLayer('/tiles/{z}/{x}/{y}{r}.png', {maxZoom: 18, tileSize: 256,
              attribution: 'Mapwright · Natural Earth'}).addTo(map);
            </script></body></html>
            """
        }
        // Without Leaflet: a small tile viewer of our own (drag to pan, wheel to zoom).
        return head + """
        </head><body><div id="map" style="position:relative;overflow:hidden"></div>
        <script>
        var el = document.getElementById('map'), z = 2, cx = 512, cy = 400;
        function draw() {
          el.innerHTML = '';
          var w = el.clientWidth, h = el.clientHeight, n = 1 << z;
          var x0 = Math.floor((cx - w / 2) / 256), y0 = Math.floor((cy - h / 2) / 256);
          for (var x = x0; x * 256 < cx + w / 2; x++) for (var y = y0; y * 256 < cy + h / 2; y++) {
            if (y < 0 || y >= n) continue;
            var img = document.createElement('img');
            img.src = '/tiles/' + z + '/' + (((x % n) + n) % n) + '/' + y + '.png';
            img.style.cssText = 'position:absolute;width:256px;height:256px;left:' + (x * 256 - cx + w / 2) + 'px;top:' + (y * 256 - cy + h / 2) + 'px';
            el.appendChild(img);
          }
        }
        var drag = null;
        el.onmousedown = function (e) { drag = [e.clientX, e.clientY]; };
        window.onmouseup = function () { drag = null; };
        window.onmousemove = function (e) { if (!drag) return; cx -= e.clientX - drag[0]; cy -= e.clientY - drag[1]; drag = [e.clientX, e.clientY]; draw(); };
        el.onwheel = function (e) { e.preventDefault(); var d = e.deltaY < 0 ? 1 : -1; if (z + d < 0 || z + d > 18) return;
          z += d; cx = d > 0 ? cx * 2 : cx / 2; cy = d > 0 ? cy * 2 : cy / 2; draw(); };
        window.onresize = draw; draw();
        </script></body></html>
        """
    }
}

/// Closes a connection fully shortly after the server has finished with it: after a request that
/// could not be parsed (over-long request line or headers, broken HTTP) was answered 400, and after
/// the last response of a connection was written and its output half-closed. Without this the server
/// half-closes such a connection and waits for the client's end of it, which a client that is still
/// sending (a body that was refused, a request line that never ends) never gives: each one kept a
/// socket and its buffers alive for good.
final class ConnectionCloser: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer  // not unwrapped: every part is passed on as it is
    typealias OutboundIn = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
    }

    private func closeSoon(_ context: ChannelHandlerContext) {
        let channel = context.channel
        context.eventLoop.scheduleTask(in: .milliseconds(500)) { channel.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if error is HTTPParserError { closeSoon(context) }
        context.fireErrorCaught(error)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .output { closeSoon(context) }
        context.close(mode: mode, promise: promise)
    }
}
