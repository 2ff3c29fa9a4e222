import Foundation
import GeoKit
import MapFormats
import MapImage

/// `GET /static?…` in the Google Static Maps grammar (plus `bearing`, `pitch`, `circle`, `theme`).
///
/// Google's zoom counts 256-px tiles, ours 512-px ones, so ours is one less. Parameters Google
/// clients send that have no meaning here (`key`, `signature`, `maptype`, `language`, `region`,
/// `sensor`, `map_id`, `client`, `channel`) and empty items are ignored; of `style`, only the
/// rule that hides the map's labels (`element:labels|visibility:off`, for every feature or the
/// places') is drawn: the embedded basemap has no roads or POIs to style.
public enum GoogleStatic {
    static let ignored: Set<String> = ["key", "signature", "maptype", "region", "sensor", "map_id",
                                       "client", "channel", "mapid", "callback"]

    /// Whether a `style` value hides the place names: `visibility:off` for the element `labels`
    /// (or `labels.text`) of every feature, or of the administrative ones.
    static func hidesPlaceLabels(_ style: String) -> Bool {
        var feature = "all", element = "", off = false
        for part in style.split(separator: "|") {
            let kv = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard kv.count == 2 else { continue }
            switch kv[0] {
            case "feature": feature = kv[1]
            case "element": element = kv[1]
            case "visibility": off = kv[1] == "off"
            default: continue
            }
        }
        return off && ["labels", "labels.text"].contains(element)
            && (feature == "all" || feature.hasPrefix("administrative"))
    }

    public static func parse(query: [(key: String, value: String)], limits: RequestLimits) throws(APIError) -> StaticRequest {
        var doc = SceneDocument()
        var overlays: [SceneDocument.OverlaySpec] = []
        var center: [Double]?
        var zoom: Double?
        var size: (Double, Double)?
        var scale = 1.0
        var format = ImageFormat.png
        var camera = SceneDocument.CameraSpec()
        var visible: [[Double]] = []
        var pathPoints = 0
        func room(_ p: String) throws(APIError) {
            guard overlays.count + visible.count <= limits.maxOverlays else {
                throw APIError.bad(p, "more than \(limits.maxOverlays) markers, paths, circles and visible points")
            }
        }

        for (key, value) in query {
            let v = value.trimmingCharacters(in: .whitespaces)
            switch key {
            case "center":
                center = try URLNumber.latLng(Substring(v), "center")
            case "zoom":
                let z = try URLNumber.double(Substring(v), "zoom", what: "zoom")
                guard z >= 0, z <= Double(limits.maxZoom) + 1 else {
                    throw APIError.bad("zoom", "\(v) is not in 0…\(limits.maxZoom + 1)")
                }
                zoom = z - 1
            case "size":
                let p = v.lowercased().split(separator: "x", omittingEmptySubsequences: false)
                guard p.count == 2, let w = Int(p[0]), let h = Int(p[1]) else {
                    throw APIError.bad("size", "'\(v.prefix(30))' is not WIDTHxHEIGHT")
                }
                guard (1 ... limits.maxSide).contains(w), (1 ... limits.maxSide).contains(h) else {
                    throw APIError.bad("size", "\(w)x\(h) is not within 1…\(limits.maxSide) px a side")
                }
                size = (Double(w), Double(h))
            case "scale":
                guard let s = Int(v), [1, 2, 4].contains(s) else { throw APIError.bad("scale", "'\(v.prefix(20))' is not 1, 2 or 4") }
                scale = Double(s)
            case "format":
                // png8 is a palette PNG, as Google's; png stays the full-colour PNG (png32) here,
                // since quantising costs several times the encoding; jpg-baseline is our JPEG.
                let aliases = ["png32": "png", "jpg-baseline": "jpg"]
                let name = v.lowercased()
                guard let f = ImageFormat.named(aliases[name] ?? name) else {
                    throw APIError.bad("format", "'\(v.prefix(20))' is not png, png8, png32, gif, jpg, jpg-baseline or webp")
                }
                format = f
            case "markers":
                overlays += try markers(v, limits: limits)
                try room("markers")
            case "path":
                if v.isEmpty { continue }
                let (spec, n) = try path(v)
                pathPoints += n
                guard pathPoints <= limits.maxPathPoints else {
                    throw APIError.bad("path", "more than \(limits.maxPathPoints) path points in all")
                }
                overlays.append(spec)
                try room("path")
            case "visible":
                for item in v.split(separator: "|") where !item.trimmingCharacters(in: .whitespaces).isEmpty {
                    visible.append(try URLNumber.latLng(item, "visible"))
                    try room("visible")
                }
            case "bearing", "heading":
                camera.bearing = try URLNumber.double(Substring(v), key, what: "degrees")
            case "pitch", "tilt":
                let p = try URLNumber.double(Substring(v), key, what: "degrees")
                guard p >= 0, p <= 85 else { throw APIError.bad(key, "\(v) is not in 0…85") }
                camera.pitch = p
            case "circle":
                overlays.append(try circle(v))
                try room("circle")
            case "theme":
                guard v == "light" || v == "dark" else { throw APIError.bad("theme", "'\(v.prefix(20))' is not light or dark") }
                doc.style = v
            case "padding":
                let p = try URLNumber.double(Substring(v), "padding", what: "pixels")
                guard p >= 0, p <= 500 else { throw APIError.bad("padding", "\(v) is not in 0…500") }
                camera.padding = p
            case "attribution":
                doc.attribution = !(v == "false" || v == "0")
            case "style":
                if hidesPlaceLabels(v) { doc.placeLabels = false }
            case "language":
                // Place names of vector tiles in this language where they have it (the loader
                // checks the code).
                doc.language = v
            default:
                if ignored.contains(key) { continue }
                throw APIError.bad(key, "unknown parameter (known: center, zoom, size, scale, format, markers, path, visible, bearing, pitch, circle, theme, padding, language)")
            }
        }
        guard let size else { throw APIError.bad("size", "missing (size=WIDTHxHEIGHT is required)") }
        guard size.0 * scale <= Double(limits.maxPixelSide), size.1 * scale <= Double(limits.maxPixelSide) else {
            throw APIError.bad("scale", "\(Int(size.0))x\(Int(size.1)) at scale \(Int(scale)) is over \(limits.maxPixelSide) px a side")
        }
        switch (center, zoom) {
        case let (c?, z?):
            camera.center = c
            camera.zoom = max(0, z)
        case (nil, nil):
            guard !overlays.isEmpty || !visible.isEmpty else {
                throw APIError.bad("center", "give center and zoom, or markers, path or visible to fit")
            }
        case let (c?, nil):
            // Google: a centre without zoom fits the overlays around it; with nothing else, zoom 0.
            if overlays.isEmpty && visible.isEmpty { camera.center = c; camera.zoom = 0 } else { visible.append(c) }
        case (nil, _?):
            guard !overlays.isEmpty || !visible.isEmpty else { throw APIError.bad("center", "missing (zoom alone needs a center)") }
        }
        if !visible.isEmpty { camera.visible = visible }
        if camera.center == nil, camera.padding == nil { camera.padding = 12 }
        doc.size = [size.0, size.1]
        doc.scale = scale
        doc.camera = camera
        doc.overlays = overlays
        return StaticRequest(scene: doc, format: format)
    }

    /// A style item `key:value` (a location `lat,lon` has no colon before its comma), lower-cased key.
    static func styleItem(_ t: String) -> (key: String, value: String)? {
        guard let colon = t.firstIndex(of: ":"), !t[t.startIndex ..< colon].contains(",") else { return nil }
        return (t[..<colon].lowercased(), String(t[t.index(after: colon)...]))
    }

    /// A path or circle outline weight, 0…100 px.
    static func weight(_ val: String, _ parameter: String) throws(APIError) -> Double {
        let w = try URLNumber.double(Substring(val), parameter, what: "weight")
        guard w >= 0, w <= 100 else { throw APIError.bad(parameter, "weight \(val) is not in 0…100") }
        return w
    }

    /// `markers=size:mid|color:0xFF0000|label:A|lat,lon|lat,lon`: style items, then locations.
    static func markers(_ v: String, limits: RequestLimits) throws(APIError) -> [SceneDocument.OverlaySpec] {
        var color = "#d1242f"
        var style = "pin"
        var size: Double?
        var label: String?
        var out: [SceneDocument.OverlaySpec] = []
        for item in v.split(separator: "|", omittingEmptySubsequences: true) {
            let t = item.trimmingCharacters(in: .whitespaces)
            if t.isEmpty { continue }
            if let (k, val) = styleItem(t) {
                switch k {
                case "color": color = try URLColor.google(val, "markers")
                case "size":
                    switch val {
                    // Google's sizes, from the smallest: tiny and small dots, a mid pin about
                    // three quarters of the normal one (as theirs).
                    case "tiny": (style, size) = ("dot", 0.7)
                    case "small": (style, size) = ("dot", nil)
                    case "mid": (style, size) = ("pin", 0.75)
                    case "normal": (style, size) = ("pin", nil)
                    default: throw APIError.bad("markers", "size '\(val.prefix(20))' is not tiny, mid, small or normal")
                    }
                case "label":
                    guard val.count == 1, let c = val.first, c.isASCII, c.isLetter || c.isNumber else {
                        throw APIError.bad("markers", "label '\(val.prefix(20))' is not one letter or digit")
                    }
                    label = val.uppercased()
                case "icon": throw APIError.bad("markers", "custom icons are not fetched by this server")
                case "scale", "anchor": continue
                default: throw APIError.bad("markers", "unknown marker style '\(k.prefix(20))'")
                }
                continue
            }
            var m = SceneDocument.OverlaySpec(type: "marker")
            m.position = try URLNumber.latLng(Substring(t), "markers")
            m.color = color
            m.style = style
            m.size = size
            // As Google's: only the pins (normal and mid) show the character, in their heads.
            if style == "pin" { m.glyph = label }
            out.append(m)
            guard out.count <= limits.maxOverlays else { throw APIError.bad("markers", "more than \(limits.maxOverlays) markers") }
        }
        return out
    }

    /// `path=weight:5|color:0x0000ff80|fillcolor:…|geodesic:true|lat,lon|…` or `…|enc:POLYLINE`.
    /// `enc:` takes the rest of the value, `|` included.
    static func path(_ v: String) throws(APIError) -> (SceneDocument.OverlaySpec, Int) {
        var weight = 5.0
        var color = "#0000ffb3"
        var fill: String?
        var geodesic = false
        var points: [[Double]] = []
        var rest = Substring(v)
        while !rest.isEmpty {
            let item: Substring
            if rest.hasPrefix("enc:") {
                item = rest
                rest = ""
            } else if let bar = rest.firstIndex(of: "|") {
                item = rest[..<bar]
                rest = rest[rest.index(after: bar)...]
            } else {
                item = rest
                rest = ""
            }
            let t = item.trimmingCharacters(in: .whitespaces)
            if t.isEmpty { continue }
            if t.hasPrefix("enc:") {
                let decoded: [LatLng]
                do { decoded = try PolylineCodec.decode(String(t.dropFirst(4)), precision: 5) } catch {
                    throw APIError.bad("path", "the encoded polyline is broken: \(error)")
                }
                points += decoded.map { [$0.lat, $0.lon] }
                continue
            }
            if let (k, val) = styleItem(t) {
                switch k {
                case "weight": weight = try Self.weight(val, "path")
                case "color": color = try URLColor.google(val, "path")
                case "fillcolor": fill = try URLColor.google(val, "path")
                case "geodesic": geodesic = val == "true"
                default: throw APIError.bad("path", "unknown path style '\(k.prefix(20))'")
                }
                continue
            }
            points.append(try URLNumber.latLng(Substring(t), "path"))
        }
        guard points.count >= 2 else { throw APIError.bad("path", "a path needs at least two points") }
        var s: SceneDocument.OverlaySpec
        if let fill {
            guard points.count >= 3 else { throw APIError.bad("path", "a filled path needs at least three points") }
            s = SceneDocument.OverlaySpec(type: "polygon")
            s.rings = [points]
            s.fill = fill
            if weight > 0 { s.stroke = color; s.strokeWidth = weight }
        } else {
            s = SceneDocument.OverlaySpec(type: "route")
            s.coordinates = points
            s.color = color
            s.width = max(weight, 0.01)
            s.geodesic = geodesic
        }
        return (s, points.count)
    }

    /// `circle=lat,lon,radius` (`m`, `km` or `px`; metres when bare), optionally `|color:…|fillcolor:…|weight:…`.
    static func circle(_ v: String) throws(APIError) -> SceneDocument.OverlaySpec {
        let items = v.split(separator: "|")
        guard let first = items.first else { throw APIError.bad("circle", "expected lat,lon,radius") }
        let p = first.split(separator: ",")
        guard p.count == 3 else { throw APIError.bad("circle", "'\(first.prefix(60))' is not lat,lon,radius") }
        var s = SceneDocument.OverlaySpec(type: "circle")
        s.position = try URLNumber.latLng(first[p[0].startIndex ..< p[1].endIndex], "circle")
        var r = p[2].trimmingCharacters(in: .whitespaces).lowercased()
        var unit = "m"
        for u in ["km", "px", "m"] where r.hasSuffix(u) { unit = u; r.removeLast(u.count); break }
        let radius = try URLNumber.double(Substring(r), "circle", what: "radius")
        guard radius > 0, radius <= (unit == "px" ? 4096 : unit == "km" ? 20_000 : 20_000_000) else {
            throw APIError.bad("circle", "radius \(p[2]) is out of range")
        }
        s.radius = radius
        s.radiusUnit = unit
        s.fill = "#1f6feb33"
        s.stroke = "#1f6feb"
        s.strokeWidth = 2
        for item in items.dropFirst() {
            let t = item.trimmingCharacters(in: .whitespaces)
            guard let (k, val) = styleItem(t) else { throw APIError.bad("circle", "'\(t.prefix(30))' is not key:value") }
            switch k {
            case "color": s.stroke = try URLColor.google(val, "circle")
            case "fillcolor": s.fill = try URLColor.google(val, "circle")
            case "weight": s.strokeWidth = try weight(val, "circle")
            default: throw APIError.bad("circle", "unknown circle style '\(k.prefix(20))'")
            }
        }
        return s
    }
}
