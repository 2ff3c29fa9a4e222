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
    }

    struct Shapes {
        var areas: [Area] = []
        var lines: [Line] = []
        var places: [BasemapPlace] = []
        /// The tile's square, drawn first in the background colour when the tile is a basemap's.
        var square: GeoPath?
    }

    let id: TileID
    /// Whether the tile holds a layer of a known basemap schema (so its square is painted).
    let isBasemap: Bool
    private let base: Shapes
    private let lock = NSLock()
    private var shifted: [Int: Shapes] = [:]

    /// The number of vertices kept (a measure of the tile's weight).
    let vertexCount: Int

    init(tile: VectorTile, id: TileID) {
        self.id = id
        var s = Shapes()
        var known = false
        var vertices = 0
        for layer in tile.layers {
            let name = layer.name.lowercased()
            if VectorTileSchema.knownLayers.contains(name) { known = true }
            func pts(_ ring: [VectorTile.Point]) -> [MapPoint] { ring.map { layer.mapPoint($0, tile: id) } }
            for f in layer.features {
                switch f.geometry {
                case .polygons(let polygons):
                    guard let kind = VectorTileSchema.kind(layer: layer.name, properties: f.properties, isArea: true) else { continue }
                    for rings in polygons {
                        guard let exterior = try? GeoPath(points: pts(rings[0])) else { continue }
                        let holes = rings.dropFirst().compactMap { try? GeoPath(points: pts($0)) }
                        s.areas.append(Area(kind: kind, exterior: exterior, holes: holes))
                        vertices += rings.reduce(0) { $0 + $1.count }
                    }
                case .lines(let lines):
                    guard let kind = VectorTileSchema.kind(layer: layer.name, properties: f.properties, isArea: false) else { continue }
                    for line in lines {
                        guard let path = try? GeoPath(points: pts(line)) else { continue }
                        s.lines.append(Line(kind: kind, path: path))
                        vertices += line.count
                    }
                case .points(let points):
                    for p in points {
                        // Only points on the tile itself: buffers repeat a neighbour's places.
                        guard p.x >= 0, p.y >= 0, Int(p.x) < layer.extent, Int(p.y) < layer.extent,
                              let place = VectorTileSchema.place(layer: layer.name, properties: f.properties,
                                                                 point: layer.mapPoint(p, tile: id)) else { continue }
                        s.places.append(place)
                    }
                }
            }
        }
        isBasemap = known
        if known {
            let r = id.mapRect
            s.square = try? GeoPath(points: [MapPoint(x: r.minX, y: r.minY), MapPoint(x: r.maxX, y: r.minY),
                                             MapPoint(x: r.maxX, y: r.maxY), MapPoint(x: r.minX, y: r.maxY)])
        }
        // Stable by kind: areas, then lines, each in drawing order, features in tile order.
        s.areas = s.areas.enumerated().sorted { ($0.element.kind, $0.offset) < ($1.element.kind, $1.offset) }.map(\.element)
        s.lines = s.lines.enumerated().sorted { ($0.element.kind, $0.offset) < ($1.element.kind, $1.offset) }.map(\.element)
        base = s
        vertexCount = vertices
    }

    /// The shapes in the copy of the world `wrap` whole widths east (negative: west).
    func shapes(wrap: Int) -> Shapes {
        guard wrap != 0 else { return base }
        return lock.withLock {
            if let s = shifted[wrap] { return s }
            let dx = Double(wrap)
            func move(_ p: GeoPath) -> GeoPath {
                (try? GeoPath(points: p.points.map { MapPoint(x: $0.x + dx, y: $0.y) })) ?? p
            }
            var s = Shapes()
            s.areas = base.areas.map { Area(kind: $0.kind, exterior: move($0.exterior), holes: $0.holes.map(move)) }
            s.lines = base.lines.map { Line(kind: $0.kind, path: move($0.path)) }
            s.places = base.places.map { var p = $0; p.point.x += dx; return p }
            s.square = base.square.map(move)
            if shifted.count > 4 { shifted.removeAll() }
            shifted[wrap] = s
            return s
        }
    }
}

extension TileLayer {
    /// The vector tiles' ground for the view (areas, then lines, in `style`'s drawing order
    /// across every tile) and their places, each once. Tiles not loaded are stood in for by
    /// loaded children and the nearest loaded ancestor, as raster tiles are.
    func vectorGround(_ cover: [CoverTile], zoom: Double, style: VectorTileStyle) -> (overlays: [Overlay], places: [BasemapPlace]) {
        var drawn: [(VectorTileContent, Int)] = []
        var seen = Set<CoverTile>()
        for tile in cover {
            guard let id = tile.tileID else { continue }
            for c in vectorStandIns(for: id) where seen.insert(CoverTile(z: c.id.z, x: c.id.x, y: c.id.y, wrap: tile.wrap)).inserted {
                drawn.append((c, tile.wrap))
            }
        }
        // Coarser tiles first, so that finer ones are drawn over them within each kind.
        drawn.sort { $0.0.id.z < $1.0.id.z }
        // The same tiles in the same style at the same zoom (a still, a pan) give the same overlays.
        let key = VectorGroundKey(tiles: drawn.map { VectorGroundKey.Tile(content: ObjectIdentifier($0.0), wrap: $0.1) },
                                  style: style, zoom: zoom, opacity: opacity)
        if let hit = lastVectorGround(key) { return hit }
        let shapes = drawn.map { $0.0.shapes(wrap: $0.1) }
        var out: [Overlay] = []
        func color(_ c: BasemapColor) -> Color { Color(c).withOpacity(opacity) }
        for s in shapes {
            guard let square = s.square else { continue }
            var p = Polygon(exterior: square, fill: color(style.background))
            p.worldCopies = false
            out.append(.polygon(p))
        }
        var areas: [VectorTileContent.Area] = []
        var lines: [VectorTileContent.Line] = []
        for s in shapes {
            areas += s.areas
            lines += s.lines
        }
        // One stable sort across tiles: each kind under the next, whichever tile it is in.
        areas = areas.enumerated().sorted { ($0.element.kind, $0.offset) < ($1.element.kind, $1.offset) }.map(\.element)
        lines = lines.enumerated().sorted { ($0.element.kind, $0.offset) < ($1.element.kind, $1.offset) }.map(\.element)
        for a in areas where style.drawsArea(a.kind, zoom: zoom) {
            guard let fill = style.colors[a.kind] else { continue }
            var p = Polygon(exterior: a.exterior, holes: a.holes, fill: color(fill))
            p.worldCopies = false
            out.append(.polygon(p))
        }
        func stroke(_ path: GeoPath, width: Double, _ c: BasemapColor, round: Bool) {
            var l = Polyline(path: path, style: LineStyle(width: .pixels(width), color: color(c), join: .round,
                                                          cap: round ? .round : .butt))
            l.worldCopies = false
            out.append(.polyline(l))
        }
        // Lines under the roads, then every road's casing, then the roads, then rails and borders.
        let firstRoad = lines.firstIndex { $0.kind >= .minorRoad } ?? lines.count
        for l in lines[..<firstRoad] {
            guard let w = style.lineWidth(l.kind, zoom: zoom), let c = style.colors[l.kind] else { continue }
            stroke(l.path, width: w, c, round: true)
        }
        for l in lines[firstRoad...] where l.kind.isCasedRoad {
            let extra = style.casingWidth(l.kind, zoom: zoom)
            guard extra > 0, let w = style.lineWidth(l.kind, zoom: zoom) else { continue }
            stroke(l.path, width: w + 2 * extra, style.casing, round: true)
        }
        for l in lines[firstRoad...] {
            guard let w = style.lineWidth(l.kind, zoom: zoom), let c = style.colors[l.kind] else { continue }
            stroke(l.path, width: w, c, round: l.kind != .rail)
        }
        // A place given by two tiles (a stand-in and a child, two zooms of a pitched view) is
        // labelled once: the same name within about 400 m (1e-5 of the world) is the same place.
        var places: [BasemapPlace] = []
        var byName: [String: [MapPoint]] = [:]
        for s in shapes {
            for p in s.places {
                if byName[p.name]?.contains(where: { abs($0.x - p.point.x) < 1e-5 && abs($0.y - p.point.y) < 1e-5 }) == true { continue }
                byName[p.name, default: []].append(p.point)
                places.append(p)
            }
        }
        keepVectorGround(key, contents: drawn.map(\.0), overlays: out, places: places)
        return (out, places)
    }
}

/// What decides a view's vector ground: the tiles drawn (their contents and world copies), the
/// style, the zoom (line widths) and the layer's opacity.
struct VectorGroundKey: Equatable {
    struct Tile: Equatable {
        var content: ObjectIdentifier
        var wrap: Int
    }
    var tiles: [Tile]
    var style: VectorTileStyle
    var zoom: Double
    var opacity: Double
}
