import Canvas2D
import Foundation
import GeoKit
import MapCamera
import MapImage
import MapRender
import MapRenderGL
import MapScene
import MapTiles

/// What to draw for one image: the camera, the overlays, the basemap style and the extras.
public struct Snapshot: Sendable {
    /// The camera (its size and pixel ratio give the output size).
    public var camera: Camera
    /// The overlays, drawn over the basemap in z-order.
    public var overlays: [Overlay]
    /// The embedded basemap's style, or nil for no basemap.
    public var basemapStyle: BasemapStyle?
    /// The colour under everything when there is no basemap (transparent by default).
    public var background: Color
    /// Draw the attribution (Natural Earth's, when the basemap is drawn) in the bottom-right corner.
    public var attribution: Bool
    /// Draw a scale bar in the bottom-left corner.
    public var scaleBar: Bool
    /// Draw a compass rose, turned with the bearing and tilted with the pitch, in the top-right corner.
    public var compass: Bool
    /// Draw the embedded basemap's place names and dots (false: land, water and borders only,
    /// for maps that bring their own labels).
    public var placeLabels = true
    /// The compass's opacity, 0…1 (a window fades it out when north is up).
    public var compassOpacity: Double = 1
    /// Draw every marker label, even where labels overlap each other or other markers
    /// (`Scene.labelsMayOverlap`); by default a crowded label is left out.
    public var labelsMayOverlap = false
    /// Seconds a marker label takes to fade in or out when the placement shows or hides it,
    /// on `time`'s clock (`Scene.labelFade`); 0, for stills, shows each frame's placement at
    /// once. A window and `mapwright animate` fade over 0.3 s, as MapLibre does.
    public var labelFade = 0.0
    /// Callouts (boxes of text with a pointer on a ground position), drawn above everything.
    public var callouts: [Callout] = []
    /// Lines of a heads-up panel drawn in the top-left corner, or nil for none.
    public var hud: [String]?
    /// App-drawn 2D layers, drawn in screen space over the overlays and under the extras.
    public var canvasLayers: [any CanvasLayer] = []
    /// App-drawn GL layers, drawn into the map's 3D space (depth-tested against columns).
    public var glLayers: [any GLCustomLayer] = []
    /// The time of this frame in seconds (what canvas and GL layers are told).
    public var time: Double = 0
    /// Tile layers (raster and vector) drawn on the ground over the embedded basemap (if any;
    /// place labels stay on top) and under the overlays, first is lowest.
    public var tileLayers: [TileLayer] = []
    /// The tile layers, by their earlier name.
    @available(*, deprecated, renamed: "tileLayers")
    public var rasterLayers: [TileLayer] {
        get { tileLayers }
        set { tileLayers = newValue }
    }
    /// The style vector tile layers are drawn in for this image, or nil for each layer's own
    /// (`TileLayer.vectorStyle`): a server draws one set of layers in each request's style.
    public var vectorStyle: VectorTileStyle?
    /// The language of vector tiles' place names for this image (`en` draws `name:en` where a
    /// place has it), or nil for each layer's `language` (by default the local names).
    public var placeLanguage: String?
    /// How long a render waits for the view's tiles, seconds; nil does not wait (tiles that
    /// are not loaded are requested, and stand-ins are drawn meanwhile, as a window does).
    public var tileWait: Double?
    /// Pictures of the ground drawn earlier (`MapSnapshotter.pictureGround`, `GroundTiles`), as
    /// images on the ground, to draw instead of the basemap's shapes and tiles (nil: the ground
    /// itself): a window's frames while the view moves over a ground that is slow to draw.
    /// Labels, overlays and extras are drawn as always.
    public var groundStandIn: [GroundImage]?

    /// Creates a snapshot description.
    public init(camera: Camera, overlays: [Overlay] = [], basemapStyle: BasemapStyle? = .light,
                background: Color = .transparent, attribution: Bool = true, scaleBar: Bool = false,
                compass: Bool = false) {
        self.camera = camera; self.overlays = overlays; self.basemapStyle = basemapStyle
        self.background = background; self.attribution = attribution; self.scaleBar = scaleBar
        self.compass = compass
    }
}

/// A box of text pointing at a ground position.
public struct Callout: Sendable, Equatable {
    /// Where the pointer's tip goes.
    public var position: LatLng
    /// The text, one entry per line.
    public var lines: [String]
    /// Which copy of the world the callout stands on when the view shows more than one: false
    /// (the default) for the copy nearest the camera centre, as `Camera.project` places a
    /// position; true to take `position`'s longitude as given, unwrapped (190° is the copy one
    /// world east of −170°, −360° the copy one world west of 0°). `ViewSession` sets it to keep a
    /// selection's callout on the copy that was clicked.
    public var unwrappedLongitude: Bool

    public init(position: LatLng, lines: [String], unwrappedLongitude: Bool = false) {
        self.position = position; self.lines = lines; self.unwrappedLongitude = unwrappedLongitude
    }

    /// Where the pointer's tip lands on `camera`'s screen (logical px); nil behind the camera.
    public func screenPoint(in camera: Camera) -> ScreenPoint? {
        unwrappedLongitude ? camera.project(MapPoint(position)) : camera.project(position)
    }
}

/// App code that draws over the map in screen space every frame (logical px, origin top-left),
/// with the frame's camera to place geographic positions (`camera.project`). The layer's canvas
/// is kept between frames: when the camera has not changed, only the regions `dirtyRegions`
/// names are cleared and redrawn (clipped), so a layer that changes a little redraws a little.
public protocol CanvasLayer: AnyObject, Sendable {
    /// Draws the layer. The canvas is transparent (or, for a partial redraw, cleared and clipped
    /// to the dirty regions).
    func draw(in canvas: Canvas, camera: Camera, time: Double)
    /// What changed since the last frame: nil for everything (the default), an empty list for
    /// nothing, or rectangles in logical px.
    func dirtyRegions(camera: Camera, time: Double) -> [CanvasRect]?
}

extension CanvasLayer {
    public func dirtyRegions(camera: Camera, time: Double) -> [CanvasRect]? { nil }
}

/// Renders `Snapshot`s to bitmaps: the embedded basemap, the overlays through the GL renderer,
/// then the extras (compass, scale bar, attribution) drawn with Canvas2D.
///
/// Keep one snapshotter and render many images with it: the GL context, compiled programs,
/// meshes, textures and label bitmaps stay warm between renders. Calls are serialised.
public final class MapSnapshotter: @unchecked Sendable {
    /// The GL renderer in use.
    public let renderer: MapRenderer
    private let labels = CairoLabelRasterizer()
    private let lock = NSLock()
    private var basemap: BasemapLayers?
    private var layerCanvases: [ObjectIdentifier: (layer: any CanvasLayer, canvas: Canvas, camera: Camera)] = [:]

    /// Starts a renderer; throws `RenderError` (naming the Debian packages) when EGL or Mesa is missing.
    /// `samples`: multisamples per pixel, nil to let the renderer choose (none on a CPU
    /// rasteriser, where the shaders antialias; 4 on a GPU). See `MapRenderer.init`.
    public init(samples: Int? = nil, shaderAntialiasing: Bool? = nil) throws {
        renderer = try MapRenderer(labelRasterizer: labels, samples: samples, shaderAntialiasing: shaderAntialiasing)
    }

    /// Loads what the first render of `snapshot` would otherwise load on its way: the embedded
    /// basemap (when the snapshot shows it) and the label font (fontconfig's set-up). Both are
    /// process-wide and thread-safe, so a program that renders once can run this while
    /// `init` starts GL on another thread; the CLI does.
    public static func preload(for snapshot: Snapshot) {
        if snapshot.basemapStyle != nil { _ = try? EmbeddedBasemap.shared() }
        _ = Canvas.measure("Ag", font: Font(size: 12))
    }

    /// A description of the GL device, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) via surfaceless`.
    public var deviceDescription: String { renderer.deviceDescription }

    /// Where the last image's time went, in milliseconds.
    public struct Timings: Sendable {
        /// Choosing and labelling the basemap features for the view.
        public var basemap = 0.0
        /// Planning: culling, simplifying, tessellating (cached meshes re-used).
        public var plan = 0.0
        /// GL drawing, until finished.
        public var draw = 0.0
        /// Resolve and read-back.
        public var readBack = 0.0
        /// Compass, scale bar and attribution drawn on the image.
        public var extras = 0.0
        /// Triangles drawn.
        public var triangles = 0
    }

    /// The last image's timings.
    public var lastTimings: Timings { lock.withLock { timings } }
    private var timings = Timings()

    /// The raster tiles the last image needed and could not draw as themselves (failed, with
    /// why, or not loaded in time; ancestors stood in where they could). Empty when it is complete.
    public var lastTileProblems: [String] { lock.withLock { tileProblems } }
    private var tileProblems: [String] = []

    /// Whether the last image drew a marker label or a basemap place name fading in or out
    /// (`Snapshot.labelFade`): a live view draws another frame while it is true.
    public var labelsFading: Bool {
        renderer.planner.labelsFading || lock.withLock { placeFades.fading }
    }

    /// The basemap's place names shown or fading (`Snapshot.labelFade`), keyed by name and
    /// position; fading-out names are drawn where they were, under the placed ones.
    private var placeFades = LabelFades<PlaceLabel.Key, PlaceLabel>()

    /// Renders one image (straight-alpha RGBA, `size · pixelRatio` pixels).
    public func render(_ snapshot: Snapshot) throws -> Bitmap {
        try lock.withLock {
            let t0 = DispatchTime.now().uptimeNanoseconds
            func ms(_ from: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - from) / 1e6 }
            let camera = snapshot.camera
            var scene = Scene(background: snapshot.background, overlays: snapshot.overlays)
            scene.labelsMayOverlap = snapshot.labelsMayOverlap
            scene.labelFade = snapshot.labelFade
            var placement: MarkerLabelPlacement?
            let ground = try ground(for: snapshot, camera: camera)
            var places = ground.places
            let vectorPlaces = ground.vectorPlaces, vectorLabels = ground.vectorLabels
            var attributionText = ground.attribution
            let credits = ground.credits
            let labelStyle = ground.labelStyle
            if let background = ground.background { scene.background = background }
            if let standIn = snapshot.groundStandIn {
                // The picture of the ground stands in for the basemap's shapes and tiles (their
                // labels are placed as always, over it).
                scene.basemap = standIn.map { .image($0) }
            } else {
                scene.basemap = ground.basemap
                scene.basemapGroups = ground.groups
            }
            // Over the embedded basemap, a place the vector tiles also name is labelled once,
            // at the tiles' (more precise) position and in their spelling.
            places = BasemapLayers.withoutDuplicates(places, of: vectorPlaces) + vectorPlaces
            if !credits.isEmpty {
                attributionText = (credits + [attributionText].compactMap { $0 }).joined(separator: " · ")
            }
            if let style = labelStyle {
                // The marker labels' placement, made here so the basemap's labels keep clear of
                // it, is handed to the plan rather than made again.
                let reserved = BasemapLayers.reserved(scene, camera: camera, labels: labels)
                placement = reserved.placement
                var placed: [PlaceLabel] = []
                if snapshot.placeLabels {
                    // Place names first, then landmarks, the names along roads and waterways, and
                    // the other points of interest around them.
                    var boxes = LabelBoxes(reserved.boxes)
                    placed = BasemapLayers.placeLabels(places, camera: camera, style: style, labels: labels, boxes: &boxes)
                    for (ground, vectorStyle) in vectorLabels where !ground.pois.isEmpty {
                        placed += POILabels.place(ground.pois, tiers: 0 ... 0, camera: camera, style: vectorStyle, labels: labels,
                                                  boxes: &boxes)
                    }
                    for (ground, vectorStyle) in vectorLabels where !ground.namedLines.isEmpty {
                        placed += LineLabels.place(ground.namedLines, camera: camera, style: vectorStyle, labels: labels, boxes: &boxes)
                    }
                    for (ground, vectorStyle) in vectorLabels where !ground.pois.isEmpty {
                        placed += POILabels.place(ground.pois, tiers: 1 ... 2, camera: camera, style: vectorStyle, labels: labels,
                                                  boxes: &boxes)
                    }
                }
                let shown = placeFades.step(placed.map { ($0.key, $0) }, duration: snapshot.labelFade, time: snapshot.time)
                    .flatMap { $0.item.overlays(opacity: $0.opacity) }
                // The dots first, the plain ones before the capitals' ringed ones, then the names
                // and icons: dot after dot of one kind, the renderer draws them as one instanced
                // run (a name or a ring between two dots ends a run: a world view's 70 dot commands
                // one by one took 0.5 ms), and a name's halo lies over any dot it meets.
                func dot(_ o: Overlay) -> Int {
                    guard case .circle(let c) = o else { return 2 }
                    return c.stroke == nil ? 0 : 1
                }
                scene.basemapLabels = (0 ... 2).flatMap { kind in shown.filter { dot($0) == kind } }
            }
            let basemapMs = ms(t0)
            // The frame ends with the closure, so the bitmap holds its pixels alone (unless the
            // renderer keeps them for a partial redraw) and the extras draw on them in place
            // instead of on a copy.
            var bitmap: Bitmap = try {
                let frame = try renderer.render(scene: scene, camera: camera, customLayers: snapshot.glLayers, time: snapshot.time,
                                                labelPlacement: placement)
                return try Bitmap(width: frame.width, height: frame.height, pixels: frame.pixels)
            }()
            let t1 = DispatchTime.now().uptimeNanoseconds
            try drawExtras(on: &bitmap, snapshot: snapshot, attribution: attributionText)
            let r = renderer.lastTimings
            timings = Timings(basemap: basemapMs, plan: r.plan, draw: r.draw, readBack: r.readBack, extras: ms(t1), triangles: r.triangles)
            return bitmap
        }
    }

    /// The compass's diameter, logical px.
    public static let compassSize = 48.0

    /// Where the compass's centre is drawn for a view of `size` (10 px in from the top-right corner).
    public static func compassCenter(for size: ScreenSize) -> ScreenPoint {
        ScreenPoint(x: size.width - 10 - compassSize / 2, y: 10 + compassSize / 2)
    }

    private func drawCanvasLayers(on bitmap: inout Bitmap, snapshot: Snapshot) throws {
        let camera = snapshot.camera
        var live = Set<ObjectIdentifier>()
        for layer in snapshot.canvasLayers {
            let key = ObjectIdentifier(layer)
            live.insert(key)
            // The layer's canvas from the last frame, when it is the same layer at the same size.
            let kept = layerCanvases[key].flatMap { e in
                e.layer === layer && e.canvas.pixelWidth == bitmap.width && e.canvas.pixelHeight == bitmap.height ? e : nil
            }
            let canvas = try kept?.canvas ?? Canvas(pixelWidth: bitmap.width, pixelHeight: bitmap.height, scale: camera.pixelRatio)
            if let kept, kept.camera == camera, let rects = layer.dirtyRegions(camera: camera, time: snapshot.time) {
                // Only what changed: clear and redraw the dirty rectangles, clipped to them.
                if !rects.isEmpty {
                    canvas.save()
                    var clip = CanvasPath()
                    for r in rects { clip.addRect(r) }
                    canvas.clip(to: clip)
                    for r in rects { canvas.clear(r) }
                    layer.draw(in: canvas, camera: camera, time: snapshot.time)
                    canvas.restore()
                }
            } else {
                canvas.clear()
                layer.draw(in: canvas, camera: camera, time: snapshot.time)
            }
            layerCanvases[key] = (layer, canvas, camera)
            bitmap.composite(AnchoredBitmap(bitmap: try canvas.makeBitmap(), anchor: .zero, scale: camera.pixelRatio),
                             at: (0, 0), scale: camera.pixelRatio)
        }
        layerCanvases = layerCanvases.filter { live.contains($0.key) }
    }

    /// The basemap's ground for a view: the embedded basemap's shapes and the tile layers' (vector
    /// sets and raster tiles, requested or loaded as `snapshot.tileWait` says), with what their
    /// labels and attribution need.
    private struct Ground {
        var background: Color?
        var basemap: [Overlay] = []
        var groups: [BasemapGroup] = []
        var places: [BasemapPlace] = []
        var vectorPlaces: [BasemapPlace] = []
        var vectorLabels: [(ground: VectorGround, style: VectorTileStyle)] = []
        var attribution: String?
        var credits: [String] = []
        /// The place names' look: the embedded basemap's, else the first vector layer's.
        var labelStyle: BasemapStyle?
        /// Every vector tile of the cover drawn as itself.
        var complete = true
    }

    private func ground(for snapshot: Snapshot, camera: Camera) throws -> Ground {
        var g = Ground()
        g.labelStyle = snapshot.basemapStyle
        if let style = snapshot.basemapStyle {
            let layers = try basemapLayers()
            g.background = Color(style.ocean)
            let (shapes, found) = layers.layers(for: camera, style: style)
            g.basemap = shapes
            g.places = found
            g.attribution = layers.basemap.attribution
        }
        tileProblems = []
        for layer in snapshot.tileLayers {
            let cover = layer.cover(for: camera)
            if let wait = snapshot.tileWait { layer.load(cover, timeout: wait) } else { layer.request(cover) }
            tileProblems += layer.problems(cover)
            if layer.isVector {
                let style = snapshot.vectorStyle ?? layer.vectorStyle
                let planner = renderer.planner
                let ready: (([Overlay]) -> Bool)? = planner.backgroundMeshing == nil ? nil : {
                    planner.setsReady($0, camera: camera)
                }
                let vector = layer.vectorGround(cover, zoom: camera.zoom, style: style,
                                                language: snapshot.placeLanguage ?? layer.language, ready: ready)
                let first = g.basemap.count
                if g.basemap.isEmpty { g.basemap = vector.overlays } else { g.basemap += vector.overlays }
                // Faded as one layer: each pixel once, however many of its shapes cover it.
                if layer.opacity < 1 {
                    g.groups.append(BasemapGroup(range: first ..< g.basemap.count, opacity: layer.opacity))
                }
                g.vectorPlaces += vector.places
                if !vector.complete { g.complete = false }
                g.vectorLabels.append((vector, style))
                if g.labelStyle == nil { g.labelStyle = style.labels }
            } else {
                g.basemap += layer.groundImages(cover).map { Overlay.image($0) }
            }
            if let a = layer.attribution, !a.isEmpty, !g.credits.contains(a) { g.credits.append(a) }
        }
        return g
    }

    /// Draws the ground `snapshot` shows (the basemap's shapes and the tile layers, without
    /// labels, overlays or extras) around its view, `margin` of the view's longer side beyond
    /// each edge in whole logical pixels (less where the picture would be over
    /// `SpriteImage.maxSide` pixels a side), as a picture that can stand in for that ground while the view moves
    /// (`Snapshot.groundStandIn`). Nil when the view shows the sky (a corner of the picture
    /// would not be on the ground) or draws no ground.
    public func pictureGround(_ snapshot: Snapshot, margin: Double = 0.25) throws -> GroundPicture? {
        try lock.withLock { () throws -> GroundPicture? in
            let t0 = DispatchTime.now().uptimeNanoseconds
            let view = snapshot.camera
            let ratio = view.pixelRatio
            let w = view.size.width, h = view.size.height
            guard w > 0, h > 0, margin.isFinite, margin >= 0 else { return nil }
            // Whole logical pixels each side, so that the picture's pixels lie on the view's.
            let fit = (Double(SpriteImage.maxSide) / ratio - max(w, h)) / 2
            let m = max(0, min((margin * max(w, h)).rounded(.down), fit.rounded(.down)))
            var tries = m > 0 ? [m, 0] : [0]
            var camera = view
            var corners: [MapPoint]?
            while corners == nil, let mm = tries.first {
                tries.removeFirst()
                camera = view
                camera.size = ScreenSize(width: w + 2 * mm, height: h + 2 * mm)
                let cw = camera.size.width, ch = camera.size.height
                let found = [(0.0, 0.0), (cw, 0), (cw, ch), (0, ch)].compactMap { camera.unprojectToMapPoint(ScreenPoint(x: $0.0, y: $0.1)) }
                if found.count == 4 { corners = found }
            }
            guard let corners else { return nil }
            return try picture(snapshot, camera: camera, corners: corners, since: t0)
        }
    }

    /// Draws the ground `snapshot` shows (see `pictureGround(_:margin:)`) on tile `tile` (any
    /// level; a world copy's tile is the same picture moved by whole worlds), at the snapshot's
    /// pixel ratio: 512 logical px a side, north up, flat, at the tile's own zoom. Nil when there
    /// is no ground.
    public func pictureGround(_ snapshot: Snapshot, tile: TileID) throws -> GroundPicture? {
        try lock.withLock { () throws -> GroundPicture? in
            let t0 = DispatchTime.now().uptimeNanoseconds
            let n = Double(1 << tile.z)
            let middle = MapPoint(x: (Double(tile.x) + 0.5) / n, y: (Double(tile.y) + 0.5) / n)
            let camera = Camera(center: middle.latLng, zoom: Double(tile.z),
                                size: ScreenSize(width: 512, height: 512), pixelRatio: snapshot.camera.pixelRatio)
            let x0 = Double(tile.x) / n, y0 = Double(tile.y) / n, x1 = Double(tile.x + 1) / n, y1 = Double(tile.y + 1) / n
            let corners = [MapPoint(x: x0, y: y0), MapPoint(x: x1, y: y0), MapPoint(x: x1, y: y1), MapPoint(x: x0, y: y1)]
            // A tile the ground leaves empty (beyond an archive's extent) is its background.
            guard snapshot.basemapStyle != nil || !snapshot.tileLayers.isEmpty else { return nil }
            return try picture(snapshot, camera: camera, corners: corners, since: t0, emptyToo: true)
        }
    }

    /// The ground of `snapshot` drawn with `camera`, whose view's corners lie on `corners`; nil
    /// where it draws nothing unless `emptyToo`.
    private func picture(_ snapshot: Snapshot, camera: Camera, corners: [MapPoint], since t0: UInt64,
                         emptyToo: Bool = false) throws -> GroundPicture? {
        let ratio = camera.pixelRatio
        guard Double(camera.size.width) * ratio <= Double(SpriteImage.maxSide),
              Double(camera.size.height) * ratio <= Double(SpriteImage.maxSide) else { return nil }
        // (The capture's tiles are not the view's: the view's problems stay the last image's.)
        let problems = tileProblems
        defer { tileProblems = problems }
        let g = try ground(for: snapshot, camera: camera)
        guard emptyToo || !g.basemap.isEmpty else { return nil }
        var scene = Scene(background: g.background ?? snapshot.background, overlays: [])
        scene.basemap = g.basemap
        scene.basemapGroups = g.groups
        let frame = try renderer.render(scene: scene, camera: camera)
        let complete = tileProblems.isEmpty && g.complete && !renderer.planner.lastPlanStoodIn
        // The read-back is straight alpha; a sprite's pixels are premultiplied.
        let pixels = try Bitmap(width: frame.width, height: frame.height, pixels: frame.pixels).premultipliedPixels()
        guard let image = SpriteImage(width: frame.width, height: frame.height, pixels: pixels, pixelRatio: ratio) else { return nil }
        let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        return GroundPicture(image: image, corners: corners, camera: camera, milliseconds: ms, complete: complete)
    }

    private func basemapLayers() throws -> BasemapLayers {
        if let basemap { return basemap }
        let layers = BasemapLayers(basemap: try EmbeddedBasemap.shared())
        basemap = layers
        return layers
    }

    private func drawExtras(on bitmap: inout Bitmap, snapshot: Snapshot, attribution: String?) throws {
        let camera = snapshot.camera
        let scale = camera.pixelRatio
        let w = camera.size.width, h = camera.size.height
        let margin = 10.0
        try drawCanvasLayers(on: &bitmap, snapshot: snapshot)
        for callout in snapshot.callouts {
            guard let p = callout.screenPoint(in: camera) else { continue }
            // Below the point or to one side where the box would leave the view above it.
            let sprite = try MapSprites.callout(callout.lines, scale: scale) {
                CalloutAnchor.fitting(size: $0, tip: (p.x, p.y), view: (w, h))
            }
            bitmap.composite(sprite, at: (p.x, p.y), scale: scale)
        }
        if snapshot.compass, snapshot.compassOpacity > 0 {
            let sprite = try MapSprites.compass(bearing: camera.bearing, pitch: camera.pitch, size: Self.compassSize, scale: scale)
            let c = Self.compassCenter(for: camera.size)
            bitmap.composite(sprite, at: (c.x, c.y), scale: scale, opacity: min(1, snapshot.compassOpacity))
        }
        if let hud = snapshot.hud {
            bitmap.composite(try MapSprites.panel(hud, scale: scale), at: (margin, margin), scale: scale)
        }
        if snapshot.scaleBar,
           let mpp = camera.metersPerPixel(at: ScreenPoint(x: w / 2, y: h / 2)), mpp.isFinite, mpp > 0 {
            let sprite = try MapSprites.scaleBar(metresPerPixel: mpp, maxLength: min(120, w / 3), scale: scale)
            bitmap.composite(sprite, at: (margin, h - margin), scale: scale)
        }
        if snapshot.attribution, let text = attribution {
            // Natural Earth's sentence shortened to its credit where it would take more than half
            // the image's width (a small map keeps most of its bottom edge), then the text cut
            // with an ellipsis until it fits.
            var t = text
            var sprite = try MapSprites.attribution(t, scale: scale)
            func fits(_ share: Double = 1) -> Bool { Double(sprite.bitmap.width) / scale <= w * share }
            if !fits(0.5), let full = basemap?.basemap.attribution, t.contains(full) {
                t = t.replacingOccurrences(of: full, with: "Made with Natural Earth")
                sprite = try MapSprites.attribution(t, scale: scale)
            }
            while !fits(), t.count > 2 {
                t = String(t.dropLast(max(1, t.count / 8)))
                sprite = try MapSprites.attribution(t.trimmingCharacters(in: .whitespaces) + "…", scale: scale)
            }
            bitmap.composite(sprite, at: (w, h), scale: scale)
        }
    }
}

extension Bitmap {
    /// Draws `sprite` (source-over) so its anchor lands on `point` (logical px).
    mutating func composite(_ sprite: AnchoredBitmap, at point: (Double, Double), scale: Double, opacity: Double = 1) {
        let ox = Int((point.0 * scale - sprite.anchor.x).rounded())
        let oy = Int((point.1 * scale - sprite.anchor.y).rounded())
        let src = sprite.bitmap
        let x0 = max(0, ox), y0 = max(0, oy)
        let x1 = min(width, ox + src.width), y1 = min(height, oy + src.height)
        guard x0 < x1, y0 < y1 else { return }
        let srcPixels = src.pixels
        let w = width
        withMutablePixels { dst in
            for y in y0..<y1 {
                var si = ((y - oy) * src.width + (x0 - ox)) * 4
                var di = (y * w + x0) * 4
                for _ in x0..<x1 {
                    let sa = Double(srcPixels[si + 3]) / 255 * opacity
                    if sa > 0 {
                        let da = Double(dst[di + 3]) / 255
                        let oa = sa + da * (1 - sa)
                        for c in 0..<3 {
                            let s = Double(srcPixels[si + c]), d = Double(dst[di + c])
                            let v = (s * sa + d * da * (1 - sa)) / oa
                            dst[di + c] = UInt8(max(0, min(255, v.rounded())))
                        }
                        dst[di + 3] = UInt8(max(0, min(255, (oa * 255).rounded())))
                    }
                    si += 4
                    di += 4
                }
            }
        }
    }
}

