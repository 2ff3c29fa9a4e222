import Foundation
import GeoKit

/// What a point of interest is, for its colour.
public enum VectorPOICategory: String, CaseIterable, Sendable {
    case food, culture, lodging, health, transport, shopping, education, worship, services, park
    /// A sea's, lake's or bay's name (no icon).
    case water
}

/// A named point of interest of a vector tile's POI layer: a Maki icon and a name, drawn from
/// the zoom its `tier` allows.
public struct VectorPOI: Hashable, Sendable {
    public var name: String
    /// The name in other languages by code (`name:de`, `name_de`).
    public var names: [String: String]
    /// The position in normalised Web Mercator (shifted by whole worlds in wrapped views).
    public var point: MapPoint
    /// The Maki icon (`Maki.names`); empty for a water name, drawn alone.
    public var icon: String
    public var category: VectorPOICategory
    /// 0 (landmarks: museums, stations, hospitals, universities, places of worship), 1 (hotels,
    /// libraries, cinemas, pharmacies, schools…) or 2 (restaurants, cafés, shops, banks…).
    public var tier: Int
    /// Importance within a tier from the tile (OpenMapTiles' `rank`, Protomaps' `min_zoom`);
    /// lower first.
    public var rank: Int
    /// For a named area (a park, a lake), the bounding box of the part of it its label point was
    /// found in: the name is drawn only where it fits in it. Nil for points.
    public var extent: MapRect?

    public init(name: String, names: [String: String], point: MapPoint, icon: String, category: VectorPOICategory,
                tier: Int, rank: Int) {
        self.name = name; self.names = names; self.point = point; self.icon = icon; self.category = category
        self.tier = tier; self.rank = rank
    }

    /// The zoom from which a tier is drawn.
    public static func minZoom(tier: Int) -> Double { tier == 0 ? 15.5 : tier == 1 ? 16.5 : 17.5 }

    /// The zoom from which it is drawn: a water name's own (seas from 2, lakes and bays from 9,
    /// or the tile's `min_zoom`), else its tier's.
    public var minZoom: Double {
        if extent != nil { return 0 }
        guard category == .water else { return Self.minZoom(tier: tier) }
        return rank < 100 ? Double(rank) : tier == 0 ? 2 : 9
    }

    /// Named in `language` where it has a name in it (`zh-CN` falls back to `zh`).
    public func named(in language: String?) -> VectorPOI {
        guard let n = BasemapPlace.name(in: language, of: names) else { return self }
        var p = self
        p.name = n
        return p
    }
}

extension VectorTileSchema {
    /// Layers of points of interest (OpenMapTiles, Protomaps and Shortbread `pois`/`poi`,
    /// Mapbox Streets `poi_label`).
    static let poiLayers: Set<String> = ["pois", "poi", "poi_label"]

    /// OSM values (and the schemas' class and kind names) → icon, category and tier.
    static let poiTable: [String: (icon: String, category: VectorPOICategory, tier: Int)] = {
        var t: [String: (String, VectorPOICategory, Int)] = [:]
        func add(_ keys: [String], _ icon: String, _ c: VectorPOICategory, _ tier: Int) { for k in keys { t[k] = (icon, c, tier) } }
        add(["museum"], "museum", .culture, 0)
        add(["attraction", "landmark"], "attraction", .culture, 0)
        add(["theatre", "opera", "arts_centre", "concert_hall"], "theatre", .culture, 0)
        add(["castle", "palace", "fort"], "castle", .culture, 0)
        add(["monument"], "monument", .culture, 0)
        add(["station", "railway", "train_station"], "rail", .transport, 0)
        add(["university", "college"], "college", .education, 0)
        add(["hospital"], "hospital", .health, 0)
        add(["zoo"], "zoo", .park, 0)
        add(["stadium"], "stadium", .park, 0)
        add(["place_of_worship", "church", "cathedral", "mosque", "synagogue", "temple"], "place-of-worship", .worship, 0)
        add(["townhall", "town_hall"], "town-hall", .services, 0)
        add(["hotel", "motel", "lodging"], "lodging", .lodging, 1)
        add(["library"], "library", .culture, 1)
        add(["cinema"], "cinema", .culture, 1)
        add(["gallery", "art_gallery"], "art-gallery", .culture, 1)
        add(["viewpoint"], "viewpoint", .culture, 1)
        add(["memorial"], "monument", .culture, 1)
        add(["pharmacy", "chemist"], "pharmacy", .health, 1)
        add(["school", "kindergarten"], "school", .education, 1)
        add(["post_office", "post"], "post", .services, 1)
        add(["police"], "police", .services, 1)
        add(["fire_station"], "fire-station", .services, 1)
        add(["embassy"], "embassy", .services, 1)
        add(["bus_station", "bus"], "bus", .transport, 1)
        add(["ferry_terminal", "ferry"], "ferry", .transport, 1)
        add(["subway", "subway_entrance", "metro"], "rail-metro", .transport, 1)
        add(["marketplace", "mall", "department_store"], "shop", .shopping, 1)
        add(["supermarket", "grocery"], "grocery", .shopping, 1)
        add(["park", "garden"], "park", .park, 1)
        add(["restaurant"], "restaurant", .food, 2)
        add(["pizza"], "restaurant-pizza", .food, 2)
        add(["cafe", "coffee"], "cafe", .food, 2)
        add(["bar", "nightclub"], "bar", .food, 2)
        add(["pub", "biergarten", "beer"], "beer", .food, 2)
        add(["fast_food", "food_court"], "fast-food", .food, 2)
        add(["ice_cream"], "ice-cream", .food, 2)
        add(["bakery", "pastry"], "bakery", .food, 2)
        add(["confectionery", "chocolate"], "confectionery", .food, 2)
        add(["alcohol", "wine", "beverages", "alcohol_shop"], "alcohol-shop", .shopping, 2)
        add(["clothes", "boutique", "fashion", "clothing_store"], "clothing-store", .shopping, 2)
        add(["shoes", "shoe"], "shoe", .shopping, 2)
        add(["jewelry", "jewelry_store"], "jewelry-store", .shopping, 2)
        add(["gift", "souvenir"], "gift", .shopping, 2)
        add(["convenience"], "convenience", .shopping, 2)
        add(["florist"], "florist", .shopping, 2)
        add(["optician"], "optician", .shopping, 2)
        add(["hairdresser", "beauty"], "hairdresser", .shopping, 2)
        add(["books", "furniture", "leather", "bag", "art", "shop", "variety_store", "electronics", "mobile_phone"], "shop", .shopping, 2)
        add(["bank"], "bank", .services, 2)
        add(["information"], "information", .services, 2)
        add(["artwork"], "art-gallery", .culture, 2)
        add(["hostel", "guest_house", "apartment"], "lodging", .lodging, 2)
        add(["doctors", "doctor", "clinic"], "doctor", .health, 2)
        add(["dentist"], "dentist", .health, 2)
        add(["veterinary"], "veterinary", .health, 2)
        add(["parking"], "parking", .transport, 2)
        add(["fuel"], "fuel", .transport, 2)
        add(["bicycle_rental"], "bicycle-share", .transport, 2)
        add(["car_rental"], "car-rental", .transport, 2)
        add(["fitness_centre", "gym"], "fitness-centre", .park, 2)
        add(["playground"], "playground", .park, 2)
        return t.mapValues { (icon: $0.0, category: $0.1, tier: $0.2) }
    }()

    /// Layers of water names at points: OpenMapTiles' `water_name`, Shortbread's
    /// `water_polygons_labels`, Protomaps v4's `water` points.
    static let waterNameLayers: Set<String> = ["water_name", "water_polygons_labels", "water", "natural_label"]

    /// A named sea, lake or bay at a point of a water-name layer, or nil. Seas and oceans are
    /// tier 0 (from zoom 2), lakes, bays and straits tier 1 (from 9), unless the tile gives a
    /// `min_zoom`.
    public static func waterName(layer: String, properties: [String: VectorTile.Value], point: MapPoint) -> VectorPOI? {
        let lower = layer.lowercased()
        guard waterNameLayers.contains(lower) else { return nil }
        guard let name = featureName(properties) else { return nil }
        let kind = ["class", "kind", "pmap:kind", "type"].lazy.compactMap { properties[$0]?.description.lowercased() }.first ?? ""
        let seas: Set<String> = ["ocean", "sea"], lakes: Set<String> = ["lake", "bay", "strait", "lagoon", "reservoir", "water", "pond", "gulf",
                                                                         "fjord", "sound"]
        guard seas.contains(kind) || lakes.contains(kind) else { return nil }
        let minZoom = ["min_zoom", "pmap:min_zoom"].lazy.compactMap { properties[$0]?.number }.first(where: \.isFinite)
        return VectorPOI(name: name, names: names(properties), point: point, icon: "", category: .water,
                         tier: seas.contains(kind) ? 0 : 1, rank: minZoom.map { Int(max(0, min(24, $0))) } ?? 100)
    }

    /// A named area (a park or wood, water, a campus) labelled at `point` inside it, or nil: no
    /// name, or a kind whose areas are not named. `extent` is the area's bounding box; larger
    /// areas come first (`rank`).
    public static func areaName(kind: VectorFeatureKind, properties: [String: VectorTile.Value], point: MapPoint,
                                extent: MapRect) -> VectorPOI? {
        let category: VectorPOICategory
        switch kind {
        case .green, .wood: category = .park
        case .water: category = .water
        case .institutional: category = .education
        default: return nil
        }
        guard let name = featureName(properties),
              extent.width > 0, extent.height > 0, extent.width.isFinite, extent.height.isFinite else { return nil }
        let rank = Int(max(0, min(1000, -log2(extent.width * extent.height))))
        var poi = VectorPOI(name: name, names: names(properties), point: point, icon: "", category: category, tier: 1, rank: rank)
        poi.extent = extent
        return poi
    }

    /// The keys a POI's kind is read from, most specific first.
    static let poiKeys = ["maki", "subclass", "kind", "pmap:kind", "amenity", "tourism", "historic", "railway", "shop",
                          "leisure", "class", "type"]

    /// A named point of interest from a point of a POI layer, or nil (not a POI layer, no name,
    /// or a kind this style does not show: benches, bins, unnamed things).
    public static func poi(layer: String, properties: [String: VectorTile.Value], point: MapPoint) -> VectorPOI? {
        guard poiLayers.contains(layer.lowercased()) else { return nil }
        guard let name = featureName(properties) else { return nil }
        var found: (icon: String, category: VectorPOICategory, tier: Int)?
        for key in poiKeys {
            guard let value = properties[key]?.description.lowercased() else { continue }
            if let hit = poiTable[value] { found = hit; break }
        }
        guard var found else { return nil }
        if found.icon == "place-of-worship", let religion = properties["religion"]?.description.lowercased(),
           ["christian", "muslim", "jewish", "buddhist", "shinto"].contains(religion) {
            found.icon = "religious-\(religion)"
        }
        let number = ["rank", "min_zoom", "pmap:min_zoom", "filterrank"].lazy.compactMap { properties[$0]?.number }
            .first(where: \.isFinite)
        let rank = number.map { Int(max(0, min(1000, $0))) } ?? 100
        return VectorPOI(name: name, names: names(properties), point: point, icon: found.icon, category: found.category,
                         tier: found.tier, rank: rank)
    }
}
