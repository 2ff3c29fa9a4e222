import GeoKit
@testable import MapSnapshot
import MapTiles
import Testing

/// The embedded basemap's places under vector tiles: one label per place. Distances are
/// hand-derived (1° of latitude is 111.2 km on the 6,371 km sphere).
@Suite struct PlaceDeduplicationTests {
    func place(_ name: String, _ lat: Double, _ lon: Double, country: Bool = false, names: [String: String] = [:]) -> BasemapPlace {
        let at = LatLng(lat: lat, lon: lon)
        var p = BasemapPlace(name: name, position: at, point: MapPoint(at), rank: 1, labelRank: 1, minZoom: 0,
                             population: 0, isCapital: false, isRegionalCapital: false, isMajorCity: false, isCountry: country)
        p.names = names
        return p
    }

    @Test func aPlaceTheTilesAlsoNameIsDropped() {
        // Natural Earth's Florence lies ~1.5 km from the tiles' Firenze, which is "Florence" in English.
        let firenze = place("Firenze", 43.7696, 11.2558, names: ["en": "Florence", "de": "Florenz"])
        let zurichTiles = place("Zürich", 47.3744, 8.5410)
        let italy = place("Italia", 42.5, 12.5, country: true, names: ["en": "Italy"])
        let embedded = [
            place("Florence", 43.7833, 11.2500),   // same place by its English name: dropped
            place("ZURICH", 47.20, 8.5410),        // same name, case and accent aside, 19.3 km away: dropped
            place("Zurich", 47.00, 8.5410),        // 41.6 km away: another place of that name, kept
            place("Fiesole", 43.8067, 11.2933),    // a neighbour 5.1 km away, other name: kept
            place("Florentia", 43.7760, 11.2558),  // 0.71 km away under another name: dropped
            place("Italy", 45.0, 10.0, country: true),  // the country, 340 km between label points: dropped
            place("Florence", 34.7998, -87.6773),  // Florence, Alabama: kept
        ]
        let kept = BasemapLayers.withoutDuplicates(embedded, of: [firenze, zurichTiles, italy]).map(\.position.lat)
        #expect(kept == [47.00, 43.8067, 34.7998])
        // Nothing from the tiles: every place stays.
        #expect(BasemapLayers.withoutDuplicates(embedded, of: []).count == embedded.count)
    }
}
