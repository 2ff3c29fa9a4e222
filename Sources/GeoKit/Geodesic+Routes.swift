import Foundation

/// Routes along geodesics: bearings, destinations, lines between two points and densified
/// polylines for drawing great-circle (geodesic) routes.
extension Geodesic {
    /// The most points `densify` (and `circle`) will return; asking for more is an error.
    public static let maxGeneratedPoints = 1_000_000

    /// Half the length of a meridian in metres (pole to pole): π·b·A₁(n), Karney (2013) eq. (17).
    /// For WGS84 20 003 931.458 6 m.
    public var halfMeridian: Double { .pi * b * (1 + GeodesicSeries.a1m1(n)) }

    /// The initial bearing (forward azimuth at `p1`) of the shortest geodesic to `p2`, in degrees
    /// clockwise from north in [-180, 180]. NaN for invalid input.
    public func initialBearing(from p1: LatLng, to p2: LatLng) -> Double {
        inverse(p1, p2).azimuth1
    }

    /// The point `distance` metres from `p1` along the geodesic leaving on `bearing` degrees
    /// clockwise from north (the direct problem); longitude in [-180, 180].
    public func destination(from p1: LatLng, bearing: Double, distance: Double) -> LatLng {
        direct(from: p1, azimuth: bearing, distance: distance).point
    }

    /// The shortest geodesic from `p1` to `p2` as a line (walk it with `position(distance:)`)
    /// and its length in metres.
    public func line(from p1: LatLng, to p2: LatLng) -> (line: GeodesicLine, distance: Double) {
        let inv = inverse(p1, p2)
        return (GeodesicLine(self, from: p1, azimuth: inv.azimuth1), inv.distance)
    }

    /// Points along the shortest geodesic from `a` to `b`, evenly spaced so that no piece is
    /// longer than `maxSegmentLength` metres; the first point is `a` and the last is `b`.
    ///
    /// Longitudes are continuous (unrolled from `a.lon`): a route from Tokyo to San Francisco
    /// runs 139.7 → 237.6 rather than jumping at the antimeridian, so it draws as one line in
    /// Web Mercator (x > 1 is the next world copy). Wrap with `LatLng.normalized` for
    /// [-180, 180). For antipodal `a` and `b` the route is one of the shortest geodesics.
    ///
    /// - Throws: `GeometryError` if a point is not valid (index 0 is `a`, 1 is `b`), if
    ///   `maxSegmentLength` is not finite and positive, or if more than `maxGeneratedPoints`
    ///   points would be needed.
    public func densify(from a: LatLng, to b: LatLng, maxSegmentLength: Double) throws -> [LatLng] {
        try densify([a, b], maxSegmentLength: maxSegmentLength)
    }

    /// `count` points (at least 2) evenly spaced along the shortest geodesic from `a` to `b`,
    /// first `a`, last `b`, longitudes continuous as in `densify(from:to:maxSegmentLength:)`.
    ///
    /// - Throws: `GeometryError` for an invalid point or a count outside 2…`maxGeneratedPoints`.
    public func densify(from a: LatLng, to b: LatLng, count: Int) throws -> [LatLng] {
        guard count >= 2 && count <= Self.maxGeneratedPoints else {
            throw GeometryError.outOfRange("count", Double(count), 2...Double(Self.maxGeneratedPoints))
        }
        for (i, p) in [a, b].enumerated() where !p.isValid { throw GeometryError.invalidPoint(index: i, p) }
        var out: [LatLng] = []
        out.reserveCapacity(count)
        appendSegment(from: a, startLon: a.lon, to: b, inverse: inverse(a, b), pieces: count - 1, into: &out)
        return out
    }

    /// A polyline densified along geodesics: each consecutive pair joined by its shortest
    /// geodesic with pieces no longer than `maxSegmentLength` metres. The given vertices are
    /// kept (with continuous longitudes); consecutive duplicates are kept once.
    ///
    /// - Throws: `GeometryError` for fewer than 2 points, an invalid point (its index), a
    ///   non-positive or non-finite `maxSegmentLength`, or more than `maxGeneratedPoints` points.
    public func densify(_ points: [LatLng], maxSegmentLength: Double) throws -> [LatLng] {
        guard points.count >= 2 else { throw GeometryError.emptyInput("points") }
        guard maxSegmentLength.isFinite else { throw GeometryError.notFinite("maxSegmentLength", maxSegmentLength) }
        guard maxSegmentLength > 0 else {
            throw GeometryError.outOfRange(
                "maxSegmentLength", maxSegmentLength, Double.leastNonzeroMagnitude...Double.greatestFiniteMagnitude)
        }
        for (i, p) in points.enumerated() where !p.isValid { throw GeometryError.invalidPoint(index: i, p) }
        // Plan first (distances only), so an over-long request fails before allocating.
        var pieces: [Int] = []
        var solutions: [GeodesicInverse] = []
        var total = 1
        for i in 1..<points.count {
            let inv = inverse(points[i - 1], points[i])
            let s = inv.distance
            let k = max(1, (s / maxSegmentLength).rounded(.up))
            guard k <= Double(Self.maxGeneratedPoints - total) else {
                throw GeometryError.outOfRange(
                    "maxSegmentLength", maxSegmentLength,
                    (s / Double(Self.maxGeneratedPoints))...Double.greatestFiniteMagnitude)
            }
            pieces.append(Int(k))
            solutions.append(inv)
            total += Int(k)
        }
        var out: [LatLng] = []
        out.reserveCapacity(total)
        var lon = points[0].lon
        for i in 1..<points.count {
            if i > 1 { out.removeLast() }  // the joint is re-added as the next segment's start
            appendSegment(
                from: points[i - 1], startLon: lon, to: points[i], inverse: solutions[i - 1], pieces: pieces[i - 1],
                into: &out)
            lon = out[out.count - 1].lon
        }
        return out
    }

    /// Appends `pieces + 1` points from `a` (written with longitude `startLon`) to `b`, given
    /// the inverse solution from `a` to `b`.
    private func appendSegment(
        from a: LatLng, startLon: Double, to b: LatLng, inverse inv: GeodesicInverse, pieces: Int,
        into out: inout [LatLng]
    ) {
        let line = GeodesicLine(self, from: LatLng(lat: a.lat, lon: startLon), azimuth: inv.azimuth1)
        out.append(LatLng(lat: a.lat, lon: startLon))
        if pieces > 1 {
            for j in 1..<pieces {
                let p = line.position(distance: inv.distance * Double(j) / Double(pieces))
                out.append(LatLng(lat: p.point.lat, lon: p.unrolledLongitude))
            }
        }
        // The end point exactly as given, shifted by whole turns to where the line arrives.
        let end = line.position(distance: inv.distance).unrolledLongitude
        out.append(LatLng(lat: b.lat, lon: end + LatLng.wrapLongitude(b.lon - end)))
    }
}

extension LatLng {
    /// The initial bearing to `other` along the shortest WGS84 geodesic, degrees clockwise from
    /// north in [-180, 180] (`Geodesic.wgs84.inverse(self, other).azimuth1`).
    public func initialBearing(to other: LatLng) -> Double {
        Geodesic.wgs84.initialBearing(from: self, to: other)
    }

    /// The point `distance` metres away along the WGS84 geodesic leaving on `bearing` degrees
    /// clockwise from north (`Geodesic.wgs84.direct`); longitude in [-180, 180].
    public func destination(bearing: Double, distance: Double) -> LatLng {
        Geodesic.wgs84.destination(from: self, bearing: bearing, distance: distance)
    }

    /// The length in metres of the shortest WGS84 geodesic to `other` (accurate to ~15 nm).
    public func geodesicDistance(to other: LatLng) -> Double {
        Geodesic.wgs84.inverse(self, other).distance
    }
}
