import Foundation
import Hummingbird
import MapFormats

/// A request the server will not answer with an image: a status (400, 404, 413, 503, …) and a
/// JSON body `{"error": why, "parameter": which}` that says what was wrong and where.
public struct APIError: HTTPResponseError, CustomStringConvertible, Sendable {
    public var status: HTTPResponse.Status
    /// Why, in a sentence.
    public var message: String
    /// The parameter (or path part, or JSON location) at fault, when there is one.
    public var parameter: String?
    /// Seconds a client should wait before trying again (503).
    public var retryAfter: Int?

    public init(_ status: HTTPResponse.Status = .badRequest, _ message: String, parameter: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.parameter = parameter
        self.retryAfter = retryAfter
    }

    public static func bad(_ parameter: String?, _ message: String) -> APIError {
        APIError(.badRequest, message, parameter: parameter)
    }

    public var description: String { parameter.map { "\($0): \(message)" } ?? message }

    /// The JSON body.
    public var body: [UInt8] {
        var o: [String: String] = ["error": message]
        if let parameter { o["parameter"] = parameter }
        let data = (try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{\"error\":\"?\"}".utf8)
        return [UInt8](data) + [10]
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if let retryAfter { headers[.retryAfter] = "\(retryAfter)" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// The limits on what one request may ask for (README "Limits" lists them).
public struct RequestLimits: Sendable, Codable, Equatable {
    /// The longest URL (path and query), bytes.
    public var maxURLLength = 16_384
    /// The largest POST body, bytes.
    public var maxBodyBytes = 1 << 20
    /// The widest or tallest static image, logical pixels.
    public var maxSide = 2048
    /// The most output pixels a side (side × scale).
    public var maxPixelSide = 4096
    /// The most markers (each location counts), paths and circles together in one request.
    public var maxOverlays = 1000
    /// The most path vertices in one request, all paths together.
    public var maxPathPoints = 50_000
    /// The deepest zoom of a tile or a static view.
    public var maxZoom = 22

    public init() {}

    public init(from decoder: Decoder) throws {
        try JSONKeys.refuseUnknown(in: decoder, CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = RequestLimits()
        maxURLLength = try c.decodeIfPresent(Int.self, forKey: .maxURLLength) ?? d.maxURLLength
        maxBodyBytes = try c.decodeIfPresent(Int.self, forKey: .maxBodyBytes) ?? d.maxBodyBytes
        maxSide = try c.decodeIfPresent(Int.self, forKey: .maxSide) ?? d.maxSide
        maxPixelSide = try c.decodeIfPresent(Int.self, forKey: .maxPixelSide) ?? d.maxPixelSide
        maxOverlays = try c.decodeIfPresent(Int.self, forKey: .maxOverlays) ?? d.maxOverlays
        maxPathPoints = try c.decodeIfPresent(Int.self, forKey: .maxPathPoints) ?? d.maxPathPoints
        maxZoom = try c.decodeIfPresent(Int.self, forKey: .maxZoom) ?? d.maxZoom
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case maxURLLength, maxBodyBytes, maxSide, maxPixelSide, maxOverlays, maxPathPoints, maxZoom }
}
