import Foundation
import GeoKit
import MapCamera
import MapScene

/// Turns a `Scene` seen through a `Camera` into a `RenderPlan`: simplifies lines to ≈0.5 px
/// at the render zoom, culls overlays outside the view, clips very large geometry to the
/// neighbourhood of the view, tessellates, and caches meshes keyed by the geometry's identity
/// (`GeoPath`), its style variant and the zoom bucket (half zoom levels), so renders of the same
/// data at nearby zooms re-use their meshes and only the camera matrices change.
/// Thread-safe (one lock); one planner per renderer.
public final class RenderPlanner: @unchecked Sendable {
    /// Draws label text (and marker labels); nil skips text.
    public var labelRasterizer: (any LabelRasterizer)? {
        get { lock.withLock { _rasterizer } }
        set { lock.withLock { _rasterizer = newValue } }
    }

    /// Drop the segments of heavily self-overlapping lines that cannot change the image (flat
    /// views only; the same image but for rare edge samples). On by default; off to measure or compare.
    public var cullsOverdraw: Bool {
        get { lock.withLock { _cullsOverdraw } }
        set { lock.withLock { _cullsOverdraw = newValue } }
    }

    /// Whether round joins are drawn as one triangle each, which the renderer's shader coverage
    /// cuts to the join's disc (true), or as fans of triangles (false: for multisampling, where
    /// the shaders do not compute coverage). `MapRenderer` sets it to its `shaderAntialiasing`.
    public var discJoins: Bool {
        get { lock.withLock { _discJoins } }
        set { lock.withLock { _discJoins = newValue } }
    }

    /// Whether a translucent set's fills keep their fringes along edges two of its parts share
    /// (false, the default: those fringes blend nothing, see `sharedEdges`; true to compare).
    var sharedEdgeFringes: Bool {
        get { lock.withLock { _sharedEdgeFringes } }
        set { lock.withLock { _sharedEdgeFringes = newValue } }
    }
    private var _sharedEdgeFringes = false

    /// Whether a translucent set's fills are drawn as opaque ones in a layer faded at the
    /// fill's opacity, and opaque sets with a layer in one at opacity 1 (true, the default: see
    /// `MultiPolygon.layer`), or with fringes, each pixel blended once, and opaque sets one after
    /// another (false: to compare).
    var layersTranslucentSets: Bool {
        get { lock.withLock { _layersTranslucentSets } }
        set { lock.withLock { _layersTranslucentSets = newValue } }
    }
    private var _layersTranslucentSets = true

    /// Whether the concave parts of a layer whose parts are apart are drawn as their triangles'
    /// convex fills (true, the default: see `triangleFillMesh`) or as wedge fills (false: to
    /// compare).
    var trianglesInLayers: Bool {
        get { lock.withLock { _trianglesInLayers } }
        set { lock.withLock { _trianglesInLayers = newValue } }
    }
    private var _trianglesInLayers = true
    /// Whether the overlay being planned is in a faded basemap group (`Scene.basemapGroups`),
    /// whose one layer its commands join: a translucent set there is not given a layer of its own.
    private var planningInFadedGroup = false

    /// Whether an opaque polygon set that would be a plan's first command (or come while nothing
    /// has been drawn, over an earlier such set), and one of whose polygons holds the whole view
    /// (`GroundCover.holdsView`), is left out and its colour given as the plan's `ground`, which
    /// the frame is cleared to (true, the default), or drawn (false: for comparisons). A view
    /// zoomed into the embedded basemap's land saves the fill.
    public var clearsCoveredGround: Bool {
        get { lock.withLock { _clearsCoveredGround } }
        set { lock.withLock { _clearsCoveredGround = newValue } }
    }
    private var _clearsCoveredGround = true
    /// The plan's `ground`, while planning.
    private var planGround: Color?

    /// Whether round columns (12 sides or more) are drawn as ray-cast cylinders
    /// (`VertexLayout.cylinder`, true) or as lit prisms of triangles (false: for comparisons).
    public var columnImpostors: Bool {
        get { lock.withLock { _columnImpostors } }
        set { lock.withLock { _columnImpostors = newValue } }
    }

    /// Builds sets' meshes (`MultiPolygon`, `MultiPolyline`) off the planning thread, drawing
    /// what was built for another zoom bucket meanwhile (see `BackgroundMeshing`); nil (the
    /// default) builds them when planned, so every plan is exact. A live view sets it.
    public var backgroundMeshing: BackgroundMeshing? {
        get { lock.withLock { _background } }
        set { lock.withLock { _background = newValue } }
    }

    /// Whether the last plan drew a marker label fading in or out (`Scene.labelFade`): a live
    /// view keeps drawing frames until it is false.
    public var labelsFading: Bool { lock.withLock { fades.fading } }

    /// Cache counters since creation.
    public struct Statistics: Sendable, Equatable {
        /// Meshes found in the cache.
        public var hits = 0
        /// Meshes tessellated.
        public var misses = 0
    }

    /// Cache counters since creation.
    public var statistics: Statistics { lock.withLock { stats } }

    /// Whether the last plan drew a set with a stand-in (another zoom bucket's mesh) or left it
    /// out, its own mesh being built in the background (`backgroundMeshing`).
    public var lastPlanStoodIn: Bool { lock.withLock { standInPlanned } }
    private var standInPlanned = false

    private let lock = NSLock()
    private var _rasterizer: (any LabelRasterizer)?
    private var _cullsOverdraw = true
    private var _discJoins = true
    /// Read while planning (the lock is held), by `addColumn`.
    var _columnImpostors = true
    private var cache: [MeshKey: CacheEntry] = [:]
    private var _background: BackgroundMeshing?
    /// A set's slot (its fills, outlines or lines): the key of its last mesh built, whatever
    /// the bucket, drawn while the frame's own is built in the background.
    private struct SetSlot: Hashable {
        var set: ObjectIdentifier
        var part: Int
    }
    private var setMeshes: [SetSlot: MeshKey] = [:]
    /// Merged runs of ground meshes (`batchGround`): kept apart from the tessellation cache and
    /// its statistics (merging copies meshes, it tessellates nothing).
    private var batches: [MeshKey: CacheEntry] = [:]
    /// Marker labels' fades (`Scene.labelFade`) as of the last plan, and its time.
    private var fades = LabelFades<LabelFadeKey, PlacedLabel>()
    private var generation = 0
    private var stats = Statistics()
    /// The last two pixel squares `pixelQuad` gave, and the plan (generation) they were found in.
    private var recentQuad, otherRecentQuad: (generation: Int, inner: Double, outer: Double, mesh: Mesh)?
    /// Entries unused for this many plans are dropped, but for the most recently used of them
    /// that hold at most `staleMeshBytes`.
    private let keepGenerations = 8
    /// Bytes of meshes (vertices, indices and lines' simplified pieces, and a kilobyte an entry) unused for
    /// `keepGenerations` plans that the cache still keeps, the least recently used dropped
    /// first: a view that comes back (a server's next tile beside the last few, a window
    /// zoomed back) finds them, and a long session's memory stays bounded.
    public static let staleMeshBytes = 64 << 20
    /// `staleMeshBytes`, for tests.
    var staleMeshBudget = RenderPlanner.staleMeshBytes

    /// Creates a planner.
    public init(labelRasterizer: (any LabelRasterizer)? = nil) {
        _rasterizer = labelRasterizer
    }

    /// Plans the frame. Invalid values inside overlays (non-finite widths and the like) are
    /// clamped or skipped, never trapped on. `placement`, when it was made for this scene and
    /// `camera` (a caller that laid something out around the labels first), is used instead of
    /// placing the marker labels again.
    public func plan(_ scene: Scene, camera: Camera, time: Double = 0, placement: MarkerLabelPlacement? = nil) -> RenderPlan {
        lock.lock()
        defer { lock.unlock() }
        generation += 1
        standInPlanned = false
        planGround = nil
        takeBackgroundMeshes()
        let view = PlanView(camera: camera)
        var commands: [DrawCommand] = []
        var labels = MarkerLabels()
        // The view seen from world copy k: the camera moved k worlds west (see
        // RenderPlanner+WorldCopies), made once per plan and copy.
        var shiftedViews: [Int: PlanView] = [:]
        func copyView(_ k: Int) -> PlanView {
            if k == 0 { return view }
            if let v = shiftedViews[k] { return v }
            var c = camera
            c.center.lon -= 360 * Double(k)
            let v = PlanView(camera: c)
            shiftedViews[k] = v
            return v
        }
        // Plans into copy k's view, then moves what it added k worlds east.
        func inCopy(_ k: Int, _ body: (PlanView) -> Void) {
            let first = commands.count
            body(copyView(k))
            if k != 0 { for i in first ..< commands.count { commands[i].origin.x += Double(k) } }
        }
        // The basemap comes first in the drawing order: the n-th overlay drawn is basemap[n]
        // while n < basemap.count, and its commands join the group that holds it.
        let groups = scene.basemapGroups.filter { $0.opacity < 1 && !$0.range.isEmpty }
        var drawn = 0
        scene.forEachInDrawingOrder { overlay in
            let first = commands.count
            let faded = drawn < scene.basemap.count ? groups.firstIndex(where: { $0.range.contains(drawn) }) : nil
            planningInFadedGroup = faded != nil
            defer {
                if let g = faded {
                    // (Negative: apart from the sets' layers, see `MultiPolygon.layer`.)
                    let group = DrawGroup(id: -(g + 1), opacity: max(0, groups[g].opacity))
                    for i in first ..< commands.count { commands[i].group = group }
                }
                drawn += 1
                planningInFadedGroup = false
            }
            guard let x = overlay.worldXExtent else {
                plan(overlay, view, copy: 0, &commands, &labels)
                return
            }
            for k in view.worldCopies.shifts(lo: x.lo, hi: x.hi) {
                inCopy(k) { plan(overlay, $0, copy: k, &commands, &labels) }
            }
        }
        // Marker labels go on top of everything else in the scene: each where it collides
        // with nothing placed before it, or all of them.
        if scene.labelsMayOverlap {
            for l in labels.labels { inCopy(l.copy) { addLabel(l.label, $0, &commands, opacity: l.opacity) } }
            fades.reset()
        } else if let rasterizer = _rasterizer, !labels.labels.isEmpty || !fades.isEmpty {
            let placed: [(Label, copy: Int, SpriteImage, opacity: Double)]
            if let placement, placement.camera == camera, !placement.mayOverlap {
                placed = placement.placed.compactMap { p in
                    rasterizer.rasterize(p.label, pixelRatio: camera.pixelRatio).map { (p.label, p.copy, $0, p.opacity) }
                }
            } else {
                placed = labels.placed(camera: camera, rasterizer: rasterizer)
            }
            let keyed = zip(Self.fadeKeys(placed), placed).map { (key: $0, item: PlacedLabel(label: $1.0, copy: $1.copy, image: $1.2, marker: $1.opacity)) }
            for (l, opacity) in fades.step(keyed, duration: scene.labelFade, time: time) {
                inCopy(l.copy) {
                    addQuad(at: l.label.position, image: l.image, anchor: l.label.anchor, offset: l.label.offset, $0, &commands,
                            opacity: opacity * l.marker)
                }
            }
        } else {
            fades.reset()
        }
        commands = batchSolids(commands, bearing: camera.bearing)
        commands = batchGround(commands, worldSize: camera.worldSize)
        evict()
        return RenderPlan(camera: camera, background: scene.background, commands: commands, ground: planGround)
    }

    /// One overlay's commands for one world copy's view (and its marker label for later).
    private func plan(_ overlay: Overlay, _ view: PlanView, copy k: Int, _ commands: inout [DrawCommand],
                      _ labels: inout MarkerLabels) {
        // A line's commands, marked as widths on the ground when its width is in metres.
        func line(_ width: Length, _ add: (inout [DrawCommand]) -> Void) {
            let first = commands.count
            add(&commands)
            if case .meters = width {
                for i in first ..< commands.count { commands[i].widthOnGround = true }
            }
        }
        switch overlay {
        case .polyline(let l): line(l.style.width) { addPolyline(l, view, &$0) }
        case .polygon(let poly): addPolygon(poly, view, &commands)
        case .multiPolyline(let set): line(set.style.width) { addMultiPolyline(set, view, &$0) }
        case .multiPolygon(let set): addMultiPolygon(set, view, &commands)
        case .circle(let circle): addCircle(circle, view, &commands)
        case .marker(let marker):
            let p = MapPoint(marker.position)
            addMarker(marker, at: p, view, &commands)
            labels.add(marker, at: p, copy: k)
        case .cluster(let cluster):
            for node in cluster.level(atZoom: view.camera.zoom) {
                if let i = node.marker {
                    plan(.marker(cluster.markers[i]), view, copy: k, &commands, &labels)
                } else {
                    addClusterDisc(node, of: cluster, view, &commands)
                    labels.addDisc(at: node.point, radius: MarkerCluster.discDiameter(count: node.count) / 2, copy: k)
                }
            }
        case .label(let label):
            let o = label.opacity.isNaN ? 1 : min(1, max(0, label.opacity))
            if o > 0 { addLabel(label, view, &commands, opacity: o) }
        case .sprite(let sprite):
            addQuad(at: sprite.position, image: sprite.image, anchor: sprite.anchor, offset: sprite.offset,
                    view, &commands, opacity: min(1, max(0, sprite.opacity.isNaN ? 1 : sprite.opacity)))
        case .column(let column): addColumn(column, view, &commands)
        case .extrusion(let extrusion): addExtrusion(extrusion, view, &commands)
        case .arc(let arc): addArc(arc, view, &commands)
        case .image(let image): addGroundImage(image, view, &commands)
        }
    }

    // MARK: label fades

    /// A marker label from one plan to the next: its text, world copy and which of the labels
    /// with that text and copy it is, in placement order (so a moving marker's label keeps its
    /// fade; markers have no identity of their own).
    struct LabelFadeKey: Hashable, Comparable {
        var text: String
        var copy: Int
        var nth: Int

        static func < (a: Self, b: Self) -> Bool { (a.text, a.copy, a.nth) < (b.text, b.copy, b.nth) }
    }

    /// A placed marker label: the label, its world copy, its image and its marker's opacity.
    struct PlacedLabel {
        var label: Label
        var copy: Int
        var image: SpriteImage
        var marker: Double
    }

    /// The fade keys of `placed`, in order (the nth label of a text and copy gets rank n).
    private static func fadeKeys(_ placed: [(Label, copy: Int, SpriteImage, opacity: Double)]) -> [LabelFadeKey] {
        var seen: [LabelFadeKey: Int] = [:]
        return placed.map { label, k, _, _ in
            var key = LabelFadeKey(text: label.text, copy: k, nth: 0)
            key.nth = seen[key, default: 0]
            seen[key] = key.nth + 1
            return key
        }
    }

    // MARK: cache

    func cached(_ key: MeshKey, retain: @autoclosure () -> [AnyObject] = [], make: () -> (Mesh, MapPoint))
        -> (Mesh, MapPoint) {
        if let e = cache[key], let m = e.mesh {
            e.lastUsed = generation
            stats.hits += 1
            return (m, e.origin)
        }
        stats.misses += 1
        let (mesh, origin) = make()
        cache[key] = CacheEntry(mesh: mesh, origin: origin, retain: retain(), lastUsed: generation)
        return (mesh, origin)
    }

    private func slot(_ key: MeshKey) -> SetSlot? {
        switch key.source {
        case .polygonSet(let id, let part): SetSlot(set: id, part: part)
        // (A variant's join, cap and kind, not its detail: the mesh of another width stands in.)
        case .pathSet(let id, let variant): SetSlot(set: id, part: 2 + variant % 1000 + variant / 100_000 * 1000)
        default: nil
        }
    }

    /// A set's mesh (`addMultiPolygon`, `addMultiPolyline`): from the cache, else made now, or
    /// with `backgroundMeshing` asked for in the background while the set's last mesh of
    /// another bucket (or nil, when it has none) stands in. A set `meshedAtOnceWhenMissing`
    /// with no mesh to stand in is made now.
    func cachedSet(_ key: MeshKey, atOnceWhenMissing: Bool = false, retain: @autoclosure () -> [AnyObject],
                   make: @escaping @Sendable () -> (Mesh, MapPoint)) -> (Mesh, MapPoint)? {
        let slot = slot(key)
        if let e = cache[key], let m = e.mesh {
            e.lastUsed = generation
            stats.hits += 1
            if let slot { setMeshes[slot] = key }
            return (m, e.origin)
        }
        let standsIn = slot.flatMap { setMeshes[$0] }.flatMap { cache[$0]?.mesh } != nil
        guard let background = _background, let slot, standsIn || !atOnceWhenMissing else {
            let made = cached(key, retain: retain(), make: make)
            if let slot { setMeshes[slot] = key }
            return made
        }
        background.request(key, retain: retain(), make: make)
        standInPlanned = true
        guard let k = setMeshes[slot], let e = cache[k], let m = e.mesh else { return nil }
        e.lastUsed = generation
        return (m, e.origin)
    }

    /// Moves the meshes built in the background into the cache.
    private func takeBackgroundMeshes() {
        guard let background = _background else { return }
        for b in background.take(generation: generation) {
            stats.misses += 1
            cache[b.key] = CacheEntry(mesh: b.mesh, origin: b.origin, retain: b.retain, lastUsed: generation)
            if let slot = slot(b.key) { setMeshes[slot] = b.key }
        }
    }

    /// Whether every `MultiPolygon` and `MultiPolyline` among `overlays` has meshes to draw at
    /// `camera` (of its zoom bucket or, with `backgroundMeshing`, another); with
    /// `backgroundMeshing`, starts building those missing, whole sets in view or not. Other
    /// overlays count as ready. A live view asks before it draws a new vector tile, so that the
    /// tile's stand-ins stay until it can be drawn at once.
    public func setsReady(_ overlays: [Overlay], camera: Camera) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        takeBackgroundMeshes()
        let view = PlanView(camera: camera)
        var scratch: [DrawCommand] = []
        var ready = true
        for overlay in overlays {
            switch overlay {
            case .multiPolygon(let set): ready = addMultiPolygon(set, view, &scratch, cull: false) && ready
            case .multiPolyline(let set): ready = addMultiPolyline(set, view, &scratch, cull: false) && ready
            default: break
            }
            scratch.removeAll(keepingCapacity: true)
        }
        return ready
    }

    /// A merged mesh from the batch cache, or made and kept (see `cached`).
    func cachedBatch(_ key: MeshKey, retain: @autoclosure () -> [AnyObject], make: () -> (Mesh, MapPoint)) -> (Mesh, MapPoint) {
        if let e = batches[key], let m = e.mesh {
            e.lastUsed = generation
            return (m, e.origin)
        }
        let (mesh, origin) = make()
        batches[key] = CacheEntry(mesh: mesh, origin: origin, retain: retain(), lastUsed: generation)
        return (mesh, origin)
    }

    private func evict() {
        let g = generation, keep = keepGenerations
        if batches.values.contains(where: { g - $0.lastUsed >= keep }) {
            batches = batches.filter { g - $0.value.lastUsed < keep }
        }
        // (Rebuilt only when what is stale holds more than the budget: an unchanged view, or
        // one that moved among views met lately, keeps every entry.)
        var staleBytes = 0
        for e in cache.values where g - e.lastUsed >= keep { staleBytes += e.bytes }
        if staleBytes > staleMeshBudget {
            let oldestFirst = cache.filter { g - $0.value.lastUsed >= keep }.sorted { $0.value.lastUsed < $1.value.lastUsed }
            for (key, e) in oldestFirst where staleBytes > staleMeshBudget {
                cache[key] = nil
                staleBytes -= e.bytes
            }
            setMeshes = setMeshes.filter { cache[$0.value] != nil }
        }
        if groundImages.values.contains(where: { g - $0.lastUsed >= keep }) {
            groundImages = groundImages.filter { g - $0.value.lastUsed < keep }
        }
    }

    // MARK: ground images

    struct GroundImageKey: Hashable {
        let image: ObjectIdentifier
        let corners: [MapPoint]
        let uv: [Double]
    }

    final class GroundImageEntry {
        let mesh: Mesh
        let image: SpriteImage  // keeps the identity unique while cached
        var lastUsed: Int
        init(mesh: Mesh, image: SpriteImage, lastUsed: Int) { self.mesh = mesh; self.image = image; self.lastUsed = lastUsed }
    }

    private var groundImages: [GroundImageKey: GroundImageEntry] = [:]

    private func addGroundImage(_ g: GroundImage, _ view: PlanView, _ out: inout [DrawCommand]) {
        guard g.isValid, g.opacity > 0 else { return }
        let c = g.corners
        let r = g.textureRect
        let key = GroundImageKey(image: ObjectIdentifier(g.image), corners: c, uv: [r.u0, r.v0, r.u1, r.v1])
        let mesh: Mesh
        if let e = groundImages[key] {
            e.lastUsed = generation
            mesh = e.mesh
        } else {
            mesh = Self.groundImageMesh(c, r)
            groundImages[key] = GroundImageEntry(mesh: mesh, image: g.image, lastUsed: generation)
        }
        var cmd = DrawCommand(mesh: mesh, origin: c[0], color: Color(rgb: 0xFFFFFF, alpha: UInt8(max(0, min(1, g.opacity)) * 255 + 0.5)),
                              texture: g.image, blendOnce: false, coverage: Coverage.none)
        cmd.raster = g.adjustments
        out.append(cmd)
    }

    /// Two triangles for a parallelogram; otherwise a 16 × 16 grid through the projective map
    /// of the unit square onto the corners (MapLibre's image source does the same mapping).
    static func groundImageMesh(_ c: [MapPoint], _ r: (u0: Double, v0: Double, u1: Double, v1: Double)) -> Mesh {
        let o = c[0]
        let affine = abs((c[1].x - c[0].x) - (c[2].x - c[3].x)) + abs((c[1].y - c[0].y) - (c[2].y - c[3].y))
            <= 1e-12 * max(1, abs(c[1].x - c[0].x) + abs(c[3].y - c[0].y))
        let n = affine ? 1 : 16
        let h = Homography(square: c)
        var v: [Float] = []
        var idx: [UInt32] = []
        for j in 0 ... n {
            for i in 0 ... n {
                let s = Double(i) / Double(n), t = Double(j) / Double(n)
                let p = affine ? MapPoint(x: c[0].x + (c[1].x - c[0].x) * s + (c[3].x - c[0].x) * t,
                                          y: c[0].y + (c[1].y - c[0].y) * s + (c[3].y - c[0].y) * t) : h.map(s, t)
                v += [Float(p.x - o.x), Float(p.y - o.y), Float(r.u0 + (r.u1 - r.u0) * s), Float(r.v0 + (r.v1 - r.v0) * t)]
            }
        }
        let w = UInt32(n + 1)
        for j in 0 ..< UInt32(n) {
            for i in 0 ..< UInt32(n) {
                let a = j * w + i
                idx += [a, a + 1, a + w + 1, a, a + w + 1, a + w]
            }
        }
        return Mesh(layout: .raster, vertices: v, indices: idx)
    }

    // MARK: polylines

    private func addPolyline(_ line: Polyline, _ view: PlanView, _ out: inout [DrawCommand]) {
        let path = line.path
        guard let bounds = path.bounds else { return }
        let style = line.style
        let halfWidth = view.pixels(style.width) / 2
        guard halfWidth > 0, halfWidth.isFinite else { return }
        let casing = style.casingColor != nil ? max(0, style.casingWidth.isFinite ? style.casingWidth : 0) : 0
        guard Self.paintsAnything(style, casing: casing) else { return }
        let marginPx = halfWidth + casing + 2
        // Geodesic lines can bulge beyond their vertices' bounds; skip culling for them.
        if !line.geodesic, !view.mayBeVisible(bounds, marginPx: marginPx) { return }
        let cell = line.geodesic ? nil : view.clipCell(for: bounds)
        // (Round parts tessellated for the widest half width drawn with this mesh, casing included.)
        let (variant, detail) = Self.lineVariant(style, geodesic: line.geodesic, halfWidth: halfWidth + casing,
                                                 discJoins: _discJoins)
        // (A line wholly towards the horizon of a pitched view is meshed more coarsely.)
        let level = cell == nil && !line.geodesic ? view.detail(for: bounds) : view.detail
        let key = MeshKey(source: .line(ObjectIdentifier(path), variant: variant), bucket: level.bucket, cell: cell?.key)
        let tolerance = Self.lineTolerance(level.tolerance, halfWidth: halfWidth)
        var stroker = LineStroker(
            join: style.join, cap: style.cap, maxHalfWidth: pow(2, Double(detail)), unitsPerPixel: 1 / level.worldSize)
        stroker.discJoins = _discJoins
        // The simplified pieces are cached first; the full mesh is built only when a view draws
        // it (a heavily self-overlapping line may only ever be drawn culled).
        let entry: CacheEntry
        if let e = cache[key] {
            e.lastUsed = generation
            stats.hits += 1
            entry = e
        } else {
            stats.misses += 1
            var pts = path.points
            if line.geodesic { pts = GeodesicShapes.greatCircle(pts.map(\.latLng)) }
            let origin = cell?.rect.mid ?? MapRect(bounding: pts)?.mid ?? bounds.mid
            let raw: [(points: [MapPoint], start: Double)] = cell.map { Clip.polyline(pts, to: $0.rect) } ?? [(pts, 0)]
            var pieces: [(points: [MapPoint], start: Double)] = []
            var length = 0.0
            for piece in raw {
                var simple: [MapPoint] = []
                simple.reserveCapacity(piece.points.count / 4)
                for p in Simplify.simplifyLine(piece.points, tolerance: tolerance) where simple.last != p {
                    if let q = simple.last { length += ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot() }
                    simple.append(p)
                }
                pieces.append((simple, piece.start))
            }
            entry = CacheEntry(mesh: nil, origin: origin, retain: [path], lastUsed: generation)
            entry.pieces = pieces
            entry.length = length
            cache[key] = entry
        }
        var mesh: Mesh
        var origin = entry.origin
        // Heavy self-overlap (the ink would cover the view many times over): a view-dependent mesh
        // without the segments that cannot change the image (see OverdrawCuller).
        if style.dash.isEmpty, !(style.fade > 0), let culled = culledLine(entry, key: key, path: path, stroker: stroker,
                                                      widest: halfWidth + casing, narrowest: halfWidth, view) {
            (mesh, origin) = culled
        } else if let m = entry.mesh {
            mesh = m
        } else {
            var b = GroundMeshBuilder(origin: entry.origin)
            for piece in entry.pieces { stroker.stroke(piece.points, closed: false, into: &b, startDistance: piece.start) }
            mesh = b.build()
            entry.mesh = mesh
        }
        guard !mesh.indices.isEmpty else { return }
        let fadeLength = style.fade > 0 && style.fade.isFinite ? max(1e-6, min(style.fade, 1) * entry.length * view.worldSize) : 0
        if let casingColor = style.casingColor, casing > 0, casingColor.a > 0 {
            var c = DrawCommand(mesh: mesh, origin: origin, color: casingColor, extrudeScale: halfWidth + casing)
            c.fadeLength = fadeLength
            out.append(c)
        }
        guard style.color.a > 0 else { return }
        var cmd = DrawCommand(mesh: mesh, origin: origin, color: style.color, extrudeScale: halfWidth)
        Self.applyDash(style, alongOffset: line.alongOffset, halfWidth: halfWidth, view, to: &cmd)
        cmd.fadeLength = fadeLength
        out.append(cmd)
    }

    /// The overdraw-culled mesh of a cached line for this exact view, or nil when culling does not
    /// apply (pitched view, or ink under 8 viewports' worth).
    private func culledLine(_ entry: CacheEntry, key: MeshKey, path: GeoPath, stroker: LineStroker,
                            widest: Double, narrowest: Double, _ view: PlanView) -> (Mesh, MapPoint)? {
        let cam = view.camera
        guard _cullsOverdraw, cam.pitch == 0, view.viewRadius != nil, !entry.pieces.isEmpty else { return nil }
        let area = cam.size.width * cam.size.height
        guard area > 0, entry.length * view.worldSize * 2 * widest > 8 * area else { return nil }
        guard case .line(let id, let variant) = key.source else { return nil }
        let viewKey = [cam.center.lat, cam.center.lon, cam.zoom, cam.bearing, cam.size.width, cam.size.height,
                       cam.pixelRatio, cam.padding.top, cam.padding.left, cam.padding.bottom, cam.padding.right,
                       Double(key.cell?.x ?? 0), Double(key.cell?.y ?? 0), widest, narrowest]
        let culledKey = MeshKey(source: .culledPath(id, variant: variant, view: viewKey), bucket: key.bucket, cell: key.cell)
        let origin = entry.origin
        // Affine map units → device pixels, exact at pitch 0 (three projections).
        let ratio = cam.pixelRatio
        let step = 256 / view.worldSize
        let o = entry.origin
        guard let p0 = cam.project(o.latLng), let px = cam.project(MapPoint(x: o.x + step, y: o.y).latLng),
              let py = cam.project(MapPoint(x: o.x, y: o.y + step).latLng) else { return nil }
        let ax = (px.x - p0.x) / step * ratio, ay = (px.y - p0.y) / step * ratio
        let bx = (py.x - p0.x) / step * ratio, by = (py.y - p0.y) / step * ratio
        let cx = p0.x * ratio, cy = p0.y * ratio
        // How far beyond its centre line a segment's geometry reaches, in half widths: miter tips up
        // to the miter limit (2), square caps √2, round and bevel joins and round caps 1.
        let reach = stroker.join == .miter ? stroker.miterLimit : (stroker.cap == .square ? 2.0.squareRoot() : 1)
        let touch = reach * widest * ratio
        let result = cached(culledKey, retain: [path]) {
            var culler = OverdrawCuller(width: Int((cam.size.width * ratio).rounded(.up)),
                                        height: Int((cam.size.height * ratio).rounded(.up)))
            var b = GroundMeshBuilder(origin: origin)
            // Long segments are cut into ≤ 32 device-pixel pieces so that only the parts that add
            // coverage are drawn (collinear cuts need no joins).
            let maxStep = 32 / (view.worldSize * ratio)
            // Device pixels of a map point.
            func toScreen(_ p: MapPoint) -> (Double, Double) {
                let dx = p.x - o.x, dy = p.y - o.y
                return (cx + ax * dx + bx * dy, cy + ay * dx + by * dy)
            }
            func cuts(_ a: MapPoint, _ p: MapPoint) -> Int {
                let len = ((p.x - a.x) * (p.x - a.x) + (p.y - a.y) * (p.y - a.y)).squareRoot()
                return min(4096, Int((len / maxStep).rounded(.down)))
            }
            var cut: [(points: [MapPoint], screen: [(Double, Double)], keep: [Bool], start: Double)] = []
            for piece in entry.pieces {
                let points = piece.points
                var count = points.count
                for k in points.indices.dropFirst() { count += cuts(points[k - 1], points[k]) }
                var pts: [MapPoint] = []
                pts.reserveCapacity(count)
                for (k, p) in points.enumerated() {
                    if k > 0 {
                        let a = points[k - 1]
                        let n = cuts(a, p)
                        if n > 0 {
                            for j in 1 ... n {
                                let t = Double(j) / Double(n + 1)
                                pts.append(MapPoint(x: a.x + t * (p.x - a.x), y: a.y + t * (p.y - a.y)))
                            }
                        }
                    }
                    pts.append(p)
                }
                // The same radii hold for shader coverage (evaluated at pixel centres): a pixel it
                // colours at all has its centre within half width + ½ px, so its square comes within
                // the half width; a pixel whose corners all lie within the half width has its
                // centre within half width − ½ px, where coverage is full.
                let screen = pts.map(toScreen)
                let keep = culler.keepMask(screen, touchRadius: touch, coverRadius: narrowest * ratio,
                                           inkRadius: widest * ratio)
                cut.append((pts, screen, keep, piece.start))
            }
            if culler.isExact {
                // Every full cell ends up in the line's own colour (casing under it) whichever kept
                // segment covers it, so the full cells are painted as rectangles and a segment is
                // drawn only when it reaches a cell that did not end up full: its edge.
                let det = ax * by - bx * ay
                if det != 0 {
                    func corner(_ sx: Double, _ sy: Double) -> MapPoint {
                        let u = sx - cx, v = sy - cy
                        return MapPoint(x: o.x + (by * u - bx * v) / det, y: o.y + (ax * v - ay * u) / det)
                    }
                    let c = OverdrawCuller.cell
                    for r in culler.fullRectangles() {
                        let x0 = Double(r.col) * c, y0 = Double(r.row) * c
                        let x1 = x0 + Double(r.width) * c, y1 = y0 + Double(r.height) * c
                        let v = [corner(x0, y0), corner(x1, y0), corner(x1, y1), corner(x0, y1)].map {
                            b.add($0.x, $0.y, 0, 0, 0, 0)
                        }
                        b.triangle(v[0], v[1], v[2])
                        b.triangle(v[0], v[2], v[3])
                    }
                    for k in cut.indices {
                        let screen = cut[k].screen
                        for i in cut[k].keep.indices where cut[k].keep[i] {
                            cut[k].keep[i] = culler.reachesEmptyCell(screen[i], screen[i + 1], touchRadius: touch)
                        }
                    }
                }
            }
            for piece in cut {
                stroker.stroke(piece.points, closed: false, into: &b, startDistance: piece.start, keep: piece.keep)
            }
            return (b.build(), origin)
        }
        return result
    }

    /// A line mesh's variant (join, cap, geodesic, the detail of its round parts and whether round
    /// joins are discs) and that detail: round parts are tessellated for `halfWidth` (casing
    /// included) in power-of-two classes, so that nearby widths share the mesh.
    static func lineVariant(_ style: LineStyle, geodesic: Bool, halfWidth: Double, discJoins: Bool) -> (variant: Int, detail: Int) {
        let detail = max(0, min(12, Int(log2(max(halfWidth, 1)).rounded(.up))))
        let variant = 1 + code(style.join) * 3 + code(style.cap) + (geodesic ? 100 : 0) + detail * 1000 + (discJoins ? 0 : 100_000)
        return (variant, detail)
    }

    /// Simplify to 0.5 px, or to a quarter of the line width (at most 1 px) for wider lines:
    /// jitter narrower than a quarter of the stroke is invisible, yet a noisy GPS track kept
    /// at 0.5 px costs ~25× the triangles (shared/bench route-1m: 96k points left at 0.5 px,
    /// 4k at 1 px). Runs of points within 1.5 tolerances are averaged first (see Simplify), so
    /// sub-pixel noise does not hand Douglas–Peucker its outliers as vertices.
    static func lineTolerance(_ tolerance: Double, halfWidth: Double) -> Double {
        tolerance * min(2, max(1, (2 * halfWidth) / 4 / 0.5))
    }

    /// Sets a stroke command's dashes from `style` (lengths in pixels, or in line widths), the
    /// pattern's offset reduced modulo its length in Double (the shader works in Float).
    static func applyDash(_ style: LineStyle, alongOffset: Double, halfWidth: Double, _ view: PlanView,
                          to cmd: inout DrawCommand) {
        let dashScale = style.dashUnit == .lineWidths ? 2 * halfWidth : 1
        let dash = style.dash.filter { $0.isFinite && $0 >= 0 }.prefix(8).map { $0 * dashScale }
        let dashTotal = dash.reduce(0, +)
        guard dashTotal > 0 else { return }
        cmd.dash = dash
        let shift = (style.dashOffset.isFinite ? style.dashOffset : 0) - (alongOffset.isFinite ? alongOffset : 0) * view.worldSize
        cmd.dashOffset = shift - (shift / dashTotal).rounded(.down) * dashTotal
    }

    private static func code(_ j: LineJoin) -> Int {
        switch j { case .round: 0; case .miter: 1; case .bevel: 2 }
    }

    private static func code(_ c: LineCap) -> Int {
        switch c { case .butt: 0; case .round: 1; case .square: 2 }
    }

    // MARK: polygons

    /// `triangles`: the fill as its triangles' convex fills (`triangleFillMesh`), for a part of a
    /// layer whose parts are apart, planned alone.
    private func addPolygon(_ poly: Polygon, _ view: PlanView, _ out: inout [DrawCommand], triangles: Bool = false) {
        guard let bounds = poly.exterior.bounds else { return }
        let strokeHalf = poly.stroke != nil && poly.strokeWidth.isFinite ? max(0, poly.strokeWidth) / 2 : 0
        guard view.mayBeVisible(bounds, marginPx: strokeHalf + 2) else { return }
        let cell = view.clipCell(for: bounds)
        // (A polygon without holes, most of a vector basemap's, makes no arrays in each frame.)
        let rings = { [poly.exterior] + poly.holes }
        func source(_ part: Int) -> MeshKey.Source {
            .polygon(ObjectIdentifier(poly.exterior), holes: poly.holes.isEmpty ? [] : poly.holes.map { ObjectIdentifier($0) }, part: part)
        }
        // (A polygon wholly towards the horizon of a pitched view is meshed more coarsely.)
        let level = cell == nil ? view.detail(for: bounds) : view.detail
        let prepared = { Self.preparedRings(rings(), clip: cell?.rect, tolerance: level.tolerance) }
        if poly.fill.a > 0 {
            let fringe = !Self.outlineHidesFringe(poly.stroke, strokeHalf * view.camera.pixelRatio)
            let key = MeshKey(source: source(triangles ? 3 : fringe ? 0 : 2), bucket: level.bucket, cell: cell?.key)
            let (mesh, origin) = cached(key, retain: rings()) {
                let origin = cell?.rect.mid ?? bounds.mid
                let rs = prepared()
                if triangles { return (Self.triangleFillMesh([rs], origin: origin, pixelsPerUnit: level.worldSize), origin) }
                return (Self.fillMesh(rs, origin: origin, clip: cell?.rect, fringe: fringe), origin)
            }
            if !mesh.indices.isEmpty {
                out.append(DrawCommand(mesh: mesh, origin: origin, color: poly.fill, extrudeScale: 0, coverage: .fill))
            }
        }
        if let stroke = poly.stroke, strokeHalf > 0, stroke.a > 0 {
            let key = MeshKey(source: source(1), bucket: level.bucket, cell: cell?.key)
            let (mesh, origin) = cached(key, retain: rings()) {
                let origin = cell?.rect.mid ?? bounds.mid
                var b = GroundMeshBuilder(origin: origin)
                let stroker = LineStroker(join: .miter, cap: .butt)
                for ring in prepared() where ring.count >= 3 { stroker.stroke(ring, closed: true, into: &b) }
                return (b.build(), origin)
            }
            if !mesh.indices.isEmpty {
                out.append(DrawCommand(mesh: mesh, origin: origin, color: stroke, extrudeScale: strokeHalf))
            }
        }
    }

    // MARK: sets of polygons and lines

    /// How a set wider than four view cells is split for the view's cell (see `addMultiPolygon`):
    /// the parts that meet the cell's rectangle (3×3 cells round the view) go into the cell's
    /// mesh, but those themselves wider than four cells, which are planned one by one (clipped).
    /// Without a cell every part goes into the set's mesh.
    struct SetCell: Sendable {
        let rect: MapRect?
        let widest: Double

        init(_ cell: ClipCell?, _ view: PlanView) {
            rect = cell?.rect
            widest = 4 * view.cellSize
        }

        /// Whether a part spanning `bounds` goes into the mesh.
        func meshes(_ bounds: MapRect?) -> Bool {
            guard let rect else { return true }
            guard let b = bounds else { return false }
            return max(b.width, b.height) <= widest && b.intersects(rect)
        }

        /// Whether a part spanning `bounds` is planned alone, clipped to the cell.
        func clipsAlone(_ bounds: MapRect?) -> Bool {
            guard let rect, let b = bounds else { return false }
            return max(b.width, b.height) > widest && b.intersects(rect)
        }
    }

    /// Whether a set spanning `bounds` that the view does not clip to a cell is drawn one part at
    /// a time: when it is so large on screen (past 10⁵ px) that Float offsets from its middle
    /// would lose precision.
    private func setIsTooLarge(_ bounds: MapRect, _ view: PlanView) -> Bool {
        max(bounds.width, bounds.height) * view.worldSize > 1e5
    }

    /// A `MultiPolygon`: one mesh for the fills of every polygon (interiors, then fringes, as
    /// `batchGround` merges them) and one for the outlines, each cached by the set, culled as a
    /// whole; meshed for the view's cell when wider than four view cells, part by part when too
    /// large for one mesh otherwise (see `setIsTooLarge`). Returns
    /// whether every mesh it needs was there to draw (see `cachedSet`); `cull` false plans a set
    /// out of view too (`setsReady`).
    @discardableResult
    private func addMultiPolygon(_ set: MultiPolygon, _ view: PlanView, _ out: inout [DrawCommand], cull: Bool = true) -> Bool {
        guard let bounds = set.polygons.bounds else { return true }
        let strokeHalf = set.stroke != nil && set.strokeWidth.isFinite ? max(0, set.strokeWidth) / 2 : 0
        guard !cull || view.mayBeVisible(bounds, marginPx: strokeHalf + 2) else { return true }
        // The first thing drawn, opaque, unoutlined and round the whole view: the frame's clear
        // (also over an earlier such set, a lake round the view in the land round it).
        if cull, out.isEmpty, _clearsCoveredGround, !planningInFadedGroup, set.fill.a == 255,
           set.layer == nil, strokeHalf == 0 || (set.stroke?.a ?? 0) == 0,
           GroundCover.holdsView(set.polygons, camera: view.camera) {
            planGround = set.fill
            return true
        }
        // A set wider than four view cells (a vector tile zoomed far in) is meshed by the view's
        // cell: the polygons that meet it (3×3 cells round the view) together, cached for that
        // cell, and any polygon that is itself that wide through the clipped path of a Polygon.
        let chunk = view.clipCell(for: bounds)
        let cell = SetCell(chunk, view)
        // The set's own outline lines, when it has them (`MultiPolygon.outlinePaths`), are
        // stroked instead of its polygons' rings.
        let chains = set.stroke != nil && strokeHalf > 0 ? set.outlinePaths : nil
        // A translucent set without an outline is drawn in the opaque colour, in a layer faded
        // at the fill's opacity (see `MultiPolygon.layer`); an opaque one with a layer (a
        // choropleth's colours) in a layer at opacity 1. (A set with an outline would be a
        // layer of its own, its outline between it and the next: the layers of a group's sets
        // would not be one.)
        let outlined = strokeHalf > 0 && (set.stroke?.a ?? 0) > 0
        let layer: DrawGroup? = (set.fill.isTranslucent || set.fill.a == 255 && set.layer != nil) && !outlined && _layersTranslucentSets
            && !planningInFadedGroup
            ? DrawGroup(id: set.layer ?? Int(bitPattern: UInt(bitPattern: ObjectIdentifier(set.polygons))),
                        opacity: Double(set.fill.a) / 255, partsApart: set.layer != nil)
            : nil
        let fill = layer != nil ? Color(r: set.fill.r, g: set.fill.g, b: set.fill.b) : set.fill
        // A part planned alone (clipped to the view's cell, or too large for the set's mesh): in
        // the set's layer when it has one, so that it meets its neighbours there as the
        // meshed parts do.
        func addPart(_ part: Polygon) {
            guard let layer else { return addPolygon(part, view, &out) }
            var opaque = part
            opaque.fill = fill
            let start = out.count
            addPolygon(opaque, view, &out, triangles: layer.partsApart && _trianglesInLayers)
            let box = part.exterior.bounds.flatMap { view.screenBox(of: $0, marginPx: 2) }
            for k in start ..< out.count {
                out[k].group = layer
                out[k].screenBox = box
            }
        }
        if chunk != nil {
            for (i, p) in set.polygons.polygons.enumerated() where cell.clipsAlone(p.exterior.bounds) {
                var part = set.part(i)
                if chains != nil { part.stroke = nil }
                addPart(part)
            }
        } else if setIsTooLarge(bounds, view) {
            for i in set.polygons.polygons.indices { addPart(set.part(i)) }
            return true
        }
        let member: @Sendable (PolygonRings) -> Bool = { cell.meshes($0.exterior.bounds) }
        let polygons = set.polygons
        let origin = chunk?.rect.mid ?? bounds.mid
        let cellKey = chunk?.key
        // (Sets wholly towards the horizon of a pitched view are meshed more coarsely.)
        let level = chunk == nil ? view.detail(for: bounds) : view.detail
        let tolerance = level.tolerance
        var ready = true
        // A mesh found (or standing in) is drawn unless empty, only its bins that reach the view;
        // one still being built is not ready.
        func draw(_ found: (Mesh, MapPoint)?, _ command: (Mesh, MapPoint) -> DrawCommand) {
            guard let (mesh, o) = found else { ready = false; return }
            guard !mesh.indices.isEmpty else { return }
            var cmd = command(mesh, o)
            if cull {
                cmd.ranges = view.visibleRanges(mesh, marginPx: strokeHalf + 2)
                if cmd.ranges?.isEmpty == true { return }
            }
            out.append(cmd)
        }
        if set.fill.a > 0 {
            // An opaque set draws its small convex polygons apart (part 2, see `convexFillMesh`),
            // the other polygons as wedge fills (part 4, see `wedgeFillMesh`) and those with
            // retraced edges with fringes (part 0). A translucent one without an outline is drawn
            // so in the opaque colour, in a layer faded at the fill's opacity (see
            // `MultiPolygon.layer`). With an outline, or in a faded basemap group, it draws every
            // polygon's triangles, and a fringe unless the outline hides it (part 3; 6 without,
            // see `outlineHidesFringe`): its interiors come before its fringes, so that where two
            // parts touch, each pixel is blended once with the colour in full.
            let hidden = set.fill.a < 255 && Self.outlineHidesFringe(set.stroke, strokeHalf * view.camera.pixelRatio)
            let convexApart = set.fill.a == 255 || layer != nil
            let fringe = !hidden
            let key = MeshKey(source: .polygonSet(ObjectIdentifier(polygons), part: convexApart ? 0 : fringe ? 3 : 6),
                              bucket: level.bucket, cell: cellKey)
            let keepShared = _sharedEdgeFringes
            let found = cachedSet(key, atOnceWhenMissing: set.meshedAtOnceWhenMissing, retain: [polygons]) {
                var meshes: [Mesh] = []
                var bounds: [MapRect?] = []
                let picked = polygons.polygons.indices.filter {
                    member(polygons.polygons[$0]) && Self.fillKind(polygons.polygons[$0], opaque: convexApart, frame: polygons.frame) == .fringed
                }
                let parts = picked.map { polygons.polygons[$0] }
                let prepared = picked.map {
                    let p = polygons.polygons[$0]
                    return Self.preparedRings([p.exterior] + p.holes, clip: nil, tolerance: tolerance, cuts: polygons.cuts, polygon: $0)
                }
                // A translucent set's interiors are drawn before its fringes, each pixel once: a
                // fringe along an edge that a neighbour in the set has too, its inside on the other
                // side, would only cover pixels the neighbour's interior has (see `sharedEdges`).
                let shared = !convexApart && fringe && !keepShared ? Self.sharedEdges(prepared) : nil
                for (k, p) in parts.enumerated() {
                    let m = Self.fillMesh(prepared[k], origin: origin, fringe: fringe, shared: shared?[k])
                    if !m.indices.isEmpty { meshes.append(m); bounds.append(p.exterior.bounds) }
                }
                let bins = SetBins(bounds)
                return (Self.merge(bins.order.map { (meshes[$0], 0, 0) }, bins: bins), origin)
            }
            // A layer is mixed only where its set may draw (its bounds on screen, and the
            // fringes' pixel).
            let box = layer == nil ? nil : view.screenBox(of: bounds, marginPx: 2)
            func fillCommand(_ mesh: Mesh, _ origin: MapPoint) -> DrawCommand {
                var c = DrawCommand(mesh: mesh, origin: origin, color: fill, extrudeScale: 0, coverage: .fill)
                c.group = layer
                c.screenBox = box
                return c
            }
            draw(found, fillCommand)
            if convexApart {
                let convexKey = MeshKey(source: .polygonSet(ObjectIdentifier(polygons), part: 2), bucket: level.bucket, cell: cellKey)
                let convex = cachedSet(convexKey, atOnceWhenMissing: set.meshedAtOnceWhenMissing, retain: [polygons]) {
                    var rings: [[MapPoint]] = []
                    var bounds: [MapRect?] = []
                    for (k, p) in polygons.polygons.enumerated() where member(p) && Self.fillKind(p, opaque: true, frame: polygons.frame) == .convex {
                        rings.append(Self.preparedRings([p.exterior], clip: nil, tolerance: tolerance, cuts: polygons.cuts, polygon: k)[0])
                        bounds.append(p.exterior.bounds)
                    }
                    let bins = SetBins(bounds)
                    return (Self.convexFillMesh(bins.order.map { rings[$0] }, origin: origin, bins: bins), origin)
                }
                draw(convex, fillCommand)
                let bucketWorldSize = level.worldSize
                // In a layer whose parts are apart, their triangles as convex fills (shared edges'
                // pixels shared, see `triangleFillMesh`).
                let triangles = layer?.partsApart == true && _trianglesInLayers
                let wedgeKey = MeshKey(source: .polygonSet(ObjectIdentifier(polygons), part: triangles ? 7 : 4), bucket: level.bucket, cell: cellKey)
                let wedges = cachedSet(wedgeKey, atOnceWhenMissing: set.meshedAtOnceWhenMissing, retain: [polygons]) {
                    var prepared: [[[MapPoint]]] = []
                    var bounds: [MapRect?] = []
                    for (k, p) in polygons.polygons.enumerated() where member(p) && Self.fillKind(p, opaque: true, frame: polygons.frame) == .wedge {
                        prepared.append(Self.preparedRings([p.exterior] + p.holes, clip: nil, tolerance: tolerance,
                                                           cuts: polygons.cuts, polygon: k))
                        bounds.append(p.exterior.bounds)
                    }
                    let bins = SetBins(bounds)
                    if triangles {
                        return (Self.triangleFillMesh(bins.order.map { prepared[$0] }, origin: origin, pixelsPerUnit: bucketWorldSize,
                                                      bins: bins), origin)
                    }
                    return (Self.wedgeFillMesh(bins.order.map { prepared[$0] }, origin: origin, pixelsPerUnit: bucketWorldSize,
                                               bins: bins), origin)
                }
                draw(wedges, fillCommand)
            }
        }
        if let stroke = set.stroke, strokeHalf > 0, stroke.a > 0, let chains {
            // By cell, the lines that meet the cell's 3×3 cells are meshed and those that are
            // themselves that wide stroked apart, clipped to the cell (as a `Polyline`).
            let look = LineStyle(width: .pixels(2 * strokeHalf), color: stroke, join: .miter, cap: .square)
            for path in chains.paths where cell.clipsAlone(path.bounds) {
                var line = Polyline(path: path, style: look, zIndex: set.zIndex)
                line.worldCopies = set.worldCopies
                addPolyline(line, view, &out)
            }
            let key = MeshKey(source: .polygonSet(ObjectIdentifier(chains), part: 5), bucket: level.bucket, cell: cellKey)
            let meshed: @Sendable (GeoPath) -> Bool = { cell.meshes($0.bounds) }
            let found = cachedSet(key, atOnceWhenMissing: set.meshedAtOnceWhenMissing, retain: [chains]) {
                var b = GroundMeshBuilder(origin: origin)
                let stroker = LineStroker(join: .miter, cap: .square)
                let bins = SetBins.mesh(chains.paths.filter(meshed), bounds: \.bounds, indexCount: { b.indices.count }) { path in
                    let pts = path.points
                    if pts.count > 3, pts.first == pts.last {
                        let ring = Self.preparedRings([path], clip: nil, tolerance: tolerance)[0]
                        if ring.count >= 3 { stroker.stroke(ring, closed: true, into: &b) }
                    } else {
                        stroker.stroke(Simplify.simplifyLine(pts, tolerance: tolerance), closed: false, into: &b)
                    }
                }
                return (b.build(bins: bins), origin)
            }
            draw(found) { DrawCommand(mesh: $0, origin: $1, color: stroke, extrudeScale: strokeHalf) }
        } else if let stroke = set.stroke, strokeHalf > 0, stroke.a > 0 {
            let key = MeshKey(source: .polygonSet(ObjectIdentifier(polygons), part: 1), bucket: level.bucket, cell: cellKey)
            let found = cachedSet(key, atOnceWhenMissing: set.meshedAtOnceWhenMissing, retain: [polygons]) {
                var b = GroundMeshBuilder(origin: origin)
                let stroker = LineStroker(join: .miter, cap: .butt)
                let bins = SetBins.mesh(polygons.polygons.filter(member), bounds: \.exterior.bounds,
                                        indexCount: { b.indices.count }) { p in
                    for ring in Self.preparedRings([p.exterior] + p.holes, clip: nil, tolerance: tolerance) where ring.count >= 3 {
                        stroker.stroke(ring, closed: true, into: &b)
                    }
                }
                return (b.build(bins: bins), origin)
            }
            draw(found) { DrawCommand(mesh: $0, origin: $1, color: stroke, extrudeScale: strokeHalf) }
        }
        return ready
    }

    /// A `MultiPolyline`: one mesh for every line, cached by the set and the style's variant,
    /// culled as a whole; meshed for the view's cell when wider than four view cells, drawn line
    /// by line when too large for one mesh otherwise, and when geodesic. Returns and `cull` as
    /// for `addMultiPolygon`.
    @discardableResult
    private func addMultiPolyline(_ set: MultiPolyline, _ view: PlanView, _ out: inout [DrawCommand], cull: Bool = true) -> Bool {
        guard let bounds = set.paths.bounds else { return true }
        let style = set.style
        let halfWidth = view.pixels(style.width) / 2
        guard halfWidth > 0, halfWidth.isFinite else { return true }
        let casing = style.casingColor != nil ? max(0, style.casingWidth.isFinite ? style.casingWidth : 0) : 0
        guard Self.paintsAnything(style, casing: casing) else { return true }
        // As for polygon sets: a set wider than four view cells is meshed for the view's cell
        // (the lines that meet its 3×3 cells), and a line that wide itself is clipped as a
        // `Polyline` is; geodesic sets are planned line by line.
        let chunk = set.geodesic ? nil : view.clipCell(for: bounds)
        let cell = SetCell(chunk, view)
        if set.geodesic || (chunk == nil && setIsTooLarge(bounds, view)) {
            for i in set.paths.paths.indices { addPolyline(set.part(i), view, &out) }
            return true
        }
        guard !cull || view.mayBeVisible(bounds, marginPx: halfWidth + casing + 2) else { return true }
        for (i, p) in set.paths.paths.enumerated() where cell.clipsAlone(p.bounds) {
            addPolyline(set.part(i), view, &out)
        }
        let member: @Sendable (GeoPath) -> Bool = { cell.meshes($0.bounds) }
        let (variant, detail) = Self.lineVariant(style, geodesic: false, halfWidth: halfWidth + casing, discJoins: _discJoins)
        let paths = set.paths
        let origin = chunk?.rect.mid ?? bounds.mid
        // (Sets wholly towards the horizon of a pitched view are meshed more coarsely.)
        let level = chunk == nil ? view.detail(for: bounds) : view.detail
        let tolerance = Self.lineTolerance(level.tolerance, halfWidth: halfWidth)
        let bucketWorldSize = level.worldSize
        let discJoins = _discJoins
        let (join, cap) = (style.join, style.cap)
        let key = MeshKey(source: .pathSet(ObjectIdentifier(paths), variant: variant), bucket: level.bucket, cell: chunk?.key)
        let found = cachedSet(key, atOnceWhenMissing: set.meshedAtOnceWhenMissing, retain: [paths]) {
            var stroker = LineStroker(join: join, cap: cap, maxHalfWidth: pow(2, Double(detail)),
                                      unitsPerPixel: 1 / bucketWorldSize)
            stroker.discJoins = discJoins
            var b = GroundMeshBuilder(origin: origin)
            let bins = SetBins.mesh(paths.paths.filter(member), bounds: \.bounds, indexCount: { b.indices.count }) { path in
                var simple: [MapPoint] = []
                for p in Simplify.simplifyLine(path.points, tolerance: tolerance) where simple.last != p { simple.append(p) }
                stroker.stroke(simple, closed: false, into: &b, startDistance: 0)
            }
            return (b.build(bins: bins), origin)
        }
        guard let (mesh, o) = found else { return false }
        guard !mesh.indices.isEmpty else { return true }
        // Only the bins that reach the view (see `SetBins`).
        let ranges = cull ? view.visibleRanges(mesh, marginPx: halfWidth + casing + 2) : nil
        if ranges?.isEmpty == true { return true }
        if let casingColor = style.casingColor, casing > 0, casingColor.a > 0 {
            var c = DrawCommand(mesh: mesh, origin: o, color: casingColor, extrudeScale: halfWidth + casing)
            c.ranges = ranges
            out.append(c)
        }
        guard style.color.a > 0 else { return true }
        var cmd = DrawCommand(mesh: mesh, origin: o, color: style.color, extrudeScale: halfWidth)
        cmd.ranges = ranges
        Self.applyDash(style, alongOffset: 0, halfWidth: halfWidth, view, to: &cmd)
        out.append(cmd)
        return true
    }

    /// Whether a line styled so (with its casing `casing` px wide) paints anything: not a
    /// transparent line without a visible casing.
    static func paintsAnything(_ style: LineStyle, casing: Double) -> Bool {
        style.color.a > 0 || (casing > 0 && (style.casingColor?.a ?? 0) > 0)
    }

    /// Whether a fill's antialiased fringe would lie wholly under its outline, so that the fill
    /// can go without one: an opaque outline at least 2 device pixels wide (`deviceHalf`, half
    /// its width in device pixels, at least 1), centred on the edge, covers every pixel whose
    /// centre lies within half a pixel of it, and the fringe touches only pixels whose centre
    /// lies outside within half a device pixel (drawn after the fill, over it).
    static func outlineHidesFringe(_ stroke: Color?, _ deviceHalf: Double) -> Bool {
        guard let stroke, stroke.a == 255 else { return false }
        return deviceHalf >= 1
    }

    /// A polygon's rings ready to mesh: closing points dropped, clipped to `clip`, simplified to
    /// `tolerance` (axis-aligned edges kept; with `cuts`, the cuts of polygon `polygon` of a set,
    /// unclipped rings piece by piece between them, see `Simplify.simplifyRing`). Index 0 is always the exterior (empty when
    /// clipped away); degenerate holes are dropped.
    static func preparedRings(_ rings: [GeoPath], clip: MapRect?, tolerance: Double,
                              cuts: RingCuts? = nil, polygon: Int = 0) -> [[MapPoint]] {
        var result: [[MapPoint]] = []
        for (k, ring) in rings.enumerated() {
            var pts = ring.points
            if pts.count > 1, pts.first == pts.last { pts.removeLast() }
            if let clip { pts = Clip.ring(pts, to: clip) }
            var simple: [MapPoint] = []
            if pts.count >= 3 {
                if let ring = cuts?.ring(polygon: polygon, k), !ring.alone, clip == nil {
                    simple = Simplify.simplifyRing(pts, tolerance: tolerance, cuts: ring.cuts)
                } else {
                    simple = Array(Simplify.simplify(pts + [pts[0]], tolerance: tolerance, keepAxisEdges: true).dropLast())
                }
            }
            if simple.count >= 3 { result.append(simple) } else if k == 0 { result.append([]) }
        }
        return result
    }

    /// Triangulates rings (first the exterior, then holes) into a fill mesh, followed (from
    /// `fringeStart`) by its antialiasing fringe: per edge a quad from the edge out to the
    /// vertices' outward miters, coverage ½ on the edge and 0 on the rim. The backend draws it
    /// `0.5 / pixelRatio` logical pixels wide (half a device pixel: pixels whose centre lies
    /// outside get the part of them the fill covers, as a box filter would) or not at all (zero
    /// extrusion) under multisampling. Pixels whose centre is inside stay fully covered, so two
    /// fills sharing an edge leave no crack. Edges along `clip` (a clip cell's border, not the
    /// shape's) and edges another edge runs back along (the zero-width corridors clippers leave,
    /// see `Outline.retracedEdges`) get no fringe, nor those `shared` marks (per ring and edge).
    static func fillMesh(_ rings: [[MapPoint]], origin: MapPoint, clip: MapRect? = nil, fringe: Bool = true,
                         shared: [[Bool]]? = nil) -> Mesh {
        guard let first = rings.first, first.count >= 3 else {
            return Mesh(layout: .ground, vertices: [], indices: [])
        }
        var coords: [Double] = []
        var holeStarts: [Int] = []
        var b = GroundMeshBuilder(origin: origin)
        for (k, ring) in rings.enumerated() {
            if k > 0 { holeStarts.append(coords.count / 2) }
            for p in ring {
                coords.append(p.x - origin.x); coords.append(p.y - origin.y)
                _ = b.add(p.x, p.y, 0, 0, 0, 1)
            }
        }
        b.indices = Triangulator.triangulate(coords, holeStarts: holeStarts)
        guard !b.indices.isEmpty else { return b.build() }
        b.fringeStart = b.indices.count
        guard fringe else { return b.build() }
        func onClip(_ p: MapPoint, _ q: MapPoint) -> Bool {
            guard let r = clip else { return false }
            let eps = 1e-12
            return (abs(p.x - r.minX) < eps && abs(q.x - r.minX) < eps) || (abs(p.x - r.maxX) < eps && abs(q.x - r.maxX) < eps)
                || (abs(p.y - r.minY) < eps && abs(q.y - r.minY) < eps) || (abs(p.y - r.maxY) < eps && abs(q.y - r.maxY) < eps)
        }
        let retraced = Outline.retracedEdges(rings.map { $0.map { ($0.x, $0.y) } })
        for (k, ring) in rings.enumerated() where ring.count >= 3 {
            let skip = ring.indices.map { i in
                retraced[k][i] || shared?[k][i] == true || onClip(ring[i], ring[(i + 1) % ring.count])
            }
            addFringe(ring, awayFromFill: k == 0, skip: skip, into: &b)
        }
        return b.build()
    }

    /// Per polygon, ring and edge: whether another polygon among `polygons` (each its rings, the
    /// exterior first, as `preparedRings` gives them) has the same edge, end points equal either
    /// way round, with its inside on the other side. There two translucent parts of a set meet:
    /// the neighbour's interior covers every pixel whose centre lies across the edge, and it is
    /// drawn before any fringe, so a fringe there blends nothing (the pixel is blended once).
    /// Edges that only partly overlap keep their fringes, as do polygons on the same side (an
    /// overlap). Hashes each edge once: O(edges).
    static func sharedEdges(_ polygons: [[[MapPoint]]]) -> [[[Bool]]] {
        struct Edge: Hashable { var ax: Double, ay: Double, bx: Double, by: Double }
        // Per edge (its end points in a fixed order): the first polygon seen with its inside on
        // the left of that direction, and the first with it on the right (−1: none yet).
        var seen: [Edge: (left: Int, right: Int)] = [:]
        var keyed: [[[(Edge, Bool)?]]] = []
        for (k, rings) in polygons.enumerated() {
            var out: [[(Edge, Bool)?]] = []
            for (r, ring) in rings.enumerated() {
                let area2 = Outline.doubleArea(ring.map { ($0.x, $0.y) })
                guard ring.count >= 3, area2 != 0, area2.isFinite else {
                    out.append([(Edge, Bool)?](repeating: nil, count: ring.count))
                    continue
                }
                // The exterior's inside is on its left when it turns positively; a hole's is on
                // its right.
                let insideLeft = (area2 > 0) == (r == 0)
                out.append(ring.indices.map { i in
                    let p = ring[i], q = ring[(i + 1) % ring.count]
                    guard p != q else { return nil }
                    let forward = (p.x, p.y) < (q.x, q.y)
                    let e = forward ? Edge(ax: p.x, ay: p.y, bx: q.x, by: q.y) : Edge(ax: q.x, ay: q.y, bx: p.x, by: p.y)
                    let left = insideLeft == forward
                    var s = seen[e] ?? (-1, -1)
                    if left, s.left < 0 { s.left = k }
                    if !left, s.right < 0 { s.right = k }
                    seen[e] = s
                    return (e, left)
                })
            }
            keyed.append(out)
        }
        return keyed.enumerated().map { k, rings in
            rings.map { ring in
                ring.map { entry in
                    guard let (e, left) = entry, let s = seen[e] else { return false }
                    let across = left ? s.right : s.left
                    return across >= 0 && across != k
                }
            }
        }
    }

    /// The fringe of one ring (see `fillMesh`). `awayFromFill` is true for the exterior (the
    /// fringe goes outwards) and false for holes (it goes into the hole); edges `skip` marks get
    /// none.
    static func addFringe(_ ring: [MapPoint], awayFromFill exterior: Bool, skip: [Bool], into b: inout GroundMeshBuilder) {
        let n = ring.count
        let points = ring.map { ($0.x, $0.y) }
        let area2 = Outline.doubleArea(points)
        guard area2 != 0, area2.isFinite else { return }
        let sign: Double = (area2 > 0) == exterior ? 1 : -1
        // Outward unit normal per edge i (ring[i] → ring[i+1]); nil for skipped and zero-length ones.
        let normals: [(Double, Double)?] = (0 ..< n).map { i in
            skip[i] ? nil : Outline.normal(from: points[i], to: points[(i + 1) % n], sign: sign)
        }
        guard normals.contains(where: { $0 != nil }) else { return }
        // Per vertex: on the edge (coverage ½) and on the rim (the miter of its edges' normals).
        var inner: [UInt32] = [], outer: [UInt32] = []
        inner.reserveCapacity(n); outer.reserveCapacity(n)
        for i in 0 ..< n {
            let p = ring[i]
            var m = (0.0, 0.0)
            switch (normals[(i + n - 1) % n], normals[i]) {
            case let (a?, c?): m = Outline.miter(a, c)
            case let (a?, nil): m = a
            case let (nil, c?): m = c
            case (nil, nil): break
            }
            inner.append(b.add(p.x, p.y, 0, 0, 0, 0.5))
            outer.append(b.add(p.x, p.y, m.0, m.1, 0, 0))
        }
        for i in 0 ..< n where normals[i] != nil {
            let j = (i + 1) % n
            b.triangle(inner[i], outer[i], inner[j])
            b.triangle(outer[i], outer[j], inner[j])
        }
    }

    // MARK: circles

    private func addCircle(_ circle: Circle, _ view: PlanView, _ out: inout [DrawCommand]) {
        let c = MapPoint(circle.center)
        let strokeHalf = circle.stroke != nil ? circle.strokeWidth / 2 : 0
        switch circle.radius {
        case .pixels(let r):
            guard view.mayBeVisible(MapRect(origin: c, width: 0, height: 0), marginPx: r + strokeHalf + 2) else { return }
            let n = max(16, min(256, Int((Double.pi * (2 * max(r, 1)).squareRoot() * 2).rounded(.up))))
            if circle.fill.a > 0, r > 0 {
                let mesh = pixelDiscMesh(radius: r, segments: n, origin: MapPoint(x: 0, y: 0), view)
                out.append(DrawCommand(mesh: mesh, origin: c, color: circle.fill, extrudeScale: 1, coverage: .disc))
            }
            if let stroke = circle.stroke, strokeHalf > 0 {
                let inner = r - strokeHalf > 0 ? r - strokeHalf : -1
                let mesh = pixelQuad(inner: inner, outer: r + strokeHalf, view)
                    ?? cached(MeshKey(source: .pixelRing(radius: r, half: strokeHalf, segments: n), bucket: 0, cell: nil)) {
                        (Self.pixelRing(radius: r, halfWidth: strokeHalf, segments: n), MapPoint(x: 0, y: 0))
                    }.0
                out.append(DrawCommand(mesh: mesh, origin: c, color: stroke, extrudeScale: 1, coverage: .disc))
            }
        case .meters(let m):
            guard m > 0 else { return }
            let unitsRadius = m * MapPoint.unitsPerMeter(atLatitude: circle.center.lat) * 1.1
            // A circle round a pole covers the polar cap: the world's width centred on its centre.
            let approx = Circle.containsOnePole(circle.center, radius: m)
                ? MapRect(origin: MapPoint(x: c.x - 0.5, y: 0), width: 1, height: 1)
                : MapRect(origin: MapPoint(x: c.x - unitsRadius, y: c.y - unitsRadius),
                          width: 2 * unitsRadius, height: 2 * unitsRadius)
            guard view.mayBeVisible(approx, marginPx: strokeHalf + 2) else { return }
            // Rim points for the radius in pixels where Mercator stretches the circle most: at
            // the latitude it reaches nearest a pole (the map's edge at most).
            let reach = min(abs(circle.center.lat) + m / 111_000, 85)
            let rpx = m * MapPoint.unitsPerMeter(atLatitude: max(reach, abs(circle.center.lat))) * view.bucketWorldSize
            let n = max(32, min(1024, Int((Double.pi * (2 * rpx).squareRoot()).rounded(.up))))
            let ringKey = { (part: Int) in
                MeshKey(source: .geoCircle(lat: circle.center.lat, lon: circle.center.lon, radius: m, segments: n, part: part),
                        bucket: view.bucket, cell: nil)
            }
            var shapeCache: GeodesicShapes.CircleShape? = nil
            let shape: () -> GeodesicShapes.CircleShape = {
                if let s = shapeCache { return s }
                // n keeps an ordinary circle's rim within 0.25 px of its chords (r·π²/2n²);
                // points are added where it strays over 0.3 px at the bucket's scale (a polar
                // cap's rim near the pole, which Mercator bends more than its radius says).
                let s = GeodesicShapes.circle(center: circle.center, radius: m, count: n,
                                              tolerance: 0.3 / view.bucketWorldSize)
                shapeCache = s
                return s
            }
            if circle.fill.a > 0 {
                // Part 0 and, for a circle around a pole that is not drawn in world copies (which
                // place the cap's copies themselves), part 2: its copy one world away.
                for part in circle.worldCopies ? [0] : [0, 2] {
                    let (mesh, origin) = cached(ringKey(part)) {
                        let fills = shape().fills
                        let k = part / 2
                        guard k < fills.count else { return (Mesh(layout: .ground, vertices: [], indices: []), c) }
                        // No antialiased fringe along the map's top and bottom edges, nor along
                        // a polar cap's cut, where its world copies meet edge to edge.
                        let xs = fills[k].map(\.x)
                        let cut = shape().fills.count > 1
                            ? MapRect(origin: MapPoint(x: xs.min() ?? 0, y: 0), width: 1, height: 1)
                            : MapRect(origin: MapPoint(x: c.x - 1e6, y: 0), width: 2e6, height: 1)
                        return (Self.fillMesh([fills[k]], origin: c, clip: cut), c)
                    }
                    if !mesh.indices.isEmpty { out.append(DrawCommand(mesh: mesh, origin: origin, color: circle.fill, coverage: .fill)) }
                }
            }
            if let stroke = circle.stroke, strokeHalf > 0 {
                let (mesh, origin) = cached(ringKey(1)) {
                    var b = GroundMeshBuilder(origin: c)
                    let s = shape()
                    for rim in circle.worldCopies ? Array(s.rims.prefix(s.copyStart)) : s.rims {
                        LineStroker(join: .miter, cap: .butt).stroke(rim, closed: s.rimClosed, into: &b)
                    }
                    return (b.build(), c)
                }
                out.append(DrawCommand(mesh: mesh, origin: origin, color: stroke, extrudeScale: strokeHalf))
            }
        }
    }

    /// A disc of pixel radius around the origin (extrusions baked in pixels; draw with scale 1).
    /// Every vertex carries the radius (and −1 for "no inner edge"), so the shader can cover
    /// the true circle rather than the polygon.
    static func pixelDisc(radius r: Double, segments n: Int) -> Mesh {
        var b = GroundMeshBuilder(origin: MapPoint(x: 0, y: 0))
        let c = b.add(0, 0, 0, 0, -1, r)
        var first: UInt32 = 0, prevV: UInt32 = 0
        for k in 0 ..< n {
            let a = 2 * Double.pi * Double(k) / Double(n)
            let v = b.add(0, 0, r * cos(a), r * sin(a), -1, r)
            if k == 0 { first = v } else { b.triangle(c, prevV, v) }
            prevV = v
        }
        b.triangle(c, prevV, first)
        return b.build()
    }

    /// Sides of the polygon a pixel disc of `radius` logical pixels is drawn as (`pixelDisc`).
    /// With shader coverage the fragment shader cuts the true circle out of it, and the vertices
    /// are pushed out by one device pixel (`u_discOutset`): the polygon needs only to hold every
    /// pixel the circle's half-pixel ramp reaches, so its inner radius (vertex radius times
    /// cos(π/n)) must be at least the radius plus half a device pixel: 10 sides for a 12-px dot,
    /// where 32 drew the same pixels with three times the triangles, and more for large discs
    /// at high pixel ratios, which 32 sides clipped. Without shader coverage (multisampling)
    /// the polygon is the edge: its sides stay within 0.1 device pixel of the circle, and never
    /// fewer than `least`, what was drawn before.
    func discSegments(radius: Double, _ view: PlanView, least: Int = 32) -> Int {
        Self.discSegments(radius: radius, pixelRatio: view.pixelRatio, shaderCoverage: _discJoins, least: least)
    }

    /// `discSegments(radius:_:least:)` for a pixel ratio and either kind of antialiasing (at most 1024).
    static func discSegments(radius: Double, pixelRatio: Double, shaderCoverage: Bool, least: Int = 32) -> Int {
        let r = max(radius, 0) * pixelRatio
        guard r.isFinite, r > 0 else { return least }
        let half: Double = shaderCoverage ? acos(min((r + 0.5) / (r + 1), 1)) : acos(max(1 - 0.1 / r, -1))
        guard half > 0 else { return 1024 }
        let n = Int((Double.pi / half).rounded(.up))
        return min(1024, shaderCoverage ? max(8, n) : max(least, n))
    }

    /// Largest outer radius, in device pixels, of a pixel disc or ring drawn as a quad
    /// (`pixelQuad`). On llvmpipe setting up a triangle costs about as much as filling 800 pixels
    /// (55 dots of 48 triangles: 1.06 ms), so a square round the circle, two triangles, beats the
    /// polygon's 8 to 60 sides until its corners and a ring's hole hold more pixels than the
    /// polygon's triangles are worth: about 200 px for a disc and 115 px for a thin ring.
    static let pixelQuadMaxRadius = 96.0

    /// With shader coverage, the mesh a pixel disc (`inner` < 0) or ring of logical radii is
    /// drawn with when it is small (`pixelQuadMaxRadius`): a square round the outer circle whose
    /// corners the fragment shader leaves uncovered, as it does the polygon's (`pixelDisc`) —
    /// the same coverage from the same distances, 2 triangles instead of 8 to 60. Nil without
    /// shader coverage (multisampling, where the polygon is the edge) or for a larger circle.
    private func pixelQuad(inner: Double, outer: Double, _ view: PlanView) -> Mesh? {
        guard _discJoins, outer > 0, outer * view.pixelRatio <= Self.pixelQuadMaxRadius else { return nil }
        // Thousands of dots or circles ask for the same two squares in a frame: the last two
        // found this frame answer without hashing a key (an entry found this frame is already
        // marked used in it).
        func found(_ q: (generation: Int, inner: Double, outer: Double, mesh: Mesh)?) -> Mesh? {
            guard let q, q.generation == generation, q.inner == inner, q.outer == outer else { return nil }
            stats.hits += 1
            return q.mesh
        }
        if let mesh = found(recentQuad) ?? found(otherRecentQuad) { return mesh }
        let mesh = cached(MeshKey(source: .pixelQuad(inner: inner, outer: outer), bucket: 0, cell: nil)) {
            (Self.pixelQuad(inner: inner, outer: outer), MapPoint(x: 0, y: 0))
        }.0
        otherRecentQuad = recentQuad
        recentQuad = (generation, inner, outer, mesh)
        return mesh
    }

    /// A pixel disc's mesh: a square (`pixelQuad`) where one will do, else the `segments`-gon
    /// (`pixelDisc`, counted only then), cached.
    private func pixelDiscMesh(radius r: Double, segments: @autoclosure () -> Int, origin: MapPoint, _ view: PlanView) -> Mesh {
        if let quad = pixelQuad(inner: -1, outer: r, view) { return quad }
        let n = segments()
        return cached(MeshKey(source: .pixelDisc(radius: r, segments: n), bucket: 0, cell: nil)) {
            (Self.pixelDisc(radius: r, segments: n), origin)
        }.0
    }

    /// A square of half side `outer` round the origin, its vertices carrying the radii as
    /// `pixelRing`'s do (`inner` < 0: a disc). The vertex shader pushes its corners out by
    /// `u_discOutset` along the diagonals, so the sides stand 0.71 device px beyond the circle,
    /// past the half-pixel ramp of its coverage.
    static func pixelQuad(inner: Double, outer: Double) -> Mesh {
        var b = GroundMeshBuilder(origin: MapPoint(x: 0, y: 0))
        let d = inner > 0 ? inner : -1
        let v0 = b.add(0, 0, -outer, -outer, d, outer), v1 = b.add(0, 0, outer, -outer, d, outer)
        let v2 = b.add(0, 0, outer, outer, d, outer), v3 = b.add(0, 0, -outer, outer, d, outer)
        b.triangle(v0, v1, v2)
        b.triangle(v0, v2, v3)
        return b.build()
    }

    /// A ring between pixel radii r − h and r + h around the origin (each vertex carries both).
    static func pixelRing(radius r: Double, halfWidth h: Double, segments n: Int) -> Mesh {
        var b = GroundMeshBuilder(origin: MapPoint(x: 0, y: 0))
        let inner = max(0, r - h), outer = r + h
        for k in 0 ... n {
            let a = 2 * Double.pi * Double(k % n) / Double(n)
            _ = b.add(0, 0, inner * cos(a), inner * sin(a), inner > 0 ? inner : -1, outer)
            _ = b.add(0, 0, outer * cos(a), outer * sin(a), inner > 0 ? inner : -1, outer)
        }
        for k in 0 ..< UInt32(n) {
            let i0 = 2 * k
            b.triangle(i0, i0 + 1, i0 + 2)
            b.triangle(i0 + 1, i0 + 3, i0 + 2)
        }
        return b.build()
    }

    // MARK: markers, labels, sprites

    /// A marker at `p` (`MapPoint(marker.position)`).
    private func addMarker(_ marker: Marker, at p: MapPoint, _ view: PlanView, _ out: inout [DrawCommand]) {
        guard view.mayBeVisible(MapRect(origin: p, width: 0, height: 0), marginPx: 64) else { return }
        let opacity = marker.opacity.isFinite ? min(max(marker.opacity, 0), 1) : 1
        guard opacity > 0 else { return }
        let white = Color.white.withOpacity(opacity), body = marker.color.withOpacity(opacity)
        let k = marker.drawnScale
        // Flat shapes' antialiased fringe: one device pixel.
        let fringe = 1 / view.pixelRatio
        switch marker.style {
        case .dot:
            let r = k * Marker.dotDiameter / 2, ring = k * Marker.dotRingWidth
            if let glyph = glyphImage(marker, size: (marker.symbol != nil ? Marker.dotSymbolSize : marker.glyph?.count == 1 ? 9 : 7) * k, view) {
                // With a glyph or symbol the dot is two flat shapes, like a pin's parts (anchored
                // on a whole pixel), and the glyph lies a whole number of pixels from that
                // anchor, so that runs of such dots are stamped as pins are.
                for (radius, colour) in [(r + ring, white), (r, body)] {
                    let (mesh, _) = cached(MeshKey(source: .circleShape(radius: radius, fringe: fringe), bucket: 0, cell: nil)) {
                        (Self.circleShape(radius: radius, fringe: fringe), p)
                    }
                    out.append(DrawCommand(mesh: mesh, origin: p, color: colour, coverage: .shape))
                }
                addInkCentred(glyph, at: marker.position, offset: (0, 0), opacity: opacity, byBox: marker.symbol != nil,
                              wholePixels: true, view, &out)
                return
            }
            let outer = pixelDiscMesh(radius: r + ring, segments: discSegments(radius: r + ring, view), origin: p, view)
            let inner = pixelDiscMesh(radius: r, segments: discSegments(radius: r, view), origin: p, view)
            out.append(DrawCommand(mesh: outer, origin: p, color: white, extrudeScale: 1, coverage: .disc))
            out.append(DrawCommand(mesh: inner, origin: p, color: body, extrudeScale: 1, coverage: .disc))
        case .pin:
            // A glyph takes the place of the white dot in the head (parts 0 and 1 only).
            let glyph = glyphImage(marker, size: (marker.symbol != nil ? Marker.pinSymbolSize : marker.glyph?.count == 1 ? 11 : 9) * k, view)
            for part in 0 ..< (glyph == nil ? 3 : 2) {
                let (mesh, _) = cached(MeshKey(source: .pin(part: part, scale: k, fringe: fringe), bucket: 0, cell: nil)) {
                    (Self.pinMesh(part: part, scale: k, fringe: fringe), p)
                }
                out.append(DrawCommand(mesh: mesh, origin: p, color: part == 1 ? body : white, coverage: .shape))
            }
            if let glyph {
                addInkCentred(glyph, at: marker.position, offset: (0, -(Marker.pinHeight - 9) * k), opacity: opacity,
                              byBox: marker.symbol != nil, wholePixels: true, view, &out)
            }
        case .arrow:
            // Turned on screen to the projected heading; angles in tenths of a degree share meshes.
            let tenths = Self.tenths(screenAngle(of: marker.rotation ?? 0, at: p, view))
            for part in 0 ..< 2 {
                let (mesh, _) = cached(MeshKey(source: .arrow(part: part, tenths: tenths, scale: k, fringe: fringe), bucket: 0, cell: nil)) {
                    (Self.arrowMesh(part: part, tenths: tenths, scale: k, fringe: fringe), p)
                }
                out.append(DrawCommand(mesh: mesh, origin: p, color: part == 1 ? body : white, coverage: .shape))
            }
        case .image(let img, let anchor):
            let angle = marker.rotation.map { screenAngle(of: $0, at: p, view) } ?? 0
            addQuad(at: marker.position, image: img, anchor: anchor, offset: (0, 0), view, &out,
                    rotation: angle, opacity: opacity, scale: k)
        }
    }

    /// The marker's glyph as text `size` px high, or its symbol in a box `size` px square, in
    /// whichever of white and the labels' near-black contrasts more with the marker colour
    /// (WCAG 2 contrast ratio); nil without a glyph or symbol, or a rasterizer that draws it.
    private func glyphImage(_ marker: Marker, size: Double, _ view: PlanView) -> SpriteImage? {
        if let symbol = marker.symbol {
            return _rasterizer?.rasterizeSymbol(symbol, size: size, color: Self.glyphColor(on: marker.color),
                                                pixelRatio: view.pixelRatio)
        }
        guard let text = marker.glyph else { return nil }
        return textImage(text, size: size, on: marker.color, at: marker.position, view)
    }

    /// `text` `size` px high in white or near-black, whichever stands out on `background`.
    private func textImage(_ text: String, size: Double, on background: Color, at position: LatLng,
                           _ view: PlanView) -> SpriteImage? {
        guard !text.isEmpty, let rasterizer = _rasterizer,
              let label = try? Label(position: position, text: text, size: size,
                                     color: Self.glyphColor(on: background), haloColor: nil)
        else { return nil }
        return rasterizer.rasterize(label, pixelRatio: view.pixelRatio)
    }

    /// A cluster: a disc in the cluster's colour with a white ring, sized by its count
    /// (`MarkerCluster.discDiameter`), and the count in it.
    private func addClusterDisc(_ node: MarkerCluster.Node, of cluster: MarkerCluster, _ view: PlanView,
                                _ out: inout [DrawCommand]) {
        let p = node.point
        let d = MarkerCluster.discDiameter(count: node.count)
        guard view.mayBeVisible(MapRect(origin: p, width: 0, height: 0), marginPx: d) else { return }
        let body = cluster.color, white = Color.white.withOpacity(Double(cluster.color.a) / 255)
        for (r, colour) in [(d / 2, white), (d / 2 - MarkerCluster.ringWidth, body)] {
            let mesh = pixelDiscMesh(radius: r, segments: discSegments(radius: r, view, least: 48), origin: p, view)
            out.append(DrawCommand(mesh: mesh, origin: p, color: colour, extrudeScale: 1, coverage: .disc))
        }
        if let text = textImage(MarkerCluster.abbreviated(node.count), size: 12, on: body, at: p.latLng, view) {
            addInkCentred(text, at: p.latLng, offset: (0, 0), opacity: 1, view, &out)
        }
    }

    /// Draws `image` with the middle of its ink (`SpriteImage.inkCentre`, not the text box,
    /// whose line spacing sits the capitals off-centre) `offset` from the point; `byBox`, with
    /// the middle of the image instead (a symbol, which its designers placed in its box).
    /// `wholePixels` rounds the image's offset from the anchor to whole device pixels: on a
    /// shape drawn about its snapped anchor (a pin), the image then sits the same in every pin,
    /// within half a pixel of where it belongs, and a run of them can be stamped (`ScreenBatch`).
    private func addInkCentred(_ image: SpriteImage, at position: LatLng, offset: (x: Double, y: Double),
                               opacity: Double, byBox: Bool = false, wholePixels: Bool = false, _ view: PlanView,
                               _ out: inout [DrawCommand]) {
        guard let ink = byBox ? (image.logicalWidth / 2, image.logicalHeight / 2) : image.inkCentre else { return }
        var o = (x: offset.x - ink.x, y: offset.y - ink.y)
        if wholePixels {
            let r = view.pixelRatio
            o = ((o.x * r).rounded() / r, (o.y * r).rounded() / r)
        }
        addQuad(at: position, image: image, anchor: (0, 0), offset: o, view, &out, opacity: opacity)
    }

    /// White or near-black (`#1F2328`), whichever contrasts more with `c` (WCAG 2: relative
    /// luminance from linearised sRGB, ratio (L₁ + 0.05)/(L₂ + 0.05)).
    static func glyphColor(on c: Color) -> Color {
        func luminance(_ c: Color) -> Double {
            let ch = [c.r, c.g, c.b].map { v -> Double in
                let x = Double(v) / 255
                return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]
        }
        let dark = Color(rgb: 0x1F2328)
        let l = luminance(c)
        return 1.05 / (l + 0.05) >= (l + 0.05) / (luminance(dark) + 0.05) ? .white : dark
    }

    /// The on-screen direction (degrees clockwise from up) of a heading (degrees clockwise from
    /// north) at a map point: the bearing turns it, and pitch foreshortens it.
    private func screenAngle(of heading: Double, at p: MapPoint, _ view: PlanView) -> Double {
        let h = heading * .pi / 180
        let step = 8 / view.worldSize
        let q = MapPoint(x: p.x + sin(h) * step, y: p.y - cos(h) * step)
        guard let a = view.camera.project(p.latLng), let b = view.camera.project(q.latLng) else {
            return heading - view.camera.bearing
        }
        let dx = b.x - a.x, dy = b.y - a.y
        guard dx * dx + dy * dy > 1e-12 else { return heading - view.camera.bearing }
        var deg = atan2(dx, -dy) * 180 / .pi
        if deg < 0 { deg += 360 }
        return deg
    }

    /// Screen angles snap to tenths of a degree (0…3599), so turned meshes are shared.
    static func tenths(_ degrees: Double) -> Int {
        let t = Int((degrees * 10).rounded()) % 3600
        return t < 0 ? t + 3600 : t
    }

    /// Points (screen pixels, y down) turned `tenths` tenths of a degree clockwise about the origin.
    static func turned(_ points: [(Double, Double)], tenths: Int) -> [(Double, Double)] {
        let a = Double(tenths) / 10 * .pi / 180, c = cos(a), s = sin(a)
        return points.map { ($0.0 * c - $0.1 * s, $0.0 * s + $0.1 * c) }
    }

    /// Screen-mesh vertices (anchor at the origin, offset, texture coordinates) for corners
    /// turned `tenths` tenths of a degree clockwise about the anchor.
    static func turnedVertices(_ corners: [(x: Double, y: Double, u: Double, v: Double)], tenths: Int) -> [Float] {
        let offsets = turned(corners.map { ($0.x, $0.y) }, tenths: tenths)
        var out: [Float] = []
        out.reserveCapacity(corners.count * 6)
        for (k, o) in zip(corners, offsets) {
            out += [0, 0, Float(o.0), Float(o.1), Float(k.u), Float(k.v)]
        }
        return out
    }

    /// The arrow marker in screen pixels around its centre, pointing `tenths` tenths of a degree
    /// clockwise from up: part 0 the white outline, part 1 the coloured body (a notched
    /// arrowhead), `scale` times `Marker.arrowSize`, its fringe `fringe` logical px wide (one
    /// device pixel: 1 / the pixel ratio).
    static func arrowMesh(part: Int, tenths: Int, scale: Double = 1, fringe: Double = 1) -> Mesh {
        let s = scale * Marker.arrowSize / 2
        // Tip, right wing, notch, left wing (y down; pointing up before turning).
        var shape: [(Double, Double)] = [(0, -s), (0.8 * s, s), (0, 0.45 * s), (-0.8 * s, s)]
        if part == 0 {
            // Grown by ~2 px (scaled) about the centroid of the arrow's area.
            shape = shape.map { ($0.0 * 1.22, ($0.1 - 0.1 * s) * 1.22 + 0.1 * s) }
        }
        // The fan's centre, from which every edge is seen, turns with the outline.
        let points = turned(shape + [(0, 0.2 * s)], tenths: tenths)
        return shapeMesh(outline: Array(points.dropLast()), centre: points[points.count - 1], fringe: fringe)
    }

    /// A disc of `radius` logical px about the anchor as a flat screen shape (`shapeMesh`) with
    /// a fringe `fringe` logical px wide (one device pixel: 1 / the pixel ratio, as a dot's
    /// edge is), its polygon within 0.02 px of the circle.
    static func circleShape(radius: Double, fringe: Double = 1) -> Mesh {
        let r = max(radius, 0.01)
        let n = min(512, max(40, Int((Double.pi / acos(1 - min(1, 0.02 / r))).rounded(.up))))
        let ring = (0 ..< n).map { k -> (Double, Double) in
            let a = 2 * Double.pi * Double(k) / Double(n)
            return (r * cos(a), r * sin(a))
        }
        return shapeMesh(outline: ring, centre: (0, 0), fringe: fringe)
    }

    /// A flat screen shape (logical pixels, y down, around the anchor) as a fan from `centre`
    /// (from which every edge must be seen) with a fringe `f` logical px wide (default one)
    /// centred on the outline: texture coordinate u is the coverage, 1 half the fringe inside
    /// the outline, ½ on it and 0 half the fringe outside (`Coverage.shape`).
    static func shapeMesh(outline: [(Double, Double)], centre: (Double, Double), fringe f: Double = 1) -> Mesh {
        let n = outline.count
        guard n >= 3 else { return Mesh(layout: .screen, vertices: [], indices: []) }
        let sign: Double = Outline.doubleArea(outline) > 0 ? 1 : -1
        let normals = (0 ..< n).map { Outline.normal(from: outline[$0], to: outline[($0 + 1) % n], sign: sign) ?? (0, 0) }
        var v: [Float] = [0, 0, Float(centre.0), Float(centre.1), 1, 0.5]
        var idx: [UInt32] = []
        for i in 0 ..< n {
            let m = Outline.miter(normals[(i + n - 1) % n], normals[i])
            let p = outline[i]
            v += [0, 0, Float(p.0 - 0.5 * f * m.0), Float(p.1 - 0.5 * f * m.1), 1, 0.5]
            v += [0, 0, Float(p.0 + 0.5 * f * m.0), Float(p.1 + 0.5 * f * m.1), 0, 0.5]
        }
        for i in 0 ..< n {
            let j = (i + 1) % n
            let ii = UInt32(1 + 2 * i), io = ii + 1, ji = UInt32(1 + 2 * j), jo = ji + 1
            idx += [0, ii, ji, ii, io, ji, io, jo, ji]
        }
        return Mesh(layout: .screen, vertices: v, indices: idx)
    }

    /// Pin parts in screen pixels (tip at the origin), `scale` times the 30-px pin: 0 the white
    /// outline, 1 the coloured body, 2 the white centre dot. The antialiased fringe is `fringe`
    /// logical px wide whatever the scale (one device pixel: 1 / the pixel ratio).
    static func pinMesh(part: Int, scale k: Double = 1, fringe: Double = 1) -> Mesh {
        let h = Marker.pinHeight
        let (radius, tip, centre): (Double, Double, Double) = switch part {
        case 0: (9 * k, 0, -(h - 9) * k)
        case 1: (7.5 * k, -2.2 * k, -(h - 9) * k)
        default: (3 * k, (-(h - 9) + 3) * k, -(h - 9) * k)
        }
        let d = tip - centre // distance from centre down to the tip
        let n = 40
        var ring: [(Double, Double)] = []
        if part == 2 || d <= radius {
            for k in 0 ..< n {
                let a = 2 * Double.pi * Double(k) / Double(n)
                ring.append((radius * cos(a), centre + radius * sin(a)))
            }
        } else {
            // Arc between the two tangent points from the tip, the long way round, then the tip.
            let half = acos(radius / d)
            let down = Double.pi / 2
            let start = down + half, sweep = 2 * Double.pi - 2 * half
            for k in 0 ... n {
                let a = start + sweep * Double(k) / Double(n)
                ring.append((radius * cos(a), centre + radius * sin(a)))
            }
            ring.append((0, tip))
        }
        return shapeMesh(outline: ring, centre: (0, centre), fringe: fringe)
    }

    private func addLabel(_ label: Label, _ view: PlanView, _ out: inout [DrawCommand], opacity: Double = 1) {
        guard let rasterizer = _rasterizer else { return }
        let p = MapPoint(label.position)
        guard view.mayBeVisible(MapRect(origin: p, width: 0, height: 0), marginPx: 512) else { return }
        guard let image = rasterizer.rasterize(label, pixelRatio: view.pixelRatio) else { return }
        if let pieces = label.pieces {
            addPieces(pieces, at: label.position, image: image, view, &out, opacity: opacity)
            return
        }
        addQuad(at: label.position, image: image, anchor: label.anchor, offset: label.offset, view, &out, opacity: opacity)
    }

    /// A label laid along a line: one mesh of turned strips of its image (`Label.pieces`), in
    /// 1/256 px and tenths of a degree (so a label laid out the same way again shares the mesh).
    private func addPieces(_ pieces: [LabelPiece], at position: LatLng, image: SpriteImage, _ view: PlanView,
                           _ out: inout [DrawCommand], opacity: Double) {
        guard position.isValid, !pieces.isEmpty, pieces.count <= 4096 else { return }
        let w = image.logicalWidth, h = image.logicalHeight
        guard w > 0, h > 0 else { return }
        var q: [Int] = [Int((w * 256).rounded()), Int((h * 256).rounded())]
        for piece in pieces {
            let values = [piece.x0, piece.x1, piece.dx, piece.dy]
            guard values.allSatisfy({ $0.isFinite && abs($0) < 1e5 }), piece.angle.isFinite else { return }
            q += values.map { Int(($0 * 256).rounded()) } + [Self.tenths(piece.angle)]
        }
        let p = MapPoint(position)
        guard view.mayBeVisible(MapRect(origin: p, width: 0, height: 0), marginPx: 2 * w + h) else { return }
        let (mesh, _) = cached(MeshKey(source: .pieces(q), bucket: 0, cell: nil)) {
            var vertices: [Float] = [], indices: [UInt32] = []
            for k in 0 ..< pieces.count {
                let v = q[2 + 5 * k ..< 6 + 5 * k].map { Double($0) / 256 }
                let (x0, x1, dx, dy) = (v[0], v[1], v[2], v[3])
                let half = (x1 - x0) / 2
                // (Texture v raised by 2 marks strips that the vertex shader leaves unsnapped.)
                let turned = Self.turnedVertices([(-half, -h / 2, x0 / w, 2), (half, -h / 2, x1 / w, 2),
                                                  (half, h / 2, x1 / w, 3), (-half, h / 2, x0 / w, 3)], tenths: q[6 + 5 * k])
                for c in 0 ..< 4 {
                    var corner = Array(turned[6 * c ..< 6 * c + 6])
                    corner[2] += Float(dx)
                    corner[3] += Float(dy)
                    vertices += corner
                }
                let b = UInt32(4 * k)
                indices += [b, b + 1, b + 2, b, b + 2, b + 3]
            }
            return (Mesh(layout: .screen, vertices: vertices, indices: indices), p)
        }
        out.append(DrawCommand(mesh: mesh, origin: p, color: Color.white.withOpacity(opacity), texture: image,
                               blendOnce: false))
    }

    private func addQuad(at position: LatLng, image: SpriteImage, anchor: (x: Double, y: Double),
                         offset: (x: Double, y: Double), _ view: PlanView, _ out: inout [DrawCommand],
                         rotation: Double = 0, opacity: Double = 1, scale: Double = 1) {
        guard position.isValid else { return }
        let p = MapPoint(position)
        let w = scale * image.logicalWidth, h = scale * image.logicalHeight
        guard view.mayBeVisible(MapRect(origin: p, width: 0, height: 0),
                                marginPx: w + h + abs(offset.x) + abs(offset.y)) else { return }
        let x0 = -anchor.x * w + offset.x, y0 = -anchor.y * h + offset.y
        // Turned about the anchor, in tenths of a degree (shared meshes).
        let tenths = Self.tenths(rotation)
        let key = MeshKey(source: .quad(x0: x0, y0: y0, w: w, h: h, tenths: tenths), bucket: 0, cell: nil)
        let (mesh, _) = cached(key) {
            let v = Self.turnedVertices([(x0, y0, 0, 0), (x0 + w, y0, 1, 0), (x0 + w, y0 + h, 1, 1), (x0, y0 + h, 0, 1)],
                                        tenths: tenths)
            return (Mesh(layout: .screen, vertices: v, indices: [0, 1, 2, 0, 2, 3]), p)
        }
        out.append(DrawCommand(mesh: mesh, origin: p, color: Color.white.withOpacity(opacity), texture: image,
                               blendOnce: false))
    }
}

/// Where cached meshes come from.
struct MeshKey: Hashable {
    enum Source: Hashable {
        /// A polyline's path; the variant codes its join, cap, detail and kind.
        case line(ObjectIdentifier, variant: Int)
        /// A polygon's rings: part 0 its fill, 1 its outline, 2 its fill without a fringe (under
        /// an outline that hides it); apart from lines, so a path that is both a polygon's
        /// exterior and a line gets each its own mesh.
        case polygon(ObjectIdentifier, holes: [ObjectIdentifier], part: Int)
        case geoCircle(lat: Double, lon: Double, radius: Double, segments: Int, part: Int)
        case pixelDisc(radius: Double, segments: Int)
        case pixelRing(radius: Double, half: Double, segments: Int)
        case pixelQuad(inner: Double, outer: Double)
        case pin(part: Int, scale: Double, fringe: Double)
        case circleShape(radius: Double, fringe: Double)
        case quad(x0: Double, y0: Double, w: Double, h: Double, tenths: Int)
        /// A label laid along a line: its image's size and each piece, quantised.
        case pieces([Int])
        case arrow(part: Int, tenths: Int, scale: Double, fringe: Double)
        case solid(SolidKey)
        /// A view-dependent, overdraw-culled line mesh: path, variant and the exact view.
        case culledPath(ObjectIdentifier, variant: Int, view: [Double])
        /// A `MultiPolygon`'s set: part 0 its fringed fills, 1 its rings' outlines, 2 its convex
        /// fills, 3 its translucent fills, 4 its wedge fills, 6 its translucent fills without
        /// fringes (under an outline that hides them); 5 its `outlinePaths` (the paths' identity).
        case polygonSet(ObjectIdentifier, part: Int)
        /// A `MultiPolyline`'s set; the variant as for `line`.
        case pathSet(ObjectIdentifier, variant: Int)
        /// Consecutive alike ground meshes merged into one (`batchGround`), with their origins'
        /// offsets from the first one's.
        case groundBatch([ObjectIdentifier], offsets: [Double])
    }
    var source: Source
    var bucket: Int
    var cell: ClipCell.Key?
}

final class CacheEntry {
    /// The mesh; nil for a line whose pieces are cached but whose full mesh was not needed yet.
    var mesh: Mesh? { didSet { counted = nil } }
    let origin: MapPoint
    /// Keeps the keyed objects alive so that their identities stay unique while cached.
    let retain: [AnyObject]
    var lastUsed: Int
    /// For polylines: the simplified (and clipped) pieces, with their along-line start distances.
    var pieces: [(points: [MapPoint], start: Double)] = [] { didSet { counted = nil } }
    private var counted: Int?
    /// What an entry counts for beyond its mesh and pieces.
    static let overheadBytes = 1024
    /// The bytes of the mesh's vertices and indices and of the pieces' points, and
    /// `overheadBytes` for the entry (so that empty meshes count too: they keep their sets alive).
    var bytes: Int {
        if let counted { return counted }
        var n = Self.overheadBytes + ((mesh?.vertices.count ?? 0) + (mesh?.indices.count ?? 0)) * 4
        for p in pieces { n += p.points.count * MemoryLayout<MapPoint>.stride }
        counted = n
        return n
    }
    /// For polylines: the total length of `pieces` in map units.
    var length = 0.0

    init(mesh: Mesh?, origin: MapPoint, retain: [AnyObject], lastUsed: Int) {
        self.mesh = mesh; self.origin = origin; self.retain = retain; self.lastUsed = lastUsed
    }
}
