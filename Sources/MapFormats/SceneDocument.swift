import Foundation
import GeoKit

/// A scene file (`mapwright render --scene FILE.json`): camera, basemap, extras and overlays,
/// as plain data. Positions are `[lat, lon]` arrays in degrees (the human-facing order; only
/// GeoJSON files say `[lon, lat]`). Colours are `RRGGBB` or `RRGGBBAA` strings, `#` optional.
/// The JSON Schema is `Documentation/scene.schema.json`.
public struct SceneDocument: Codable, Sendable, Equatable {
    /// Format version; 1.
    public var version: Int?
    /// Output size `[width, height]` in logical pixels.
    public var size: [Double]?
    /// Output pixels per logical pixel, 1–4.
    public var scale: Double?
    /// The camera; when absent (or without `center`/`zoom`) the camera fits all overlays.
    public var camera: CameraSpec?
    /// `embedded` (default) or `none`.
    public var basemap: String?
    /// `light` (default) or `dark`.
    public var style: String?
    /// Draw the attribution text (default true).
    public var attribution: Bool?
    /// Draw a scale bar (default false).
    public var scaleBar: Bool?
    /// Draw a compass rose (default false).
    public var compass: Bool?
    /// Draw the embedded basemap's place names and their dots (default true).
    public var placeLabels: Bool?
    /// Colours of vector tiles over the built-in style (`style`, or `base`).
    public var vectorStyle: VectorStyleSpec?

    /// Colour overrides of the vector tile style, by drawing kind, in the scene's colour forms (`#RRGGBB[AA]`, `red`…).
    public struct VectorStyleSpec: Codable, Sendable, Equatable {
        /// The built-in style to start from, `light` or `dark` (default: the scene's `style`).
        public var base: String?
        /// The ground under everything (each tile's square).
        public var background: String?
        /// Road casings.
        public var casing: String?
        /// By kind: earth, farmland, institutional, green, wood, sand, ice, otherArea, water,
        /// building, stream, river, regionBorder, path, otherLine, minorRoad, mediumRoad,
        /// majorRoad, motorway, rail, countryBorder.
        public var colors: [String: String]?
        /// Points of interest (icons and names), water names and area names by category: food,
        /// culture, lodging, health, transport, shopping, education, worship, services, park, water.
        public var poiColors: [String: String]?
        /// The names of places, streets and rivers (river names keep `poiColors.water`).
        public var labelText: String?
        /// The halo round every name.
        public var labelHalo: String?

        public init() {}
    }

    /// The language of vector tiles' place names (`en` draws `name:en` where a place has it),
    /// for every vector tile layer; default each layer's `language`, else the local names.
    public var language: String?
    /// Draw every marker label on its marker's right, even over other labels and markers
    /// (default false: a label that would overlap one placed before it, or another marker, goes
    /// on the marker's left, or is left out where that side is taken too).
    public var labelOverlap: Bool?
    /// Seconds a marker label takes to fade in or out when the placement shows or hides it in
    /// an animation or the window (default 0.3, MapLibre's `fadeDuration`; 0 shows and hides
    /// labels at once; 0…10). Stills show the placement as it is.
    public var labelFade: Double?
    /// The overlays, drawn in the default order (polygons, circles, routes, markers, labels)
    /// unless an overlay gives `z`.
    public var overlays: [OverlaySpec]?
    /// Animation length in seconds (`mapwright animate`; default: a replay's length at its
    /// speed, else 3.2 s = four pulses).
    public var duration: Double?
    /// Frames per second of an animation (default 30).
    public var fps: Double?
    /// An APNG plays forever (default true).
    public var loop: Bool?
    /// Raster tile layers under the overlays, lowest first (with tiles and no `basemap`, the
    /// embedded basemap is left out).
    public var tiles: [TilesSpec]?
    /// A disk cache for tiles fetched over HTTP.
    public var tileCache: String?
    /// The most megabytes each tile source keeps in `tileCache` (default 1024; 0: no limit).
    public var tileCacheMegabytes: Int?
    /// Read HTTP tiles from the cache only.
    public var offline: Bool?
    /// Seconds a render waits for the view's tiles (default 30).
    public var tilesTimeout: Double?
    /// Draw tracks' waypoints (GPX `wpt`, GeoJSON Points) as markers with their names (default true).
    public var waypoints: Bool?

    /// A tile layer (raster or vector).
    public struct TilesSpec: Codable, Sendable, Equatable {
        /// A URL template (`https://…/{z}/{x}/{y}.png`), an `.mbtiles` or `.pmtiles` file, or a
        /// directory of `{z}/{x}/{y}.{png,jpg,webp}` (relative to the scene file).
        public var source: String
        /// Logical pixels one tile covers (default: the source's, else 256).
        public var tileSize: Int?
        /// 0…1 (default 1).
        public var opacity: Double?
        /// MapLibre's raster paint properties: −1…1 (default 0), and 0…1 (defaults 0 and 1).
        public var saturation: Double?
        public var contrast: Double?
        public var brightnessMin: Double?
        public var brightnessMax: Double?
        /// Attribution text (default: the source's).
        public var attribution: String?
        /// TMS rows (counted from the south) for a URL template or directory.
        public var tms: Bool?
        /// Subdomains for `{s}` (default a, b, c).
        public var subdomains: [String]?
        /// The zoom range of a URL template (default 0…19).
        public var minZoom: Int?
        public var maxZoom: Int?
        /// Vector tiles: the language of place names (`en` reads `name:en`, `name_en`), else
        /// the local `name`.
        public var language: String?

        public init(source: String) { self.source = source }
    }

    /// An empty scene: every field takes its default.
    public init() {}

    /// The camera part of a scene.
    public struct CameraSpec: Codable, Sendable, Equatable {
        /// `[lat, lon]` in degrees.
        public var center: [Double]?
        /// MapLibre zoom (world = 512·2^zoom px).
        public var zoom: Double?
        /// Degrees clockwise from north.
        public var bearing: Double?
        /// Degrees from straight down, 0–85.
        public var pitch: Double?
        /// Padding in logical pixels used when fitting (default 24).
        public var padding: Double?
        /// Extra points `[[lat, lon], …]` a fitted view keeps in sight (nothing is drawn there).
        public var visible: [[Double]]?
        /// Largest zoom a fit may choose.
        public var maxZoom: Double?
        /// Follow the head of the first replay (centre on it, bearing along the travel direction).
        public var follow: Bool?
        /// Seconds of travel over which a following camera takes its direction (default 2).
        public var smoothing: Double?

        /// A camera spec with every field unset.
        public init() {}
    }

    /// Line styling shared by routes, polygon outlines and arcs.
    public struct CasingSpec: Codable, Sendable, Equatable {
        /// Casing colour.
        public var color: String
        /// Casing width in pixels on each side of the line.
        public var width: Double?

        /// A casing of a colour and width.
        public init(color: String, width: Double? = nil) {
            self.color = color
            self.width = width
        }
    }

    /// One overlay. `type` picks which of the other fields apply.
    public struct OverlaySpec: Codable, Sendable, Equatable {
        /// `route`, `polygon`, `circle`, `marker`, `label`, `geojson`, `column`, `arc` or `extrusion`.
        public var type: String
        /// Draw order; higher is drawn later (on top). Default by type.
        public var z: Double?
        // Geometry.
        /// A track or GeoJSON file (route, polygon, extrusion, geojson), relative to the scene file.
        public var file: String?
        /// GeoJSON in the scene itself (geojson): a FeatureCollection, a Feature or a geometry.
        public var data: JSONValue?
        /// Route vertices, `[[lat, lon], …]`.
        public var coordinates: [[Double]]?
        /// Route as a Google encoded polyline (precision 5).
        public var polyline: String?
        /// Polygon rings, `[[[lat, lon], …], …]`: the outer ring, then holes.
        public var rings: [[[Double]]]?
        /// Point position `[lat, lon]` (circle, marker, label, column).
        public var position: [Double]?
        /// Arc start and end, `[lat, lon]` each.
        public var from: [Double]?
        public var to: [Double]?
        // Styles.
        /// Line or marker colour.
        public var color: String?
        /// Line width (route, outline, arc).
        public var width: Double?
        /// `px` (default) or `m` for `width`.
        public var widthUnit: String?
        /// `round` (default), `miter` or `bevel`.
        public var join: String?
        /// `round` (default), `butt` or `square`.
        public var cap: String?
        /// Dash pattern in line widths, `[on, off, …]`.
        public var dash: [Double]?
        /// Outline casing under a route.
        public var casing: CasingSpec?
        /// Route segments follow great circles.
        public var geodesic: Bool?
        /// Fill colour (polygon, circle).
        public var fill: String?
        /// Outline colour (polygon, circle).
        public var stroke: String?
        /// Outline width in pixels.
        public var strokeWidth: Double?
        /// Circle radius; unit from `radiusUnit`.
        public var radius: Double?
        /// `m` (default), `km` or `px`.
        public var radiusUnit: String?
        /// Marker style: `dot` (default) or `pin`.
        public var style: String?
        /// Marker or label text.
        public var label: String?
        /// Marker: one or two characters drawn inside the pin's head or on the dot.
        public var glyph: String?
        /// Marker: a Maki icon name (`Maki.names`) drawn inside the pin's head or on the dot.
        public var symbol: String?
        /// Label text.
        public var text: String?
        /// Label: text size in pixels. Marker: a size factor (`Marker.scale`, 0.1…8; 1 the normal size).
        public var size: Double?
        /// Label halo colour.
        public var halo: String?
        /// Marker icon PNG file, relative to the scene file.
        public var icon: String?
        /// Icon anchor as fractions of its size, `[x, y]` from the top-left (default `[0.5, 0.5]`).
        public var anchor: [Double]?
        /// Height in metres (column, arc apex, extrusion).
        public var height: Double?
        /// Image overlay: where the image goes, `[south, west, north, east]` degrees …
        public var bounds: [Double]?
        /// … or its four corners `[[lat, lon], …]`: top-left, top-right, bottom-right, bottom-left.
        public var corners: [[Double]]?
        /// Image overlay opacity 0…1 (default 1).
        public var rasterOpacity: Double?
        /// Route: draw the track's waypoints (default: the scene's `waypoints`, true).
        public var waypoints: Bool?
        /// Base height in metres (column, extrusion).
        public var base: Double?
        /// Column: number of sides, 3…64 (default 24: a round column; under 12 a lit prism, 4 a box).
        public var sides: Int?
        /// Property names for extrusion height and base.
        public var heightProperty: String?
        public var baseProperty: String?
        /// End colour (arc); `color` is the start. Replay: the head marker's colour.
        public var toColor: String?
        /// geojson: cluster the Points where they crowd (MapLibre's `cluster`), within
        /// `clusterRadius` px (default 50) up to `clusterMaxZoom` (default 16), discs in
        /// `clusterColor` (default `#1f6feb`).
        public var cluster: Bool?
        public var clusterRadius: Double?
        public var clusterMaxZoom: Int?
        public var clusterColor: String?
        // Motion.
        /// Animated style values of this overlay.
        public var animation: AnimationSpec?
        /// Pulse: seconds per pulse (default 0.8).
        public var period: Double?
        /// Pulse: radius multipliers `[from, to]` (default `[0.8, 1.2]`).
        public var scale: [Double]?
        /// Pulse: opacities `[from, to]` (default `[0.5, 0.05]`).
        public var opacity: [Double]?
        /// Replay: track seconds per animation second (by distance: metres per second).
        public var speed: Double?
        /// Replay: the head marker, `arrow` (default), `dot` or `none`.
        public var head: String?
        /// Replay: draw only the last `tail` metres behind the head, fading out.
        public var tail: Double?
        /// Replay: move at constant speed by distance instead of by the track's times.
        public var byDistance: Bool?

        /// An overlay of a type with every other field unset.
        public init(type: String) {
            self.type = type
        }
    }

    /// Animated style values of an overlay: each property is a list of keyframe values, evenly
    /// spaced over one pass, or of `{"offset": 0…1, "value": …, "easing": "…"}` objects.
    public struct AnimationSpec: Codable, Sendable, Equatable {
        /// Seconds per pass (default 1).
        public var duration: Double?
        /// Seconds before the first pass.
        public var delay: Double?
        /// Passes: a number, or `"forever"` (default).
        public var `repeat`: RepeatSpec?
        /// Play each pass forwards then backwards.
        public var autoreverse: Bool?
        /// CSS easing of each pass (`linear` default, `ease`, `ease-in-out`, `cubic-bezier(…)`, `steps(…)`).
        public var easing: String?
        /// Opacity multipliers, 0…1.
        public var opacity: [KeyframeSpec<Double>]?
        /// Colours.
        public var color: [KeyframeSpec<String>]?
        /// Line width (the line's unit) or rim / outline width in pixels.
        public var width: [KeyframeSpec<Double>]?
        /// Circle radius multipliers.
        public var radiusScale: [KeyframeSpec<Double>]?
        /// Positions `[lat, lon]`.
        public var position: [KeyframeSpec<[Double]>]?
        /// Routes: fraction of the length drawn from the start, 0…1.
        public var progress: [KeyframeSpec<Double>]?
        /// Routes: logical pixels per second the dashes march.
        public var dashSpeed: Double?

        /// An animation block with every field unset.
        public init() {}
    }

    /// A repeat count: a number, or the string `"forever"`.
    public struct RepeatSpec: Codable, Sendable, Equatable {
        /// The count (`.infinity` for forever).
        public var count: Double

        public init(count: Double) { self.count = count }

        public init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let s = try? c.decode(String.self) {
                guard s == "forever" else {
                    throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected a number or \"forever\"")
                }
                count = .infinity
            } else {
                count = try c.decode(Double.self)
            }
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            if count.isInfinite { try c.encode("forever") } else { try c.encode(count) }
        }
    }

    /// One keyframe: a bare value (evenly spaced with its neighbours) or `{"offset", "value", "easing"}`.
    public struct KeyframeSpec<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
        /// Where in the pass, 0…1; nil = evenly spaced.
        public var offset: Double?
        /// The value.
        public var value: Value
        /// Easing towards the next keyframe (default linear).
        public var easing: String?

        public init(offset: Double? = nil, value: Value, easing: String? = nil) {
            self.offset = offset; self.value = value; self.easing = easing
        }

        private enum Keys: String, CodingKey { case offset, value, easing }

        public init(from decoder: Decoder) throws {
            if let v = try? decoder.singleValueContainer().decode(Value.self) {
                value = v
                return
            }
            let c = try decoder.container(keyedBy: Keys.self)
            offset = try c.decodeIfPresent(Double.self, forKey: .offset)
            value = try c.decode(Value.self, forKey: .value)
            easing = try c.decodeIfPresent(String.self, forKey: .easing)
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encodeIfPresent(offset, forKey: .offset)
            try c.encode(value, forKey: .value)
            try c.encodeIfPresent(easing, forKey: .easing)
        }
    }

    /// The deepest nesting of arrays and objects a scene file may have (a scene needs under 10;
    /// inline GeoJSON a few more).
    public static let maxNesting = 64

    /// Reads a scene document from JSON data. Errors name the JSON path and what was expected.
    /// The syntax (and nesting, at most `maxNesting` deep) is checked first by MapFormats' own
    /// scanner, so broken or hostile JSON gets a line and column.
    public static func decode(_ data: Data, file: String) throws -> SceneDocument {
        let json: JSONValue
        do {
            json = try JSONValue.parse(String(decoding: data, as: UTF8.self), maxDepth: maxNesting)
        } catch let error as FormatError {
            let at = error.line.map { l in ":\(l)" + (error.column.map { ":\($0)" } ?? "") } ?? ""
            throw SceneDocumentError(file: file + at, path: error.path.map(FormatError.shortened) ?? "", reason: error.message)
        }
        do {
            try checkKeys(json, file: file)
            // Decoded from the tree parsed above (`JSONValueDecoder`): inline geojson `data` is
            // taken as it is, and the text is not parsed a second time.
            return try JSONValueDecoder.decode(SceneDocument.self, from: json)
        } catch let error as SceneDocumentError {
            throw error
        } catch let error as DecodingError {
            throw SceneDocumentError(file: file, path: Self.path(of: error), reason: Self.reason(of: error))
        } catch {
            throw SceneDocumentError(file: file, path: "", reason: "not valid JSON (\(error.localizedDescription))")
        }
    }

    /// Keys of other formats and APIs mapped to this format's name for the same thing, for the
    /// hint of an unknown key.
    static let otherNames: [String: String] = [
        "points": "coordinates", "coords": "coordinates", "latlngs": "coordinates", "path": "coordinates",
        "center": "position", "location": "position", "latlng": "position", "point": "position",
        "label": "text", "title": "text", "name": "text",
        "fillcolor": "fill", "strokecolor": "stroke", "linecolor": "color", "weight": "width",
    ]

    /// Rejects keys the format does not have (a typo such as `colour` would otherwise be
    /// ignored silently), naming the JSON path and the closest known key.
    private static func checkKeys(_ top: JSONValue, file: String) throws {
        func names(_ value: Any) -> Set<String> {
            Set(Mirror(reflecting: value).children.compactMap(\.label))
        }
        func members(_ value: JSONValue?) -> [String: JSONValue] {
            if case .object(let o) = value { return o }
            return [:]
        }
        func elements(_ value: JSONValue?) -> [JSONValue] {
            if case .array(let a) = value { return a }
            return []
        }
        // The keys decoded as `Int`: Foundation reports a fractional or huge number there as
        // "not valid JSON" with no path, so they are checked here first.
        func wholeNumbers(_ value: Any) -> Set<String> {
            Set(Mirror(reflecting: value).children.compactMap { type(of: $0.value) == Int?.self ? $0.label : nil })
        }
        func check(_ object: JSONValue?, _ allowed: Set<String>, _ path: String, whole: Set<String> = []) throws {
            for key in members(object).keys.sorted() where !allowed.contains(key) {
                var hint = JSONKeys.hint(for: key, among: allowed)
                // Names other map formats use for the same thing (GeoJSON, Leaflet, Google).
                if hint.isEmpty, let other = Self.otherNames[key.lowercased()], allowed.contains(other) {
                    hint = " (this format calls it '\(other)')"
                }
                throw SceneDocumentError(file: file, path: path.isEmpty ? key : "\(path).\(key)",
                                         reason: "unknown key\(hint)")
            }
            for key in whole.sorted() {
                guard case .number(let n) = members(object)[key] else { continue }
                if n.rounded() != n || abs(n) > 1e15 {
                    throw SceneDocumentError(file: file, path: path.isEmpty ? key : "\(path).\(key)",
                                             reason: "expected a whole number, found \(n)")
                }
            }
        }
        let root = members(top)
        try check(top, names(SceneDocument()), "", whole: wholeNumbers(SceneDocument()))
        try check(root["camera"], names(CameraSpec()), "camera")
        // Each spec's keys once (reflection costs about 20 µs a spec: a scene of 20 000 markers
        // spent 0.5 s here when they were read per overlay).
        let tileSpec = TilesSpec(source: ""), tileKeys = names(tileSpec), tileWhole = wholeNumbers(tileSpec)
        for (i, layer) in elements(root["tiles"]).enumerated() {
            try check(layer, tileKeys, "tiles[\(i)]", whole: tileWhole)
        }
        let spec = OverlaySpec(type: ""), overlayKeys = names(spec), overlayWhole = wholeNumbers(spec)
        let casingKeys = names(CasingSpec(color: "")), animationKeys = names(AnimationSpec())
        for (i, overlay) in elements(root["overlays"]).enumerated() {
            try check(overlay, overlayKeys, "overlays[\(i)]", whole: overlayWhole)
            try check(members(overlay)["casing"], casingKeys, "overlays[\(i)].casing")
            let animation = members(overlay)["animation"]
            try check(animation, animationKeys, "overlays[\(i)].animation")
            for (key, value) in members(animation) {
                for (k, frame) in elements(value).enumerated() {
                    try check(frame, ["offset", "value", "easing"], "overlays[\(i)].animation.\(key)[\(k)]")
                }
            }
        }
    }

    /// A decoding error of any JSON document as `where: why` (e.g. `limits.maxSide: expected a number`).
    public static func describe(_ error: DecodingError) -> String {
        let at = path(of: error)
        return at.isEmpty ? reason(of: error) : "\(at): \(reason(of: error))"
    }

    static func path(of error: DecodingError) -> String {
        let keys: [CodingKey]
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): keys = c.codingPath
        case .keyNotFound(let k, let c): keys = c.codingPath + [k]
        @unknown default: keys = []
        }
        var s = ""
        for k in keys {
            if let i = k.intValue { s += "[\(i)]" } else { s += (s.isEmpty ? "" : ".") + k.stringValue }
        }
        return s
    }

    static func reason(of error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let t, _): return "expected \(Self.typeName(t))"
        case .valueNotFound(let t, _): return "expected \(Self.typeName(t)), found null"
        case .keyNotFound(let k, _): return "missing required key '\(k.stringValue)'"
        case .dataCorrupted(let c):
            if let u = c.underlyingError { return "not valid JSON (\(u.localizedDescription))" }
            return c.debugDescription
        @unknown default: return "invalid"
        }
    }

    private static func typeName(_ t: Any.Type) -> String {
        switch t {
        case is String.Type: return "a string"
        case is Double.Type, is Int.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is [Double].Type, is [[Double]].Type, is [[[Double]]].Type: return "an array of numbers"
        default:
            let n = String(describing: t)
            return n.hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

/// A scene file that cannot be read, with where (JSON path) and why.
public struct SceneDocumentError: Error, CustomStringConvertible, Sendable {
    /// The scene file's path as given.
    public var file: String
    /// The JSON path of the offending value, e.g. `overlays[2].radius`; empty for the whole file.
    public var path: String
    /// What was wrong.
    public var reason: String

    public init(file: String, path: String, reason: String) {
        self.file = file
        self.path = path
        self.reason = reason
    }

    public var description: String {
        path.isEmpty ? "\(file): \(reason)" : "\(file): \(path): \(reason)"
    }
}
