import Canvas2D
import Foundation
import GeoKit
import MapCamera
import MapFormats
import MapImage
import MapMotion
import MapScene
import MapTiles

/// A scene that cannot be built, with where (a JSON path such as `overlays[2].radius`, or a
/// CLI flag such as `--circle #2`) and why.
public struct SceneLoadError: Error, CustomStringConvertible, Sendable {
    /// Where the problem is.
    public var location: String
    /// What is wrong.
    public var reason: String

    public init(_ location: String, _ reason: String) {
        self.location = location
        self.reason = reason
    }

    public var description: String { location.isEmpty ? reason : "\(location): \(reason)" }
}

/// Limits applied when building a scene.
public enum SceneLimits {
    /// Largest output side in pixels, after the scale.
    public static let maxSide = 8192.0
    /// Largest output area in pixels, after the scale: 64 megapixels.
    public static let maxPixels = 64_000_000.0
    /// Largest number of overlays in one scene.
    public static let maxOverlays = 100_000
    /// Most waypoints drawn per track.
    public static let maxWaypoints = 10_000
    /// Most raster tile layers.
    public static let maxTileLayers = 8
}

/// Builds a `Snapshot` from a `SceneDocument`: reads the files it names, parses colours and
/// units, applies defaults, and fits the camera to the overlays when the document gives no
/// `center`/`zoom`.
public struct SceneLoader {
    /// Paths in the document are relative to this directory.
    public var baseDirectory: URL
    /// Draw tracks' waypoints when the document does not say (`waypoints`).
    public var drawWaypoints = true
    /// Opened tile sources by their spec, so a loader re-used for many frames opens each once.
    public var openTileSource: @Sendable (String, HTTPTileOptions) throws -> any TileSource = { try TileSources.open($0, options: $1) }
    /// How overlay locations are named in errors: a JSON path by default.
    public var locate: @Sendable (Int, String) -> String = { i, key in
        key.isEmpty ? "overlays[\(i)]" : "overlays[\(i)].\(key)"
    }
    /// How tile layers are named in errors: a JSON path by default (the CLI names its `--tiles`).
    public var locateTiles: @Sendable (Int, String) -> String = { i, key in
        key.isEmpty ? "tiles[\(i)]" : "tiles[\(i)].\(key)"
    }

    /// Icons and images read during one load, by file and kind: a file named by many overlays
    /// is read once and drawn as one image (markers sharing an icon are then drawn together).
    private let sprites = SpriteCache()

    /// Creates a loader resolving relative paths against `baseDirectory`.
    public init(baseDirectory: URL) {
        self.baseDirectory = baseDirectory
    }

    /// A label (or marker label) whose image would be wider or taller than a sprite may be
    /// (`SpriteImage.maxSide` device px) is not drawn: refused here with the overlay's index
    /// instead. Sizes are measured as the renderer will, and cached for it.
    func checkLabelWidths(_ overlays: [Overlay], index i: Int, scale: Double) throws {
        var labels: [(Label, String)] = []
        func add(_ m: Marker) {
            if let l = m.rightLabel { labels.append((l, "label")) }
        }
        for o in overlays {
            switch o {
            case .label(let l): labels.append((l, "text"))
            case .marker(let m): add(m)
            case .cluster(let c): c.markers.forEach(add)
            default: continue
            }
        }
        guard !labels.isEmpty else { return }
        let measure = CairoLabelRasterizer()
        for (l, key) in labels where measure.labelSize(l, pixelRatio: scale) == nil {
            // Why not: only white space (a label's text must have some), or too big.
            let halo = l.haloColor.map { _ in TextHalo(width: l.haloWidth) }
            var size = ""
            do {
                let px = try MapSprites.labelSize(l.text, font: Font(size: l.size), halo: halo, scale: scale)
                size = " is \(px.width)×\(px.height) px,"
            } catch {
                if error.parameter == "text" {
                    if key == "label" { continue }  // a marker's blank label: nothing to draw
                    throw SceneLoadError(locate(i, "text"), "a label needs text (this one is only white space)")
                }
                // Past even a canvas's size: too big all the same.
            }
            let flat = l.text.replacingOccurrences(of: "\n", with: "\\n")
            let text = flat.count > 24 ? "'\(flat.prefix(24))…'" : "'\(flat)'"
            throw SceneLoadError(locate(i, key), "\(text) at \(Self.fmt(l.size)) px\(size) over the \(SpriteImage.maxSide) px "
                                 + "a side a label's image may be\(scale > 1 ? " at scale \(Self.fmt(scale))" : ""); shorten it or make it smaller")
        }
    }

    /// Builds the snapshot: the still scene (animated overlays as they are at time 0).
    public func snapshot(from doc: SceneDocument) throws -> Snapshot {
        try animatedSnapshot(from: doc).frame(at: 0)
    }

    /// Builds the snapshot with its moving parts: pulses, replays, overlays with an `animation`
    /// block, and a camera that follows the first replay when `camera.follow` is set.
    public func animatedSnapshot(from doc: SceneDocument) throws -> AnimatedSnapshot {
        // Files are read afresh by each load.
        sprites.clear()
        defer { sprites.clear() }
        let size = doc.size ?? [1024, 768]
        guard size.count == 2 else { throw SceneLoadError("size", "expected [width, height]") }
        let scale = doc.scale ?? 1
        guard scale.isFinite, scale >= 1, scale <= 4 else { throw SceneLoadError("scale", "\(scale) is not in 1…4") }
        let (w, h) = (size[0], size[1])
        guard w.isFinite, h.isFinite, w >= 1, h >= 1 else {
            throw SceneLoadError("size", "\(Self.fmt(w))x\(Self.fmt(h)) is not a positive size")
        }
        guard w * scale <= SceneLimits.maxSide, h * scale <= SceneLimits.maxSide else {
            throw SceneLoadError("size", "\(Self.fmt(w * scale))x\(Self.fmt(h * scale)) px is over \(Int(SceneLimits.maxSide)) px a side")
        }
        guard w * h * scale * scale <= SceneLimits.maxPixels else {
            throw SceneLoadError("size", "\(Self.fmt(w * scale))x\(Self.fmt(h * scale)) px is over 64 megapixels")
        }
        let specs = doc.overlays ?? []
        guard specs.count <= SceneLimits.maxOverlays else {
            throw SceneLoadError("overlays", "\(specs.count) overlays is over the limit of \(SceneLimits.maxOverlays)")
        }
        var overlays: [Overlay] = []
        var fitPoints: [LatLng] = []
        var motion = MotionBuild(duration: doc.duration)
        if let d = doc.duration { try checkDuration(d, "duration") }
        var me = self
        me.drawWaypoints = doc.waypoints ?? drawWaypoints
        for (i, spec) in specs.enumerated() {
            if try motionOverlay(spec, index: i, into: &motion) { continue }
            let built = try me.overlay(spec, index: i, tilt: (doc.camera?.bearing ?? 0, doc.camera?.pitch ?? 0))
            try checkLabelWidths(built.overlays, index: i, scale: scale)
            if let animation = spec.animation {
                motion.layers += try animate(built.overlays, animation, spec, index: i)
            } else {
                overlays += built.overlays
            }
            fitPoints += built.fitPoints
        }
        fitPoints += motion.fitPoints
        let basemapStyle: BasemapStyle?
        let hasTiles = !(doc.tiles ?? []).isEmpty
        switch doc.basemap ?? (hasTiles ? "none" : "embedded") {
        case "embedded":
            guard let s = BasemapStyle.named(doc.style ?? "light") else {
                throw SceneLoadError("style", "unknown style '\(doc.style ?? "")' (expected light or dark)")
            }
            basemapStyle = s
        case "none": basemapStyle = nil
        case let other: throw SceneLoadError("basemap", "unknown basemap '\(other)' (expected embedded or none)")
        }
        let follow = doc.camera?.follow ?? false
        var cameraSpec = doc.camera
        if follow, cameraSpec?.center == nil {
            // The follow camera sets the centre; a zoom is still needed.
            guard let first = motion.replays.first else {
                throw SceneLoadError("camera.follow", "there is no replay to follow")
            }
            cameraSpec?.center = [first.route.points[0].lat, first.route.points[0].lon]
            if cameraSpec?.zoom == nil { cameraSpec?.zoom = 16 }
        }
        if let visible = cameraSpec?.visible {
            guard visible.count <= SceneLimits.maxOverlays else {
                throw SceneLoadError("camera.visible", "\(visible.count) points is over the limit of \(SceneLimits.maxOverlays)")
            }
            for (k, v) in visible.enumerated() { fitPoints.append(try position(v, "camera.visible[\(k)]")) }
        }
        var camera = try makeCamera(cameraSpec, size: ScreenSize(width: w, height: h), scale: scale, fit: fitPoints,
                                    drawn: Self.drawnExtent(of: overlays),
                                    labels: FittedLabels(overlays: overlays, mayOverlap: doc.labelOverlap ?? false))
        if cameraSpec?.center == nil { camera = Self.keepingTopsInView(camera, overlays, padding: doc.camera?.padding ?? 24) }
        // Polygon overlays grouped as a GeoJSON file's are (`Overlay.mergingAlikeRuns`): many
        // alike ones as one set each way, translucent neighbours in one layer (no seam where
        // they meet). (Animated overlays are layers of their own, drawn as they are.)
        var still = Snapshot(camera: camera, overlays: Overlay.mergingAlikeRuns(overlays), basemapStyle: basemapStyle,
                             background: basemapStyle == nil ? (hasTiles ? Color(rgb: 0xF2EFE9) : .white) : .transparent,
                             attribution: doc.attribution ?? true, scaleBar: doc.scaleBar ?? false,
                             compass: doc.compass ?? false)
        still.labelsMayOverlap = doc.labelOverlap ?? false
        still.placeLabels = doc.placeLabels ?? true
        still.tileLayers = try tileLayers(doc, scale: scale)
        if still.tileLayers.contains(where: \.isVector) { try applyVectorStyle(doc, to: &still) }
        if let lang = doc.language { still.placeLanguage = try Self.languageCode(lang, "language") }
        let wait = doc.tilesTimeout ?? 30
        guard wait.isFinite, wait >= 0, wait <= 3600 else { throw SceneLoadError("tilesTimeout", "\(Self.fmt(wait)) is not in 0…3600 s") }
        still.tileWait = wait
        var followCamera: FollowCamera?
        if follow {
            guard let first = motion.replays.first else { throw SceneLoadError("camera.follow", "there is no replay to follow") }
            let smoothing = doc.camera?.smoothing ?? 2
            guard smoothing.isFinite, smoothing >= 0, smoothing <= 600 else {
                throw SceneLoadError("camera.smoothing", "\(Self.fmt(smoothing)) is not in 0…600 s")
            }
            followCamera = FollowCamera(route: first.route, drive: first.drive, base: camera, smoothing: smoothing)
        }
        let fade = doc.labelFade ?? AnimatedSnapshot.defaultLabelFade
        guard fade.isFinite, fade >= 0, fade <= 10 else { throw SceneLoadError("labelFade", "\(Self.fmt(fade)) is not in 0…10 s") }
        var animated = AnimatedSnapshot(still: still, layers: motion.layers, follow: followCamera,
                                        duration: motion.resolvedDuration, fps: doc.fps, loop: doc.loop ?? true)
        animated.labelFade = fade
        return animated
    }

    /// A language code: letters, digits, '-' and '_', 1…16 of them (en, de, zh-Hans, pt_BR).
    static func languageCode(_ lang: String, _ location: String) throws -> String {
        guard !lang.isEmpty, lang.count <= 16,
              lang.unicodeScalars.allSatisfy({ ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || $0 == "-" || $0 == "_" }) else {
            throw SceneLoadError(location, "'\(lang.prefix(20))' is not a language code (e.g. en, de, zh-Hans)")
        }
        return lang
    }

    /// Opens the document's tile sources.
    func tileLayers(_ doc: SceneDocument, scale: Double) throws -> [TileLayer] {
        let specs = doc.tiles ?? []
        guard specs.count <= SceneLimits.maxTileLayers else {
            throw SceneLoadError("tiles", "\(specs.count) tile layers is over the limit of \(SceneLimits.maxTileLayers)")
        }
        return try specs.enumerated().map { i, t in
            func at(_ key: String) -> String { locateTiles(i, key) }
            var options = HTTPTileOptions()
            options.tms = t.tms ?? false
            if let s = t.subdomains { options.subdomains = s }
            options.scale = scale
            options.cacheDirectory = doc.tileCache.map { resolve($0).path }
            if let mb = doc.tileCacheMegabytes {
                let range = HTTPTileOptions.cacheMegabytesRange
                guard range.contains(mb) else { throw SceneLoadError("tileCacheMegabytes", "\(mb) is not in \(range.lowerBound)…\(range.upperBound)") }
                options.cacheLimitBytes = mb << 20
            }
            options.offline = doc.offline ?? false
            if let size = t.tileSize {
                guard size == 256 || size == 512 else { throw SceneLoadError(at("tileSize"), "\(size) is not 256 or 512") }
                options.tileSize = size
            }
            if let z = t.minZoom { options.minZoom = z }
            if let z = t.maxZoom { options.maxZoom = z }
            guard (0 ... 30).contains(options.minZoom), (0 ... 30).contains(options.maxZoom), options.minZoom <= options.maxZoom else {
                throw SceneLoadError(at("maxZoom"), "the zoom range \(options.minZoom)…\(options.maxZoom) is not within 0…30")
            }
            options.attribution = t.attribution
            let spec = TileSources.isURL(t.source) ? t.source : resolve(t.source).path
            let source: any TileSource
            do { source = try openTileSource(spec, options) } catch { throw SceneLoadError(at("source"), "\(error)") }
            func unit(_ v: Double?, _ key: String, _ range: ClosedRange<Double>, _ d: Double) throws -> Double {
                let x = v ?? d
                guard x.isFinite, range.contains(x) else {
                    throw SceneLoadError(at(key), "\(Self.fmt(x)) is not in \(Self.fmt(range.lowerBound))…\(Self.fmt(range.upperBound))")
                }
                return x
            }
            let adjust = RasterAdjustments(brightnessMin: try unit(t.brightnessMin, "brightnessMin", 0 ... 1, 0),
                                           brightnessMax: try unit(t.brightnessMax, "brightnessMax", 0 ... 1, 1),
                                           saturation: try unit(t.saturation, "saturation", -1 ... 1, 0),
                                           contrast: try unit(t.contrast, "contrast", -1 ... 1, 0))
            let layer = TileLayer(source: source, tileSize: t.tileSize, opacity: try unit(t.opacity, "opacity", 0 ... 1, 1),
                                  adjustments: adjust, attribution: t.attribution)
            if let lang = t.language { layer.language = try Self.languageCode(lang, at("language")) }
            return layer
        }
    }

    private func makeCamera(_ spec: SceneDocument.CameraSpec?, size: ScreenSize, scale: Double,
                            fit: [LatLng], drawn: EdgeInsets = EdgeInsets(), labels: FittedLabels = FittedLabels()) throws -> Camera {
        let bearing = spec?.bearing ?? 0
        let pitch = spec?.pitch ?? 0
        guard bearing.isFinite else { throw SceneLoadError("camera.bearing", "\(bearing) is not a finite angle") }
        guard pitch.isFinite, pitch >= 0, pitch <= Camera.maxSupportedPitch else {
            throw SceneLoadError("camera.pitch", "\(Self.fmt(pitch)) is not in 0…\(Int(Camera.maxSupportedPitch))")
        }
        if let c = spec?.center, let zoom = spec?.zoom {
            let center = try position(c, "camera.center")
            guard zoom.isFinite, zoom >= 0, zoom <= 24 else {
                throw SceneLoadError("camera.zoom", "\(Self.fmt(zoom)) is not in 0…24")
            }
            return Camera(center: center, zoom: zoom, bearing: bearing, pitch: pitch, size: size, pixelRatio: scale)
        }
        if spec?.center != nil || spec?.zoom != nil {
            throw SceneLoadError("camera", "give both center and zoom, or neither to fit the overlays")
        }
        let padding = spec?.padding ?? 24
        let maxZoom = spec?.maxZoom ?? 18
        guard padding.isFinite, padding >= 0, padding * 2 < min(size.width, size.height) else {
            throw SceneLoadError("camera.padding", "\(Self.fmt(padding)) px leaves no room in a \(Self.fmt(size.width))x\(Self.fmt(size.height)) image")
        }
        guard maxZoom.isFinite, maxZoom >= 0, maxZoom <= 24 else {
            throw SceneLoadError("camera.maxZoom", "\(Self.fmt(maxZoom)) is not in 0…24")
        }
        guard !fit.isEmpty else {
            throw SceneLoadError("camera", "no center/zoom given and no overlays to fit (give --center and --zoom)")
        }
        // The padding is kept clear of everything drawn: a pin reaches 33 px above its point, a
        // line half its width beyond its vertices (as far as the image leaves room for it).
        let room = (size.width - 2 * padding - 8, size.height - 2 * padding - 8)
        var insets = EdgeInsets(top: padding + min(drawn.top, room.1 / 2), left: padding + min(drawn.left, room.0 / 2),
                                bottom: padding + min(drawn.bottom, room.1 / 2), right: padding + min(drawn.right, room.0 / 2))
        guard var cam = Camera.fitting(fit, size: size, padding: insets, bearing: bearing,
                                       pitch: pitch, maxZoom: maxZoom) else {
            throw SceneLoadError("camera", "cannot fit the overlays in the padded viewport")
        }
        // Labels beside markers and text labels off their points: where one crosses the padding,
        // that side's inset grows by as much and the view is fitted again (a few rounds; the
        // points keep at least a quarter of the width and height, so a long label is cut
        // rather than taking the whole image).
        if !labels.isEmpty {
            let measure = CairoLabelRasterizer()  // sizes labels as the renderer will
            for _ in 0 ..< 4 {
                cam.pixelRatio = scale
                let over = labels.overflow(camera: cam, padding: padding, measure: measure)
                guard max(over.top, over.left, over.bottom, over.right) > 0.5 else { break }
                var grown = insets
                grown.top = max(insets.top, min(insets.top + over.top, size.height * 0.75 - insets.bottom))
                grown.bottom = max(insets.bottom, min(insets.bottom + over.bottom, size.height * 0.75 - grown.top))
                grown.left = max(insets.left, min(insets.left + over.left, size.width * 0.75 - insets.right))
                grown.right = max(insets.right, min(insets.right + over.right, size.width * 0.75 - grown.left))
                guard grown != insets, let refit = Camera.fitting(fit, size: size, padding: grown, bearing: bearing,
                                                                   pitch: pitch, maxZoom: maxZoom) else { break }
                insets = grown
                cam = refit
            }
        }
        cam.zoom = max(0, cam.zoom)
        cam.pixelRatio = scale
        return cam
    }

    /// How far, in logical pixels, what the overlays draw reaches beyond the points a fit uses:
    /// pins above their tips, dots and arrows around their centres, lines and outlines by half
    /// their width, circles in pixels by their radius, labels by about half their text.
    static func drawnExtent(of overlays: [Overlay]) -> EdgeInsets {
        var e = EdgeInsets()
        func grow(top: Double, left: Double, bottom: Double, right: Double) {
            guard top.isFinite, left.isFinite, bottom.isFinite, right.isFinite else { return }
            e.top = max(e.top, top); e.left = max(e.left, left); e.bottom = max(e.bottom, bottom); e.right = max(e.right, right)
        }
        func all(_ v: Double) { grow(top: v, left: v, bottom: v, right: v) }
        // A line in pixels reaches half its width and its casing out; an outline half its width.
        func line(_ style: LineStyle) {
            if case .pixels(let w) = style.width { all(w / 2 + (style.casingColor != nil ? style.casingWidth : 0) + 1) }
        }
        func outline(_ stroke: Color?, _ width: Double) { if stroke != nil { all(width / 2 + 1) } }
        for o in overlays {
            switch o {
            case .marker(let m):
                let k = m.drawnScale
                switch m.style {
                case .pin: grow(top: k * Marker.pinHeight + 3, left: k * 9 + 5, bottom: 3, right: k * 9 + 5)
                case .dot: all(k * (Marker.dotDiameter / 2 + Marker.dotRingWidth) + 1)
                case .arrow: all(k * Marker.arrowSize / 2 + 2)
                case .image(let img, let anchor):
                    grow(top: k * img.logicalHeight * anchor.y, left: k * img.logicalWidth * anchor.x,
                         bottom: k * img.logicalHeight * (1 - anchor.y), right: k * img.logicalWidth * (1 - anchor.x))
                }
            case .polyline(let p): line(p.style)
            case .polygon(let p): outline(p.stroke, p.strokeWidth)
            case .multiPolyline(let p): line(p.style)
            case .multiPolygon(let p): outline(p.stroke, p.strokeWidth)
            case .circle(let c):
                if case .pixels(let r) = c.radius { all(r + (c.stroke != nil ? c.strokeWidth / 2 : 0) + 1) }
                else if c.stroke != nil { all(c.strokeWidth / 2 + 1) }
            case .label(let l):
                let half = Double(l.text.count) * l.size * 0.3 + l.haloWidth
                grow(top: l.size * 0.6, left: half, bottom: l.size * 0.6, right: half)
            case .cluster(let c):
                // A fit sees every marker; at the fitted zoom they may be discs or pins.
                all(MarkerCluster.discDiameter(count: c.markers.count) / 2 + 1)
                grow(top: Marker.pinHeight + 3, left: 14, bottom: 3, right: 14)
            default: break
            }
        }
        return e
    }

    struct Built {
        var overlays: [Overlay] = []
        var fitPoints: [LatLng] = []
    }

    func overlay(_ s: SceneDocument.OverlaySpec, index i: Int, tilt: (Double, Double) = (0, 0)) throws -> Built {
        // (The locator alone, not a copy of the loader, for each overlay.)
        let locate = self.locate
        let at = { (key: String) in locate(i, key) }
        let z = try zIndex(s, at: at)
        var out = Built()
        switch s.type {
        case "route":
            let style = try lineStyle(s, at: at)
            var waypoints: [Waypoint] = []
            for (part, times) in try routeParts(s, at: at, waypoints: &waypoints) {
                let path = try wrap(at("")) { () throws(SceneError) in try GeoPath(coordinates: part, steps: .shorterWay) }
                var line = Polyline(path: path, style: style, geodesic: s.geodesic ?? false, zIndex: z)
                line.times = times
                out.overlays.append(.polyline(line))
                out.fitPoints += Self.fitSample(part)
            }
            if s.waypoints ?? drawWaypoints {
                for w in waypoints.prefix(SceneLimits.maxWaypoints) where w.coordinate.isValid {
                    let label = w.name.map { String($0.prefix(80)) }
                    out.overlays.append(.marker(try wrap(at("file")) { () throws(SceneError) in
                        try Marker(position: w.coordinate, style: .pin, color: Color(rgb: 0x8250DF), label: label, zIndex: z.map { $0 + 1 })
                    }))
                    out.fitPoints.append(w.coordinate)
                }
            }
        case "image":
            let image = try overlayImage(s, at: at)
            let opacity = s.rasterOpacity ?? 1
            guard opacity.isFinite, opacity >= 0, opacity <= 1 else {
                throw SceneLoadError(at("rasterOpacity"), "\(Self.fmt(opacity)) is not in 0…1")
            }
            let ground: GroundImage
            if let b = s.bounds, s.corners == nil {
                guard b.count == 4 else { throw SceneLoadError(at("bounds"), "expected [south, west, north, east]") }
                let bounds: GeoBounds
                do { bounds = try GeoBounds(south: b[0], west: b[1], north: b[2], east: b[3]) } catch {
                    throw SceneLoadError(at("bounds"), "\(error)")
                }
                guard bounds.north > bounds.south else { throw SceneLoadError(at("bounds"), "north must be above south") }
                ground = GroundImage(bounds: bounds, image: image, opacity: opacity, zIndex: z)
                out.fitPoints += [LatLng(lat: b[0], lon: b[1]), LatLng(lat: b[2], lon: b[3])]
            } else if let c = s.corners, s.bounds == nil {
                guard c.count == 4 else { throw SceneLoadError(at("corners"), "expected four [lat, lon] corners: top-left, top-right, bottom-right, bottom-left") }
                let pts = try c.enumerated().map { j, v in try position(v, at("corners[\(j)]")) }
                guard pts.allSatisfy({ abs($0.lat) <= 85.06 }) else {
                    throw SceneLoadError(at("corners"), "corners must be within ±85.06° latitude (Web Mercator)")
                }
                ground = GroundImage(corners: pts, image: image, opacity: opacity, zIndex: z)
                out.fitPoints += pts
            } else {
                throw SceneLoadError(at(""), "an image needs exactly one of bounds or corners")
            }
            out.overlays.append(.image(ground))
        case "polygon":
            let fill = try color(s.fill, at("fill")) ?? Color(rgb: 0x1F6FEB, alpha: 0x40)
            let stroke = try color(s.stroke, at("stroke"))
            let width = try positive(s.strokeWidth ?? 1, at("strokeWidth"), allowZero: true)
            for rings in try polygonRings(s, at: at) {
                let poly = try wrap(at("rings")) { () throws(SceneError) in
                    try Polygon(exterior: rings[0], holes: Array(rings.dropFirst()), fill: fill, stroke: stroke,
                                strokeWidth: width, zIndex: z)
                }
                out.overlays.append(.polygon(poly))
                out.fitPoints += Self.fitSample(rings[0])
            }
        case "circle":
            let center = try position(s.position, at("position"))
            let radius = try radiusLength(s, at: at)
            let fill = try color(s.fill, at("fill")) ?? Color(rgb: 0xFF0000, alpha: 0x40)
            let stroke = s.stroke == nil ? Color(rgb: 0xFF0000) : try color(s.stroke, at("stroke"))
            let width = try positive(s.strokeWidth ?? 2, at("strokeWidth"), allowZero: true)
            let c = try wrap(at("")) { () throws(SceneError) in
                try Circle(center: center, radius: radius, fill: fill, stroke: stroke, strokeWidth: width, zIndex: z)
            }
            out.overlays.append(.circle(c))
            out.fitPoints.append(center)
            if case .meters(let m) = radius {
                for az in stride(from: 0.0, to: 360, by: 45) {
                    out.fitPoints.append(Geodesic.wgs84.direct(from: center, azimuth: az, distance: m).point)
                }
            }
        case "marker":
            let p = try position(s.position, at("position"))
            let c = try color(s.color, at("color")) ?? Color(rgb: 0xD1242F)
            let style: MarkerStyle
            if let icon = s.icon {
                let anchor = try anchorPair(s.anchor, at("anchor"))
                style = .image(try iconImage(icon, at("icon")), anchor: anchor)
            } else {
                switch s.style ?? "dot" {
                case "dot": style = .dot
                case "pin": style = .pin
                case let o: throw SceneLoadError(at("style"), "unknown marker style '\(o)' (expected dot or pin)")
                }
            }
            let scale = s.size ?? 1
            guard Marker.scaleRange.contains(scale) else {
                throw SceneLoadError(at("size"), "\(Self.fmt(scale)) is not a marker size: a factor in "
                                     + "\(Self.fmt(Marker.scaleRange.lowerBound))…\(Self.fmt(Marker.scaleRange.upperBound)), 1 the normal size")
            }
            let m = try wrap(at("")) { () throws(SceneError) in
                try Marker(position: p, style: style, color: c, label: s.label, zIndex: z, scale: scale, glyph: s.glyph,
                           symbol: s.symbol)
            }
            out.overlays.append(.marker(m))
            out.fitPoints.append(p)
        case "label":
            let p = try position(s.position, at("position"))
            guard let text = s.text ?? s.label, !text.isEmpty else { throw SceneLoadError(at("text"), "a label needs text") }
            let c = try color(s.color, at("color")) ?? Color(rgb: 0x1F2328)
            let halo = s.halo == nil ? Color.white : try color(s.halo, at("halo"))
            let size = try positive(s.size ?? 14, at("size"))
            let l = try wrap(at("")) { () throws(SceneError) in
                try Label(position: p, text: text, size: size, color: c, haloColor: halo, zIndex: z)
            }
            out.overlays.append(.label(l))
            out.fitPoints.append(p)
        case "geojson":
            // Each feature as the overlay its geometry makes, styled by its simplestyle properties.
            let specs: [SceneDocument.OverlaySpec]
            switch (s.file, s.data) {
            case (let file?, nil):
                let track = try readTrack(file, at("file"))
                do { specs = try SimpleStyle.overlays(of: track, base: s) } catch { throw SceneLoadError(at("file"), "\(error)") }
            case (nil, let data?):
                do { specs = try SimpleStyle.overlays(of: data, base: s) } catch { throw SceneLoadError(at("data"), "\(error)") }
            default: throw SceneLoadError(at(""), "a geojson overlay needs exactly one of file or data")
            }
            var points: [Marker] = []
            let clustered = s.cluster ?? false
            if !clustered, s.clusterRadius != nil || s.clusterMaxZoom != nil || s.clusterColor != nil {
                throw SceneLoadError(at("cluster"), "clusterRadius, clusterMaxZoom and clusterColor need \"cluster\": true")
            }
            var drawn: [Overlay] = []
            for spec in specs {
                let built = try overlay(spec, index: i, tilt: tilt)
                for o in built.overlays {
                    if clustered, case .marker(let m) = o { points.append(m) } else { drawn.append(o) }
                }
                out.fitPoints += built.fitPoints
            }
            // Thousands of alike opaque shapes (a file of building footprints) as one overlay each
            // way, drawn the same (see `Overlay.mergingAlikeRuns`).
            out.overlays += Overlay.mergingAlikeRuns(drawn)
            if clustered {
                let colour = try color(s.clusterColor, at("clusterColor")) ?? Color(rgb: 0x1F6FEB)
                let c = try wrap(at("")) { () throws(SceneError) in
                    try MarkerCluster(markers: points, radius: s.clusterRadius ?? 50, maxZoom: s.clusterMaxZoom ?? 16,
                                      color: colour, zIndex: z)
                }
                out.overlays.append(.cluster(c))
            }
        case "column", "arc", "extrusion":
            let built = try overlay3D(s, z: z, at: at, tilt: tilt)
            out.overlays += built.overlays
            out.fitPoints += built.fitPoints
        case let t:
            throw SceneLoadError(at("type"), "unknown overlay type '\(t)' (expected route, polygon, circle, marker, label, geojson, image, column, arc or extrusion)")
        }
        return out
    }

    // MARK: pieces

    /// The overlay's `z`, if any, as a z-index.
    func zIndex(_ s: SceneDocument.OverlaySpec, at: (String) -> String) throws -> Int? {
        try s.z.map { v -> Int in
            guard v.isFinite, abs(v) < 1e9 else { throw SceneLoadError(at("z"), "\(v) is not a usable z-index") }
            return Int(v)
        }
    }

    /// `radius` in `radiusUnit` (m by default, km or px).
    func radiusLength(_ s: SceneDocument.OverlaySpec, at: (String) -> String) throws -> Length {
        let r = try positive(s.radius, at("radius"))
        switch s.radiusUnit ?? "m" {
        case "m": return .meters(r)
        case "km": return .meters(r * 1000)
        case "px": return .pixels(r)
        case let u: throw SceneLoadError(at("radiusUnit"), "unknown unit '\(u)' (expected m, km or px)")
        }
    }

    func lineStyle(_ s: SceneDocument.OverlaySpec, at: (String) -> String) throws -> LineStyle {
        let width = try positive(s.width ?? 4, at("width"))
        let w: Length
        switch s.widthUnit ?? "px" {
        case "px": w = .pixels(width)
        case "m": w = .meters(width)
        case let u: throw SceneLoadError(at("widthUnit"), "unknown unit '\(u)' (expected px or m)")
        }
        let color = try color(s.color, at("color")) ?? Color(rgb: 0x1F6FEB)
        guard let join = LineJoin(rawValue: s.join ?? "round") else {
            throw SceneLoadError(at("join"), "unknown join '\(s.join ?? "")' (expected round, miter or bevel)")
        }
        guard let cap = LineCap(rawValue: s.cap ?? "round") else {
            throw SceneLoadError(at("cap"), "unknown cap '\(s.cap ?? "")' (expected round, butt or square)")
        }
        let dash = s.dash ?? []
        guard dash.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 10_000 }), dash.isEmpty || dash.contains(where: { $0 > 0 }),
              dash.count <= 8 else {
            throw SceneLoadError(at("dash"), "dash lengths are line widths: at most 8 of them, each 0…10000, not all zero")
        }
        var style = LineStyle(width: w, color: color, join: join, cap: cap, dash: dash)
        style.dashUnit = .lineWidths
        if let casing = s.casing {
            style.casingColor = try self.color(casing.color, at("casing.color"))
            style.casingWidth = try positive(casing.width ?? 1, at("casing.width"), allowZero: true)
        }
        return style
    }

    /// Each part's positions, and its times (seconds since 1970) when every point has one.
    func routeParts(_ s: SceneDocument.OverlaySpec, at: (String) -> String) throws -> [([LatLng], [Double]?)] {
        var ignored: [Waypoint] = []
        return try routeParts(s, at: at, waypoints: &ignored)
    }

    func routeParts(_ s: SceneDocument.OverlaySpec, at: (String) -> String, waypoints: inout [Waypoint]) throws -> [([LatLng], [Double]?)] {
        var sources = 0
        var parts: [([LatLng], [Double]?)] = []
        if let coords = s.coordinates {
            sources += 1
            parts.append((try coords.enumerated().map { j, c in try position(c, at("coordinates[\(j)]")) }, nil))
        }
        if let text = s.polyline {
            sources += 1
            do {
                let track = try TrackReader.read(Array(text.utf8), name: at("polyline"),
                                                 options: TrackReadOptions(format: .polyline))
                parts += track.parts.map { ($0.points.map(\.coordinate), nil) }
            } catch { throw SceneLoadError(at("polyline"), "\(error)") }
        }
        if let file = s.file {
            sources += 1
            let track = try readTrack(file, at("file"))
            waypoints = track.waypoints
            parts += track.parts.map { part in
                let times = part.points.compactMap { $0.time?.timeIntervalSince1970 }
                return (part.points.map(\.coordinate), times.count == part.points.count ? times : nil)
            }
        }
        guard sources == 1 else {
            throw SceneLoadError(at(""), "a route needs exactly one of file, coordinates or polyline")
        }
        parts = parts.filter { !$0.0.isEmpty }
        guard !parts.isEmpty || !waypoints.isEmpty else { throw SceneLoadError(at(""), "the route has no points") }
        return parts
    }

    func polygonRings(_ s: SceneDocument.OverlaySpec, at: (String) -> String) throws -> [[[LatLng]]] {
        if let rings = s.rings {
            guard !rings.isEmpty else { throw SceneLoadError(at("rings"), "a polygon needs an outer ring") }
            return [try rings.enumerated().map { r, ring in
                try ring.enumerated().map { j, c in try position(c, at("rings[\(r)][\(j)]")) }
            }]
        }
        guard let file = s.file else { throw SceneLoadError(at(""), "a polygon needs rings or a file") }
        let polygons = try readTrack(file, at("file")).polygons.map(\.rings)
        guard !polygons.isEmpty else { throw SceneLoadError(at("file"), "'\(file)' has no polygon rings") }
        return polygons
    }

    func readTrack(_ file: String, _ where_: String) throws -> Track {
        let url = resolve(file)
        do {
            return try TrackReader.read(contentsOf: url)
        } catch {
            throw SceneLoadError(where_, "\(error)")
        }
    }

    /// The image of an image overlay (PNG, JPEG or WebP), at most 4096 px a side.
    private func overlayImage(_ s: SceneDocument.OverlaySpec, at: (String) -> String) throws -> SpriteImage {
        guard let file = s.file else { throw SceneLoadError(at("file"), "an image overlay needs a file (PNG, JPEG or WebP)") }
        return try sprite(file, at("file"), what: "images") { try Bitmap(contentsOfImageFile: $0) }
    }

    private func iconImage(_ file: String, _ where_: String) throws -> SpriteImage {
        try sprite(file, where_, what: "icons") { try Bitmap(contentsOfPNGFile: $0) }
    }

    /// Reads `file` (relative to the scene) with `decode` into a sprite of at most 4096 px a side.
    private func sprite(_ file: String, _ where_: String, what: String, decode: (String) throws -> Bitmap) throws -> SpriteImage {
        let path = resolve(file).path
        if let image = sprites.image(path, what) { return image }
        let bitmap: Bitmap
        do { bitmap = try decode(path) } catch { throw SceneLoadError(where_, "\(error)") }
        guard let image = SpriteImage(width: bitmap.width, height: bitmap.height, pixels: bitmap.premultipliedPixels()) else {
            throw SceneLoadError(where_, "'\(file)' is \(bitmap.width)x\(bitmap.height) px; \(what) may be at most 4096 px a side")
        }
        sprites.store(image, path, what)
        return image
    }

    /// A path from the document: absolute as it is, relative to `baseDirectory` otherwise.
    private func resolve(_ file: String) -> URL {
        if file == "-" { return URL(fileURLWithPath: "-") }  // standard input (tracks)
        return file.hasPrefix("/") ? URL(fileURLWithPath: file) : baseDirectory.appendingPathComponent(file)
    }

    private func anchorPair(_ v: [Double]?, _ where_: String) throws -> (x: Double, y: Double) {
        guard let v else { return (0.5, 0.5) }
        guard v.count == 2, v.allSatisfy({ $0.isFinite }) else { throw SceneLoadError(where_, "expected [x, y] fractions") }
        return (v[0], v[1])
    }

    /// (`where_` is built only for an error: a polygon's rings call this for every point.)
    func position(_ v: [Double]?, _ where_: @autoclosure () -> String) throws -> LatLng {
        guard let v else { throw SceneLoadError(where_(), "missing position [lat, lon]") }
        guard v.count == 2 else { throw SceneLoadError(where_(), "expected [lat, lon], got \(v.count) numbers") }
        guard v[0].isFinite, v[1].isFinite else { throw SceneLoadError(where_(), "coordinates must be finite numbers") }
        guard abs(v[0]) <= 90 else { throw SceneLoadError(where_(), "latitude \(Self.fmt(v[0])) is outside -90…90") }
        guard abs(v[1]) <= 1e6 else { throw SceneLoadError(where_(), "longitude \(Self.fmt(v[1])) is out of range") }
        return LatLng(lat: v[0], lon: v[1])
    }

    /// Draws a snapshot's vector tile layers in the document's style (`vectorStyle.base`, else
    /// `style`, else light) with its `vectorStyle` colours, and, where a vector layer is the
    /// bottom one and no embedded basemap lies under it, paints the ground past the tiles in the
    /// style's background (dark beyond a dark map's edge). The server calls it with the
    /// request's document over its own tile layers.
    public func applyVectorStyle(_ doc: SceneDocument, to snapshot: inout Snapshot) throws {
        let base = doc.vectorStyle?.base ?? doc.style ?? "light"
        guard var style = VectorTileStyle.named(base) else {
            let key = doc.vectorStyle?.base != nil ? "vectorStyle.base" : "style"
            throw SceneLoadError(key, "unknown style '\(base)' (expected light or dark)")
        }
        if let spec = doc.vectorStyle { style = try vectorStyle(style, spec) }
        snapshot.vectorStyle = style
        if snapshot.tileLayers.first?.isVector == true, snapshot.basemapStyle == nil { snapshot.background = Color(style.background) }
    }

    /// A built-in vector style with a scene's colour overrides; an unknown kind is an error
    /// listing the known ones.
    func vectorStyle(_ base: VectorTileStyle, _ spec: SceneDocument.VectorStyleSpec) throws -> VectorTileStyle {
        var style = base
        func basemapColor(_ c: Color) -> BasemapColor {
            BasemapColor(r: Double(c.r) / 255, g: Double(c.g) / 255, b: Double(c.b) / 255, a: Double(c.a) / 255)
        }
        if let c = try color(spec.background, "vectorStyle.background") { style.background = basemapColor(c) }
        if let c = try color(spec.casing, "vectorStyle.casing") { style.casing = basemapColor(c) }
        if let c = try color(spec.labelText, "vectorStyle.labelText") { style.labels.labelText = basemapColor(c) }
        if let c = try color(spec.labelHalo, "vectorStyle.labelHalo") { style.labels.labelHalo = basemapColor(c) }
        let kinds = Dictionary(uniqueKeysWithValues: VectorFeatureKind.allCases.map { ("\($0)", $0) })
        for (name, value) in (spec.colors ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let kind = kinds[name] else {
                throw SceneLoadError("vectorStyle.colors.\(name.prefix(40))",
                                     "unknown kind (known: \(VectorFeatureKind.allCases.map { "\($0)" }.joined(separator: ", ")))")
            }
            if let c = try color(value, "vectorStyle.colors.\(name)") { style.colors[kind] = basemapColor(c) }
        }
        for (name, value) in (spec.poiColors ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let category = VectorPOICategory(rawValue: name) else {
                throw SceneLoadError("vectorStyle.poiColors.\(name.prefix(40))",
                                     "unknown category (known: \(VectorPOICategory.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            if let c = try color(value, "vectorStyle.poiColors.\(name)") { style.poiColors[category] = basemapColor(c) }
        }
        style.name = "\(base.name), customised"
        return style
    }

    func color(_ text: String?, _ where_: @autoclosure () -> String) throws -> Color? {
        guard let text else { return nil }
        do { return try Color(parsing: text) } catch { throw SceneLoadError(where_(), "\(error)") }
    }

    func positive(_ v: Double?, _ where_: @autoclosure () -> String, allowZero: Bool = false) throws -> Double {
        guard let v else { throw SceneLoadError(where_(), "missing value") }
        guard v.isFinite, allowZero ? v >= 0 : v > 0 else {
            throw SceneLoadError(where_(), "\(Self.fmt(v)) is not a \(allowZero ? "non-negative" : "positive") finite number")
        }
        guard v < 1e9 else { throw SceneLoadError(where_(), "\(Self.fmt(v)) is over the limit of 1e9") }
        return v
    }

    func wrap<T>(_ where_: @autoclosure () -> String, _ body: () throws(SceneError) -> T) throws -> T {
        do { return try body() } catch {
            let at = where_()
            throw SceneLoadError(at.isEmpty ? error.parameter : "\(at) \(error.parameter)", error.reason)
        }
    }

    /// The points a fit must see: all of them for ordinary tracks; for huge ones, every k-th
    /// plus the extremes in each direction (so the fitted camera still holds every point).
    static func fitSample(_ pts: [LatLng]) -> [LatLng] {
        guard pts.count > 200_000 else { return pts }
        let step = pts.count / 100_000
        var out: [LatLng] = []
        out.reserveCapacity(100_010)
        var minLat = pts[0], maxLat = pts[0], minLon = pts[0], maxLon = pts[0]
        for (i, p) in pts.enumerated() {
            if i % step == 0 { out.append(p) }
            if p.lat < minLat.lat { minLat = p }
            if p.lat > maxLat.lat { maxLat = p }
            if p.lon < minLon.lon { minLon = p }
            if p.lon > maxLon.lon { maxLon = p }
        }
        return out + [minLat, maxLat, minLon, maxLon]
    }

    static func fmt(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}

/// Images read by one load of a `SceneLoader`, by path and kind ("icons", "images").
private final class SpriteCache: @unchecked Sendable {
    private let lock = NSLock()
    private var images: [String: SpriteImage] = [:]

    func image(_ path: String, _ what: String) -> SpriteImage? {
        lock.withLock { images[what + "\u{0}" + path] }
    }

    func store(_ image: SpriteImage, _ path: String, _ what: String) {
        lock.withLock { images[what + "\u{0}" + path] = image }
    }

    func clear() {
        lock.withLock { images.removeAll() }
    }
}
