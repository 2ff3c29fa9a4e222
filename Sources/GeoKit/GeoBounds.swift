import Foundation

/// A geographic bounding box in degrees that may cross the antimeridian.
///
/// `south ≤ north` are latitudes in [-90, 90]. `west` and `east` are longitudes in
/// [-180, 180]; the box covers longitudes going east from `west` to `east`, so
/// `west > east` means it crosses the antimeridian (for example west 170, east -170 is
/// 20° wide). A box 360° wide is stored as west -180, east 180.
public struct GeoBounds: Hashable, Sendable, CustomStringConvertible {
    /// Southern edge, degrees latitude.
    public let south: Double
    /// Western edge, degrees longitude in [-180, 180].
    public let west: Double
    /// Northern edge, degrees latitude.
    public let north: Double
    /// Eastern edge, degrees longitude in [-180, 180]; less than `west` across the antimeridian.
    public let east: Double

    /// The whole globe: latitudes ±90, longitudes -180 to 180.
    public static let world = GeoBounds(unchecked: -90, -180, 90, 180)

    /// Creates a box from its edges in degrees.
    ///
    /// Longitudes outside [-180, 180] are wrapped; `east - west ≥ 360` gives the full
    /// longitude range. Throws when a value is NaN or infinite, a latitude is outside
    /// [-90, 90], or `south > north`.
    public init(south: Double, west: Double, north: Double, east: Double) throws(GeometryError) {
        for (name, v) in [("south", south), ("west", west), ("north", north), ("east", east)] where !v.isFinite {
            throw .notFinite(name, v)
        }
        guard (-90...90).contains(south) else { throw .outOfRange("south", south, -90...90) }
        guard (-90...90).contains(north) else { throw .outOfRange("north", north, -90...90) }
        guard south <= north else { throw .outOfRange("south", south, -90...north) }
        if east - west >= 360 {
            self.init(unchecked: south, -180, north, 180)
            return
        }
        let w = (-180...180).contains(west) ? west : LatLng.wrapLongitude(west)
        var e = east
        if !(-180...180).contains(e) {
            e = LatLng.wrapLongitude(e)
            if e == -180 && w != -180 { e = 180 }
        }
        self.init(unchecked: south, w, north, e)
    }

    /// The smallest box holding every position, choosing the longitude range with the
    /// smallest span (so points at 179° and -179° give a 2° box across the antimeridian).
    ///
    /// Throws `emptyInput` for no points and `invalidPoint` (with its index) for a
    /// NaN/infinite coordinate or a latitude outside ±90°. O(n log n) in the point count.
    public init(containing points: some Sequence<LatLng>) throws(GeometryError) {
        var south = Double.infinity, north = -Double.infinity
        var lons: [Double] = []
        for (i, p) in points.enumerated() {
            guard p.isValid else { throw .invalidPoint(index: i, p) }
            south = min(south, p.lat)
            north = max(north, p.lat)
            lons.append(LatLng.wrapLongitude(p.lon))
        }
        guard !lons.isEmpty else { throw .emptyInput("points") }
        lons.sort()
        // The smallest arc holding every longitude is the circle minus its largest gap.
        // The edges are input longitudes themselves, so every point tests as contained.
        var gap = lons[0] + 360 - lons[lons.count - 1]
        var (w, e) = (lons[0], lons[lons.count - 1])
        for i in 1..<lons.count where lons[i] - lons[i - 1] > gap {
            gap = lons[i] - lons[i - 1]
            (w, e) = (lons[i], lons[i - 1])
        }
        self.init(unchecked: south, w, north, e)
    }

    init(unchecked south: Double, _ west: Double, _ north: Double, _ east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// True when the box crosses the antimeridian (`west > east`).
    public var crossesAntimeridian: Bool { west > east }

    /// The eastward extent from `west` to `east`, in degrees, in [0, 360].
    public var longitudeSpan: Double { west <= east ? east - west : east - west + 360 }

    /// The extent from `south` to `north`, in degrees.
    public var latitudeSpan: Double { north - south }

    /// The middle of the box in degrees: the mean latitude, and the longitude halfway
    /// east from `west` (wrapped into [-180, 180)). This is the centre in degrees, not
    /// in Web Mercator; use `unwrappedMapRect.mid` for the projected centre.
    public var center: LatLng {
        LatLng(lat: (south + north) / 2, lon: LatLng.wrapLongitude(west + longitudeSpan / 2))
    }

    /// Degrees east from `west` to `lon`, in [0, 360). The longitude is wrapped first, the
    /// way the edges were, so that an edge longitude gives exactly `longitudeSpan`.
    private func offsetEast(_ lon: Double) -> Double {
        var d = LatLng.wrapLongitude(lon) - west
        if d < 0 { d += 360 }
        return d
    }

    /// True when the position lies inside or on the edge of the box (any longitude is
    /// accepted and wrapped; NaN gives false).
    public func contains(_ p: LatLng) -> Bool {
        guard p.lat >= south && p.lat <= north && p.lon.isFinite else { return false }
        let span = longitudeSpan
        return span >= 360 || offsetEast(p.lon) <= span || LatLng.wrapLongitude(p.lon) == LatLng.wrapLongitude(east)
    }

    /// True when the two boxes share at least one point (edges included).
    public func intersects(_ other: GeoBounds) -> Bool {
        guard other.south <= north && other.north >= south else { return false }
        let s1 = longitudeSpan, s2 = other.longitudeSpan
        if s1 >= 360 || s2 >= 360 { return true }
        // Two arcs meet when either one's start lies within the other.
        return offsetEast(other.west) <= s1 || other.offsetEast(west) <= s2
    }

    /// The smallest box holding this one and the position, growing west or east,
    /// whichever adds less longitude span (east on a tie). Throws `invalidPosition`
    /// for a NaN/infinite coordinate or a latitude outside ±90°.
    public func extended(toInclude p: LatLng) throws(GeometryError) -> GeoBounds {
        guard p.isValid else { throw .invalidPosition("point", p) }
        let s = min(south, p.lat), n = max(north, p.lat)
        let span = longitudeSpan
        if span >= 360 { return GeoBounds(unchecked: s, west, n, east) }
        let d = offsetEast(p.lon)
        if d <= span { return GeoBounds(unchecked: s, west, n, east) }
        let growEast = d  // new span when `east` moves to p.lon
        let growWest = 360 - d + span  // new span when `west` moves to p.lon
        let lon = LatLng.wrapLongitude(p.lon)
        if growEast <= growWest {
            return GeoBounds(unchecked: s, west, n, lon == -180 ? 180 : lon)
        }
        return GeoBounds(unchecked: s, lon, n, east)
    }

    /// The smallest box holding both boxes, choosing the longitude range with the smaller span.
    public func union(_ other: GeoBounds) -> GeoBounds {
        let s = min(south, other.south), n = max(north, other.north)
        let s1 = longitudeSpan, s2 = other.longitudeSpan
        if s1 >= 360 || s2 >= 360 { return GeoBounds(unchecked: s, -180, n, 180) }
        // The smallest covering arc starts at one of the two west edges.
        let reachOther = offsetEast(other.west) + s2
        let reachSelf = other.offsetEast(west) + s1
        let fromSelf = max(s1, reachOther), fromOther = max(s2, reachSelf)
        if min(fromSelf, fromOther) >= 360 { return GeoBounds(unchecked: s, -180, n, 180) }
        if fromSelf <= fromOther {
            return GeoBounds(unchecked: s, west, n, reachOther > s1 ? other.east : east)
        }
        return GeoBounds(unchecked: s, other.west, n, reachSelf > s2 ? east : other.east)
    }

    /// The box in Web Mercator as one rectangle whose `maxX` may exceed 1 when the box
    /// crosses the antimeridian. Latitudes are clamped to ±85.0511°.
    public var unwrappedMapRect: MapRect {
        let nw = MapPoint(LatLng(lat: north, lon: west))
        let se = MapPoint(LatLng(lat: south, lon: west))
        return MapRect(origin: nw, width: longitudeSpan / 360, height: se.y - nw.y)
    }

    /// The box in Web Mercator as rectangles within the unit world: one, or two (the part
    /// east of `west` up to x = 1, then the part from x = 0 to `east`) across the
    /// antimeridian. Latitudes are clamped to ±85.0511°.
    public var mapRects: [MapRect] {
        let r = unwrappedMapRect
        guard r.maxX > 1 else { return [r] }
        return [
            MapRect(origin: r.origin, width: 1 - r.minX, height: r.height),
            MapRect(origin: MapPoint(x: 0, y: r.minY), width: r.maxX - 1, height: r.height),
        ]
    }

    /// `south,west,north,east` in degrees.
    public var description: String { "\(south),\(west),\(north),\(east)" }
}
