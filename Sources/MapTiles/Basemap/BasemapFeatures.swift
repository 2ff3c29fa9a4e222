import GeoKit

/// A filled area of the embedded basemap, clipped to one tile of the basemap's pyramid.
///
/// `rings[0]` is the outer ring and any further rings are holes; rings are implicitly
/// closed (the first point is not repeated). Coordinates are normalised Web Mercator
/// (`MapPoint`), shifted by whole world widths for wrapped views. Outer rings have a
/// positive shoelace area in `MapPoint` coordinates (clockwise on screen, y down) and
/// holes a negative one. Rings are clipped to their tile with Sutherland–Hodgman, so a
/// ring may run along the tile edge and touch itself there with zero area; fill with the
/// even-odd or non-zero rule (or a triangulator that tolerates such touching edges).
public struct BasemapPolygon: Hashable, Sendable {
    /// What a basemap polygon is.
    public enum Kind: UInt8, Hashable, Sendable, CaseIterable {
        /// Land (Natural Earth `land`); what is not land is ocean.
        case land = 0
        /// A lake, reservoir or alkaline lake (Natural Earth lakes), drawn over land.
        case lake = 1
    }

    /// What the polygon is.
    public var kind: Kind
    /// Outer ring first, then holes; each implicitly closed.
    public var rings: [[MapPoint]]

    /// Creates a polygon.
    public init(kind: Kind, rings: [[MapPoint]]) {
        self.kind = kind
        self.rings = rings
    }
}

/// A stroked line of the embedded basemap, clipped to one tile.
public struct BasemapLine: Hashable, Sendable {
    /// What a basemap line is.
    public enum Kind: UInt8, Hashable, Sendable, CaseIterable {
        /// A land boundary between two countries (Natural Earth admin-0 boundary lines).
        case countryBorder = 0
        /// The edge of land against the ocean, derived from the land polygons (tile edges,
        /// the antimeridian cut and the Mercator latitude clamp are left out).
        case coastline = 1
        /// The edge of a lake, derived from the lake polygons like `coastline`.
        case lakeShore = 2
    }

    /// What the line is.
    public var kind: Kind
    /// The vertices in order (normalised Web Mercator), at least two.
    public var points: [MapPoint]

    /// Creates a line.
    public init(kind: Kind, points: [MapPoint]) {
        self.kind = kind
        self.points = points
    }
}

/// A labelled place of the embedded basemap: a populated place (Natural Earth populated
/// places) or a country (spData's world, at the pole of inaccessibility of its largest part).
public struct BasemapPlace: Hashable, Sendable {
    /// Country labels are returned below this zoom only (at city scale a country's label
    /// point is just somewhere in the countryside).
    public static let countryLabelMaxZoom = 7.0

    /// The name (UTF-8): Natural Earth's `name` for places, spData's `name_long` for countries.
    public var name: String
    /// The position in degrees (WGS84), as stored (± 1e-6°).
    public var position: LatLng
    /// The position in normalised Web Mercator, shifted by whole world widths into the
    /// queried rectangle for wrapped views.
    public var point: MapPoint
    /// Natural Earth `scalerank`, 0 (most important) to 10; for a country, its `minZoom`.
    public var rank: Int
    /// Natural Earth `labelrank`, 0 (most important) to 10: a secondary priority for labels.
    public var labelRank: Int
    /// The smallest zoom (ours: world = 512·2^zoom px) at which the place is returned.
    public var minZoom: Int
    /// Natural Earth `pop_max`, people (0 where unknown).
    public var population: Int
    /// True for a national (admin-0) capital.
    public var isCapital: Bool
    /// True for a first-order subdivision (admin-1) capital.
    public var isRegionalCapital: Bool
    /// True for a Natural Earth world city or megacity.
    public var isMajorCity: Bool
    /// True for a country label (not a populated place).
    public var isCountry: Bool
    /// The name in other languages, by language code (`en`, `de`…), where the source gives
    /// them (vector tiles' `name:en`, `name_en`); empty for the embedded basemap.
    public var names: [String: String] = [:]

    /// This place named in `language` where it has a name in it (`zh-CN` falls back to `zh`).
    public func named(in language: String?) -> BasemapPlace {
        guard let n = Self.name(in: language, of: names) else { return self }
        var p = self
        p.name = n
        return p
    }

    /// The name in `language` among `names` (by language code), falling back from a regional
    /// code (`zh-CN`, `pt_BR`) to its language; nil where there is none.
    public static func name(in language: String?, of names: [String: String]) -> String? {
        guard let language, !names.isEmpty else { return nil }
        let base = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? language
        guard let n = names[language] ?? names[base], !n.isEmpty else { return nil }
        return n
    }

    /// Creates a place.
    public init(
        name: String, position: LatLng, point: MapPoint, rank: Int, labelRank: Int, minZoom: Int,
        population: Int, isCapital: Bool, isRegionalCapital: Bool, isMajorCity: Bool, isCountry: Bool = false
    ) {
        self.name = name
        self.position = position
        self.point = point
        self.rank = rank
        self.labelRank = labelRank
        self.minZoom = minZoom
        self.population = population
        self.isCapital = isCapital
        self.isRegionalCapital = isRegionalCapital
        self.isMajorCity = isMajorCity
        self.isCountry = isCountry
    }
}

/// One stored tile of the embedded basemap, as a view reads it (`EmbeddedBasemap.tiles(in:zoom:)`):
/// its level of detail, its column and row at that level's tile zoom, and the copy of the world
/// it is placed in (0 for the world itself, −1 for the copy west of it, …). Equal tiles hold the
/// same features, so drawing code can keep what it makes of one.
public struct BasemapTile: Hashable, Sendable {
    /// The index of the level of detail (0 = coarsest; `BasemapFeatures.level`).
    public let level: Int
    /// The column, from 180°W, at the level's tile zoom.
    public let x: Int
    /// The row, from 85.0511°N, at the level's tile zoom.
    public let y: Int
    /// The world copy: the tile's features are shifted by this many world widths.
    public let copy: Int

    /// Creates a tile reference.
    public init(level: Int, x: Int, y: Int, copy: Int) {
        self.level = level
        self.x = x
        self.y = y
        self.copy = copy
    }
}

/// What the embedded basemap holds in a rectangle at a zoom: draw `polygons` (land, then
/// lakes, in array order) over the ocean colour, then `lines`, then label `places`.
public struct BasemapFeatures: Sendable {
    /// Land and lake polygons of every tile touching the rectangle; land comes before lakes.
    public var polygons: [BasemapPolygon]
    /// Country borders, coastlines and lake shores of those tiles.
    public var lines: [BasemapLine]
    /// Places and country labels inside the rectangle whose `minZoom` ≤ the zoom (country
    /// labels only below `BasemapPlace.countryLabelMaxZoom`), most important first
    /// (by `minZoom`, then `rank`, then population) — the order to place labels in.
    public var places: [BasemapPlace]
    /// The Natural Earth scale the geometry comes from: "110m", "50m" or "10m".
    public var sourceScale: String
    /// The index of the level of detail used (0 = coarsest).
    public var level: Int
    /// The number of tiles read.
    public var tileCount: Int

    /// Creates a feature set.
    public init(
        polygons: [BasemapPolygon] = [], lines: [BasemapLine] = [], places: [BasemapPlace] = [],
        sourceScale: String = "", level: Int = 0, tileCount: Int = 0
    ) {
        self.polygons = polygons
        self.lines = lines
        self.places = places
        self.sourceScale = sourceScale
        self.level = level
        self.tileCount = tileCount
    }

    /// The number of polygon and line vertices (a measure of the work to draw them).
    public var vertexCount: Int {
        polygons.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count } } + lines.reduce(0) { $0 + $1.points.count }
    }
}
