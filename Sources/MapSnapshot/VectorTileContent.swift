import Foundation
import GeoKit
import MapCamera
import MapScene
import MapTiles

/// A decoded vector tile made ready to draw: its features classified (`VectorTileSchema`) and
/// turned into shared `GeoPath`s once, so every frame that shows the tile hands the renderer the
/// same paths and its mesh cache is hit. Copies shifted by whole worlds (views across the
/// antimeridian) are made on demand and kept.
final class VectorTileContent: @unchecked Sendable {
    struct Area {
        var kind: VectorFeatureKind
        var exterior: GeoPath
        var holes: [GeoPath]
    }

    struct Line {
        var kind: VectorFeatureKind
        var path: GeoPath
        /// A road or railway in a tunnel: drawn faded, under the roads above ground.
        var tunnel = false
    }

    /// A named road or waterway: its pieces of the tile joined where they meet end to end, and
    /// the square its names may be centred in (the tile's: buffers repeat a neighbour's lines).
    struct NamedLine {
        var name: String
        var names: [String: String]
        var kind: VectorFeatureKind
        var points: [MapPoint] { didSet { (bounds, length) = Self.measure(points) } }
        var square: MapRect
        /// The points' bounding box.
        private(set) var bounds: MapRect?
        /// The line's length in map units.
        private(set) var length = 0.0

        init(name: String, names: [String: String], kind: VectorFeatureKind, points: [MapPoint], square: MapRect) {
            self.name = name; self.names = names; self.kind = kind; self.points = points; self.square = square
            (bounds, length) = Self.measure(points)
        }

        static func measure(_ points: [MapPoint]) -> (MapRect?, Double) {
            var length = 0.0
            for (a, b) in zip(points, points.dropFirst()) { length += hypot(b.x - a.x, b.y - a.y) }
            return (MapRect(bounding: points), length)
        }

        /// Named in `language` where it has a name in it (`zh-CN` falls back to `zh`).
        func named(in language: String?) -> NamedLine {
            guard let n = BasemapPlace.name(in: language, of: names) else { return self }
            var l = self
            l.name = n
            return l
        }
    }

    struct Shapes {
        var areas: [Area] = []
        var lines: [Line] = []
        var places: [BasemapPlace] = []
        var namedLines: [NamedLine] = []
        var pois: [VectorPOI] = []
        /// The tile's square, drawn first in the background colour when the tile is a basemap's.
        var square: GeoPath?
    }

    let id: TileID
    private let base: Shapes
    private let lock = NSLock()
    private var shifted: [Int: Shapes] = [:]

    init(tile: VectorTile, id: TileID) {
        self.id = id
        var s = Shapes()
        var known = false
        var pieces: [NamedLine] = []
        for layer in tile.layers {
            let name = layer.name.lowercased()
            if VectorTileSchema.knownLayers.contains(name) { known = true }
            func pts(_ ring: [VectorTile.Point]) -> [MapPoint] { ring.map { layer.mapPoint($0, tile: id) } }
            for f in layer.features {
                switch f.geometry {
                case .polygons(let polygons):
                    guard let kind = VectorTileSchema.kind(layer: layer.name, properties: f.properties, isArea: true) else { continue }
                    var largest: (area: Area, size: Double)?
                    for rings in polygons {
                        guard let exterior = try? GeoPath(points: pts(rings[0])) else { continue }
                        let holes = rings.dropFirst().compactMap { try? GeoPath(points: pts($0)) }
                        let a = Area(kind: kind, exterior: exterior, holes: holes)
                        s.areas.append(a)
                        let size = abs(Self.signedArea(exterior.points))
                        if size > (largest?.size ?? 0) { largest = (a, size) }
                    }
                    // A named park, lake or campus: its name at the point inside its largest part
                    // farthest from its edges.
                    if let largest, f.properties["name"] != nil, let extent = MapRect(bounding: largest.area.exterior.points),
                       var named = VectorTileSchema.areaName(kind: kind, properties: f.properties, point: extent.mid, extent: extent),
                       let point = Self.labelPoint(largest.area.exterior.points, holes: largest.area.holes.map(\.points)) {
                        named.point = point
                        s.pois.append(named)
                    }
                case .lines(let lines):
                    let drawn = VectorTileSchema.kind(layer: layer.name, properties: f.properties, isArea: false)
                    if let named = VectorTileSchema.lineLabel(layer: layer.name, properties: f.properties, drawnAs: { drawn }) {
                        for line in lines where line.count >= 2 {
                            pieces.append(NamedLine(name: named.name, names: named.names, kind: named.kind, points: pts(line),
                                                    square: id.mapRect))
                        }
                    }
                    guard let kind = drawn else { continue }
                    let tunnel = kind >= .path && VectorTileSchema.isTunnel(f.properties)
                    for line in lines {
                        guard let path = try? GeoPath(points: pts(line)) else { continue }
                        s.lines.append(Line(kind: kind, path: path, tunnel: tunnel))
                    }
                case .points(let points):
                    for p in points {
                        // Only points on the tile itself: buffers repeat a neighbour's places.
                        guard p.x >= 0, p.y >= 0, Int(p.x) < layer.extent, Int(p.y) < layer.extent else { continue }
                        let point = layer.mapPoint(p, tile: id)
                        if let place = VectorTileSchema.place(layer: layer.name, properties: f.properties, point: point) {
                            s.places.append(place)
                        } else if let poi = VectorTileSchema.poi(layer: layer.name, properties: f.properties, point: point)
                            ?? VectorTileSchema.waterName(layer: layer.name, properties: f.properties, point: point) {
                            s.pois.append(poi)
                        }
                    }
                }
            }
        }
        s.namedLines = Self.joined(pieces)
        // A tile holding a layer of a known basemap schema paints its square first.
        if known { s.square = Self.square(id.mapRect) }
        base = s
    }

    /// Pieces of the same name and kind joined where one ends where the next begins (a street
    /// is many OSM ways), either way round; the longest chains first.
    static func joined(_ pieces: [NamedLine]) -> [NamedLine] {
        struct End: Hashable { var x: Double, y: Double }
        var out: [NamedLine] = []
        let groups = Dictionary(grouping: pieces.indices) { "\(pieces[$0].kind.rawValue)|\(pieces[$0].name)" }
        for key in groups.keys.sorted() {
            let group = groups[key]!
            var used = Set<Int>()
            var byEnd: [End: [Int]] = [:]
            for i in group {
                byEnd[End(x: pieces[i].points.first!.x, y: pieces[i].points.first!.y), default: []].append(i)
                byEnd[End(x: pieces[i].points.last!.x, y: pieces[i].points.last!.y), default: []].append(i)
            }
            for i in group where !used.contains(i) {
                used.insert(i)
                var chain = pieces[i].points
                // Grow the chain at its end, then (reversed) at its start.
                for _ in 0 ..< 2 {
                    while let last = chain.last, let j = straightest(from: chain, byEnd[End(x: last.x, y: last.y)] ?? [], used) {
                        used.insert(j)
                        let next = pieces[j].points
                        chain += (next.first! == last ? next : next.reversed()).dropFirst()
                    }
                    chain.reverse()
                }
                var line = pieces[i]
                line.points = chain
                out.append(line)
            }
        }
        return out

        /// Of the unused pieces meeting the chain's end, the one that carries on most nearly
        /// straight (where a street forks, or its two carriageways meet).
        func straightest(from chain: [MapPoint], _ candidates: [Int], _ used: Set<Int>) -> Int? {
            let free = candidates.filter { !used.contains($0) }
            guard free.count > 1, chain.count >= 2 else { return free.first }
            let a = chain[chain.count - 2], b = chain[chain.count - 1]
            let dx = b.x - a.x, dy = b.y - a.y
            return free.max { i, j in
                func along(_ k: Int) -> Double {
                    let p = pieces[k].points
                    let next = p.first! == b ? p[1] : p[p.count - 2]
                    let ex = next.x - b.x, ey = next.y - b.y
                    let n = (dx * dx + dy * dy).squareRoot() * (ex * ex + ey * ey).squareRoot()
                    return n > 0 ? (dx * ex + dy * ey) / n : -1
                }
                return along(i) < along(j)
            }
        }
    }

    /// Named areas, each once: pieces of one name whose boxes meet (an area cut by tile edges,
    /// or given by two zooms) keep the largest piece's label; largest first.
    static func onePerArea(_ areas: [VectorPOI]) -> [VectorPOI] {
        var kept: [String: [MapRect]] = [:]
        var out: [VectorPOI] = []
        let sized = areas.compactMap { p in p.extent.map { (p, $0.width * $0.height) } }
        for (p, _) in sized.sorted(by: { ($0.1, $0.0.name, $0.0.point.x) > ($1.1, $1.0.name, $1.0.point.x) }) {
            let e = p.extent!
            let grown = MapRect(origin: MapPoint(x: e.minX - e.width * 0.01, y: e.minY - e.height * 0.01),
                                width: e.width * 1.02, height: e.height * 1.02)
            if kept[p.name]?.contains(where: { $0.intersects(grown) }) == true { continue }
            kept[p.name, default: []].append(e)
            out.append(p)
        }
        return out
    }

    /// Twice the signed area of a ring (shoelace).
    static func signedArea(_ ring: [MapPoint]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum
    }

    /// The point inside a polygon (`ring` less its `holes`) farthest from its edges, its pole of
    /// inaccessibility, to within a 200th of its box's longer side: where its name has the
    /// most room (a C-shaped park is named in its widest arm, not at a centroid in the gap; a
    /// long diagonal wood along its middle, not near an edge). Found as Garcia-Castellanos &
    /// Lombardo (2007) and Agafonkin's polylabel (2016) describe: square cells over the box, the
    /// most promising first (its centre's distance plus its half-diagonal), split in four until
    /// no cell can beat the best centre by more than the precision. Nil for a degenerate ring.
    static func labelPoint(_ ring: [MapPoint], holes: [[MapPoint]] = []) -> MapPoint? {
        guard ring.count >= 3, let box = MapRect(bounding: ring), box.width > 0, box.height > 0,
              box.width.isFinite, box.height.isFinite, signedArea(ring) != 0 else { return nil }
        let rings = [ring] + holes.filter { $0.count >= 3 }
        let precision = max(box.width, box.height) / 200
        struct Cell {
            var x: Double, y: Double, half: Double, distance: Double
            var potential: Double { distance + half * 2.0.squareRoot() }
        }
        func cell(_ x: Double, _ y: Double, _ half: Double) -> Cell {
            Cell(x: x, y: y, half: half, distance: signedDistance(MapPoint(x: x, y: y), rings))
        }
        // A max-heap of cells by potential.
        var heap: [Cell] = []
        func push(_ c: Cell) {
            heap.append(c)
            var i = heap.count - 1
            while i > 0, heap[(i - 1) / 2].potential < heap[i].potential { heap.swapAt(i, (i - 1) / 2); i = (i - 1) / 2 }
        }
        func pop() -> Cell {
            let top = heap[0]
            heap[0] = heap[heap.count - 1]
            heap.removeLast()
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count, heap[l].potential > heap[m].potential { m = l }
                if r < heap.count, heap[r].potential > heap[m].potential { m = r }
                if m == i { break }
                heap.swapAt(i, m)
                i = m
            }
            return top
        }
        // Cells as wide as the box's shorter side, at most 256 along the longer one (a hostile
        // sliver of a ring would otherwise ask for thousands).
        let size = max(min(box.width, box.height), max(box.width, box.height) / 256)
        var y = box.minY
        while y < box.maxY {
            var x = box.minX
            while x < box.maxX {
                push(cell(x + size / 2, y + size / 2, size / 2))
                x += size
            }
            y += size
        }
        // Start from the centroid, or the box's middle.
        var best = cell(box.mid.x, box.mid.y, 0)
        if let c = centroid(ring) {
            let k = cell(c.x, c.y, 0)
            if k.distance > best.distance { best = k }
        }
        // (Bounded: a few hundred cells reach the precision for the rings tiles hold. Each cell
        // split makes four, each a pass over every edge: at most about 2·10⁷ edge visits after
        // the first row of cells, however large the ring.)
        let edges = rings.reduce(0) { $0 + $1.count }
        let budget = max(16, min(20_000, 5_000_000 / max(edges, 1)))
        var visited = 0
        while !heap.isEmpty, visited < budget {
            let c = pop()
            visited += 1
            if c.distance > best.distance { best = c }
            guard c.potential - best.distance > precision else { continue }
            let h = c.half / 2
            for (dx, dy) in [(-h, -h), (h, -h), (-h, h), (h, h)] { push(cell(c.x + dx, c.y + dy, h)) }
        }
        return best.distance > 0 ? MapPoint(x: best.x, y: best.y) : nil
    }

    /// The centroid of a ring (nil for a degenerate one).
    static func centroid(_ ring: [MapPoint]) -> MapPoint? {
        let a = signedArea(ring)
        guard ring.count >= 3, a != 0, a.isFinite else { return nil }
        var cx = 0.0, cy = 0.0
        for i in ring.indices {
            let p = ring[i], q = ring[(i + 1) % ring.count]
            let c = p.x * q.y - q.x * p.y
            cx += (p.x + q.x) * c
            cy += (p.y + q.y) * c
        }
        return MapPoint(x: cx / (3 * a), y: cy / (3 * a))
    }

    /// The distance from `p` to the nearest edge of `rings` (an exterior and its holes),
    /// positive inside (even–odd), negative outside.
    static func signedDistance(_ p: MapPoint, _ rings: [[MapPoint]]) -> Double {
        var inside = false
        var nearest = Double.infinity
        for ring in rings {
            var j = ring.count - 1
            for i in ring.indices {
                let a = ring[i], b = ring[j]
                j = i
                if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
                let dx = b.x - a.x, dy = b.y - a.y
                let len2 = dx * dx + dy * dy
                let t = len2 > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0
                let ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y
                nearest = min(nearest, ex * ex + ey * ey)
            }
        }
        return (inside ? 1 : -1) * nearest.squareRoot()
    }

    /// A rectangle as a ring of its four corners.
    static func square(_ r: MapRect) -> GeoPath? {
        try? GeoPath(points: [MapPoint(x: r.minX, y: r.minY), MapPoint(x: r.maxX, y: r.minY),
                              MapPoint(x: r.maxX, y: r.maxY), MapPoint(x: r.minX, y: r.maxY)])
    }

    /// The shapes in the copy of the world `wrap` whole widths east (negative: west); with
    /// `part` (a tile inside this one that this one stands in for), only what lies in it: areas
    /// and lines clipped to its square, its places, its square.
    func shapes(wrap: Int, part: TileID? = nil) -> Shapes {
        guard let part, part != id else { return shapes(wrap: wrap) }
        return lock.withLock {
            let key = PartKey(part: part, wrap: wrap)
            if let s = parts[key] { return s }
            let r = part.mapRect, dx = Double(wrap)
            let rect = MapRect(origin: MapPoint(x: r.minX + dx, y: r.minY), width: r.width, height: r.height)
            let whole = wrap == 0 ? base : shiftedShapes(wrap)
            var s = Shapes()
            for a in whole.areas {
                guard let b = a.exterior.bounds, rect.intersects(b) else { continue }
                let ext = rect.clip(ring: a.exterior.points)
                guard ext.count >= 3, let e = try? GeoPath(points: ext) else { continue }
                let holes = a.holes.compactMap { h -> GeoPath? in
                    let c = rect.clip(ring: h.points)
                    return c.count >= 3 ? try? GeoPath(points: c) : nil
                }
                s.areas.append(Area(kind: a.kind, exterior: e, holes: holes))
            }
            for l in whole.lines {
                guard let b = l.path.bounds, rect.intersects(b) else { continue }
                for piece in rect.clip(polyline: l.path.points) {
                    if let p = try? GeoPath(points: piece) { s.lines.append(Line(kind: l.kind, path: p, tunnel: l.tunnel)) }
                }
            }
            s.places = whole.places.filter { rect.contains($0.point) }
            s.pois = whole.pois.filter { rect.contains($0.point) }
            s.namedLines = whole.namedLines.compactMap { l in
                guard l.points.contains(where: { rect.contains($0) }) else { return nil }
                var l = l
                l.square = rect
                return l
            }
            if whole.square != nil { s.square = Self.square(rect) }
            if parts.count > 64 { parts.removeAll() }
            parts[key] = s
            return s
        }
    }

    private struct PartKey: Hashable {
        var part: TileID
        var wrap: Int
    }
    private var parts: [PartKey: Shapes] = [:]

    /// A tile's areas and lines grouped for drawing: one set of each kind's areas, and of each
    /// kind's lines above ground and in tunnels, in the tile's order. The sets are kept with the
    /// tile (`sets(wrap:part:)`), so the planner's meshes, keyed by the sets, outlive the frames
    /// and zooms that draw them.
    struct KindSets {
        struct LineKey: Hashable {
            var kind: VectorFeatureKind
            var tunnel: Bool
        }
        var areas: [VectorFeatureKind: PolygonSet] = [:]
        var lines: [LineKey: PathSet] = [:]
    }
    private var kindSets: [PartKey: KindSets] = [:]

    /// The shapes of `shapes(wrap:part:)` grouped by kind (see `KindSets`), made once.
    func sets(wrap: Int, part: TileID? = nil) -> KindSets {
        let key = PartKey(part: part ?? id, wrap: wrap)
        if let hit = lock.withLock({ kindSets[key] }) { return hit }
        let shapes = shapes(wrap: wrap, part: part)
        var areas: [VectorFeatureKind: [PolygonRings]] = [:]
        for a in shapes.areas { areas[a.kind, default: []].append(PolygonRings(exterior: a.exterior, holes: a.holes)) }
        var lines: [KindSets.LineKey: [GeoPath]] = [:]
        for l in shapes.lines { lines[KindSets.LineKey(kind: l.kind, tunnel: l.tunnel), default: []].append(l.path) }
        // (Areas are filled without an outline: where a kind's rings share corners (terraced
        // houses, landuse beside landuse), the corners where they part, so that shared edges
        // are simplified alike and no sliver of background opens between them.)
        let made = KindSets(areas: areas.mapValues { PolygonSet(sharingEdges: $0) },
                            lines: lines.mapValues { PathSet($0) })
        return lock.withLock {
            // (Another thread may have made them meanwhile: the first kept is the one used.)
            if let hit = kindSets[key] { return hit }
            if kindSets.count > 64 { kindSets.removeAll() }
            kindSets[key] = made
            return made
        }
    }

    /// The shapes in the copy of the world `wrap` whole widths east (negative: west).
    func shapes(wrap: Int) -> Shapes {
        guard wrap != 0 else { return base }
        return lock.withLock { shiftedShapes(wrap) }
    }

    /// (With the lock held.)
    private func shiftedShapes(_ wrap: Int) -> Shapes {
        if let s = shifted[wrap] { return s }
        let dx = Double(wrap)
        func move(_ p: GeoPath) -> GeoPath {
            (try? GeoPath(points: p.points.map { MapPoint(x: $0.x + dx, y: $0.y) })) ?? p
        }
        var s = Shapes()
        s.areas = base.areas.map { Area(kind: $0.kind, exterior: move($0.exterior), holes: $0.holes.map(move)) }
        s.lines = base.lines.map { Line(kind: $0.kind, path: move($0.path), tunnel: $0.tunnel) }
        s.places = base.places.map { var p = $0; p.point.x += dx; return p }
        s.pois = base.pois.map { p in
            var p = p
            p.point.x += dx
            p.extent?.origin.x += dx
            return p
        }
        s.namedLines = base.namedLines.map { l in
            var l = l
            l.points = l.points.map { MapPoint(x: $0.x + dx, y: $0.y) }
            l.square.origin.x += dx
            return l
        }
        s.square = base.square.map(move)
        if shifted.count > 4 { shifted.removeAll() }
        shifted[wrap] = s
        return s
    }
}

/// The shapes of a set of drawn tiles, merged in drawing order.
struct MergedVectorShapes {
    /// Each drawn tile's areas and lines by kind, in drawing order (coarser tiles first).
    var sets: [VectorTileContent.KindSets] = []
    var squares: [GeoPath] = []
    var places: [BasemapPlace] = []
    var namedLines: [VectorTileContent.NamedLine] = []
    var pois: [VectorPOI] = []
}

extension TileLayer {
    /// The drawn tiles' shapes: squares, their areas and lines by kind (drawn each kind under the
    /// next, whichever tile it is in), and the places once each.
    func mergedShapes(_ tiles: [VectorGroundKey.Tile], drawn: [(content: VectorTileContent, wrap: Int, part: TileID)])
        -> MergedVectorShapes {
        if let hit = lastMergedShapes(tiles) { return hit }
        let shapes = drawn.map { $0.content.shapes(wrap: $0.wrap, part: $0.part) }
        var m = MergedVectorShapes()
        m.squares = shapes.compactMap(\.square)
        m.sets = drawn.map { $0.content.sets(wrap: $0.wrap, part: $0.part) }
        for s in shapes { m.namedLines += s.namedLines }
        // A place given by two tiles (a stand-in and a child, two zooms of a pitched view) is
        // labelled once, where the finest tile puts it: the same name within about 400 m (1e-5
        // of the world) is the same place.
        var byName: [String: [MapPoint]] = [:]
        for s in shapes.reversed() {
            for p in s.places {
                if byName[p.name]?.contains(where: { abs($0.x - p.point.x) < 1e-5 && abs($0.y - p.point.y) < 1e-5 }) == true { continue }
                byName[p.name, default: []].append(p.point)
                m.places.append(p)
            }
        }
        // A point of interest given by two tiles (stand-ins, two zooms) is drawn once; an area
        // cut by tile edges is named once, at its largest piece's point (pieces of one name whose
        // boxes meet are one area).
        var seenPOIs = Set<String>()
        var areas: [VectorPOI] = []
        for s in shapes.reversed() {
            for p in s.pois {
                if p.extent != nil { areas.append(p); continue }
                if seenPOIs.insert("\(p.name)|\(Int(p.point.x * 1e5))|\(Int(p.point.y * 1e5))").inserted { m.pois.append(p) }
            }
        }
        m.pois += VectorTileContent.onePerArea(areas)
        keepMergedShapes(tiles, contents: drawn.map(\.content), m)
        return m
    }

    /// The vector tiles' ground for the view (areas, then lines, in `style`'s drawing order
    /// across every tile) and their places, each once. Tiles not loaded are stood in for by
    /// loaded children and the nearest loaded ancestor, as raster tiles are. With `ready` (a live
    /// view's `RenderPlanner.setsReady`), a tile counts as loaded once its meshes are built too,
    /// and an ancestor whose part for a tile is not meshed yet is drawn whole meanwhile (finer
    /// tiles over it) if it has meshes from earlier frames, else an ancestor further up is.
    func vectorGround(_ cover: [CoverTile], zoom: Double, style: VectorTileStyle,
                      language: String? = nil, ready: (([Overlay]) -> Bool)? = nil) -> VectorGround {
        // Each drawn tile's content, world copy and the part of it drawn (an ancestor standing in
        // for a missing tile is drawn in that tile's square only, as a raster stand-in is).
        var drawn: [(content: VectorTileContent, wrap: Int, part: TileID)] = []
        var tiles: [VectorGroundKey.Tile] = []
        var seen = Set<VectorGroundKey.Tile>()
        var complete = true
        for tile in cover {
            guard let id = tile.tileID else { continue }
            let usable: (VectorTileContent, TileID) -> Bool = { c, part in
                guard let ready else { return true }
                let overlays = Self.groundOverlays([c.sets(wrap: tile.wrap, part: part)], style: style, zoom: zoom)
                guard part == c.id, c.id.z < id.z else { return ready(overlays) }
                // An ancestor drawn whole stands in with what it drew before: it will do when any
                // of its sets has a mesh (those without, a kind the style draws from this zoom
                // on, say, are asked for and left out until built).
                var any = false
                for o in overlays where ready([o]) { any = true }
                return any
            }
            let standIns = vectorStandIns(for: id, usable: usable)
            if !(standIns.count == 1 && standIns[0].content.id == id) && !hasNoTile(id) { complete = false }
            for (c, part) in standIns {
                let k = VectorGroundKey.Tile(content: ObjectIdentifier(c), wrap: tile.wrap, part: part)
                if seen.insert(k).inserted { drawn.append((c, tile.wrap, part)); tiles.append(k) }
            }
        }
        // Coarser tiles first, so that finer ones are drawn over them within each kind.
        let order = drawn.indices.sorted { (drawn[$0].content.id.z, $0) < (drawn[$1].content.id.z, $1) }
        drawn = order.map { drawn[$0] }
        // The same tiles in the same style at the same zoom (a still, a pan) give the same overlays.
        let key = VectorGroundKey(tiles: order.map { tiles[$0] }, style: style, zoom: zoom, language: language)
        if var hit = lastVectorGround(key) {
            hit.complete = complete
            return hit
        }
        // The tiles' shapes merged in drawing order, kept while the same tiles are drawn (a zoom
        // within one tile level changes only the widths).
        let merged = mergedShapes(key.tiles, drawn: drawn)
        var out: [Overlay] = []
        // At full opacity: the layer's opacity fades the drawn layer as a whole (`BasemapGroup`).
        for square in merged.squares {
            var p = Polygon(exterior: square, fill: Color(style.background))
            p.worldCopies = false
            out.append(.polygon(p))
        }
        out += Self.groundOverlays(merged.sets, style: style, zoom: zoom)
        let ground = VectorGround(overlays: out, places: merged.places.map { $0.named(in: language) },
                                  namedLines: merged.namedLines.map { $0.named(in: language) },
                                  pois: merged.pois.map { $0.named(in: language) })
        keepVectorGround(key, contents: drawn.map(\.content), ground)
        var result = ground
        result.complete = complete
        return result
    }

    /// The overlays that draw tiles' sets in `style` at `zoom`: each kind under the next; within
    /// a kind, tile by tile in the order given, each tile's features in its order (one overlay
    /// per tile and kind).
    static func groundOverlays(_ sets: [VectorTileContent.KindSets], style: VectorTileStyle, zoom: Double) -> [Overlay] {
        var out: [Overlay] = []
        let areaKinds = Set(sets.flatMap(\.areas.keys)).sorted()
        for kind in areaKinds where style.drawsArea(kind, zoom: zoom) {
            // (A kind recoloured transparent is left out, not meshed.)
            guard let fill = style.colors[kind], fill.a > 0 else { continue }
            for s in sets {
                guard let set = s.areas[kind] else { continue }
                var p = MultiPolygon(polygons: set, fill: Color(fill))
                p.worldCopies = false
                out.append(.multiPolygon(p))
            }
        }
        let lineKinds = Set(sets.flatMap { $0.lines.keys.map(\.kind) }).sorted()
        func stroke(_ kind: VectorFeatureKind, tunnel: Bool, width: Double, _ c: BasemapColor, round: Bool) {
            guard c.a > 0 else { return }
            let key = VectorTileContent.KindSets.LineKey(kind: kind, tunnel: tunnel)
            for s in sets {
                guard let set = s.lines[key] else { continue }
                var l = MultiPolyline(paths: set, style: LineStyle(width: .pixels(width), color: Color(c), join: .round,
                                                                   cap: round ? .round : .butt))
                l.worldCopies = false
                out.append(.multiPolyline(l))
            }
        }
        // Lines under the roads (water, region borders); roads and railways in tunnels, faded
        // halfway to the ground and uncased (in one pass, each kind under the next); every
        // road's casing; the roads, rails and borders.
        for kind in lineKinds where kind < .minorRoad {
            guard let w = style.lineWidth(kind, zoom: zoom), let c = style.colors[kind] else { continue }
            stroke(kind, tunnel: false, width: w, c, round: true)
        }
        for kind in lineKinds {
            guard let w = style.lineWidth(kind, zoom: zoom), let c = style.colors[kind], c.a > 0 else { continue }
            stroke(kind, tunnel: true, width: w, c.mixed(with: style.background, 0.5), round: kind != .rail)
        }
        for kind in lineKinds where kind >= .minorRoad && kind.isCasedRoad {
            let extra = style.casingWidth(kind, zoom: zoom)
            // (A road kind recoloured transparent is hidden, casing and all.)
            guard extra > 0, let w = style.lineWidth(kind, zoom: zoom), (style.colors[kind]?.a ?? 0) > 0 else { continue }
            stroke(kind, tunnel: false, width: w + 2 * extra, style.casing, round: true)
        }
        for kind in lineKinds where kind >= .minorRoad {
            guard let w = style.lineWidth(kind, zoom: zoom), let c = style.colors[kind] else { continue }
            stroke(kind, tunnel: false, width: w, c, round: kind != .rail)
        }
        return out
    }
}

/// A view's vector ground: what is drawn (areas, lines), the places to label and the roads
/// and waterways to name along their lines.
struct VectorGround {
    var overlays: [Overlay]
    var places: [BasemapPlace]
    var namedLines: [VectorTileContent.NamedLine]
    var pois: [VectorPOI]
    /// Whether every tile of the cover is drawn as itself (none stood in for by others).
    var complete = true
}

/// What decides a view's vector ground: the tiles drawn (their contents and world copies), the
/// style, the zoom (line widths) and the language.
struct VectorGroundKey: Equatable {
    struct Tile: Hashable {
        var content: ObjectIdentifier
        var wrap: Int
        var part: TileID
    }
    var tiles: [Tile]
    var style: VectorTileStyle
    var zoom: Double
    var language: String?
}
