import GeoKit

/// The kinds of overlay, in their default drawing order (lowest first).
public enum OverlayKind: Int, Sendable, CaseIterable, Comparable {
    /// Images on the ground (image overlays, raster tiles; default z 0, under everything else).
    case image = 0
    /// Polygons (default z 100).
    case polygon = 1
    /// Circles (default z 200).
    case circle = 2
    /// Polylines / routes (default z 300).
    case route = 3
    /// Markers (default z 400).
    case marker = 4
    /// Labels (default z 500).
    case label = 5
    /// Sprites, custom bitmaps (default z 600).
    case sprite = 6
    /// Extruded polygons, 3D (default z 700; 3D objects share the depth buffer).
    case extrusion = 7
    /// Columns, 3D (default z 800).
    case column = 8
    /// Arcs between two places, 3D (default z 900).
    case arc = 9

    /// The z-index used when an overlay gives none: `100 · rawValue`.
    public var defaultZIndex: Int { rawValue * 100 }

    public static func < (a: OverlayKind, b: OverlayKind) -> Bool { a.rawValue < b.rawValue }
}

/// One thing drawn on the map.
public enum Overlay: Sendable {
    case polyline(Polyline)
    case polygon(Polygon)
    /// Many lines stroked alike, drawn as one (see `MultiPolyline`).
    case multiPolyline(MultiPolyline)
    /// Many polygons filled alike, drawn as one (see `MultiPolygon`).
    case multiPolygon(MultiPolygon)
    case circle(Circle)
    case marker(Marker)
    /// Markers clustered where they crowd (`MarkerCluster`), drawn with the markers.
    case cluster(MarkerCluster)
    case label(Label)
    case sprite(Sprite)
    case column(Column)
    case extrusion(Extrusion)
    case arc(Arc)
    case image(GroundImage)

    /// Whether it holds a marker with a label (a marker, or a cluster with a labelled marker):
    /// what the marker-label placement has to place.
    public var hasMarkerLabel: Bool {
        switch self {
        case .marker(let m): m.label?.isEmpty == false
        case .cluster(let c): c.markers.contains { $0.label?.isEmpty == false }
        default: false
        }
    }

    /// A marker's position and `clearance` (nil for any other overlay), read without copying the
    /// marker (a `switch` that binds it retains each of its strings and images).
    public var markerClearance: (position: LatLng, box: (minX: Double, minY: Double, maxX: Double, maxY: Double))? {
        if case .marker(let m) = self { return (m.position, m.clearance) }
        return nil
    }

    /// Which kind of overlay this is.
    public var kind: OverlayKind {
        switch self {
        case .polyline, .multiPolyline: .route
        case .polygon, .multiPolygon: .polygon
        case .circle: .circle
        case .marker, .cluster: .marker
        case .label: .label
        case .sprite: .sprite
        case .column: .column
        case .extrusion: .extrusion
        case .arc: .arc
        case .image: .image
        }
    }

    /// The z-index in effect: the overlay's own, or its kind's default.
    public var effectiveZIndex: Int {
        let own: Int? = switch self {
        case .polyline(let o): o.zIndex
        case .polygon(let o): o.zIndex
        case .multiPolyline(let o): o.zIndex
        case .multiPolygon(let o): o.zIndex
        case .circle(let o): o.zIndex
        case .marker(let o): o.zIndex
        case .cluster(let o): o.zIndex
        case .label(let o): o.zIndex
        case .sprite(let o): o.zIndex
        case .column(let o): o.zIndex
        case .extrusion(let o): o.zIndex
        case .arc(let o): o.zIndex
        case .image(let o): o.zIndex
        }
        return own ?? kind.defaultZIndex
    }
}

/// A run of a scene's basemap overlays drawn as one layer at an opacity (`Scene.basemapGroups`).
public struct BasemapGroup: Sendable, Equatable {
    /// Indices into `Scene.basemap`.
    public var range: Range<Int>
    /// 0…1.
    public var opacity: Double

    /// Creates a group.
    public init(range: Range<Int>, opacity: Double) { self.range = range; self.opacity = opacity }
}

/// What to draw: a background, basemap layers (always under the overlays), the basemap's
/// labels (between the overlays below z-index `basemapLabelsZIndex` and the rest), and overlays
/// ordered by z-index (ties keep insertion order).
public struct Scene: Sendable {
    /// Colour under everything (the ocean for the embedded basemap); transparent allowed.
    public var background: Color
    /// Basemap layers drawn first, in array order, under every overlay.
    public var basemap: [Overlay]
    /// The basemap's labels (place names and their dots), drawn in array order over the
    /// overlays whose z-index is below `basemapLabelsZIndex` and under the others: routes,
    /// polygons and circles (default z 100–300) pass under the place names, markers, labels,
    /// sprites and 3D objects (400 and up) cover them, as MapKit draws overlays
    /// `.aboveRoads` (under the map's labels) and annotations over them.
    public var basemapLabels: [Overlay] = []
    /// The z-index the basemap's labels are drawn at: an overlay whose z-index is this or more
    /// is drawn over them (MapKit's `.aboveLabels`).
    public static let basemapLabelsZIndex = 350
    /// Ranges of `basemap` each drawn as one layer at an opacity (a faded vector basemap):
    /// every overlay in the range is drawn as it is and the layer is then mixed with what lies
    /// under it, so a pixel covered by several of its overlays (a road over its casing, areas
    /// repeated in neighbouring tiles' buffers) is faded once, as a faded raster tile would be.
    /// Ranges must not overlap; those past `basemap`'s end are ignored. Flat overlays are faded
    /// so; markers and sprites in a range (drawn after every flat overlay) are faded as a layer of
    /// their own; 3D overlays (columns, extrusions, arcs) in a range are drawn as they are.
    public var basemapGroups: [BasemapGroup] = []
    /// The overlays.
    public var overlays: [Overlay]
    /// Whether every marker label is drawn (on its marker's right). By default (false) a
    /// marker's label goes on its right, or on its left where the right is taken, where it
    /// overlaps no marker label placed before it (in drawing order) and no other marker or
    /// cluster disc, and is left out where both sides are taken, as MapLibre places text
    /// (`text-allow-overlap: false`, `text-variable-anchor`) and MapKit hides the titles of
    /// crowded annotations; the markers themselves are always drawn.
    public var labelsMayOverlap = false
    /// Seconds a marker label takes to fade in when the placement shows it and out when it hides
    /// it, on the clock of the `time` the scene is planned at (MapLibre fades symbols over
    /// 300 ms). 0 (the default, for stills) draws each plan's placement as it is. A planner
    /// keeps the fades between plans; the first plan, and one whose time is earlier than the
    /// last, shows its placement at once.
    public var labelFade = 0.0

    /// Creates a scene.
    public init(background: Color = .white, basemap: [Overlay] = [], overlays: [Overlay] = []) {
        self.background = background; self.basemap = basemap; self.overlays = overlays
    }

    /// Appends an overlay.
    public mutating func add(_ overlay: Overlay) { overlays.append(overlay) }

    /// Basemap layers, then the overlays sorted by `effectiveZIndex` (stable) with the basemap's
    /// labels before the first overlay whose z-index is `basemapLabelsZIndex` or more.
    public var drawingOrder: [Overlay] {
        var out: [Overlay] = []
        out.reserveCapacity(basemap.count + overlays.count + basemapLabels.count)
        forEachInDrawingOrder { out.append($0) }
        return out
    }

    /// Calls `body` with every overlay in `drawingOrder`, without building that array (a vector
    /// basemap hands over tens of thousands of overlays a frame; copying each costs).
    public func forEachInDrawingOrder(_ body: (Overlay) -> Void) {
        for o in basemap { body(o) }
        let z = overlays.map(\.effectiveZIndex)
        // Usually already in order (one kind, or kinds added bottom to top): nothing to sort.
        let order: [Int]? = zip(z, z.dropFirst()).allSatisfy({ $0 <= $1 }) ? nil
            // A stable sort of the indices by the z-indices read once (reading them in the
            // comparison copied the overlays over and over).
            : z.indices.sorted { z[$0] != z[$1] ? z[$0] < z[$1] : $0 < $1 }
        var labelsDrawn = basemapLabels.isEmpty
        for k in overlays.indices {
            let i = order?[k] ?? k
            if !labelsDrawn, z[i] >= Self.basemapLabelsZIndex {
                for l in basemapLabels { body(l) }
                labelsDrawn = true
            }
            body(overlays[i])
        }
        if !labelsDrawn { for l in basemapLabels { body(l) } }
    }
}
