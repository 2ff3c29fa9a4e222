import Foundation
import GeoKit

/// What a vector tile feature is drawn as, read from its layer name and properties by
/// `VectorTileSchema`. The raw value is the drawing order: lower is drawn first (under).
public enum VectorFeatureKind: Int, Comparable, CaseIterable, Sendable {
    // Areas.
    case earth = 0
    case farmland = 5
    case institutional = 8
    case green = 10
    case wood = 11
    case sand = 12
    case ice = 13
    case otherArea = 15
    case water = 20
    case building = 30
    // Lines.
    case stream = 40
    case river = 41
    case regionBorder = 50
    case path = 55
    case otherLine = 56
    case minorRoad = 60
    case mediumRoad = 61
    case majorRoad = 62
    case motorway = 63
    case rail = 70
    case countryBorder = 80

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// Whether the kind is an area (filled) rather than a line (stroked).
    public var isArea: Bool { rawValue < VectorFeatureKind.stream.rawValue }

    /// Whether the kind is a road drawn with a casing at close zooms.
    public var isCasedRoad: Bool { self == .minorRoad || self == .mediumRoad || self == .majorRoad || self == .motorway }
}

/// Reads the common vector tile schemas — OpenMapTiles (MapTiler, OpenFreeMap), Protomaps
/// (v2 `pmap:kind` and v4 `kind`), Shortbread (Geofabrik, VersaTiles) and Mapbox Streets —
/// into `VectorFeatureKind`s, and places into `BasemapPlace`s for labelling.
///
/// A feature of a layer that one of these schemas names is drawn only when its class is one
/// the style draws (residential land, POIs and the like are left out); a layer no schema names
/// (an archive of your own) is drawn with the generic `otherArea`/`otherLine` look, and its
/// points are left out.
public enum VectorTileSchema {
    static let waterLayers: Set<String> = ["water", "ocean", "water_polygons", "waterbody", "water_areas"]
    static let waterwayLayers: Set<String> = ["waterway", "water_lines", "waterways"]
    static let earthLayers: Set<String> = ["earth"]
    static let landLayers: Set<String> = ["landuse", "landcover", "park", "natural", "sites", "land", "landuse_overlay", "pois_areas"]
    static let buildingLayers: Set<String> = ["building", "buildings"]
    static let roadLayers: Set<String> = ["transportation", "roads", "road", "streets", "transit", "railway"]
    static let boundaryLayers: Set<String> = ["boundary", "boundaries", "admin"]
    static let placeLayers: Set<String> = ["place", "places", "place_label", "place_labels", "settlement"]
    /// Layers of the known schemas that hold nothing this style draws (labels along lines,
    /// POIs, masks, housenumbers…).
    static let skippedLayers: Set<String> = [
        "mask", "pois", "poi", "poi_label", "transportation_name", "water_name", "waterway_label", "housenumber",
        "housenumbers", "mountain_peak", "aerodrome_label", "aeroway", "street_labels", "street_labels_points",
        "water_polygons_labels", "water_lines_labels", "boundary_labels", "public_transport", "addresses",
        "road_label", "natural_label", "airport_label", "transit_stop_label", "motorway_label", "ferries", "bridges",
        "dam_lines", "dam_polygons", "pier_lines", "pier_polygons", "ocean_label", "structure", "motorway_junction",
    ]

    /// Every layer name a known schema gives (drawn or deliberately left out): a tile holding
    /// one is a basemap's, and its square is painted in the style's background first.
    public static let knownLayers: Set<String> = waterLayers.union(waterwayLayers).union(earthLayers).union(landLayers)
        .union(buildingLayers).union(roadLayers).union(boundaryLayers).union(placeLayers).union(skippedLayers)

    /// The keys a class is read from, most specific first.
    static let classKeys = ["highway", "class", "kind", "pmap:kind", "subclass", "kind_detail", "type",
                            "landuse", "leisure", "natural", "amenity", "waterway", "railway"]

    static let green: Set<String> = [
        "park", "garden", "grass", "grassland", "meadow", "pitch", "golf_course", "recreation_ground", "playground",
        "village_green", "nature_reserve", "national_park", "protected_area", "cemetery", "grave_yard", "allotments",
        "dog_park", "zoo", "camp_site", "stadium", "track", "common", "greenfield", "park_or_protected",
    ]
    static let wood: Set<String> = ["wood", "forest", "scrub", "orchard", "vineyard", "heath", "wetland", "shrubland"]
    static let sand: Set<String> = ["sand", "beach", "dune", "bare_rock", "scree", "rock", "quarry"]
    static let ice: Set<String> = ["glacier", "ice"]
    static let farm: Set<String> = ["farmland", "farm", "farmyard", "crop"]
    static let institutions: Set<String> = ["hospital", "school", "university", "college", "kindergarten"]
    static let motorway: Set<String> = ["motorway", "trunk", "highway", "motorway_link", "trunk_link"]
    static let major: Set<String> = ["primary", "secondary", "major_road", "primary_link", "secondary_link", "major"]
    static let medium: Set<String> = ["tertiary", "medium_road", "tertiary_link"]
    static let minor: Set<String> = [
        "minor", "minor_road", "residential", "unclassified", "service", "street", "living_street", "road", "pedestrian",
        "street_limited", "busway", "raceway",
    ]
    static let paths: Set<String> = [
        "path", "track", "footway", "cycleway", "steps", "bridleway", "other", "sidewalk", "crossing",
        "corridor",
    ]
    static let rails: Set<String> = ["rail", "transit", "railway", "light_rail", "subway", "tram", "narrow_gauge", "monorail"]
    static let rivers: Set<String> = ["river", "canal"]

    /// The kind a feature is drawn as, or nil to leave it out. `isArea`: the geometry is polygons.
    public static func kind(layer: String, properties: [String: VectorTile.Value], isArea: Bool) -> VectorFeatureKind? {
        let name = layer.lowercased()
        // The feature's classes, read once (13 lookups) when first needed.
        var read: [String]?
        func classes() -> [String] {
            if let read { return read }
            let c = classKeys.compactMap { properties[$0].map { $0.description.lowercased() } }
            read = c
            return c
        }
        func first(_ sets: [(Set<String>, VectorFeatureKind)]) -> VectorFeatureKind? {
            for c in classes() { for (set, kind) in sets where set.contains(c) { return kind } }
            return nil
        }
        if skippedLayers.contains(name) { return nil }
        if earthLayers.contains(name) { return isArea ? .earth : nil }
        if waterLayers.contains(name) {
            if isArea { return .water }
            return first([(rivers, .river)]) ?? .stream
        }
        if waterwayLayers.contains(name) || (name == "physical_line" && properties["pmap:kind"]?.description == "waterway") {
            return isArea ? .water : first([(rivers, .river)]) ?? .stream
        }
        if buildingLayers.contains(name) { return isArea ? .building : nil }
        if landLayers.contains(name) {
            guard isArea else { return nil }
            if name == "park" { return .green }
            if let water = properties["natural"]?.description, water == "water" { return .water }
            return first([(ice, .ice), (sand, .sand), (wood, .wood), (green, .green), (farm, .farmland),
                          (institutions, .institutional)])
        }
        if roadLayers.contains(name) {
            guard !isArea else { return nil }
            // A ferry or an aerialway is not a road.
            if classes().contains(where: { $0 == "ferry" || $0 == "aerialway" || $0 == "pier" }) { return nil }
            return first([(motorway, .motorway), (major, .majorRoad), (medium, .mediumRoad), (rails, .rail),
                          (minor, .minorRoad), (paths, .path)])
        }
        if boundaryLayers.contains(name) {
            guard !isArea else { return nil }
            for key in ["maritime", "pmap:maritime", "maritime_boundary"] {
                if let m = properties[key], m.number == 1 || m.description == "true" || m.description == "yes" { return nil }
            }
            let level = properties["admin_level"]?.number ?? properties["pmap:min_admin_level"]?.number
            let kind = (properties["kind"] ?? properties["pmap:kind"] ?? properties["class"])?.description
            if let level { return level <= 2 ? .countryBorder : level <= 4 ? .regionBorder : nil }
            if kind == "country" { return .countryBorder }
            if kind == "region" || kind == "state" { return .regionBorder }
            return nil
        }
        if placeLayers.contains(name) { return nil }
        return isArea ? .otherArea : .otherLine
    }

    /// Whether a road or railway runs in a tunnel: OpenMapTiles' `brunnel`, Protomaps' `is_tunnel`
    /// (v4) and OSM's `tunnel` tag (v2, Shortbread), Mapbox Streets' `structure`.
    public static func isTunnel(_ properties: [String: VectorTile.Value]) -> Bool {
        if properties["brunnel"]?.description == "tunnel" || properties["structure"]?.description == "tunnel" { return true }
        for key in ["is_tunnel", "tunnel"] {
            guard let v = properties[key] else { continue }
            switch v {
            case .bool(let b): return b
            case .string(let s): return ["yes", "true", "1", "culvert"].contains(s.lowercased())
            default: return v.number == 1
            }
        }
        return false
    }

    /// A labelled place from a point feature of a place layer, or nil (not a place layer, no
    /// name, or a kind of place the style does not label: squares, localities, POIs).
    /// The place keeps every `name:xx`/`name_xx` in `names`; `language` (e.g. `en`) names it in
    /// that language where it has one (`BasemapPlace.named(in:)`).
    public static func place(layer: String, properties: [String: VectorTile.Value], point: MapPoint,
                             language: String? = nil) -> BasemapPlace? {
        guard placeLayers.contains(layer.lowercased()) else { return nil }
        guard let name = ["name", "name:latin", "name_en", "name:en", "name_int"].lazy
            .compactMap({ properties[$0]?.description }).first(where: { !$0.isEmpty }) else { return nil }
        let kinds = ["class", "kind", "pmap:kind", "place", "type"].compactMap { properties[$0]?.description.lowercased() }
        var rank: Int?
        var isCountry = false
        for k in kinds {
            switch k {
            case "country": isCountry = true; rank = 0
            case "city", "locality_city": rank = 2
            case "town": rank = 5
            case "village": rank = 7
            case "suburb", "quarter", "borough": rank = 8
            case "hamlet", "neighbourhood", "neighborhood": rank = 9
            default: continue
            }
            break
        }
        guard let rank else { return nil }
        let number = { (keys: [String]) in keys.lazy.compactMap { properties[$0]?.number }.first(where: \.isFinite) }
        let labelRank = number(["rank", "pmap:rank", "symbolrank", "population_rank"]).map { Int(max(0, min(20, $0))) } ?? rank
        let population = number(["population", "pmap:population"]).map { Int(max(0, min(1e10, $0))) } ?? 0
        let capital = (properties["capital"] ?? properties["pmap:capital"])?.description.lowercased()
        let isCapital = capital == "2" || capital == "yes" || capital == "true"
        let isRegional = capital == "3" || capital == "4"
        let lon = point.x.truncatingRemainder(dividingBy: 1) * 360 - 180
        let position = LatLng(lat: MapPoint(x: 0, y: point.y).latLng.lat, lon: lon < -180 ? lon + 360 : lon)
        var place = BasemapPlace(name: name, position: position, point: point, rank: rank, labelRank: labelRank, minZoom: 0,
                                 population: population, isCapital: isCapital, isRegionalCapital: isRegional,
                                 isMajorCity: false, isCountry: isCountry)
        place.names = names(properties)
        return place.named(in: language)
    }

    /// A feature's names in other languages by code: `name:de`, `name_de` (`name:latin` too).
    static func names(_ properties: [String: VectorTile.Value]) -> [String: String] {
        var out: [String: String] = [:]
        for (key, value) in properties {
            guard key.hasPrefix("name:") || key.hasPrefix("name_") else { continue }
            let code = String(key.dropFirst(5))
            guard !code.isEmpty, code.count <= 16, case .string(let s) = value, !s.isEmpty else { continue }
            out[code] = s
        }
        return out
    }

    /// Layers whose lines are only names to draw along roads and waterways (Shortbread,
    /// OpenMapTiles' `transportation_name`).
    static let roadLabelLayers: Set<String> = ["transportation_name", "street_labels"]
    static let waterLabelLayers: Set<String> = ["water_lines_labels"]

    /// The name to draw along a line feature, and the kind of line it names (a road rank, a
    /// river or a stream), or nil: no name, or not a road or waterway. Roads' names come from
    /// Protomaps' and Mapbox's road layers and the label layers of OpenMapTiles and Shortbread;
    /// waterways' from the waterway layers. `names` holds the other languages' names.
    public static func lineLabel(layer: String, properties: [String: VectorTile.Value])
        -> (name: String, names: [String: String], kind: VectorFeatureKind)? {
        lineLabel(layer: layer, properties: properties, drawnAs: { self.kind(layer: layer, properties: properties, isArea: false) })
    }

    /// `lineLabel(layer:properties:)` for a line whose drawn kind (`kind(layer:properties:isArea:)`
    /// with `isArea` false) `drawnAs` gives, when its layer is one that draws lines.
    public static func lineLabel(layer: String, properties: [String: VectorTile.Value], drawnAs: () -> VectorFeatureKind?)
        -> (name: String, names: [String: String], kind: VectorFeatureKind)? {
        let lower = layer.lowercased()
        let kind: VectorFeatureKind?
        if roadLabelLayers.contains(lower) {
            kind = self.kind(layer: "roads", properties: properties, isArea: false)
        } else if waterLabelLayers.contains(lower) {
            kind = self.kind(layer: "waterway", properties: properties, isArea: false)
        } else if roadLayers.contains(lower) || waterwayLayers.contains(lower) || waterLayers.contains(lower) || lower == "physical_line" {
            kind = drawnAs()
        } else {
            return nil
        }
        guard let kind, kind.isCasedRoad || kind == .path || kind == .river || kind == .stream else { return nil }
        guard let name = featureName(properties) else { return nil }
        return (name, names(properties), kind)
    }

    /// A feature's `name` to draw: non-empty and at most 200 characters (longer ones are
    /// data errors, not names), else nil.
    static func featureName(_ properties: [String: VectorTile.Value]) -> String? {
        guard let name = properties["name"]?.description, !name.isEmpty, name.count <= 200 else { return nil }
        return name
    }
}

/// How vector tiles are drawn: a colour per `VectorFeatureKind` and line widths that grow with
/// the zoom, in a light and a dark variant matching the embedded basemap's. Widths are logical
/// pixels; zooms are ours (a world of 512·2^zoom px, MapLibre's).
public struct VectorTileStyle: Hashable, Sendable {
    /// The style's name ("light" or "dark").
    public var name: String
    /// Under everything (land where the tiles hold nothing).
    public var background: BasemapColor
    /// The fill or stroke of each kind.
    public var colors: [VectorFeatureKind: BasemapColor]
    /// Road casing (the darker edge of roads at close zooms).
    public var casing: BasemapColor
    /// The place labels' look (text, halo, dot), shared with the embedded basemap.
    public var labels: BasemapStyle
    /// Points of interest: the icon's and name's colour by category.
    public var poiColors: [VectorPOICategory: BasemapColor] = VectorTileStyle.lightPOIColors

    /// Darker colours for icons and names on light ground.
    public static let lightPOIColors: [VectorPOICategory: BasemapColor] = [
        .food: BasemapColor(rgb: 0xB8621E), .culture: BasemapColor(rgb: 0x7B4F9E), .lodging: BasemapColor(rgb: 0x2F64A0),
        .health: BasemapColor(rgb: 0xB93A32), .transport: BasemapColor(rgb: 0x3D6384), .shopping: BasemapColor(rgb: 0x9A4A78),
        .education: BasemapColor(rgb: 0x7D5E34), .worship: BasemapColor(rgb: 0x555555), .services: BasemapColor(rgb: 0x4E5F6E),
        .park: BasemapColor(rgb: 0x3C7D45), .water: BasemapColor(rgb: 0x4A7FA8),
    ]
    /// Lighter colours for icons and names on dark ground.
    public static let darkPOIColors: [VectorPOICategory: BasemapColor] = [
        .food: BasemapColor(rgb: 0xE8A064), .culture: BasemapColor(rgb: 0xC3A0E0), .lodging: BasemapColor(rgb: 0x8DB6E6),
        .health: BasemapColor(rgb: 0xF08C84), .transport: BasemapColor(rgb: 0x9BB8D2), .shopping: BasemapColor(rgb: 0xDE9CC2),
        .education: BasemapColor(rgb: 0xCDB08A), .worship: BasemapColor(rgb: 0xC8C8C8), .services: BasemapColor(rgb: 0xAEBCC8),
        .park: BasemapColor(rgb: 0x92CC98), .water: BasemapColor(rgb: 0x8FB4D6),
    ]

    public init(name: String, background: BasemapColor, colors: [VectorFeatureKind: BasemapColor], casing: BasemapColor,
                labels: BasemapStyle) {
        self.name = name; self.background = background; self.colors = colors; self.casing = casing; self.labels = labels
    }

    /// Light: the embedded basemap's land and water, green parks, white roads with grey
    /// casings, pale orange motorways, grey-brown buildings.
    public static let light = VectorTileStyle(
        name: "light", background: BasemapColor(rgb: 0xF2EFE9),
        colors: [
            .earth: BasemapColor(rgb: 0xF2EFE9), .farmland: BasemapColor(rgb: 0xEEF0E0), .institutional: BasemapColor(rgb: 0xF0E6E2),
            .green: BasemapColor(rgb: 0xD3E8C2), .wood: BasemapColor(rgb: 0xC1DBAC), .sand: BasemapColor(rgb: 0xF1E7C8),
            .ice: BasemapColor(rgb: 0xF6FAFC), .otherArea: BasemapColor(rgb: 0xE2DED6), .water: BasemapColor(rgb: 0xAAD3DF),
            .building: BasemapColor(rgb: 0xDDD6CC), .stream: BasemapColor(rgb: 0xAAD3DF), .river: BasemapColor(rgb: 0xAAD3DF),
            .regionBorder: BasemapColor(rgb: 0xC4B8CC), .path: BasemapColor(rgb: 0xBDB3A6), .otherLine: BasemapColor(rgb: 0x9C968C),
            .minorRoad: BasemapColor(rgb: 0xFFFFFF), .mediumRoad: BasemapColor(rgb: 0xFFFFFF), .majorRoad: BasemapColor(rgb: 0xFFF6DA),
            .motorway: BasemapColor(rgb: 0xFCD9A0), .rail: BasemapColor(rgb: 0xA9A29A), .countryBorder: BasemapColor(rgb: 0x9E8FA8),
        ],
        casing: BasemapColor(rgb: 0xCFC7BC), labels: .light)

    /// Dark: the embedded basemap's dark land and water, muted greens, grey roads.
    public static let dark: VectorTileStyle = {
        var style = darkAreasAndLines
        style.poiColors = darkPOIColors
        return style
    }()

    private static let darkAreasAndLines = VectorTileStyle(
        name: "dark", background: BasemapColor(rgb: 0x454A53),
        colors: [
            .earth: BasemapColor(rgb: 0x454A53), .farmland: BasemapColor(rgb: 0x474D52), .institutional: BasemapColor(rgb: 0x4B4A52),
            .green: BasemapColor(rgb: 0x3D4C43), .wood: BasemapColor(rgb: 0x37473D), .sand: BasemapColor(rgb: 0x545249),
            .ice: BasemapColor(rgb: 0x5A6068), .otherArea: BasemapColor(rgb: 0x4E535C), .water: BasemapColor(rgb: 0x0F1B2D),
            .building: BasemapColor(rgb: 0x555B65), .stream: BasemapColor(rgb: 0x1B2A40), .river: BasemapColor(rgb: 0x1B2A40),
            .regionBorder: BasemapColor(rgb: 0x6E7480), .path: BasemapColor(rgb: 0x5E646E), .otherLine: BasemapColor(rgb: 0x7A808A),
            .minorRoad: BasemapColor(rgb: 0x6A707A), .mediumRoad: BasemapColor(rgb: 0x737984), .majorRoad: BasemapColor(rgb: 0x80868F),
            .motorway: BasemapColor(rgb: 0x8C806A), .rail: BasemapColor(rgb: 0x626873), .countryBorder: BasemapColor(rgb: 0x9AA1AC),
        ],
        casing: BasemapColor(rgb: 0x363A41), labels: .dark)

    /// The built-in style with this name ("light" or "dark", case-insensitive), or nil.
    public static func named(_ name: String) -> VectorTileStyle? {
        switch name.lowercased() {
        case "light": .light
        case "dark": .dark
        default: nil
        }
    }

    /// Widths (px) at zoom stops, interpolated exponentially between them (base 1.5, as
    /// MapLibre's `interpolate ["exponential", 1.5]`) and held past the ends; nil below the zoom
    /// a kind first appears at.
    static let widthStops: [VectorFeatureKind: (from: Double, stops: [(Double, Double)])] = [
        .motorway: (4, [(4, 0.5), (10, 1.6), (14, 5), (18, 22)]),
        .majorRoad: (7, [(7, 0.5), (11, 1.3), (14, 4), (18, 18)]),
        .mediumRoad: (10, [(10, 0.5), (13, 1.4), (15, 4), (18, 13)]),
        .minorRoad: (12, [(12, 0.5), (14, 1.4), (16, 4.5), (18, 11)]),
        .path: (14, [(14, 0.5), (16, 1), (18, 2)]),
        .rail: (10, [(10, 0.4), (14, 1), (18, 2)]),
        .river: (8, [(8, 0.5), (12, 1.2), (16, 4), (18, 8)]),
        .stream: (12, [(12, 0.4), (15, 1), (18, 2)]),
        .countryBorder: (0, [(0, 0.8), (6, 1.2), (10, 2)]),
        .regionBorder: (4, [(4, 0.5), (10, 1)]),
        .otherLine: (0, [(0, 1), (14, 1.5), (18, 3)]),
    ]

    /// The smallest zoom each area kind is drawn at (buildings only close up, as every
    /// OpenStreetMap style does).
    static let areaMinZoom: [VectorFeatureKind: Double] = [.building: 13, .institutional: 11, .farmland: 8]

    /// The stroke width of a line kind at `zoom`, px, or nil where the kind is not drawn.
    public func lineWidth(_ kind: VectorFeatureKind, zoom: Double) -> Double? {
        guard let w = Self.widthStops[kind], zoom.isFinite, zoom >= w.from else { return nil }
        let s = w.stops
        if zoom <= s[0].0 { return s[0].1 }
        for i in 1..<s.count where zoom <= s[i].0 {
            let (z0, w0) = s[i - 1], (z1, w1) = s[i]
            let base = 1.5
            let t = (pow(base, zoom - z0) - 1) / (pow(base, z1 - z0) - 1)
            return w0 + (w1 - w0) * t
        }
        return s[s.count - 1].1
    }

    /// Whether an area kind is drawn at `zoom`.
    public func drawsArea(_ kind: VectorFeatureKind, zoom: Double) -> Bool {
        zoom >= Self.areaMinZoom[kind] ?? 0
    }

    /// The casing's extra width on each side of a road at `zoom` (0 where roads have none).
    public func casingWidth(_ kind: VectorFeatureKind, zoom: Double) -> Double {
        guard kind.isCasedRoad else { return 0 }
        let from: Double = switch kind { case .motorway, .majorRoad: 11; case .mediumRoad: 13; default: 14 }
        guard zoom >= from else { return 0 }
        return zoom >= from + 3 ? 1 : 0.5 + 0.5 * (zoom - from) / 3
    }
}
