import HTTPTypes
import Hummingbird

/// Cross-origin access for browsers (the Fetch standard's CORS protocol): every answer to a
/// request with an `Origin` carries `Access-Control-Allow-Origin` and
/// `Access-Control-Expose-Headers` (on the answer itself, where the standard reads it, so a page
/// can read the `ETag` and `X-Mapwright-Missing-Tiles`), and a preflight (`OPTIONS` with
/// `Access-Control-Request-Method`) is answered 204 with the methods and headers allowed.
struct CORSHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// `*` or one origin.
    let allowOrigin: String

    static var exposed: String { "ETag, X-Mapwright-Missing-Tiles" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[.origin] != nil else { return try await next(request, context) }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            var headers = HTTPFields()
            add(to: &headers)
            headers[.accessControlAllowMethods] = "GET, HEAD, POST, OPTIONS"
            headers[.accessControlAllowHeaders] = "accept, content-type, if-none-match"
            headers[.accessControlMaxAge] = "86400"
            return Response(status: .noContent, headers: headers)
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError {
            // Refusals too, so that a page can read why.
            response = try error.response(from: request, context: context)
        }
        add(to: &response.headers)
        return response
    }

    private func add(to headers: inout HTTPFields) {
        headers[.accessControlAllowOrigin] = allowOrigin
        headers[.accessControlExposeHeaders] = Self.exposed
        // A single allowed origin varies the answer by Origin for shared caches.
        if allowOrigin != "*" { headers[values: .vary].append("Origin") }
    }
}
