import GeoKit
import Synchronization

/// Numbers for `MultiPolygon.layer`.
private let layerCounter = Atomic<Int>(1 << 32)

/// The rings of one polygon of a `PolygonSet`.
public struct PolygonRings: Sendable {
    /// The outer ring (closing point optional).
    public var exterior: GeoPath
    /// Holes, each a ring inside the exterior.
    public var holes: [GeoPath]

    /// Creates a polygon's rings.
    public init(exterior: GeoPath, holes: [GeoPath] = []) { self.exterior = exterior; self.holes = holes }
}

/// Polygons held together and shared: renderers key what they make of a `MultiPolygon` by this
/// object, so keep one set while its polygons are unchanged.
public final class PolygonSet: Sendable {
    /// The polygons, drawn in this order.
    public let polygons: [PolygonRings]
    /// The bounds of every exterior (map units), or nil when there is none.
    public let bounds: MapRect?
    /// The corners where the rings of the polygons drawn with this set (its own, and those of
    /// sets beside it when given so) part: where three or more edges meet (three polygons, or a
    /// boundary two share ending). A renderer that simplifies rings cuts them there and
    /// simplifies each piece between two such corners the same way whichever ring it is in, so
    /// that an edge two polygons share stays shared (no sliver of background between them).
    /// Nil: each ring is simplified on its own. (A set made `init(sharingEdges:)` builds this
    /// from its cuts when asked: the junctions of its rings that share a point with another;
    /// one of the sets `Overlay.mergingAlikeRuns` makes, the junctions of its group on its
    /// own rings.)
    public var junctions: Set<MapPoint>? {
        if let given { return given }
        guard let cuts else { return nil }
        var out = Set<MapPoint>()
        for (k, polygon) in polygons.enumerated() {
            for (r, ring) in ([polygon.exterior] + polygon.holes).enumerated() {
                for i in cuts.ring(polygon: k, r).cuts { out.insert(ring.points[Int(i)]) }
            }
        }
        return out
    }
    private let given: Set<MapPoint>?
    /// Where a renderer cuts each ring (see `junctions`); nil: each ring on its own.
    package let cuts: RingCuts?
    /// The rectangle the polygons were cut to (a tile's: map units), or nil. Their edges along
    /// its sides are cuts, not edges of the shapes, and the fill lies inside the rectangle, on
    /// one side of them at most: where a clipper left a zero-width corridor along a side (a
    /// concave shape's pieces joined along the cut), a renderer may fill the polygon as it fills
    /// one without (an opaque set's wedge fills, `RenderPlanner.fillKind`), not as a keyhole,
    /// which has the fill on both sides of its corridor. Only sides exactly on the rectangle
    /// count.
    public let frame: MapRect?

    /// Creates a set (polygons whose exterior has no points add nothing to `bounds`), of
    /// polygons cut to `frame` when given (see `frame`).
    public init(_ polygons: [PolygonRings], junctions: Set<MapPoint>? = nil, frame: MapRect? = nil) {
        self.polygons = polygons
        bounds = Self.union(polygons.compactMap(\.exterior.bounds))
        given = junctions
        cuts = junctions.map { RingCuts(polygons, junctions: $0) }
        self.frame = frame
    }

    /// Creates a set cut where `cuts` says (`RingCuts.picking`: its polygons' cuts among a
    /// larger group's).
    package init(_ polygons: [PolygonRings], cuts: RingCuts?) {
        self.polygons = polygons
        bounds = Self.union(polygons.compactMap(\.exterior.bounds))
        given = nil
        self.cuts = cuts
        frame = nil
    }

    /// Creates a set whose rings are simplified alike where they share edges: as
    /// `init(_:junctions:)` with `junctions(of: polygons)`, but with each ring's cuts found in
    /// one pass over the corners through a table of them (a vector tile's buildings have tens
    /// of thousands), and a ring that shares no point with another simplified on its own.
    public init(sharingEdges polygons: [PolygonRings]) {
        self.polygons = polygons
        bounds = Self.union(polygons.compactMap(\.exterior.bounds))
        given = nil
        cuts = RingCuts(finding: polygons)
        frame = nil
    }

    /// The corners of `polygons`' rings where three or more distinct edges meet (see
    /// `junctions`), on the rings that share a point with another; nil when no two rings share
    /// a point (each ring can then be simplified on its own).
    public static func junctions(of polygons: some Collection<PolygonRings>) -> Set<MapPoint>? {
        PolygonSet(sharingEdges: Array(polygons)).junctions
    }

    static func union(_ rects: [MapRect]) -> MapRect? {
        guard let first = rects.first else { return nil }
        return rects.dropFirst().reduce(first) { $0.union($1) }
    }
}

/// Lines held together and shared (see `PolygonSet`).
public final class PathSet: Sendable {
    /// The lines, drawn in this order.
    public let paths: [GeoPath]
    /// The bounds of every path (map units), or nil when there is none.
    public let bounds: MapRect?

    /// Creates a set.
    public init(_ paths: [GeoPath]) {
        self.paths = paths
        bounds = PolygonSet.union(paths.compactMap(\.bounds))
    }
}

/// Many polygons filled and outlined alike, drawn as one overlay: a GeoJSON MultiPolygon, or a
/// layer of thousands of buildings. Each polygon looks as a `Polygon` with the same fill,
/// outline and z-index would, drawn in the set's order; the planner makes one mesh for the
/// whole set (cached by the set's identity and the zoom) and culls it as a whole, where
/// thousands of `Polygon`s would each be culled, looked up and drawn. Picking reports the set.
public struct MultiPolygon: Sendable {
    /// The polygons (shared; see `PolygonSet`).
    public var polygons: PolygonSet
    /// Fill colour (transparent for none).
    public var fill: Color
    /// Outline colour, or nil for none.
    public var stroke: Color?
    /// Outline width in logical pixels.
    public var strokeWidth: Double
    /// Drawing order; nil takes the default for polygons.
    public var zIndex: Int?
    /// Drawn again in every copy of the world the view shows (see `Polygon.worldCopies`).
    public var worldCopies = true
    /// The outline to stroke instead of every ring (nil: every ring): lines along the polygons'
    /// edges, stroked with miter joins and square caps, a line whose last point is its first
    /// joined all round. `Overlay.mergingAlikeRuns` gives each set of a group the edges that no
    /// later overlay of the group strokes again, each once and chained, so that an edge two
    /// polygons share is stroked once (see there). Planned part by part or by view cell (a set
    /// too large for one mesh, or much wider than the view), the set strokes its rings.
    public var outlinePaths: PathSet?
    /// The layer a translucent set is faded in (nil: a layer of its own), or an opaque set is
    /// drawn in at opacity 1 (nil: none, drawn straight into the frame). A translucent fill is
    /// drawn as the opaque colour into a layer that is then mixed with what lies under it at the
    /// fill's opacity, so each pixel is faded once: parts that overlap show their union, and
    /// edges that parts share are antialiased as opaque ones are, with no seam. Sets drawn one
    /// after another with the same layer and fill opacity share one layer, and no two of their
    /// parts may overlap, not even two of one set's: their edges' coverages are added up (to no
    /// more than the whole pixel), so that where two parts meet each one's share of an edge
    /// pixel counts (as with multisampling). `Overlay.mergingAlikeRuns` gives the sets of each group of polygons no
    /// two of which overlap one layer (`newLayer()`), so that a choropleth's neighbours in
    /// different colours meet without a seam; the opaque sets of a group of two colours or more
    /// whose polygons may share an edge get one too, so that where two colours meet each takes
    /// its share of the edge's pixels (drawn one after another, the first covers the pixels on
    /// its side in full and the second's antialiased edge blends over them).
    public var layer: Int?
    /// With a live view's background meshing (`RenderPlanner.backgroundMeshing`): whether the
    /// set is meshed at once when it has no mesh (of another zoom) to stand in, rather than
    /// left out until built (the embedded basemap's tiles: cheap, and never to be missing).
    package var meshedAtOnceWhenMissing = false

    /// A layer number no other call has returned (for `layer`), above 2³².
    public static func newLayer() -> Int {
        layerCounter.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Creates a multipolygon.
    public init(polygons: PolygonSet, fill: Color = Color(rgb: 0x1F6FEB, alpha: 0x40), stroke: Color? = nil,
                strokeWidth: Double = 1, zIndex: Int? = nil) {
        self.polygons = polygons; self.fill = fill; self.stroke = stroke; self.strokeWidth = strokeWidth; self.zIndex = zIndex
    }

    /// The `Polygon` that draws (and picks) part `i` as this overlay does.
    public func part(_ i: Int) -> Polygon {
        let rings = polygons.polygons[i]
        var p = Polygon(exterior: rings.exterior, holes: rings.holes, fill: fill, stroke: stroke, strokeWidth: strokeWidth,
                        zIndex: zIndex)
        p.worldCopies = worldCopies
        return p
    }
}

/// Many lines stroked alike, drawn as one overlay: a GeoJSON MultiLineString, or a layer of
/// thousands of streets (see `MultiPolygon`). Each line looks as a `Polyline` with the same
/// style would (dashes start again on each line), but for `LineStyle.fade`, which a set does
/// not draw (it fades one line's tail).
public struct MultiPolyline: Sendable {
    /// The lines (shared; see `PathSet`).
    public var paths: PathSet
    /// Stroke style (`fade` is not drawn).
    public var style: LineStyle
    /// When true each segment follows the great circle between its ends (see `Polyline.geodesic`).
    public var geodesic: Bool
    /// Drawing order; nil takes the default for routes.
    public var zIndex: Int?
    /// Drawn again in every copy of the world the view shows (see `Polyline.worldCopies`).
    public var worldCopies = true
    /// See `MultiPolygon.meshedAtOnceWhenMissing`.
    package var meshedAtOnceWhenMissing = false

    /// Creates a multipolyline.
    public init(paths: PathSet, style: LineStyle = LineStyle(), geodesic: Bool = false, zIndex: Int? = nil) {
        self.paths = paths; self.style = style; self.geodesic = geodesic; self.zIndex = zIndex
    }

    /// The `Polyline` that draws (and picks) line `i` as this overlay does.
    public func part(_ i: Int) -> Polyline {
        var l = Polyline(path: paths.paths[i], style: style, geodesic: geodesic, zIndex: zIndex)
        l.style.fade = 0
        l.worldCopies = worldCopies
        return l
    }
}

extension Overlay {
    /// The overlays with runs of alike `Polygon`s, or `Polyline`s, replaced by `MultiPolygon`s
    /// or `MultiPolyline`s that draw the same image (but for edge pixels, below). Meant for large GeoJSON files: 20 000
    /// footprints plan in a fraction of a millisecond instead of ~20 ms, and a translucent
    /// choropleth draws as a few sets instead of thousands of polygons; a pick reports the set
    /// and the part hit (`Pick.part`).
    ///
    /// Lines: runs of at least `minimumRun` consecutive alike opaque lines without casing, fade
    /// or times (a casing drawn under each line would cross the line before it; translucent lines
    /// blend where they overlap; times are what a pick on a line reports).
    ///
    /// Polygons: consecutive polygons with the same outline (none, or one opaque colour and
    /// width) and `zIndex` are taken in groups in which no two overlap, and each group's polygons
    /// of one fill colour, at least `minimumRun` of them, become one set; translucent ones without
    /// an outline however few, in a group where two polygons' bounds meet, so that the group is
    /// drawn in one layer without seams (see `MultiPolygon.layer`); so too opaque ones without an
    /// outline in such a group of two colours or more, whose sets then share a layer at opacity 1
    /// (each colour takes its share of the pixels on an edge between two). Within such a group the
    /// order changes only pixels on the edges: insides do not overlap, and where one polygon's
    /// fill covers another's outline its own outline (as wide, opaque) covers the same pixels
    /// again; the antialiased edges of neighbours blend over each other in another order.
    /// Opaque polygons of one colour without outline may overlap (drawing a colour twice changes
    /// nothing); any other overlap (`PolygonOverlap`) starts a new group. Where two parts of a
    /// translucent set meet, the set blends each edge pixel once, in the colour of the inside,
    /// where one by one the second's fringe blends again over pixels the first covers (a darker
    /// seam). Polygons with translucent outlines are left alone (two outlines on a shared edge
    /// blend twice). With an outline, each set strokes only the edges no later overlay of its
    /// group has, each once (`MultiPolygon.outlinePaths`): a shared edge is stroked once, after
    /// the fills on both sides, where one by one both polygons stroke it (darker on its
    /// antialiased pixels).
    ///
    /// A run longer than `maximumSet` shapes becomes several sets of at most that many (one mesh
    /// each: a mesh of millions of vertices would be one buffer of hundreds of megabytes).
    public static func mergingAlikeRuns(_ overlays: [Overlay], minimumRun: Int = 64, maximumSet: Int = 65_536) -> [Overlay] {
        let most = max(1, maximumSet)
        let least = max(1, minimumRun)
        func polygonKey(_ o: Overlay) -> Polygon? {
            guard case .polygon(let p) = o, (outline(p)?.color.a ?? 255) == 255 else { return nil }
            return p
        }
        func lineKey(_ o: Overlay) -> Polyline? {
            guard case .polyline(let l) = o, l.style.casingColor == nil, l.style.color.a == 255, !(l.style.fade > 0),
                  l.times == nil, l.alongOffset == 0 else { return nil }
            return l
        }
        func alike(_ a: Polyline, _ b: Polyline) -> Bool {
            a.style == b.style && a.geodesic == b.geodesic && a.zIndex == b.zIndex && a.worldCopies == b.worldCopies
        }
        var out: [Overlay] = []
        out.reserveCapacity(overlays.count)
        var i = 0
        var budget = PolygonGroups.budget
        while i < overlays.count {
            if let first = polygonKey(overlays[i]) {
                var j = i + 1
                while j < overlays.count, let p = polygonKey(overlays[j]), outline(p) == outline(first),
                      p.zIndex == first.zIndex, p.worldCopies == first.worldCopies { j += 1 }
                out += PolygonGroups.merged(overlays[i ..< j], least: least, most: most, budget: &budget)
                i = j
            } else if let first = lineKey(overlays[i]) {
                var lines = [first]
                var j = i + 1
                while j < overlays.count, let l = lineKey(overlays[j]), alike(first, l) { lines.append(l); j += 1 }
                if lines.count >= least {
                    for start in stride(from: 0, to: lines.count, by: most) {
                        var m = MultiPolyline(paths: PathSet(lines[start ..< min(lines.count, start + most)].map(\.path)),
                                              style: first.style, geodesic: first.geodesic, zIndex: first.zIndex)
                        m.worldCopies = first.worldCopies
                        out.append(.multiPolyline(m))
                    }
                } else {
                    out += overlays[i ..< j]
                }
                i = j
            } else {
                out.append(overlays[i])
                i += 1
            }
        }
        return out
    }

    /// A polygon's outline as drawn: nil when it has none (or one of no width, which draws nothing).
    fileprivate static func outline(_ p: Polygon) -> PolygonGroups.Outline? {
        guard let s = p.stroke, p.strokeWidth > 0 else { return nil }
        return PolygonGroups.Outline(color: s, width: p.strokeWidth)
    }
}

/// The grouping `Overlay.mergingAlikeRuns` does for a run of polygons with one outline.
enum PolygonGroups {
    struct Outline: Equatable {
        let color: Color
        let width: Double
    }

    /// The edge pairs one `mergingAlikeRuns` call may spend testing polygons for overlap (a
    /// fraction of a second); past it, a polygon that would need a test starts a new group.
    static let budget = 200_000_000
    /// The edge pairs one test may take: larger polygons on each other's bounds start a new group.
    static let pairLimit = 400_000
    /// The members one polygon is tested against at most; past that it starts a new group.
    static let mostTests = 16

    static func merged(_ run: ArraySlice<Overlay>, least: Int, most: Int, budget: inout Int) -> [Overlay] {
        guard run.count >= least || run.count >= 2 && (run.contains(where: layers) || twoOpaqueColours(run)) else { return Array(run) }
        // Grid cells twice the median polygon's size.
        var sizes: [Double] = run.compactMap { o in
            guard case .polygon(let p) = o, let b = p.exterior.bounds else { return nil }
            return max(b.width, b.height)
        }
        sizes.sort()
        let cellSize = sizes.isEmpty ? 0 : 2 * sizes[sizes.count / 2]
        var out: [Overlay] = []
        var group = Group(cellSize: cellSize)
        for o in run {
            guard case .polygon(let p) = o else { continue }
            if group.conflicts(p, budget: &budget) {
                out += group.merged(least: least, most: most)
                group = Group(cellSize: cellSize)
            }
            group.add(p)
        }
        out += group.merged(least: least, most: most)
        return out
    }

    /// Whether a polygon is translucent with no outline: in a group where the bounds of two
    /// polygons meet it joins a set however few of its colour there are, so that it is drawn in
    /// the group's layer (see `MultiPolygon.layer`), where its edges meet its neighbours' without
    /// the seam that two translucent polygons drawn one by one leave (the second's antialiased
    /// edge blended again over the first). Polygons that cannot touch are left as they are (the
    /// layer costs a pass over the screen it covers, for the same image).
    static func layers(_ o: Overlay) -> Bool {
        guard case .polygon(let p) = o else { return false }
        return Overlay.outline(p) == nil && p.fill.isTranslucent
    }

    /// Whether the run holds opaque polygons without outline in two colours or more: in a group
    /// where two polygons' bounds meet, those become sets however few and share a layer (at
    /// opacity 1), so that where two colours meet each takes its share of the edge pixels.
    static func twoOpaqueColours(_ run: ArraySlice<Overlay>) -> Bool {
        var first: Color?
        for o in run {
            guard case .polygon(let p) = o, p.fill.a == 255, Overlay.outline(p) == nil else { continue }
            if let first, first != p.fill { return true }
            first = first ?? p.fill
        }
        return false
    }

    /// Polygons no two of which overlap (but alike opaque ones without outline), with a grid of
    /// their bounds to find the ones a new polygon may overlap.
    struct Group {
        var members: [Polygon] = []
        var bounds: [MapRect] = []
        var cells: [Int64: [Int32]] = [:]
        /// Members too large for the grid, tried against every polygon.
        var large: [Int32] = []
        let cellSize: Double
        var seen: [Int] = []
        var stamp = 0
        /// The first member's fill, and whether every member so far is opaque, without outline,
        /// in that colour: then an alike polygon cannot conflict with any of them.
        var onlyOpaque: Color?
        var opaqueOnly = true
        /// Whether the bounds of two members meet (so the two may share an edge).
        var touching = false
        /// Members prepared for overlap tests, once a test has needed them; the polygon tested
        /// last, prepared, until it is added.
        var shapes: [PolygonOverlap.Shape?] = []
        var pending: PolygonOverlap.Shape?

        /// Cells a polygon may span before it is kept in `large`.
        static let mostCells = 64
        /// Members looked at for one polygon at most; past that it starts a new group.
        static let mostVisits = 4096

        init(cellSize: Double) { self.cellSize = cellSize }

        private func cellRange(_ b: MapRect) -> (x: ClosedRange<Int64>, y: ClosedRange<Int64>)? {
            guard cellSize > 0 else { return nil }
            let x0 = (b.minX / cellSize).rounded(.down), x1 = (b.maxX / cellSize).rounded(.down)
            let y0 = (b.minY / cellSize).rounded(.down), y1 = (b.maxY / cellSize).rounded(.down)
            guard x0.isFinite, x1.isFinite, y0.isFinite, y1.isFinite, abs(x0) < 1e15, abs(x1) < 1e15, abs(y0) < 1e15, abs(y1) < 1e15,
                  (x1 - x0 + 1) * (y1 - y0 + 1) <= Double(Self.mostCells) else { return nil }
            return (Int64(x0) ... Int64(x1), Int64(y0) ... Int64(y1))
        }

        private static func key(_ x: Int64, _ y: Int64) -> Int64 { x &* 73_856_093 ^ y &* 19_349_663 }

        /// Whether `p` overlaps a member in a way that drawing them in another order would show.
        mutating func conflicts(_ p: Polygon, budget: inout Int) -> Bool {
            guard let b = p.exterior.bounds, !members.isEmpty else { return false }
            if opaqueOnly, p.fill == onlyOpaque, Overlay.outline(p) == nil { return false }
            stamp += 1
            var tests = 0, visits = 0
            var meets = false
            // p prepared once, when a test needs it (it is kept if p joins).
            var prepared: PolygonOverlap.Shape?
            func shape() -> PolygonOverlap.Shape {
                if let prepared { return prepared }
                let s = Self.shape(p)
                prepared = s
                return s
            }
            defer { pending = prepared }
            func check(_ k: Int32) -> Bool {
                let m = Int(k)
                guard seen[m] != stamp else { return false }
                seen[m] = stamp
                visits += 1
                guard visits <= Self.mostVisits else { return true }
                let q = members[m]
                let c = bounds[m]
                // Bounds that meet (an edge two polygons share lies in both).
                if c.minX <= b.maxX, b.minX <= c.maxX, c.minY <= b.maxY, b.minY <= c.maxY { meets = true }
                // Bounds that share no area: insides apart.
                guard c.minX < b.maxX, b.minX < c.maxX, c.minY < b.maxY, b.minY < c.maxY else { return false }
                if p.fill == q.fill, p.fill.a == 255, Overlay.outline(p) == nil { return false }
                tests += 1
                guard tests <= PolygonGroups.mostTests else { return true }
                let allowance = min(budget, PolygonGroups.pairLimit)
                var left = allowance
                if shapes[m] == nil { shapes[m] = Self.shape(q) }
                let overlap = PolygonOverlap.interiorsOverlap(shape(), shapes[m]!, budget: &left)
                budget -= allowance - left
                return overlap != false
            }
            for k in large where check(k) { return true }
            if let r = cellRange(b) {
                for y in r.y { for x in r.x { for k in cells[Self.key(x, y)] ?? [] where check(k) { return true } } }
            } else {
                for k in members.indices where check(Int32(k)) { return true }
            }
            if meets { touching = true }
            return false
        }

        static func shape(_ p: Polygon) -> PolygonOverlap.Shape {
            PolygonOverlap.Shape([p.exterior.points] + p.holes.map(\.points))
        }

        mutating func add(_ p: Polygon) {
            shapes.append(pending)
            pending = nil
            if members.isEmpty { onlyOpaque = p.fill }
            if p.fill != onlyOpaque || p.fill.a != 255 || Overlay.outline(p) != nil { opaqueOnly = false }
            guard let b = p.exterior.bounds else { members.append(p); bounds.append(MapRect(origin: MapPoint(x: 0, y: 0), width: 0, height: 0)); seen.append(0); return }
            let k = Int32(members.count)
            members.append(p); bounds.append(b); seen.append(0)
            if let r = cellRange(b) {
                for y in r.y { for x in r.x { cells[Self.key(x, y), default: []].append(k) } }
            } else {
                large.append(k)
            }
        }

        /// The group's polygons as sets, one per fill colour with at least `least` polygons (in
        /// the order the colours first come), then the others as they are; in order when none is. With
        /// an outline, each set strokes only the edges no later overlay of the group strokes
        /// (`Outlines`): the polygons left as they are stroke every edge of their own.
        func merged(least: Int, most: Int) -> [Overlay] {
            var colours: [Color] = []
            // Each colour's members, by number.
            var byColour: [Color: [Int]] = [:]
            for (k, p) in members.enumerated() {
                if byColour[p.fill] == nil { colours.append(p.fill) }
                byColour[p.fill, default: []].append(k)
            }
            // A colour's polygons become a set when there are `least` of them, or when they are
            // without outline in a group where two may share an edge (`layers`): translucent
            // ones, or opaque ones of two colours or more, which then share a layer so that
            // where two colours meet each takes its share of the edge pixels.
            let layered = touching && members.first.flatMap(Overlay.outline) == nil
            let opaqueLayer = layered && colours.filter { $0.a == 255 }.count >= 2
            func isSet(_ c: Color) -> Bool { byColour[c]!.count >= least || layered && c.isTranslucent || opaqueLayer && c.a == 255 }
            guard colours.contains(where: isSet) else { return members.map { .polygon($0) } }
            // The overlays in drawing order: a set's polygons, or one polygon left as it is (by
            // member number). The sets come first, so that translucent ones follow one another
            // (and share a layer).
            var items: [(indices: ArraySlice<Int>, isSet: Bool)] = []
            var alone: [(indices: ArraySlice<Int>, isSet: Bool)] = []
            for c in colours {
                let ks = byColour[c]!
                if isSet(c) {
                    for start in stride(from: 0, to: ks.count, by: most) { items.append((ks[start ..< min(ks.count, start + most)], true)) }
                } else {
                    for k in ks.indices { alone.append((ks[k ... k], false)) }
                }
            }
            items += alone
            let outline = members.first.flatMap(Overlay.outline)
            let outlines = outline == nil ? nil : Outlines.chains(items.map { (ArraySlice($0.indices.map { members[$0] }), $0.isSet) })
            // Without an outline, where the group's rings are cut, so that edges two polygons
            // share are simplified alike (an outline covers any sliver between them): found
            // once for the whole group, each set taking its polygons' cuts.
            let rings = members.map { PolygonRings(exterior: $0.exterior, holes: $0.holes) }
            let cuts = outline == nil && members.count >= 2 ? RingCuts(finding: rings) : nil
            // No two of the group's polygons overlap: its translucent sets can share a layer.
            let layer = MultiPolygon.newLayer()
            var out: [Overlay] = []
            for (k, item) in items.enumerated() {
                guard item.isSet, let first = item.indices.first.map({ members[$0] }) else {
                    out += item.indices.map { .polygon(members[$0]) }
                    continue
                }
                var m = MultiPolygon(polygons: PolygonSet(item.indices.map { rings[$0] }, cuts: cuts?.picking(item.indices)),
                                     fill: first.fill, stroke: outline?.color, strokeWidth: outline?.width ?? 0,
                                     zIndex: first.zIndex)
                m.worldCopies = first.worldCopies
                m.outlinePaths = outlines?[k]
                m.layer = first.fill.a < 255 || opaqueLayer ? layer : nil
                out.append(.multiPolygon(m))
            }
            return out
        }
    }
}

/// The outlines of a group's sets (`PolygonGroups.Group.merged`), each edge stroked once.
///
/// In a group no two polygons overlap, so an edge two of them share lies between them, and
/// drawn one overlay after another the later one's fill covers half of the earlier one's
/// outline there before its own outline covers the edge again. So an edge needs stroking only
/// by the last overlay that has it (after every fill beside it), and once. Each set's edges of
/// that kind are chained into lines: at a point where two meet, they continue one another
/// (stroked with the miter join a ring would have); where more meet, the pair furthest apart
/// continue one another first (so that a polygon's corner wider than a half turn, the one a
/// ring's join fills, is joined), and the line ends of the rest are squared, reaching half the
/// width past the point as the rings' joins do there.
enum Outlines {
    /// Edges a group may hold for the outlines to be chained (past it, sets stroke their rings).
    static let mostEdges = 2_000_000
    /// Lines meeting at a point beyond which they are not paired up there (each ends squared).
    static let mostPaired = 16

    struct Edge: Hashable {
        let a: MapPoint
        let b: MapPoint
        /// The edge either way round, as one key.
        init(_ p: MapPoint, _ q: MapPoint) {
            if (p.x, p.y) < (q.x, q.y) { a = p; b = q } else { a = q; b = p }
        }
    }

    /// The edges of a polygon's rings (closing points and repeated points left out).
    static func edges(_ p: Polygon, _ body: (Edge) -> Void) {
        for ring in [p.exterior] + p.holes {
            var pts = ring.points
            if pts.count > 1, pts.first == pts.last { pts.removeLast() }
            guard pts.count >= 2 else { continue }
            for i in pts.indices {
                let q = pts[(i + 1) % pts.count]
                if pts[i] != q { body(Edge(pts[i], q)) }
            }
        }
    }

    /// For each item (in drawing order) that is a set, the lines its outline is: the edges of its
    /// polygons no later item has, each once, chained. Nil when the group holds more than
    /// `mostEdges` edges.
    static func chains(_ items: [(polygons: ArraySlice<Polygon>, isSet: Bool)]) -> [Int: PathSet]? {
        var count = 0
        for item in items { for p in item.polygons { count += p.exterior.points.count + p.holes.reduce(0) { $0 + $1.points.count } } }
        guard count <= mostEdges else { return nil }
        // The last item that has each edge.
        var last: [Edge: Int32] = [:]
        last.reserveCapacity(count)
        for (k, item) in items.enumerated() {
            for p in item.polygons { edges(p) { last[$0] = Int32(k) } }
        }
        var out: [Int: PathSet] = [:]
        for (k, item) in items.enumerated() where item.isSet {
            var owned: [Edge] = []
            var seen = Set<Edge>()
            for p in item.polygons {
                edges(p) { e in
                    if last[e] == Int32(k), seen.insert(e).inserted { owned.append(e) }
                }
            }
            out[k] = PathSet(lines(owned).compactMap { try? GeoPath(points: $0) })
        }
        return out
    }

    /// Edges chained into lines (a closed one ends on its first point), in the edges' order.
    static func lines(_ edges: [Edge]) -> [[MapPoint]] {
        // Each edge's two ends: slot 2e at `a`, 2e + 1 at `b`; the ends at each point.
        var ids: [MapPoint: Int] = [:]
        var at: [[Int]] = []
        var points: [MapPoint] = []
        func id(_ p: MapPoint) -> Int {
            if let i = ids[p] { return i }
            ids[p] = points.count
            points.append(p)
            at.append([])
            return points.count - 1
        }
        var ends: [Int] = []  // slot → point id
        ends.reserveCapacity(2 * edges.count)
        for (e, edge) in edges.enumerated() {
            let i = id(edge.a), j = id(edge.b)
            ends.append(i); ends.append(j)
            at[i].append(2 * e); at[j].append(2 * e + 1)
        }
        // Pair the ends at each point: two continue each other; of more, the two furthest apart first.
        var partner = [Int](repeating: -1, count: ends.count)
        for (v, slots) in at.enumerated() where slots.count >= 2 && slots.count <= mostPaired {
            if slots.count == 2 { partner[slots[0]] = slots[1]; partner[slots[1]] = slots[0]; continue }
            let p = points[v]
            // The unit direction away from the point along each edge.
            var dirs: [(slot: Int, x: Double, y: Double)] = slots.map { s in
                let q = points[ends[s ^ 1]]
                let dx = q.x - p.x, dy = q.y - p.y, l = (dx * dx + dy * dy).squareRoot()
                return (s, dx / l, dy / l)
            }
            while dirs.count >= 2 {
                var best = (0, 1), bestDot = Double.infinity
                for i in 0 ..< dirs.count {
                    for j in i + 1 ..< dirs.count {
                        let d = dirs[i].x * dirs[j].x + dirs[i].y * dirs[j].y
                        if d < bestDot { bestDot = d; best = (i, j) }
                    }
                }
                let s = dirs[best.0].slot, t = dirs[best.1].slot
                partner[s] = t; partner[t] = s
                dirs.remove(at: best.1); dirs.remove(at: best.0)
            }
        }
        // Walk: first from the ends of open lines, then round what is left (closed lines).
        var used = [Bool](repeating: false, count: edges.count)
        var out: [[MapPoint]] = []
        func walk(from slot: Int) -> [MapPoint] {
            var line = [points[ends[slot]]]
            var s = slot
            while true {
                let e = s / 2
                guard !used[e] else { break }
                used[e] = true
                let exit = s ^ 1
                line.append(points[ends[exit]])
                let next = partner[exit]
                guard next >= 0 else { break }
                s = next
            }
            return line
        }
        for s in 0 ..< ends.count where partner[s] < 0 && !used[s / 2] { out.append(walk(from: s)) }
        for e in 0 ..< edges.count where !used[e] { out.append(walk(from: 2 * e)) }
        return out
    }
}

/// Where a renderer cuts each ring of a `PolygonSet` to simplify it (see `PolygonSet.junctions`):
/// the rings numbered polygon by polygon, the exterior and then its holes.
package struct RingCuts: Sendable {
    /// Per polygon, the number of its exterior among the rings (its holes follow).
    private let firstRing: [Int32]
    /// Per ring and one more: where its cuts begin in `cuts`.
    private let cutStart: [Int32]
    /// The junctions' indices in their ring's points, ascending, ring by ring.
    private let cuts: [Int32]
    /// Per ring: whether it shares no point with another ring (and is simplified on its own).
    private let alone: [Bool]

    /// Ring `r` of polygon `polygon` (0 the exterior): whether it is simplified on its own, and
    /// the indices of its corners where it is cut.
    package func ring(polygon: Int, _ r: Int) -> (alone: Bool, cuts: ArraySlice<Int32>) {
        let k = Int(firstRing[polygon]) + r
        return (alone[k], cuts[Int(cutStart[k]) ..< Int(cutStart[k + 1])])
    }

    /// The cuts of the polygons numbered `indices` (in that order) of the polygons these cuts
    /// were found for, every ring cut, none alone: as `init(_:junctions:)` gives a set of some
    /// of them with the junctions of all (a ring that shares no point with another has no cut).
    package func picking(_ indices: some Collection<Int>) -> RingCuts {
        let ringCount = cutStart.count - 1
        var firstRing: [Int32] = [], cutStart: [Int32] = [0], cuts: [Int32] = []
        firstRing.reserveCapacity(indices.count)
        for k in indices {
            firstRing.append(Int32(cutStart.count - 1))
            let end = k + 1 < self.firstRing.count ? Int(self.firstRing[k + 1]) : ringCount
            for r in Int(self.firstRing[k]) ..< end {
                cuts += self.cuts[Int(self.cutStart[r]) ..< Int(self.cutStart[r + 1])]
                cutStart.append(Int32(cuts.count))
            }
        }
        return RingCuts(firstRing: firstRing, cutStart: cutStart, cuts: cuts,
                        alone: [Bool](repeating: false, count: cutStart.count - 1))
    }

    private init(firstRing: [Int32], cutStart: [Int32], cuts: [Int32], alone: [Bool]) {
        self.firstRing = firstRing
        self.cutStart = cutStart
        self.cuts = cuts
        self.alone = alone
    }

    /// The corners of each ring that are in `junctions` (every ring cut, none alone).
    init(_ polygons: [PolygonRings], junctions: Set<MapPoint>) {
        var firstRing: [Int32] = [], cutStart: [Int32] = [0], cuts: [Int32] = []
        for polygon in polygons {
            firstRing.append(Int32(cutStart.count - 1))
            for ring in [polygon.exterior] + polygon.holes {
                let pts = ring.points
                for i in 0 ..< RingCuts.corners(pts) where junctions.contains(pts[i]) { cuts.append(Int32(i)) }
                cutStart.append(Int32(cuts.count))
            }
        }
        self.firstRing = firstRing
        self.cutStart = cutStart
        self.cuts = cuts
        alone = [Bool](repeating: false, count: cutStart.count - 1)
    }

    /// The junctions of `polygons`' rings, found through an open-addressing table of their
    /// corners keyed by the points' bits (-0 taken as 0), each slot holding the corner's first
    /// two distinct neighbours (as slots), a third marking it a junction; a ring that shares no point
    /// with another is alone (uncut). Nil when no two rings share a point, or for more than
    /// `mostCorners` corners.
    package init?(finding polygons: [PolygonRings]) {
        var ringCount = 0, count = 0
        var firstRing: [Int32] = []
        firstRing.reserveCapacity(polygons.count)
        for polygon in polygons {
            firstRing.append(Int32(ringCount))
            ringCount += 1 + polygon.holes.count
            count += polygon.exterior.points.count
            for h in polygon.holes { count += h.points.count }
        }
        guard ringCount >= 2, count > 0, count <= Self.mostCorners else { return nil }
        // (Most corners of such sets are shared, so the table is at most four-fifths full and
        // mostly under half: small enough to stay in a core's cache.)
        var capacity = 16
        while capacity < count + count / 4 { capacity <<= 1 }
        var table = [CornerSlot](repeating: CornerSlot(), count: capacity)
        // Per ring: its first corner's slot number in `slotOf` and its corners (closing repeats
        // dropped; 0 for fewer than three).
        var ringStart = [Int32](repeating: 0, count: ringCount)
        var ringLength = [Int32](repeating: 0, count: ringCount)
        var slotOf = [Int32](repeating: 0, count: count)
        var shared = [Bool](repeating: false, count: ringCount)
        // The junctions' slots, a bit each (small enough to stay in the nearest cache).
        var junction = [UInt64](repeating: 0, count: (capacity + 63) / 64)
        table.withUnsafeMutableBufferPointer { table in
            slotOf.withUnsafeMutableBufferPointer { slotOf in
                shared.withUnsafeMutableBufferPointer { shared in
                    let mask = capacity - 1
                    func slot(_ p: MapPoint, ring: Int32) -> Int32 {
                        let x = (p.x + 0).bitPattern, y = (p.y + 0).bitPattern
                        var i = CornerSlot.hash(x, y) & mask
                        while true {
                            let r = table[i].ring
                            if r == 0 {
                                table[i].x = x
                                table[i].y = y
                                table[i].ring = ring
                                return Int32(i)
                            }
                            if table[i].x == x && table[i].y == y {
                                if r != ring {
                                    shared[Int(r) - 1] = true
                                    shared[Int(ring) - 1] = true
                                }
                                return Int32(i)
                            }
                            i = (i + 1) & mask
                        }
                    }
                    func meet(_ p: Int32, _ q: Int32) {
                        let i = Int(p)
                        let f = table[i].first, s = table[i].second
                        if f == q || s == q { return }
                        if f < 0 {
                            table[i].first = q
                        } else if s < 0 {
                            table[i].second = q
                        } else {
                            junction[i >> 6] |= 1 << (i & 63)
                        }
                    }
                    var corner = 0, ring = 0
                    for polygon in polygons {
                        for h in -1 ..< polygon.holes.count {
                            let pts = (h < 0 ? polygon.exterior : polygon.holes[h]).points
                            defer { corner += pts.count; ring += 1 }
                            let n = RingCuts.corners(pts)
                            guard n >= 3 else { continue }
                            ringStart[ring] = Int32(corner)
                            ringLength[ring] = Int32(n)
                            for i in 0 ..< n { slotOf[corner + i] = slot(pts[i], ring: Int32(ring + 1)) }
                            // Consecutive repeats are one corner.
                            var prev = slotOf[corner + n - 1]
                            for i in 0 ..< n {
                                let s = slotOf[corner + i]
                                if s != prev { meet(prev, s); meet(s, prev); prev = s }
                            }
                        }
                    }
                }
            }
        }
        guard shared.contains(true) else { return nil }
        var cutStart: [Int32] = [0], cuts: [Int32] = []
        cutStart.reserveCapacity(ringCount + 1)
        for r in 0 ..< ringCount {
            if shared[r] {
                let start = Int(ringStart[r])
                for i in 0 ..< Int(ringLength[r]) {
                    let slot = Int(slotOf[start + i])
                    if junction[slot >> 6] & (1 << (slot & 63)) != 0 { cuts.append(Int32(i)) }
                }
            }
            cutStart.append(Int32(cuts.count))
        }
        self.firstRing = firstRing
        self.cutStart = cutStart
        self.cuts = cuts
        alone = shared.map { !$0 }
    }

    /// The most corners a set's cuts are found for (the table then takes up to 64 MiB for a
    /// moment); a larger set, which only a hostile tile or file holds, is simplified ring by ring.
    package static let mostCorners = 1 << 20

    /// The number of a ring's corners, its closing repeats left out.
    private static func corners(_ pts: [MapPoint]) -> Int {
        var n = pts.count
        while n > 1, pts[n - 1] == pts[0] { n -= 1 }
        return n
    }
}

/// A slot of the table `RingCuts.init(finding:)` counts a corner's neighbours in: the point's
/// bits (-0 taken as 0), the ring it was first seen in (from 1; 0: empty) and its first two
/// distinct neighbours (slots; -1 none yet; a third marks the slot in the junctions' bit set).
private struct CornerSlot {
    var x: UInt64 = 0, y: UInt64 = 0
    var ring: Int32 = 0
    var first: Int32 = -1, second: Int32 = -1

    /// Where a point's probe starts: its bits mixed (tile coordinates end in many zero bits).
    static func hash(_ x: UInt64, _ y: UInt64) -> Int {
        func mix(_ v: UInt64) -> UInt64 {
            var h = (v ^ (v >> 30)) &* 0xBF58_476D_1CE4_E5B9
            h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
            return h ^ (h >> 31)
        }
        return Int(truncatingIfNeeded: mix(x &+ mix(y)))
    }
}
