import Foundation
import GeoKit
import MapCamera
import MapScene
import MapTiles

/// Names along roads and waterways of vector tiles, laid out character by character along
/// their lines for one view, as MapLibre's `symbol-placement: line` does: the name centred on
/// points spaced along each line, reading left to right, only where the line bends gently
/// under it, never over a place name, a marker's label or another name.
enum LineLabels {
    /// Screen px between the names along one line (MapLibre's `symbol-spacing` is 250).
    static let spacing = 280.0
    /// The most a line may turn from one character to the next, and under the whole name, degrees.
    static let maxTurn = 22.0, maxTotalTurn = 50.0
    /// The same name is not placed again within this many px.
    static let repeatDistance = 200.0
    /// Px between the centres tried along a line.
    static let candidateStep = 70.0

    /// The text size (logical px) and the smallest zoom at which a kind of line is named.
    static func look(_ kind: VectorFeatureKind) -> (size: Double, minZoom: Double)? {
        switch kind {
        case .motorway: (11.5, 12.5)
        case .majorRoad: (11.5, 13.5)
        case .mediumRoad: (11, 14.5)
        case .minorRoad: (10.5, 15)
        case .path: (10, 16.5)
        case .river: (11.5, 12)
        case .stream: (10.5, 15)
        default: nil
        }
    }

    /// Lays out the names of `lines` for `camera`, most important first (larger roads and
    /// rivers, longer lines), clear of `boxes` (which grows by every character box placed).
    static func place(_ lines: [VectorTileContent.NamedLine], camera: Camera, style: VectorTileStyle,
                      labels: CairoLabelRasterizer, boxes: inout LabelBoxes) -> [PlaceLabel] {
        let zoom = camera.zoom
        let text = Color(style.labels.labelText), halo = Color(style.labels.labelHalo)
        let water = Color(style.poiColors[.water] ?? style.labels.labelText)
        func priority(_ k: VectorFeatureKind) -> Int {
            switch k {
            case .motorway: 0
            case .majorRoad: 1
            case .river: 2
            case .mediumRoad: 3
            case .minorRoad: 4
            case .stream: 5
            default: 6
            }
        }
        // Each name's label, its size and its characters' edges, made once per name and kind.
        var measured: [String: (label: Label, size: (width: Double, height: Double), edges: [Double])?] = [:]
        func measure(_ line: VectorTileContent.NamedLine) -> (label: Label, size: (width: Double, height: Double), edges: [Double])? {
            let key = "\(line.kind.rawValue)|\(line.name)"
            if let hit = measured[key] { return hit }
            let look = look(line.kind)!
            let isWater = line.kind == .river || line.kind == .stream
            var made: (label: Label, size: (width: Double, height: Double), edges: [Double])?
            if var label = try? Label(position: LatLng(lat: 0, lon: 0), text: line.name, size: look.size,
                                      color: isWater ? water : text, haloColor: halo,
                                      haloWidth: style.labels.labelHaloWidth * 0.75),
               let size = labels.labelSize(label, pixelRatio: camera.pixelRatio),
               let edges = labels.characterEdges(label), edges.count >= 2 {
                label.worldCopies = false
                made = (label, size, edges)
            }
            measured[key] = made
            return made
        }
        var candidates: [(index: Int, runs: [Along], length: Double)] = []
        let w = camera.size.width, h = camera.size.height
        // Lines that cannot reach the view are not projected (a view's tiles reach past it).
        let visible = BasemapLayers.visibleRect(camera)
        let projector = camera.projector
        for (index, line) in lines.enumerated() {
            // (A kind the style hides, at alpha 0, is not named either.)
            guard let look = look(line.kind), zoom >= look.minZoom, (style.colors[line.kind]?.a ?? 1) > 0 else { continue }
            if let visible, let b = line.bounds,
               ![-1.0, 0, 1].contains(where: { visible.intersects(MapRect(origin: MapPoint(x: b.minX + $0, y: b.minY),
                                                                         width: b.width, height: b.height)) }) {
                continue
            }
            // A line too short on screen for any name is not projected: nowhere on it does a map
            // unit span more than `reach` pixels (`Camera.Projector.maxScale`), and a name needs
            // 8 px more than its own width.
            if let b = line.bounds, let reach = projector.maxScale(in: b) {
                if line.length * reach <= 8 { continue }
                if line.length * reach < 160, let m = measure(line), line.length * reach < m.size.width + 8 { continue }
            }
            // Projected runs (a pitched view may not show every point), with their map points.
            var runs: [Along] = [], run: [ScreenPoint] = [], world: [MapPoint] = []
            var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
            for p in line.points {
                guard let s = projector.project(p), s.x.isFinite, s.y.isFinite else {
                    if run.count >= 2 { runs.append(Along(run, world: world)) }
                    run = []
                    world = []
                    continue
                }
                run.append(s)
                world.append(p)
                minX = min(minX, s.x); maxX = max(maxX, s.x); minY = min(minY, s.y); maxY = max(maxY, s.y)
            }
            if run.count >= 2 { runs.append(Along(run, world: world)) }
            guard !runs.isEmpty, maxX >= 0, minX <= w, maxY >= 0, minY <= h else { continue }
            candidates.append((index, runs, runs.reduce(0) { $0 + $1.length }))
        }
        candidates.sort { a, b in
            let la = lines[a.index], lb = lines[b.index]
            let pa = priority(la.kind), pb = priority(lb.kind)
            return pa != pb ? pa < pb : a.length != b.length ? a.length > b.length : la.name < lb.name
        }
        var out: [PlaceLabel] = []
        var placedAt: [String: [ScreenPoint]] = [:]
        for c in candidates {
            let line = lines[c.index]
            guard let (label, size, edges) = measure(line) else { continue }
            for along in c.runs {
                guard along.length >= size.width + 8 else { continue }
                // The ideal centres (`spacing` apart), then candidates every ~70 px, nearest
                // those first, all at fixed fractions of the line's length on the map (so a name
                // keeps its place, and its fade, as the view pans, zooms, turns and tilts): a name
                // whose ideal place runs off the view or over a bend slides along the line.
                let n = max(1, Int(along.length / spacing))
                let m = max(n, Int(along.length / candidateStep))
                let ideal: [Double] = (0 ..< n).map { (Double($0) + 0.5) / Double(n) }
                var tries: [(f: Double, off: Double)] = ideal.map { ($0, -1) }
                for j in 0 ..< m {
                    let f = (Double(j) + 0.5) / Double(m)
                    var off = Double.infinity
                    for i in ideal { off = min(off, abs(i - f)) }
                    tries.append((f, off))
                }
                tries.sort { a, b in a.off != b.off ? a.off < b.off : a.f < b.f }
                for (f, _) in tries {
                    let (s, anchor) = along.at(fraction: f)
                    // The cheap tests first: the line's own tile places it (buffers repeat a
                    // neighbour's lines), and not near the same name.
                    guard line.square.contains(nearestCopy(anchor, of: line.square)) else { continue }
                    let centre = along.point(s)
                    if placedAt[line.name]?.contains(where: { hypot($0.x - centre.x, $0.y - centre.y) < repeatDistance }) == true {
                        continue
                    }
                    // Laid out character by character, given up at the first that meets a box.
                    guard let placed = lay(edges: edges, width: size.width, height: size.height, at: s, along: along,
                                           view: (w, h), clearOf: boxes) else { continue }
                    boxes += placed.boxes
                    placedAt[line.name, default: []].append(placed.anchor)
                    var l = label
                    l.position = anchor.latLng
                    l.pieces = placed.pieces
                    out.append(PlaceLabel(dot: nil, label: l))
                }
            }
        }
        return out
    }

    /// `p` moved by whole worlds to the copy nearest `square`.
    static func nearestCopy(_ p: MapPoint, of square: MapRect) -> MapPoint {
        MapPoint(x: p.x + (square.mid.x - p.x).rounded(), y: p.y)
    }

    /// A screen polyline measured along its length, with the map points it was projected from.
    struct Along {
        let points: [ScreenPoint]
        /// Distance from the start to each point.
        let at: [Double]
        var length: Double { at.last ?? 0 }
        /// The map points (as many as `points`; empty for a screen-only line) and the map
        /// distance from the start to each.
        let world: [MapPoint]
        let worldAt: [Double]

        init(_ points: [ScreenPoint], world: [MapPoint] = []) {
            self.points = points
            var at = [0.0]
            for (a, b) in zip(points, points.dropFirst()) { at.append(at.last! + hypot(b.x - a.x, b.y - a.y)) }
            self.at = at
            self.world = world.count == points.count ? world : []
            var worldAt = [0.0]
            for (a, b) in zip(self.world, self.world.dropFirst()) { worldAt.append(worldAt.last! + hypot(b.x - a.x, b.y - a.y)) }
            self.worldAt = worldAt
        }

        /// The point `f` (0…1) of the way along the line on the map: its distance along the
        /// screen line (the segment it falls in, in the same proportion) and its map point.
        func at(fraction f: Double) -> (s: Double, point: MapPoint) {
            guard world.count >= 2, let total = worldAt.last, total > 0 else {
                let s = f * length, p = point(s)
                return (s, MapPoint(x: p.x, y: p.y))
            }
            let (lo, hi, t) = Self.segment(worldAt, min(max(f, 0), 1) * total)
            let p = MapPoint(x: world[lo].x + t * (world[hi].x - world[lo].x), y: world[lo].y + t * (world[hi].y - world[lo].y))
            return (at[lo] + t * (at[hi] - at[lo]), p)
        }

        /// The segment `lo`–`hi` of a polyline, given each point's distance from the start
        /// (`cumulative`, ascending), that distance `d` falls in, and how far along it (0…1).
        static func segment(_ cumulative: [Double], _ d: Double) -> (lo: Int, hi: Int, t: Double) {
            var lo = 0, hi = cumulative.count - 1
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if cumulative[mid] <= d { lo = mid } else { hi = mid }
            }
            let span = cumulative[hi] - cumulative[lo]
            return (lo, hi, span > 0 ? (d - cumulative[lo]) / span : 0)
        }

        /// The point `s` px along (clamped to the ends).
        func point(_ s: Double) -> ScreenPoint {
            guard s > 0 else { return points[0] }
            guard s < length else { return points[points.count - 1] }
            let (lo, hi, t) = Self.segment(at, s)
            return ScreenPoint(x: points[lo].x + t * (points[hi].x - points[lo].x), y: points[lo].y + t * (points[hi].y - points[lo].y))
        }
    }

    /// The name's characters laid along the line centred `s` px along it: each character's
    /// strip of the image (between consecutive `edges`) centred on the line where its middle
    /// falls and turned to the line's direction there (the chord across the strip), read left
    /// to right; nil where the name would run off the line or the view, the line turns too
    /// much under it, or a character's box meets one of `taken`.
    static func lay(edges: [Double], width: Double, height: Double, at s: Double, along: Along,
                    view: (w: Double, h: Double), clearOf taken: LabelBoxes? = nil)
        -> (anchor: ScreenPoint, pieces: [LabelPiece], boxes: [LabelBox])? {
        let half = width / 2
        guard s - half >= 0, s + half <= along.length else { return nil }
        // Read left to right: along the line, or back along it where it runs leftwards.
        let a = along.point(s - half), b = along.point(s + half)
        let sign: Double = b.x >= a.x ? 1 : -1
        let anchor = along.point(s)
        var pieces: [LabelPiece] = [], boxes: [LabelBox] = []
        pieces.reserveCapacity(max(0, edges.count - 1)); boxes.reserveCapacity(max(0, edges.count - 1))
        var previous: Double?, lowest = Double.infinity, highest = -Double.infinity
        for i in 0 ..< edges.count - 1 {
            let x0 = edges[i], x1 = edges[i + 1]
            guard x1 > x0 else { continue }
            let mid = (x0 + x1) / 2 - half
            let reach = max((x1 - x0) / 2, 2)
            let p = along.point(s + sign * mid)
            let from = along.point(s + sign * (mid - reach)), to = along.point(s + sign * (mid + reach))
            // (Backwards along a leftward line, `from` → `to` already runs rightwards.)
            var angle = atan2(to.y - from.y, to.x - from.x) * 180 / .pi
            // Turning, unwrapped against the previous character's angle.
            if let prev = previous {
                var d = angle - prev
                while d > 180 { d -= 360 }
                while d < -180 { d += 360 }
                guard abs(d) <= maxTurn else { return nil }
                angle = prev + d
            }
            previous = angle
            lowest = min(lowest, angle); highest = max(highest, angle)
            guard highest - lowest <= maxTotalTurn else { return nil }
            pieces.append(LabelPiece(x0: x0, x1: x1, dx: p.x - anchor.x, dy: p.y - anchor.y, angle: angle))
            // The strip's box, turned, padded by a pixel.
            let c = cos(angle * .pi / 180), sn = sin(angle * .pi / 180)
            let hw = (x1 - x0) / 2, hh = height / 2
            let ex = abs(c) * hw + abs(sn) * hh, ey = abs(sn) * hw + abs(c) * hh
            let box: LabelBox = (p.x - ex - 1, p.y - ey - 1, p.x + ex + 1, p.y + ey + 1)
            guard box.0 >= 0, box.1 >= 0, box.2 <= view.w, box.3 <= view.h else { return nil }
            if let taken, taken.meets(box) { return nil }
            boxes.append(box)
        }
        guard !pieces.isEmpty else { return nil }
        // Characters that lie straight on (each turned within 0.75° of the first of its run)
        // are drawn as one strip: llvmpipe fills few wide quads faster than many thin tilted ones.
        var merged: [LabelPiece] = []
        var start = 0
        for i in 1 ... pieces.count {
            if i < pieces.count, abs(pieces[i].angle - pieces[start].angle) <= 0.75 { continue }
            if i - start == 1 {
                merged.append(pieces[start])
            } else {
                let x0 = pieces[start].x0, x1 = pieces[i - 1].x1
                let p = along.point(s + sign * ((x0 + x1) / 2 - half))
                let a = pieces[start], b = pieces[i - 1]
                let angle = atan2(b.dy - a.dy, b.dx - a.dx) * 180 / .pi
                merged.append(LabelPiece(x0: x0, x1: x1, dx: p.x - anchor.x, dy: p.y - anchor.y, angle: angle))
            }
            start = i
        }
        pieces = merged
        return (anchor, pieces, boxes)
    }
}
