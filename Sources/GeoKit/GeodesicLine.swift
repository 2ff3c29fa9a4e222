import Foundation

/// A point on a geodesic line: where it is and which way the line heads there.
public struct GeodesicPosition: Sendable, Equatable {
    /// The position; `point.lon` is in [-180, 180].
    public var point: LatLng
    /// Longitude in degrees unrolled from the line's start: it changes continuously along the
    /// line (e.g. 179 → 181 across the antimeridian) instead of wrapping into [-180, 180].
    public var unrolledLongitude: Double
    /// Forward azimuth of the line at this point, degrees clockwise from north, in [-180, 180].
    public var azimuth: Double
}

/// A geodesic starting at a point with a given azimuth, set up once so that many positions
/// along it (route densification, animation) cost one series evaluation each.
///
/// This is the direct problem of Karney (2013) §3–4: distance → arc length on the auxiliary
/// sphere via the reverted series C′₁ (eq. 20–21), then latitude, longitude (eq. 8, 23) and
/// azimuth on the ellipsoid.
public struct GeodesicLine: Sendable {
    /// The ellipsoid the line lives on.
    public let geodesic: Geodesic
    /// The starting point as given.
    public let start: LatLng
    /// Forward azimuth at the start, degrees, reduced to [-180, 180].
    public let azimuth1: Double

    private let salp0: Double, calp0: Double
    private let ssig1: Double, csig1: Double
    private let somg1: Double, comg1: Double
    private let stau1: Double, ctau1: Double
    private let a1m1: Double, b11: Double, b31: Double, a3c: Double, k2: Double
    private let c1a: GeodesicCoefficients, c1pa: GeodesicCoefficients, c3a: GeodesicCoefficients

    /// Sets up the geodesic leaving `start` on `azimuth` degrees (clockwise from north).
    ///
    /// A start latitude outside [-90, 90] or non-finite input makes every position NaN.
    public init(_ geodesic: Geodesic, from start: LatLng, azimuth: Double) {
        typealias M = GeodesicMath
        self.geodesic = geodesic
        self.start = start
        let azi1 = M.angNormalize(azimuth)
        azimuth1 = azi1
        let (salp1, calp1) = M.sincosd(M.angRound(azi1))
        var (sbet1, cbet1) = M.sincosd(M.angRound(M.latFix(start.lat)))
        sbet1 *= geodesic.f1
        M.normalize(&sbet1, &cbet1)
        cbet1 = max(M.tiny, cbet1)

        // α₀, the azimuth at the equator crossing (Clairaut: sin α₀ = sin α₁ cos β₁).
        salp0 = salp1 * cbet1
        calp0 = (calp1 * calp1 + M.sq(salp1 * sbet1)).squareRoot()
        // σ₁, ω₁ measured from the northward equator crossing (eq. 11–12).
        var s1 = sbet1
        somg1 = salp0 * sbet1
        var c1 = (sbet1 != 0 || calp1 != 0) ? cbet1 * calp1 : 1
        comg1 = c1
        M.normalize(&s1, &c1)
        ssig1 = s1
        csig1 = c1

        k2 = calp0 * calp0 * geodesic.ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)  // eq. (16)
        a1m1 = GeodesicSeries.a1m1(eps)
        c1a = GeodesicSeries.c1(eps)
        b11 = c1a.sinSeries(ssig1, csig1)
        let s = sin(b11), c = cos(b11)
        // τ₁ = σ₁ + B₁₁ (eq. 15)
        stau1 = ssig1 * c + csig1 * s
        ctau1 = csig1 * c - ssig1 * s
        c1pa = GeodesicSeries.c1p(eps)
        a3c = -geodesic.f * salp0 * geodesic.a3f(eps)
        c3a = geodesic.c3f(eps)
        b31 = c3a.sinSeries(ssig1, csig1)
    }

    /// The position `distance` metres along the line (negative walks backwards).
    public func position(distance s12: Double) -> GeodesicPosition {
        typealias M = GeodesicMath
        let g = geodesic
        // τ₁₂ = s₁₂/(b A₁), then σ₁₂ from the reverted series (eq. 20).
        let tau12 = s12 / (g.b * (1 + a1m1))
        let st = sin(tau12), ct = cos(tau12)
        let b12r = -c1pa.sinSeries(stau1 * ct + ctau1 * st, ctau1 * ct - stau1 * st)
        var sig12 = tau12 - (b12r - b11)
        var ssig12 = sin(sig12), csig12 = cos(sig12)
        if abs(g.f) > 0.01 {
            // One Newton step on s(σ) for flatter ellipsoids, where the reverted series is short.
            let ssig2 = ssig1 * csig12 + csig1 * ssig12
            let csig2 = csig1 * csig12 - ssig1 * ssig12
            let b12 = c1a.sinSeries(ssig2, csig2)
            let serr = (1 + a1m1) * (sig12 + (b12 - b11)) - s12 / g.b
            sig12 -= serr / (1 + k2 * M.sq(ssig2)).squareRoot()
            ssig12 = sin(sig12)
            csig12 = cos(sig12)
        }
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        // β₂ and α₂ from the auxiliary sphere (eq. 13–14).
        let sbet2 = calp0 * ssig2
        var cbet2 = (salp0 * salp0 + M.sq(calp0 * csig2)).squareRoot()
        if cbet2 == 0 {
            cbet2 = M.tiny
            csig2 = M.tiny
        }
        let salp2 = salp0, calp2 = calp0 * csig2
        let somg2 = salp0 * ssig2, comg2 = csig2
        // ω₁₂ unrolled: counts whole turns around the auxiliary sphere.
        let e: Double = salp0.sign == .minus ? -1 : 1
        let omg12 =
            e
            * (sig12 - (atan2(ssig2, csig2) - atan2(ssig1, csig1))
                + (atan2(e * somg2, comg2) - atan2(e * somg1, comg1)))
        // λ₁₂ = ω₁₂ − f sin α₀ I₃ (eq. 8, 23).
        let lam12 = omg12 + a3c * (sig12 + (c3a.sinSeries(ssig2, csig2) - b31))
        let lon12 = lam12 / M.degree
        let lon2 = M.angNormalize(M.angNormalize(start.lon) + M.angNormalize(lon12))
        let lat2 = M.atan2d(sbet2, g.f1 * cbet2)
        let azi2 = M.atan2d(salp2, calp2)
        let latValid = !M.latFix(start.lat).isNaN
        return GeodesicPosition(
            point: LatLng(lat: lat2, lon: lon2),
            unrolledLongitude: latValid ? start.lon + lon12 : .nan,
            azimuth: azi2)
    }
}
