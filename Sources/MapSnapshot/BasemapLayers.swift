import Foundation
import GeoKit
import MapCamera
import MapRender
import MapScene
import MapTiles

/// Turns the embedded basemap's features for a view into scene layers: land and lakes as
/// polygons, coastlines and borders as lines, places as dots with labels placed without
/// overlaps (most important first).
///
/// Each tile's shapes are made once, as sets (`MultiPolygon`, `MultiPolyline`: the land, the
/// lakes, the shores and the borders of a tile), and kept with the tile, so drawing the same
/// tile again decodes nothing and hands the renderer the same sets: its mesh cache is hit.
final class BasemapLayers: @unchecked Sendable {
    let basemap: EmbeddedBasemap
    private let lock = NSLock()
    /// What one tile draws, each nil where the tile has none.
    private struct TileSets {
        var land: PolygonSet?
        var lakes: PolygonSet?
        /// Coastlines and lake shores (stroked alike).
        var shores: PathSet?
        var borders: PathSet?
    }
    private var tileSets: [BasemapTile: TileSets] = [:]
    /// Most tiles whose sets are kept; the cache is emptied past this. (A view reads at most
    /// `EmbeddedBasemap.maxTilesPerQuery`.)
    static let maxCachedTiles = 1024

    init(basemap: EmbeddedBasemap) {
        self.basemap = basemap
    }

    /// The basemap layers for `camera` in `style`, bottom first: the ground (every tile's land,
    /// then lakes, then shores, then borders) and the places to label (`placeLabels(_:…)`
    /// places them).
    func layers(for camera: Camera, style: BasemapStyle) -> (ground: [Overlay], places: [BasemapPlace]) {
        guard let rect = Self.visibleRect(camera) else { return ([], []) }
        let tiles = basemap.tiles(in: rect, zoom: camera.zoom)
        lock.lock()
        if tileSets.count + tiles.count > Self.maxCachedTiles { tileSets.removeAll(keepingCapacity: true) }
        let sets = tiles.map(tileSets(_:))
        lock.unlock()
        var out: [Overlay] = []
        // The basemap hands over each world copy the view needs, already placed.
        for (polygons, color) in [(\TileSets.land, style.land), (\TileSets.lakes, style.lake)] {
            for case let set? in sets.map({ $0[keyPath: polygons] }) {
                var p = MultiPolygon(polygons: set, fill: Color(color))
                p.worldCopies = false
                p.meshedAtOnceWhenMissing = true
                out.append(.multiPolygon(p))
            }
        }
        let lines = [(\TileSets.shores, style.coastline, style.coastlineWidth),
                     (\TileSets.borders, style.border, style.borderWidth(atZoom: camera.zoom))]
        for (paths, color, width) in lines {
            for case let set? in sets.map({ $0[keyPath: paths] }) {
                var l = MultiPolyline(paths: set, style: LineStyle(width: .pixels(width), color: Color(color)))
                l.worldCopies = false
                l.meshedAtOnceWhenMissing = true
                out.append(.multiPolyline(l))
            }
        }
        return (out, basemap.places(in: rect, zoom: camera.zoom))
    }

    /// The tile's sets, made on first use (the lock is held).
    private func tileSets(_ tile: BasemapTile) -> TileSets {
        if let hit = tileSets[tile] { return hit }
        let f = basemap.features(of: tile)
        func polygons(_ kind: BasemapPolygon.Kind) -> PolygonSet? {
            let parts = f.polygons.filter { $0.kind == kind }.compactMap { p -> PolygonRings? in
                let rings = p.rings.filter { $0.count >= 3 }.compactMap { try? GeoPath(points: $0) }
                guard let exterior = rings.first else { return nil }
                return PolygonRings(exterior: exterior, holes: Array(rings.dropFirst()))
            }
            // (Cut to the tile: corridors the tile cutter left along its sides are no keyholes.)
            return parts.isEmpty ? nil : PolygonSet(parts, frame: basemap.rect(of: tile))
        }
        func lines(_ kinds: Set<BasemapLine.Kind>) -> PathSet? {
            let paths = f.lines.filter { kinds.contains($0.kind) && $0.points.count >= 2 }.compactMap { try? GeoPath(points: $0.points) }
            return paths.isEmpty ? nil : PathSet(paths)
        }
        let made = TileSets(land: polygons(.land), lakes: polygons(.lake), shores: lines([.coastline, .lakeShore]),
                            borders: lines([.countryBorder]))
        tileSets[tile] = made
        return made
    }

    /// `places` (the embedded basemap's) less those that `others` (vector tiles') also name: a
    /// place of the same name in any of its languages (letter case and accents aside) within
    /// 30 km (1,000 km for a country, whose label points differ more between sources), or any
    /// place within 2 km (the same town spelt differently).
    static func withoutDuplicates(_ places: [BasemapPlace], of others: [BasemapPlace]) -> [BasemapPlace] {
        guard !places.isEmpty, !others.isEmpty else { return places }
        func key(_ s: String) -> String { s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
        var byName: [String: [BasemapPlace]] = [:]
        for o in others {
            for n in Set([o.name] + o.names.values).map(key) { byName[n, default: []].append(o) }
        }
        /// Kilometres between two places (equirectangular: exact enough at these distances).
        func km(_ a: BasemapPlace, _ b: BasemapPlace) -> Double {
            let rad = Double.pi / 180
            let dLat = (a.position.lat - b.position.lat) * rad
            var dLon = (a.position.lon - b.position.lon).truncatingRemainder(dividingBy: 360)
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            let x = dLon * rad * cos((a.position.lat + b.position.lat) / 2 * rad)
            return 6371 * (x * x + dLat * dLat).squareRoot()
        }
        return places.filter { p in
            let reach = p.isCountry ? 1000.0 : 30
            if byName[key(p.name)]?.contains(where: { $0.isCountry == p.isCountry && km($0, p) <= reach }) == true { return false }
            return !others.contains { !$0.isCountry && !p.isCountry && km($0, p) <= 2 }
        }
    }

    /// Place dots and labels (`Scene.basemapLabels`), greedily: by importance, skipping any
    /// whose label box would overlap one already placed or a `reserved` box, or leave the
    /// viewport. `labels` measures the text.
    static func placeLabels(_ places: [BasemapPlace], camera: Camera, style: BasemapStyle,
                            labels: CairoLabelRasterizer, reserved: [LabelBox]) -> [PlaceLabel] {
        var boxes = LabelBoxes(reserved)
        return placeLabels(places, camera: camera, style: style, labels: labels, boxes: &boxes)
    }

    /// As `placeLabels(_:camera:style:labels:reserved:)`, adding each placed label's box to `boxes`.
    static func placeLabels(_ places: [BasemapPlace], camera: Camera, style: BasemapStyle,
                            labels: CairoLabelRasterizer, boxes: inout LabelBoxes) -> [PlaceLabel] {
        let sorted = places.sorted { a, b in
            if a.isCountry != b.isCountry { return !a.isCountry }  // cities before country names
            if a.labelRank != b.labelRank { return a.labelRank < b.labelRank }
            return a.population > b.population
        }
        var out: [PlaceLabel] = []
        let w = camera.size.width, h = camera.size.height
        let textColor = Color(style.labelText), halo = Color(style.labelHalo)
        let projector = camera.projector
        for place in sorted {
            if place.isCountry && camera.zoom > BasemapPlace.countryLabelMaxZoom { continue }
            // Each copy of the world the view shows has its own copy of the place (`point`);
            // its label is placed, and drawn, there and nowhere else.
            guard let s = projector.project(place.point), s.x >= 0, s.y >= 0, s.x <= w, s.y <= h else { continue }
            let position = LatLng(lat: place.position.lat, lon: place.point.x * 360 - 180)
            let size = style.labelSize(for: place)
            let dot = place.isCountry ? 0 : style.placeDotSize / 2
            let anchor: (x: Double, y: Double) = place.isCountry ? (0.5, 0.5) : (0, 0.5)
            let offset: (x: Double, y: Double) = (place.isCountry ? 0 : dot + 3, 0)
            guard var label = try? Label(position: position, text: place.name, size: size, color: textColor,
                                         haloColor: halo, haloWidth: style.labelHaloWidth, anchor: anchor,
                                         offset: offset),
                  let image = labels.rasterize(label, pixelRatio: camera.pixelRatio) else { continue }
            let lw = image.logicalWidth, lh = image.logicalHeight
            // The box holds the name's image (its halo included) with a 2 px margin and, for a
            // city, the dot left of it: another name's box (its image and margin) may touch
            // the dot's edge but not cross it, so its halo stays 2 px clear of the dot. (A
            // country has no dot and its name is centred: its box starts at the name's margin.)
            let textLeft = s.x - anchor.x * lw + offset.x, y0 = s.y - anchor.y * lh
            let left = min(textLeft - 2, s.x - dot)
            let box: LabelBox = (left, y0 - 1, textLeft + lw + 2, y0 + lh + 1)
            guard box.0 >= 0, box.1 >= 0, box.2 <= w, box.3 <= h else { continue }
            if boxes.meets(box) { continue }
            boxes.append(box)
            var dotCircle: Circle?
            if !place.isCountry,
               var c = try? Circle(center: position, radius: .pixels(dot), fill: Color(style.placeDot),
                                   stroke: place.isCapital ? halo : nil, strokeWidth: 1) {
                c.worldCopies = false
                dotCircle = c
            }
            label.worldCopies = false
            out.append(PlaceLabel(dot: dotCircle, label: label))
        }
        return out
    }

    /// The part of the world the camera may show, as a normalised Web Mercator rectangle
    /// (x may run past 0…1 when the view wraps); nil for a degenerate camera.
    static func visibleRect(_ camera: Camera) -> MapRect? {
        var pts: [MapPoint] = []
        let w = camera.size.width, h = camera.size.height
        let c = MapPoint(camera.center)
        for sx in stride(from: 0.0, through: 1.0, by: 0.25) {
            for sy in stride(from: 0.0, through: 1.0, by: 0.25) {
                if let g = camera.unproject(ScreenPoint(x: sx * w, y: sy * h)) {
                    var p = MapPoint(g)
                    // Keep the view contiguous across the antimeridian around the centre.
                    while p.x - c.x > 0.5 { p.x -= 1 }
                    while c.x - p.x > 0.5 { p.x += 1 }
                    pts.append(p)
                }
            }
        }
        guard var r = MapRect(bounding: pts) else { return nil }
        // Views wider than the world (low zoom) still show it once across.
        let span = w / camera.worldSize
        if r.width < span { r = MapRect(origin: MapPoint(x: c.x - span / 2, y: r.minY), width: span, height: r.height) }
        return r
    }
}

/// A place the basemap labels: its dot (none for a country) and its name, in the copy of the
/// world it is drawn in.
struct PlaceLabel {
    var dot: Circle?
    var label: Label
    /// A point of interest's icon.
    var icon: Sprite?

    /// The same place from one frame to the next: its name where it stands (the position
    /// carries the world copy).
    struct Key: Hashable, Comparable {
        var text: String
        var lat: Double
        var lon: Double

        static func < (a: Self, b: Self) -> Bool { (a.text, a.lat, a.lon) < (b.text, b.lat, b.lon) }
    }

    var key: Key { Key(text: label.text, lat: label.position.lat, lon: label.position.lon) }

    /// The dot and the name, drawn at `opacity`.
    func overlays(opacity: Double) -> [Overlay] {
        var l = label
        l.opacity = opacity
        if var icon {
            icon.opacity = opacity
            return [.sprite(icon), .label(l)]
        }
        guard var d = dot else { return [.label(l)] }
        if opacity < 1 {
            d.fill = d.fill.withOpacity(opacity)
            d.stroke = d.stroke?.withOpacity(opacity)
        }
        return [.circle(d), .label(l)]
    }
}

/// A screen box (minX, minY, maxX, maxY) in logical px that place labels must keep clear of.
typealias LabelBox = (Double, Double, Double, Double)

/// Whether `b` overlaps any of `boxes` (touching edges do not).
func meets(_ b: LabelBox, _ boxes: [LabelBox]) -> Bool {
    boxes.contains { overlaps($0, b) }
}

/// Whether two boxes overlap (touching edges do not).
@inline(__always) func overlaps(_ a: LabelBox, _ b: LabelBox) -> Bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// The boxes labels have taken in a frame, indexed by a grid of 64-px cells so that a new box
/// is tested against its neighbours only (a frame of street names tests thousands of character
/// boxes against hundreds placed). Answers exactly as testing every box would (`meets`).
struct LabelBoxes {
    /// Every box, in the order added.
    private(set) var all: [LabelBox] = []
    /// Cell (packed x, y) → indices into `all` of the boxes reaching it.
    private var cells: [Int: [Int32]] = [:]
    /// Boxes too large (more than 1 024 cells) or not finite, tested one by one.
    private var loose: [Int32] = []
    static let cellSize = 64.0
    private static let maxCells = 1024

    init(_ boxes: [LabelBox] = []) {
        for b in boxes { append(b) }
    }

    /// The cells `b` reaches (nil when too many, or not finite).
    private static func range(_ b: LabelBox) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
        let limit = 1e6  // (±64 million px: far beyond any view)
        guard b.0.isFinite, b.1.isFinite, b.2.isFinite, b.3.isFinite, b.0 <= b.2, b.1 <= b.3,
              abs(b.0) < limit * cellSize, abs(b.1) < limit * cellSize, abs(b.2) < limit * cellSize, abs(b.3) < limit * cellSize
        else { return nil }
        let x0 = Int((b.0 / cellSize).rounded(.down)), x1 = Int((b.2 / cellSize).rounded(.down))
        let y0 = Int((b.1 / cellSize).rounded(.down)), y1 = Int((b.3 / cellSize).rounded(.down))
        guard (x1 - x0 + 1) * (y1 - y0 + 1) <= maxCells else { return nil }
        return (x0 ... x1, y0 ... y1)
    }

    @inline(__always) private static func key(_ x: Int, _ y: Int) -> Int { (x << 32) ^ (y & 0xFFFF_FFFF) }

    mutating func append(_ b: LabelBox) {
        let i = Int32(all.count)
        all.append(b)
        guard let r = Self.range(b) else { loose.append(i); return }
        for y in r.y { for x in r.x { cells[Self.key(x, y), default: []].append(i) } }
    }

    static func += (boxes: inout LabelBoxes, more: [LabelBox]) {
        for b in more { boxes.append(b) }
    }

    var isEmpty: Bool { all.isEmpty }

    /// Whether `b` overlaps a box added (touching edges do not).
    func meets(_ b: LabelBox) -> Bool {
        for i in loose where overlaps(all[Int(i)], b) { return true }
        guard let r = Self.range(b) else { return MapSnapshot.meets(b, all) }
        for y in r.y {
            for x in r.x {
                guard let list = cells[Self.key(x, y)] else { continue }
                for i in list where overlaps(all[Int(i)], b) { return true }
            }
        }
        return false
    }
}

extension BasemapLayers {
    /// The screen boxes the scene's markers and labels take, so basemap place labels avoid
    /// them: in every copy of the world they are drawn in. Markers' labels where the planner will
    /// place them (`MarkerLabelPlacement`: the same placement, measured, not drawn; with
    /// `labelsMayOverlap`, each on its marker's right), and that placement, for the plan.
    static func reserved(_ scene: Scene, camera: Camera, labels: CairoLabelRasterizer)
        -> (boxes: [LabelBox], placement: MarkerLabelPlacement?) {
        let overlays = scene.overlays
        var out: [LabelBox] = []
        let copies = WorldCopies(camera: camera)
        let projector = camera.projector
        // Every label the basemap places lies inside the view (place names, points of interest
        // and names along lines alike), and touching edges do not overlap: a box that reaches
        // no further than the view's edges can never keep one off, and is left out (a map of
        // 10 000 markers about half in view inserted them all).
        let w = camera.size.width, h = camera.size.height
        func add(_ b: LabelBox) { if b.0 < w && b.2 > 0 && b.1 < h && b.3 > 0 { out.append(b) } }
        // A marker's clearance about its point on screen.
        func add(_ b: (minX: Double, minY: Double, maxX: Double, maxY: Double), at s: ScreenPoint) {
            add((s.x + b.minX, s.y + b.minY, s.x + b.maxX, s.y + b.maxY))
        }
        // Calls `body` with where the position lands in each copy the overlay is drawn in (as
        // the planner draws it), or on the copy nearest the centre for one without copies.
        func forEachScreenPoint(_ extent: (lo: Double, hi: Double)?, at position: LatLng, _ body: (ScreenPoint) -> Void) {
            guard let e = extent else {
                if let s = projector.project(position) { body(s) }
                return
            }
            let p = MapPoint(position)
            for k in copies.shifts(lo: e.lo, hi: e.hi) {
                if let s = projector.project(MapPoint(x: p.x + Double(k), y: p.y)) { body(s) }
            }
        }
        for i in overlays.indices {
            if let (position, b) = overlays[i].markerClearance {
                forEachScreenPoint(overlays[i].worldXExtent, at: position) { s in add(b, at: s) }
                continue
            }
            switch overlays[i] {
            case .cluster(let c):
                // The zoom's discs keep the basemap's labels off them; lone markers as markers.
                let extent = overlays[i].worldXExtent
                for node in c.level(atZoom: camera.zoom) {
                    let r = MarkerCluster.discDiameter(count: node.count) / 2
                    let b = node.marker.map { c.markers[$0].clearance } ?? (-r, -r, r, r)
                    forEachScreenPoint(extent, at: node.point.latLng) { s in add(b, at: s) }
                }
            case .label(let l):
                guard let image = labels.rasterize(l, pixelRatio: camera.pixelRatio) else { continue }
                forEachScreenPoint(overlays[i].worldXExtent, at: l.position) { s in
                    let b = l.box(atX: s.x, y: s.y, width: image.logicalWidth, height: image.logicalHeight)
                    add((b.minX, b.minY, b.maxX, b.maxY))
                }
            default: continue
            }
        }
        guard overlays.contains(where: { $0.hasMarkerLabel }) else { return (out, nil) }
        let placement = MarkerLabelPlacement(scene, camera: camera, measure: labels)
        for b in placement.boxes { add((b.minX, b.minY, b.maxX, b.maxY)) }
        return (out, placement)
    }

}

extension Color {
    /// The scene colour of a basemap colour.
    public init(_ c: BasemapColor) {
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
        self.init(r: byte(c.r), g: byte(c.g), b: byte(c.b), a: byte(c.a))
    }
}
