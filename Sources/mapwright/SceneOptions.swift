import ArgumentParser
import Foundation
import GeoKit
import MapCamera
import MapFormats
import MapImage
import MapExamples
import MapRenderGL
import MapSnapshot
import MapTiles

/// The scene flags `render`, `animate` (and later `view`) share: scene file, camera, overlays,
/// basemap, extras and GL settings.
struct SceneOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A scene file (JSON; see Documentation/scene.schema.json).", valueName: "FILE.json"))
    var scene: String?

    // Camera.
    @Option(parsing: .unconditional, help: ArgumentHelp("Centre of the view, degrees.", valueName: "LAT,LON"))
    var center: String?
    @Option(parsing: .unconditional, help: "Zoom (MapLibre convention: the world is 512·2^zoom px wide), 0…24.")
    var zoom: Double?
    @Option(parsing: .unconditional, help: "Degrees clockwise from north.")
    var bearing: Double?
    @Option(help: "Degrees from straight down, 0…85.")
    var pitch: Double?
    @Option(help: ArgumentHelp("Image size in logical pixels (default 1024x768).", valueName: "WxH"))
    var size: String?
    @Option(help: "Output pixels per logical pixel, 1…4.")
    var scale: Double?
    @Option(help: "Padding in pixels kept free around the overlays when fitting (default 24).")
    var padding: Double?
    @Option(name: .customLong("max-zoom"), help: "Largest zoom a fit may choose (default 18).")
    var maxZoom: Double?

    // Routes.
    @Option(name: .customLong("route"), help: ArgumentHelp("A track file: CSV, GPX, GeoJSON or encoded polyline (repeatable).", valueName: "FILE"))
    var routes: [String] = []
    @Option(name: .customLong("route-color"), help: ArgumentHelp("Route colour (default 1f6feb).", valueName: "RRGGBB[AA]"))
    var routeColor: String?
    @Option(name: .customLong("route-width"), help: "Route width in pixels (default 4).")
    var routeWidth: Double?
    @Option(name: .customLong("geojson"), help: ArgumentHelp("GeoJSON features drawn by geometry (lines, polygons, pins) and styled by their simplestyle properties: stroke, fill, marker-color… (repeatable).", valueName: "FILE"))
    var geojsonFiles: [String] = []
    @Flag(name: .customLong("cluster"), help: "Cluster the --geojson files' Points where they crowd (50 px, up to zoom 16).")
    var cluster = false

    // Circles.
    @Option(name: .customLong("circle"), parsing: .unconditionalSingleValue, help: ArgumentHelp("A circle; RADIUS ends in m, km or px (repeatable).", valueName: "LAT,LON,RADIUS"))
    var circles: [String] = []
    @Option(name: .customLong("circle-fill"), help: ArgumentHelp("Circle fill (default ff000040).", valueName: "RRGGBBAA"))
    var circleFill: String?
    @Option(name: .customLong("circle-stroke"), help: ArgumentHelp("Circle rim colour (default ff0000).", valueName: "RRGGBB"))
    var circleStroke: String?
    @Option(name: .customLong("circle-stroke-width"), help: "Circle rim width in pixels (default 2).")
    var circleStrokeWidth: Double?

    // Markers.
    @Option(name: .customLong("marker"), parsing: .unconditionalSingleValue, help: ArgumentHelp("A marker with an optional label (repeatable).", valueName: "LAT,LON[,LABEL]"))
    var markers: [String] = []
    @Option(name: .customLong("marker-color"), help: ArgumentHelp("Marker colour (default d1242f).", valueName: "RRGGBB"))
    var markerColor: String?
    @Option(name: .customLong("marker-style"), help: "dot (default) or pin.")
    var markerStyle: String?
    @Option(name: .customLong("marker-size"), help: ArgumentHelp("Marker size as a factor of the normal one, 0.1…8 (default 1).", valueName: "FACTOR"))
    var markerSize: Double?
    @Option(name: .customLong("marker-symbol"), help: ArgumentHelp("A Maki icon drawn in every --marker's pin head or dot (bus, cafe, hospital, …; `mapwright symbols` lists them).", valueName: "NAME"))
    var markerSymbol: String?

    // 3D (SceneOptions+ThreeD.swift).
    @Option(name: .customLong("column"), parsing: .unconditionalSingleValue, help: ArgumentHelp("A column of HEIGHT_M metres (radius 20 m by default) (repeatable).", valueName: "LAT,LON,HEIGHT_M[,RADIUS_M]"))
    var columns: [String] = []
    @Option(name: .customLong("column-color"), help: ArgumentHelp("Column colour (default 2da44e).", valueName: "RRGGBB[AA]"))
    var columnColor: String?
    @Option(name: .customLong("extrude"), help: ArgumentHelp("GeoJSON polygons raised to the height in --height-property (repeatable).", valueName: "FILE.geojson"))
    var extrusions: [String] = []
    @Option(name: .customLong("height-property"), help: ArgumentHelp("Feature property with the extrusion height in metres (default height).", valueName: "NAME"))
    var heightProperty: String?
    @Option(name: .customLong("base-property"), help: ArgumentHelp("Feature property with the extrusion base in metres (default none: 0).", valueName: "NAME"))
    var baseProperty: String?
    @Option(name: .customLong("arc"), parsing: .unconditionalSingleValue, help: ArgumentHelp("An arc rising between two places, HEIGHT_M at its middle (default a fifth of the distance, at most 1500 km) (repeatable).", valueName: "LAT1,LON1,LAT2,LON2[,HEIGHT_M]"))
    var arcs: [String] = []

    // Custom GL layer example.
    @Option(name: .customLong("spinning-box"), parsing: .unconditionalSingleValue, help: ArgumentHelp("The custom GL layer example: a box of SIZE_M metres (default 200) spinning and bouncing on the map (repeatable).", valueName: "LAT,LON[,SIZE_M]"))
    var spinningBoxes: [String] = []

    // Basemap and extras.
    @Option(help: "embedded (default; none when --tiles are given) or none.")
    var basemap: String?

    // Raster tiles and images (issue: real basemaps).
    @Option(name: .customLong("tiles"), help: ArgumentHelp("Tiles under the overlays, raster (PNG, JPEG, WebP) or vector (MVT, drawn in --style): a URL template (https://…/{z}/{x}/{y}.png; {s}, {r}, {-y}, {quadkey}), FILE.mbtiles, FILE.pmtiles or a directory of z/x/y tiles (repeatable, lowest first).", valueName: "SOURCE"))
    var tiles: [String] = []
    @Option(name: .customLong("tile-size"), help: "Logical pixels one tile covers: 256 (default) or 512.")
    var tileSize: Int?
    @Option(name: .customLong("vector-style"), help: ArgumentHelp("Vector tiles: a JSON file of colours over the built-in style, {\"base\": \"light\", \"background\": \"#…\", \"casing\": \"#…\", \"colors\": {\"water\": \"#…\", \"motorway\": \"#…\", …}} (the scene file's \"vectorStyle\").", valueName: "FILE"))
    var vectorStyle: String?
    @Option(name: .customLong("tiles-language"), help: ArgumentHelp("Vector tiles: the language of place names (en reads name:en where a place has it; default the local name).", valueName: "CODE"))
    var tilesLanguage: String?
    @Option(name: .customLong("tiles-opacity"), help: "Opacity of the tile layers, 0…1 (default 1).")
    var tilesOpacity: Double?
    @Option(name: .customLong("tiles-saturation"), help: "Saturation of the tile layers, −1 (grey)…1 (default 0).")
    var tilesSaturation: Double?
    @Option(name: .customLong("tiles-contrast"), help: "Contrast of the tile layers, −1…1 (default 0).")
    var tilesContrast: Double?
    @Option(name: .customLong("tiles-brightness"), help: ArgumentHelp("Brightness range of the tile layers: black and white map to MIN and MAX, 0…1 (default 0,1).", valueName: "MIN,MAX"))
    var tilesBrightness: String?
    @Option(name: .customLong("tiles-attribution"), help: ArgumentHelp("Attribution text for the tiles (default: the source's metadata).", valueName: "TEXT"))
    var tilesAttribution: String?
    @Option(name: .customLong("tile-cache"), help: ArgumentHelp("A disk cache for tiles fetched over HTTP (honours Cache-Control, Expires and ETag).", valueName: "DIR"))
    var tileCache: String?
    @Option(name: .customLong("tile-cache-mb"), help: "The most megabytes each tile source keeps in --tile-cache (default 1024; 0: no limit); past it the tiles stored longest ago are removed.")
    var tileCacheMB: Int?
    @Flag(help: "Read HTTP tiles from the --tile-cache only; never use the network.")
    var offline = false
    @Flag(help: "TMS rows (counted from the south) for a URL template or a directory (as {-y}).")
    var tms = false
    @Option(name: .customLong("tiles-timeout"), help: "Seconds to wait for the view's tiles (default 30); later tiles are warnings.")
    var tilesTimeout: Double?
    @Flag(help: "Fail (and write nothing) when any tile could not be loaded, instead of warning.")
    var strict = false
    @Option(name: .customLong("image"), parsing: .unconditionalSingleValue, help: ArgumentHelp("A georeferenced PNG, JPEG or WebP laid on the map between its bounds (repeatable).", valueName: "FILE,S,W,N,E"))
    var images: [String] = []
    @Flag(name: .customLong("no-waypoints"), help: "Leave out tracks' waypoints (GPX wpt, GeoJSON Points; drawn as named pins by default).")
    var noWaypoints = false
    @Option(help: "light (default) or dark.")
    var style: String?
    @Flag(name: .customLong("no-attribution"), help: "Leave out the attribution text.")
    var noAttribution = false
    @Flag(name: .customLong("scale-bar"), help: "Draw a scale bar (bottom left).")
    var scaleBar = false
    @Flag(help: "Draw a compass rose that follows the bearing and pitch (top right).")
    var compass = false
    @Flag(name: .customLong("no-place-labels"), help: "Leave out the embedded basemap's place names and dots.")
    var noPlaceLabels = false
    @Flag(name: .customLong("label-overlap"), help: "Draw every marker label on its marker's right, even over other labels and markers (by default a crowded label goes on the left, or is left out).")
    var labelOverlap = false
    @Option(name: .customLong("label-fade"), help: ArgumentHelp("animate and view: seconds a marker label takes to fade in or out as the placement shows or hides it (default 0.3; 0 for none; 0…10).", valueName: "SECONDS"))
    var labelFade: Double?

    // GL.
    @Flag(name: .customLong("print-gl-info"), help: "Print the GL device on standard error.")
    var printGLInfo = false
    @Option(help: "Multisamples per pixel: 0 (edges antialiased by the shaders; 1 is the same), 2, 4 or 8; default 0 on a CPU rasteriser (llvmpipe), 4 on a GPU.")
    var samples: Int?

    /// Reads the scene file (if any), applies the flags and builds the snapshot; errors are
    /// prefixed with `mapwright COMMAND:`.
    func loadDocument(command: String) throws -> (document: SceneDocument, base: URL) {
        var doc = SceneDocument()
        var base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        if let scene {
            // `-` is standard input (relative paths in it resolve in the current directory).
            let data: [UInt8]
            do { data = try InputFile.read(scene, limit: InputFile.wholeFileLimit) } catch {
                throw CLIError("mapwright \(command): cannot read scene file '\(InputFile.displayName(scene))': \(error.reason)")
            }
            doc = try SceneDocument.decode(Data(data), file: InputFile.displayName(scene))
            if scene != "-" { base = URL(fileURLWithPath: scene).deletingLastPathComponent() }
        }
        try applyFlags(to: &doc, command: command)
        return (doc, base)
    }

    /// A scene loader whose error locations name the flags that added overlays and tile layers.
    func loader(for doc: SceneDocument, base: URL, extraNames: [String] = []) -> SceneLoader {
        var loader = SceneLoader(baseDirectory: base)
        let sceneName = scene ?? "scene"
        // What the flags add comes after the scene file's own items; the key a flag's value
        // stands for (the track file, the tile source) goes unsaid.
        func locator(_ list: String, total: Int, flagNames: [String], flagKey: String) -> @Sendable (Int, String) -> String {
            let first = total - flagNames.count
            return { i, key in
                if i >= first, i - first < flagNames.count {
                    return flagNames[i - first] + (key.isEmpty || key == flagKey ? "" : " (\(key))")
                }
                return "\(sceneName): \(list)[\(i)]" + (key.isEmpty ? "" : ".\(key)")
            }
        }
        loader.locate = locator("overlays", total: doc.overlays?.count ?? 0, flagNames: flagOverlayNames + extraNames, flagKey: "file")
        loader.locateTiles = locator("tiles", total: doc.tiles?.count ?? 0, flagNames: tiles.map { "--tiles \($0)" }, flagKey: "source")
        return loader
    }

    /// Checks `--samples` and starts a snapshotter (printing the GL device with `--print-gl-info`,
    /// unless `announce` is false: `render` prints it once it has its snapshotter).
    func makeSnapshotter(command: String, announce: Bool = true) throws -> MapSnapshotter {
        if let samples, ![0, 1, 2, 4, 8].contains(samples) { throw CLIError("mapwright \(command): --samples must be 0, 1, 2, 4 or 8") }
        let snapshotter = try MapSnapshotter(samples: samples)
        if announce { announceGL(snapshotter) }
        return snapshotter
    }

    /// With `--print-gl-info`: the GL device, on standard error.
    func announceGL(_ snapshotter: MapSnapshotter) {
        if printGLInfo { FileHandle.standardError.write(Data("gl: \(snapshotter.deviceDescription)\n".utf8)) }
    }

    /// The custom GL layers the flags ask for (`--spinning-box`).
    func glLayers(command: String) throws -> [any GLCustomLayer] {
        try spinningBoxes.enumerated().map { i, text in
            let v = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            let flag = "--spinning-box #\(i + 1) '\(text)'"
            guard v.count == 2 || v.count == 3, let lat = v[0], let lon = v[1], LatLng(lat: lat, lon: lon).isValid else {
                throw CLIError("mapwright \(command): \(flag): expected LAT,LON[,SIZE_M] with a valid position")
            }
            let size = v.count == 3 ? v[2] : 200
            guard let size, size.isFinite, size > 0, size <= 100_000 else {
                throw CLIError("mapwright \(command): \(flag): the size must be in (0, 100000] metres")
            }
            return SpinningBoxLayer(position: LatLng(lat: lat, lon: lon), size: size)
        }
    }

    /// Names of the overlays the flags add, in order, for error messages.
    var flagOverlayNames: [String] {
        routes.map { "--route \($0)" } + geojsonFiles.map { "--geojson \($0)" } + circles.enumerated().map { "--circle #\($0.offset + 1) '\($0.element)'" }
            + markers.enumerated().map { "--marker #\($0.offset + 1) '\($0.element)'" } + threeDOverlayNames
            + images.enumerated().map { "--image #\($0.offset + 1) '\($0.element)'" }
    }

    func applyFlags(to doc: inout SceneDocument, command: String) throws {
        if let size {
            let s = try CameraCLI.parseSize(size)
            doc.size = [s.width, s.height]
        }
        if let scale { doc.scale = scale }
        var cam = doc.camera ?? SceneDocument.CameraSpec()
        if let center {
            let c = try CameraCLI.parseLatLng(center, flag: "--center")
            cam.center = [c.lat, c.lon]
        }
        if let zoom { cam.zoom = zoom }
        if let bearing { cam.bearing = bearing }
        if let pitch { cam.pitch = pitch }
        if let padding { cam.padding = padding }
        if let maxZoom { cam.maxZoom = maxZoom }
        doc.camera = cam
        if let basemap { doc.basemap = basemap }
        try applyTileFlags(to: &doc, command: command)
        if let style { doc.style = style }
        if let vectorStyle {
            let data: [UInt8]
            do { data = try InputFile.read(vectorStyle, limit: 1 << 20) } catch {
                throw CLIError("mapwright \(command): cannot read --vector-style '\(InputFile.displayName(vectorStyle))': \(error.reason)")
            }
            do { doc.vectorStyle = try JSONDecoder().decode(SceneDocument.VectorStyleSpec.self, from: Data(data)) } catch {
                throw CLIError("mapwright \(command): --vector-style '\(vectorStyle)': not a vector style (a JSON object of base, "
                    + "background, casing and colors by kind): \((error as? DecodingError).map(SceneDocument.describe) ?? "\(error)")")
            }
        }
        if noAttribution { doc.attribution = false }
        if scaleBar { doc.scaleBar = true }
        if compass { doc.compass = true }
        if labelOverlap { doc.labelOverlap = true }
        if noPlaceLabels { doc.placeLabels = false }
        if let labelFade { doc.labelFade = labelFade }
        var overlays = doc.overlays ?? []
        for file in routes {
            var o = SceneDocument.OverlaySpec(type: "route")
            o.file = file == "-" ? file : URL(fileURLWithPath: file).path
            o.color = routeColor
            o.width = routeWidth
            overlays.append(o)
        }
        for file in geojsonFiles {
            var o = SceneDocument.OverlaySpec(type: "geojson")
            o.file = file == "-" ? file : URL(fileURLWithPath: file).path
            if cluster { o.cluster = true }
            overlays.append(o)
        }
        for (i, text) in circles.enumerated() {
            let flag = "--circle #\(i + 1) '\(text)'"
            let (lat, lon, value, unit) = try Self.parseRadius(text, flag: flag, command: command)
            var o = SceneDocument.OverlaySpec(type: "circle")
            o.position = [lat, lon]
            o.radius = value
            o.radiusUnit = unit
            o.fill = circleFill
            o.stroke = circleStroke
            o.strokeWidth = circleStrokeWidth
            overlays.append(o)
        }
        for (i, text) in markers.enumerated() {
            let parts = text.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
            let flag = "--marker #\(i + 1) '\(text)'"
            guard parts.count >= 2, let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
                  let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)) else {
                throw CLIError("mapwright \(command): \(flag): expected LAT,LON[,LABEL]")
            }
            var o = SceneDocument.OverlaySpec(type: "marker")
            o.position = [lat, lon]
            if parts.count == 3, !parts[2].isEmpty { o.label = String(parts[2]) }
            o.color = markerColor
            o.style = markerStyle
            o.size = markerSize
            o.symbol = markerSymbol
            overlays.append(o)
        }
        try apply3DFlags(to: &overlays, command: command)
        for (i, text) in images.enumerated() {
            // The file name may hold commas: the last four fields are the bounds.
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let flag = "--image #\(i + 1) '\(text)'"
            let nums = parts.suffix(4).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count >= 5, nums.allSatisfy({ $0 != nil }) else {
                throw CLIError("mapwright \(command): \(flag): expected FILE,SOUTH,WEST,NORTH,EAST")
            }
            var o = SceneDocument.OverlaySpec(type: "image")
            o.file = URL(fileURLWithPath: parts.dropLast(4).joined(separator: ",")).path
            o.bounds = nums.compactMap { $0 }
            overlays.append(o)
        }
        if noWaypoints { doc.waypoints = false }
        doc.overlays = overlays
    }


    /// `--tiles` and the flags that style them.
    func applyTileFlags(to doc: inout SceneDocument, command: String) throws {
        var specs = doc.tiles ?? []
        for t in tiles {
            var spec = SceneDocument.TilesSpec(source: t)
            if !TileSources.isURL(t) { spec.source = URL(fileURLWithPath: t).path }
            specs.append(spec)
        }
        if let tileSize, tileSize != 256 && tileSize != 512 { throw CLIError("mapwright \(command): --tile-size must be 256 or 512") }
        var brightness: (Double, Double)?
        if let b = tilesBrightness {
            let v = b.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard v.count == 2, let lo = v[0], let hi = v[1], (0 ... 1).contains(lo), (0 ... 1).contains(hi) else {
                throw CLIError("mapwright \(command): --tiles-brightness '\(b)': expected MIN,MAX within 0…1")
            }
            brightness = (lo, hi)
        }
        for i in specs.indices {
            if let tileSize { specs[i].tileSize = tileSize }
            if let tilesOpacity { specs[i].opacity = tilesOpacity }
            if let tilesLanguage { specs[i].language = tilesLanguage }
            if let tilesSaturation { specs[i].saturation = tilesSaturation }
            if let tilesContrast { specs[i].contrast = tilesContrast }
            if let brightness { specs[i].brightnessMin = brightness.0; specs[i].brightnessMax = brightness.1 }
            if let tilesAttribution { specs[i].attribution = tilesAttribution }
            if tms { specs[i].tms = true }
        }
        if !specs.isEmpty { doc.tiles = specs }
        if let tileCache { doc.tileCache = URL(fileURLWithPath: tileCache).path }
        if let tileCacheMB { doc.tileCacheMegabytes = tileCacheMB }
        if offline { doc.offline = true }
        if let tilesTimeout {
            guard tilesTimeout.isFinite, tilesTimeout >= 0, tilesTimeout <= 3600 else {
                throw CLIError("mapwright \(command): --tiles-timeout must be in 0…3600 s")
            }
            doc.tilesTimeout = tilesTimeout
        }
    }

    /// Prints the tile layers' warnings on standard error; with `--strict` any warning is an error.
    func reportTileWarnings(_ layers: [TileLayer], command: String) throws {
        var all: [String] = []
        for layer in layers { all += layer.takeWarnings() }
        for w in all { FileHandle.standardError.write(Data("mapwright \(command): warning: \(w)\n".utf8)) }
        if strict, !all.isEmpty {
            throw CLIError("mapwright \(command): --strict: \(all.count) tile\(all.count == 1 ? "" : "s") could not be loaded; nothing written")
        }
    }

    /// Parses `LAT,LON,RADIUS` with RADIUS ending in m, km or px.
    static func parseRadius(_ text: String, flag: String, command: String) throws -> (Double, Double, Double, String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 3, let lat = Double(parts[0]), let lon = Double(parts[1]) else {
            throw CLIError("mapwright \(command): \(flag): expected LAT,LON,RADIUS with RADIUS ending in m, km or px")
        }
        let r = parts[2].lowercased()
        let unit = ["km", "px", "m"].first { r.hasSuffix($0) }
        guard let unit, let value = Double(r.dropLast(unit.count)) else {
            throw CLIError("mapwright \(command): \(flag): radius '\(parts[2])' must be a number ending in m, km or px")
        }
        return (lat, lon, value, unit)
    }
}
