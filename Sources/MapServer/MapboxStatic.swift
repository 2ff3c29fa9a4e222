import Foundation
import GeoKit
import MapFormats
import MapImage

/// `GET /styles/v1/{user}/{style}/static/{overlays}/{camera}/{w}x{h}[@2x]` in the Mapbox Static
/// Images grammar. The camera is `lon,lat,zoom[,bearing[,pitch]]`, `auto` (fit the overlays with
/// `padding`, default 24 px) or `[west,south,east,north]`. Mapbox's zoom counts 512-px tiles, as ours.
public enum MapboxStatic {
    static let ignored: Set<String> = ["access_token", "logo", "before_layer", "addlayer", "setfilter", "layer_id"]

    /// `rest` is the raw (still percent-encoded) path after `/styles/v1/`.
    public static func parse(path rest: Substring, query: [(key: String, value: String)], limits: RequestLimits) throws(APIError) -> StaticRequest {
        let raw = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard raw.count == 5 || raw.count == 6, raw[2] == "static" else {
            throw APIError(.notFound, "expected /styles/v1/{user}/{style}/static/[{overlays}/]{camera}/{width}x{height}[@2x]", parameter: "path")
        }
        var parts: [String] = []
        for (i, r) in raw.enumerated() { parts.append(try QueryString.decode(r, what: i == 3 && raw.count == 6 ? "overlays" : "path", plus: false)) }
        var doc = SceneDocument()
        if parts[1].lowercased().contains("dark") { doc.style = "dark" }
        let overlayText = raw.count == 6 ? parts[3] : nil
        let cameraText = parts[parts.count - 2]
        var sizeText = Substring(parts[parts.count - 1])
        var scale = 1.0
        if sizeText.hasSuffix("@2x") { scale = 2; sizeText = sizeText.dropLast(3) }
        let wh = sizeText.split(separator: "x", omittingEmptySubsequences: false)
        guard wh.count == 2, let w = Int(wh[0]), let h = Int(wh[1]) else {
            throw APIError.bad("size", "'\(sizeText.prefix(30))' is not {width}x{height}")
        }
        guard (1 ... limits.maxSide).contains(w), (1 ... limits.maxSide).contains(h) else {
            throw APIError.bad("size", "\(w)x\(h) is not within 1…\(limits.maxSide) px a side")
        }
        doc.size = [Double(w), Double(h)]
        doc.scale = scale
        var overlays: [SceneDocument.OverlaySpec] = []
        var pathPoints = 0
        if let overlayText, overlayText != "none" {
            for item in try splitTopLevel(overlayText) where !item.isEmpty {
                overlays += try overlay(item, points: &pathPoints, limits: limits)
                guard overlays.count <= limits.maxOverlays else {
                    throw APIError.bad("overlays", "more than \(limits.maxOverlays) overlays")
                }
            }
        }
        var camera = SceneDocument.CameraSpec()
        var padding = 24.0
        for (key, value) in query {
            switch key {
            case "padding":
                let vals = value.split(separator: ",")
                guard (1 ... 4).contains(vals.count) else { throw APIError.bad("padding", "expected 1 to 4 numbers") }
                var m = 0.0
                for v in vals {
                    let p = try URLNumber.double(v, "padding", what: "pixels")
                    guard p >= 0, p <= 500 else { throw APIError.bad("padding", "\(v) is not in 0…500") }
                    m = max(m, p)
                }
                padding = m
            case "attribution": doc.attribution = !(value == "false" || value == "0")
            case "format": break  // not Mapbox's; ours, for JPEG or WebP output (read below)
            default:
                if ignored.contains(key) { continue }
                throw APIError.bad(key, "unknown parameter (known: padding, attribution, format)")
            }
        }
        if cameraText == "auto" {
            guard !overlays.isEmpty else { throw APIError.bad("camera", "auto needs overlays to fit") }
            camera.padding = padding
        } else if cameraText.hasPrefix("["), cameraText.hasSuffix("]") {
            let v = cameraText.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
            guard v.count == 4 else { throw APIError.bad("camera", "a bounding box is [west,south,east,north]") }
            var n: [Double] = []
            for x in v { n.append(try URLNumber.double(x, "camera", what: "bounding box")) }
            guard abs(n[1]) <= 90, abs(n[3]) <= 90, n[1] < n[3], n[0] < n[2], abs(n[0]) <= 540, abs(n[2]) <= 540 else {
                throw APIError.bad("camera", "[\(cameraText.dropFirst().dropLast())] is not a west,south,east,north box")
            }
            camera.visible = [[max(n[1], -85.05), n[0]], [min(n[3], 85.05), n[2]]]
            camera.padding = query.contains { $0.key == "padding" } ? padding : 0
        } else {
            let v = cameraText.split(separator: ",", omittingEmptySubsequences: false)
            guard (3 ... 5).contains(v.count) else {
                throw APIError.bad("camera", "'\(cameraText.prefix(60))' is not lon,lat,zoom[,bearing[,pitch]], auto or [w,s,e,n]")
            }
            camera.center = try URLNumber.latLng(v[0] + "," + v[1], "camera", lonFirst: true)
            let z = try URLNumber.double(v[2], "camera", what: "zoom")
            guard z >= 0, z <= Double(limits.maxZoom) else { throw APIError.bad("camera", "zoom \(z) is not in 0…\(limits.maxZoom)") }
            camera.zoom = z
            if v.count > 3 { camera.bearing = try URLNumber.double(v[3], "camera", what: "bearing") }
            if v.count > 4 {
                let p = try URLNumber.double(v[4], "camera", what: "pitch")
                guard p >= 0, p <= 85 else { throw APIError.bad("camera", "pitch \(p) is not in 0…85") }
                camera.pitch = p
            }
        }
        doc.camera = camera
        doc.overlays = overlays
        return StaticRequest(scene: doc, format: try ImageFormat.requested(in: query))
    }

    /// Splits `a(…),b(…)` at the commas outside parentheses (and outside JSON strings in `geojson(…)`).
    static func splitTopLevel(_ s: String) throws(APIError) -> [Substring] {
        var out: [Substring] = []
        var depth = 0
        var inString = false, escaped = false
        var start = s.startIndex
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else if c == "\"" && depth > 0 {
                inString = true
            } else if c == "(" {
                depth += 1
            } else if c == ")" {
                depth -= 1
                guard depth >= 0 else { throw APIError.bad("overlays", "an unmatched ')'") }
            } else if c == "," && depth == 0 {
                out.append(s[start ..< i])
                start = s.index(after: i)
            }
            i = s.index(after: i)
        }
        guard depth == 0, !inString else { throw APIError.bad("overlays", "an unclosed '(' or string") }
        out.append(s[start...])
        return out
    }

    static func overlay(_ item: Substring, points: inout Int, limits: RequestLimits) throws(APIError) -> [SceneDocument.OverlaySpec] {
        guard let open = item.firstIndex(of: "("), item.last == ")" else {
            throw APIError.bad("overlays", "'\(item.prefix(40))' is not name(arguments)")
        }
        let head = item[..<open]
        let arg = item[item.index(after: open) ..< item.index(before: item.endIndex)]
        if head.hasPrefix("pin-") {
            // pin-s|pin-l[-label][+color](lon,lat)
            var name = head.dropFirst(4)
            var color = "#7e7e7e"
            if let plus = name.firstIndex(of: "+") {
                color = try URLColor.mapbox(name[name.index(after: plus)...], opacity: nil, "overlays")
                name = name[..<plus]
            }
            let bits = name.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let size = bits.first, size == "s" || size == "l" else {
                throw APIError.bad("overlays", "'\(head.prefix(30))': a pin is pin-s or pin-l")
            }
            var m = SceneDocument.OverlaySpec(type: "marker")
            m.style = "pin"
            m.color = color
            m.size = SimpleStyle.markerSizes[size == "s" ? "small" : "large"]
            if bits.count == 2 {
                let label = bits[1]
                guard !label.isEmpty, label.count <= 30, label.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                    throw APIError.bad("overlays", "pin label '\(label.prefix(30))' is not a letter, number or icon name")
                }
                // A letter or a number up to 99 is drawn in the pin's head, and so is a Maki icon.
                if label.count <= 2 {
                    m.glyph = label.uppercased()
                } else {
                    guard Maki.contains(String(label)) else { throw APIError.bad("overlays", "pin label: " + Maki.unknownReason(String(label))) }
                    m.symbol = String(label)
                }
            }
            m.position = try URLNumber.latLng(arg, "overlays", lonFirst: true)
            return [m]
        }
        if head.hasPrefix("path-") {
            // path-{width}[+{stroke}[-{opacity}]][+{fill}[-{opacity}]](polyline)
            let fields = head.dropFirst(5).split(separator: "+", omittingEmptySubsequences: false)
            let width = try URLNumber.double(fields[0], "overlays", what: "path width")
            guard width >= 0, width <= 100 else { throw APIError.bad("overlays", "path width \(width) is not in 0…100") }
            func colour(_ f: Substring) throws(APIError) -> String {
                let p = f.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                let o = p.count == 2 ? try URLNumber.double(p[1], "overlays", what: "opacity") : nil
                return try URLColor.mapbox(p[0], opacity: o, "overlays")
            }
            guard fields.count <= 3 else { throw APIError.bad("overlays", "'\(head.prefix(40))': too many + fields") }
            let stroke = fields.count > 1 ? try colour(fields[1]) : "#555555"
            let fill = fields.count > 2 ? try colour(fields[2]) : nil
            let decoded: [LatLng]
            do { decoded = try PolylineCodec.decode(arg, precision: 5) } catch {
                throw APIError.bad("overlays", "the path's encoded polyline is broken: \(error)")
            }
            points += decoded.count
            guard points <= limits.maxPathPoints else { throw APIError.bad("overlays", "more than \(limits.maxPathPoints) path points in all") }
            guard decoded.count >= 2 else { throw APIError.bad("overlays", "a path needs at least two points") }
            let coords = decoded.map { [min(max($0.lat, -85.05), 85.05), $0.lon] }
            if let fill {
                var s = SceneDocument.OverlaySpec(type: "polygon")
                s.rings = [coords]
                s.fill = fill
                if width > 0 { s.stroke = stroke; s.strokeWidth = width }
                return [s]
            }
            var s = SceneDocument.OverlaySpec(type: "route")
            s.coordinates = coords
            s.color = stroke
            s.width = max(width, 0.01)
            return [s]
        }
        if head == "geojson" {
            return try geojson(arg, points: &points, limits: limits)
        }
        if head.hasPrefix("url-") {
            throw APIError.bad("overlays", "custom marker URLs are not fetched by this server")
        }
        throw APIError.bad("overlays", "unknown overlay '\(head.prefix(30))' (expected pin-s, pin-l, path- or geojson)")
    }

    /// `geojson(…)`: Points become pins, LineStrings routes, Polygons polygons, styled by the
    /// simplestyle properties (`SimpleStyle`: `marker-color`, `stroke`, `stroke-width`,
    /// `stroke-opacity`, `fill`, `fill-opacity`; pins labelled by `title`).
    static func geojson(_ text: Substring, points: inout Int, limits: RequestLimits) throws(APIError) -> [SceneDocument.OverlaySpec] {
        guard text.utf8.count <= limits.maxURLLength else { throw APIError.bad("overlays", "the GeoJSON is too long") }
        let specs: [SceneDocument.OverlaySpec]
        do {
            specs = try SimpleStyle.overlays(ofGeoJSON: Array(text.utf8), base: SceneDocument.OverlaySpec(type: "geojson"),
                                             options: TrackReadOptions(maxPoints: max(1, limits.maxPathPoints - points)))
        } catch {
            throw APIError.bad("overlays", "geojson: \(error)")
        }
        guard specs.count <= limits.maxOverlays else { throw APIError.bad("overlays", "more than \(limits.maxOverlays) overlays") }
        points += specs.reduce(0) { $0 + $1.pathPoints + ($1.position == nil ? 0 : 1) }
        guard points <= limits.maxPathPoints else { throw APIError.bad("overlays", "more than \(limits.maxPathPoints) points in all") }
        return specs
    }
}
