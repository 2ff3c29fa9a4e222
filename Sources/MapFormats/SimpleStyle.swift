import GeoKit

/// GeoJSON features as scene overlays, styled by the simplestyle-spec 1.1.0 properties that
/// geojson.io, GitHub's GeoJSON viewer and Mapbox's static `geojson(…)` overlay read.
///
/// - Lines (LineStrings and each line of a MultiLineString) become routes: `stroke`,
///   `stroke-opacity`, `stroke-width` (pixels).
/// - Polygons and MultiPolygons become polygons (holes kept): `fill`, `fill-opacity`, and the
///   outline's `stroke`, `stroke-opacity`, `stroke-width`.
/// - Points and MultiPoints become pins: `marker-color`, `marker-size` (`small`, `medium`, `large`:
///   `markerSizes`), `marker-symbol` (a letter or a number 0…99 drawn in the pin's head, or a
///   Maki icon name: `Maki`; anything else is an error); the `title`
///   property (else `name`) is the pin's label beside it.
///
/// A feature without a property takes the overlay's own value (`color`, `width`, `fill`,
/// `stroke`, `strokeWidth`, `style`), else the spec's default: stroke `#555555` at opacity 1 and
/// width 2, fill `#555555` at opacity 0.6, markers `#7e7e7e`. Colours are `#rgb` or `#rrggbb`
/// (the `#` may be left out); opacities 0…1; widths 0…100 pixels. The overlay's other line
/// settings (`join`, `cap`, `dash`, `casing`, `geodesic`, `widthUnit`) and `z` apply to every
/// feature.
public enum SimpleStyle {
    /// The spec's defaults.
    public static let defaultStroke = "555555", defaultStrokeWidth = 2.0, defaultFillOpacity = 0.6
    public static let defaultMarker = "7e7e7e"
    /// The marker sizes `marker-size` names, as factors of the normal pin (`Marker.scale`):
    /// about the proportions of Mapbox's small, medium and large pins (`pin-s`, `pin-l`).
    public static let markerSizes: [String: Double] = ["small": 0.7, "medium": 1, "large": 1.25]

    /// The overlays that draw the GeoJSON `data`'s features (read with `options`, whose format
    /// is set to GeoJSON). Throws the reader's `FormatError` or a `SimpleStyleError`.
    public static func overlays(of data: JSONValue, base: SceneDocument.OverlaySpec,
                                options: TrackReadOptions = TrackReadOptions()) throws -> [SceneDocument.OverlaySpec] {
        do { return try overlays(ofGeoJSON: Array(GeoJSONWriter.string(data).utf8), base: base, options: options) } catch var e as FormatError {
            // Lines and columns of the text written here would mean nothing to the user: the JSON path says where.
            e.line = nil
            e.column = nil
            throw e
        }
    }

    /// The overlays that draw the features of the GeoJSON text `bytes`, as `overlays(of:base:options:)`.
    public static func overlays(ofGeoJSON bytes: [UInt8], base: SceneDocument.OverlaySpec,
                                options: TrackReadOptions = TrackReadOptions()) throws -> [SceneDocument.OverlaySpec] {
        var options = options
        options.format = .geojson
        return try overlays(of: TrackReader.read(bytes, options: options), base: base)
    }

    /// The overlays that draw `track`'s features, styled by their properties over `base`'s values.
    public static func overlays(of track: Track, base: SceneDocument.OverlaySpec) throws(SimpleStyleError) -> [SceneDocument.OverlaySpec] {
        // (`Track.polygons` is worked out from the parts on every call.)
        let polygons = track.polygons
        var out: [SceneDocument.OverlaySpec] = []
        // (A spec is large: growing the array by doubling moved each one about twice.)
        out.reserveCapacity(polygons.count + track.parts.count + track.waypoints.count)
        func plain(_ type: String) -> SceneDocument.OverlaySpec {
            var s = SceneDocument.OverlaySpec(type: type)
            s.z = base.z
            return s
        }
        for polygon in polygons {
            let p = Properties(values: polygon.properties, feature: polygon.feature)
            var s = plain("polygon")
            s.rings = polygon.rings.map { $0.map { [$0.lat, $0.lon] } }
            s.fill = try p.colour("fill", opacity: "fill-opacity", base: base.fill,
                                  default: (defaultStroke, defaultFillOpacity))
            s.stroke = try p.colour("stroke", opacity: "stroke-opacity", base: base.stroke, default: (defaultStroke, nil))
            s.strokeWidth = try p.width(base: base.strokeWidth, allowZero: true)
            out.append(s)
        }
        for part in track.parts where part.kind != .ring && part.points.count >= 2 {
            let p = Properties(values: part.properties, feature: part.feature)
            var s = plain("route")
            s.coordinates = part.points.map { [$0.coordinate.lat, $0.coordinate.lon] }
            s.color = try p.colour("stroke", opacity: "stroke-opacity", base: base.color, default: (defaultStroke, nil))
            s.width = try p.width(base: base.width, allowZero: false)
            s.widthUnit = base.widthUnit
            s.join = base.join
            s.cap = base.cap
            s.dash = base.dash
            s.casing = base.casing
            s.geodesic = base.geodesic
            out.append(s)
        }
        for w in track.waypoints {
            let p = Properties(values: w.properties, feature: w.feature)
            var s = plain("marker")
            s.position = [w.coordinate.lat, w.coordinate.lon]
            s.style = base.style ?? "pin"
            s.color = try p.colour("marker-color", opacity: nil, base: base.color, default: (defaultMarker, nil))
            s.size = try p.markerSize(base: base.size)
            if let (glyph, symbol) = try p.markerSymbol() {
                s.glyph = glyph; s.symbol = symbol
            } else {
                s.glyph = base.glyph; s.symbol = base.symbol
            }
            s.label = (w.properties["title"]?.stringValue ?? w.name).map { String($0.prefix(80)) }
            out.append(s)
        }
        return out
    }

    /// One feature's properties, read as simplestyle says.
    struct Properties {
        let values: [String: JSONValue]
        let feature: Int

        func error(_ key: String, _ why: String) -> SimpleStyleError { SimpleStyleError(feature: feature, property: key, reason: why) }

        /// `#rrggbb` or `#rrggbbaa` from the property `key` (and `opacity`), else from `base`
        /// (a colour as the scene format writes it, taken as it is), else `fallback`.
        func colour(_ key: String, opacity: String?, base: String?, default fallback: (String, Double?)) throws(SimpleStyleError) -> String {
            var alpha: Double?
            if let opacity, let v = values[opacity], v != .null {
                guard let o = v.numberValue, (0 ... 1).contains(o) else { throw error(opacity, "\(describe(v)) is not a number in 0…1") }
                alpha = o
            }
            let hex: String
            if let v = values[key], v != .null {
                guard let text = v.stringValue, let h = SimpleStyle.hex(text) else {
                    throw error(key, "\(describe(v)) is not a colour (#rgb or #rrggbb)")
                }
                hex = h
                // The spec's defaults hold property by property: a fill without an opacity is
                // at 0.6.
                alpha = alpha ?? fallback.1
            } else if let base {
                // The overlay's colour as it is, or its hex digits under the feature's opacity.
                guard alpha != nil, let h = SimpleStyle.hex(base) else { return base }
                hex = h
            } else {
                hex = fallback.0
                alpha = alpha ?? fallback.1
            }
            guard let alpha else { return "#" + hex }
            let byte = Int((alpha * 255).rounded())
            return "#" + hex + String(byte, radix: 16).leftPadded(to: 2)
        }

        /// `marker-symbol`: a letter or a number up to 99 as the pin's glyph, a Maki icon name as
        /// its symbol; nil when the property is missing, null or empty.
        func markerSymbol() throws(SimpleStyleError) -> (glyph: String?, symbol: String?)? {
            guard let v = values["marker-symbol"], v != .null else { return nil }
            if let n = v.numberValue {
                guard n == n.rounded(), n >= 0, n <= 99 else { throw error("marker-symbol", "\(describe(v)) is not a number 0…99, a letter or a Maki icon name") }
                return (String(Int(n)), nil)
            }
            guard let text = v.stringValue else { throw error("marker-symbol", "\(describe(v)) is not a letter, a number or a Maki icon name") }
            if text.isEmpty { return nil }
            if text.count == 1, let c = text.first, c.isASCII, c.isLetter || c.isNumber { return (text.uppercased(), nil) }
            if let n = Int(text), (0 ... 99).contains(n), text.count <= 2 { return (text, nil) }
            guard Maki.contains(text) else { throw error("marker-symbol", Maki.unknownReason(text)) }
            return (nil, text)
        }

        /// `marker-size` as a factor of the normal pin, else `base`'s (nil: the normal size).
        func markerSize(base: Double?) throws(SimpleStyleError) -> Double? {
            guard let v = values["marker-size"], v != .null else { return base }
            guard let name = v.stringValue, let k = SimpleStyle.markerSizes[name] else {
                throw error("marker-size", "\(describe(v)) is not small, medium or large")
            }
            return k
        }

        /// `stroke-width` in pixels, else `base`, else 2.
        func width(base: Double?, allowZero: Bool) throws(SimpleStyleError) -> Double {
            guard let v = values["stroke-width"], v != .null else { return base ?? SimpleStyle.defaultStrokeWidth }
            guard let w = v.numberValue, allowZero ? w >= 0 : w > 0, w <= 100 else {
                throw error("stroke-width", "\(describe(v)) is not a number in \(allowZero ? "0" : "(0")…100\(allowZero ? "" : "]") (pixels)")
            }
            return w
        }

        func describe(_ v: JSONValue) -> String {
            switch v {
            case .string(let s): return "'\(s.prefix(40))'"
            case .number(let x): return "\(x)"
            case .bool(let b): return "\(b)"
            case .null: return "null"
            case .array: return "an array"
            case .object: return "an object"
            }
        }
    }

    /// Six lower-case hex digits from `#rgb`, `#rrggbb`, `rgb` or `rrggbb`; nil for anything else.
    static func hex(_ text: String) -> String? {
        if let ascii = asciiHex(text) { return ascii }
        var s = Substring(text.lowercased()).drop { $0.isWhitespace }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.count == 3 || s.count == 6, s.allSatisfy(\.isHexDigit) else { return nil }
        return s.count == 3 ? s.map { "\($0)\($0)" }.joined() : String(s)
    }
}

extension SimpleStyle {
    /// `hex` for the common case, from `HexDigits.ascii`: ASCII whitespace round `#rgb`,
    /// `#rrggbb`, `rgb` or `rrggbb`. Nil for anything else, which the general path reads (it
    /// trims any whitespace and takes any hex digit `Character` holds).
    static func asciiHex(_ text: String) -> String? {
        guard let digits = HexDigits.ascii(text), digits.count == 3 || digits.count == 6 else { return nil }
        var text: [UInt8] = []
        text.reserveCapacity(6)
        for d in digits {
            let c = d < 10 ? 0x30 + d : 0x61 + d - 10
            text.append(c)
            if digits.count == 3 { text.append(c) }
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A simplestyle property that cannot be drawn: which feature (0-based, in file order), which
/// property and why.
public struct SimpleStyleError: Error, Sendable, Equatable, CustomStringConvertible {
    public let feature: Int
    public let property: String
    public let reason: String
    public var description: String { "feature \(feature): property '\(property)': \(reason)" }
}

extension String {
    fileprivate func leftPadded(to n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
