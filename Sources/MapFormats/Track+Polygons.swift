import GeoKit

/// One polygon of a track's rings: the outer ring, then its holes, with its feature's properties.
public struct TrackPolygon: Sendable, Equatable {
    /// The outer ring, then holes; each ring as read (the first point repeated last).
    public var rings: [[LatLng]]
    /// The properties of the feature the polygon came from.
    public var properties: [String: JSONValue]
    /// The index of that feature (see `TrackPart.feature`).
    public var feature: Int
}

extension Track {
    /// The polygons of the track's rings (GeoJSON Polygons and MultiPolygons; rings of fewer than
    /// three points are left out). Rings of one feature: the first is an outer ring; a later ring
    /// with its first point inside the current outer ring is a hole of it, any other starts a new
    /// polygon (the next polygon of a MultiPolygon).
    public var polygons: [TrackPolygon] {
        var polygons: [TrackPolygon] = []
        var lastFeature = -1
        for part in parts where part.kind == .ring && part.points.count >= 3 {
            let ring = part.points.map(\.coordinate)
            if part.feature == lastFeature, let outer = polygons.last?.rings.first, Self.ring(outer, contains: ring[0]) {
                polygons[polygons.count - 1].rings.append(ring)
            } else {
                polygons.append(TrackPolygon(rings: [ring], properties: part.properties, feature: part.feature))
            }
            lastFeature = part.feature
        }
        return polygons
    }

    /// Even-odd point-in-ring test in degrees (rings of one feature, not across the antimeridian).
    static func ring(_ ring: [LatLng], contains p: LatLng) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.lat > p.lat) != (b.lat > p.lat),
               p.lon < (b.lon - a.lon) * (p.lat - a.lat) / (b.lat - a.lat) + a.lon {
                inside.toggle()
            }
            j = i
        }
        return inside
    }
}
