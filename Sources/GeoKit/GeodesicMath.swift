import Foundation

/// Angle helpers for the geodesic code: degree trigonometry that is exact at multiples of 90°,
/// error-free longitude differences, and the small constants of Karney (2013) §6.
///
/// Everything here is written from the descriptions in C. F. F. Karney, "Algorithms for
/// geodesics", J. Geodesy 87, 43–55 (2013), doi:10.1007/s00190-012-0578-z.
enum GeodesicMath {
    /// Radians per degree.
    static let degree = Double.pi / 180
    /// Machine epsilon, the convergence tolerance of the inverse solver.
    static let tol0 = Double.ulpOfOne
    /// Tolerance of the "nearly antipodal on the equator" test when choosing a start (200 ε).
    static let tol1 = 200 * tol0
    /// √ε: scale of the short-line and antipodal-cusp thresholds.
    static let tol2 = tol0.squareRoot()
    /// Bisection stops when the bracket on α₁ is narrower than ε^{3/2}.
    static let tolb = tol0 * tol2
    /// How far beyond the astroid's cusp (x = −1) the "on the equator" start is still used.
    static let xthresh = 1000 * tol2
    /// Underflow guard: √(smallest normal). `tiny · ε > 0` and `tiny + ε == ε`.
    static let tiny = Double.leastNormalMagnitude.squareRoot()

    /// `x` when positive, else +0 (Swift's `max(0, -0.0)` is -0.0, which would flip an atan2 to −π).
    @inline(__always) static func nonNegative(_ x: Double) -> Double { x > 0 ? x : 0 }

    @inline(__always) static func sq(_ x: Double) -> Double { x * x }

    /// Error-free sum: `s + t == u + v` exactly, with `s` the rounded sum.
    static func twoSum(_ u: Double, _ v: Double) -> (s: Double, t: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        return (s, -(up + vpp))
    }

    /// Scales `(s, c)` to unit length (a sine/cosine pair of the same angle).
    @inline(__always) static func normalize(_ s: inout Double, _ c: inout Double) {
        let h = (s * s + c * c).squareRoot()
        s /= h
        c /= h
    }

    /// An angle in degrees reduced to [-180, 180], with +180 for an input that reduces to ±180 from above.
    static func angNormalize(_ x: Double) -> Double {
        let y = x.remainder(dividingBy: 360)
        return abs(y) == 180 ? (x < 0 ? -180 : 180) : y
    }

    /// NaN for a latitude outside [-90, 90]; the latitude otherwise.
    static func latFix(_ x: Double) -> Double { abs(x) > 90 ? .nan : x }

    /// Rounds values very close to zero onto a coarse grid (multiples of 2⁻⁵⁷ near 0) so that
    /// tiny inputs give symmetric results, as recommended in Karney (2013) §6.
    static func angRound(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        if y < z { y = z - (z - y) }
        return x < 0 ? -y : (x == 0 ? x : y)
    }

    /// Sine and cosine of `x` degrees, exact at multiples of 90° (reduction is done in degrees).
    static func sincosd(_ x: Double) -> (s: Double, c: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        var r = x.truncatingRemainder(dividingBy: 360)  // exact
        let qd = (r / 90).rounded()  // -4...4
        r -= 90 * qd  // exact, |r| <= 45
        r *= degree
        let s = sin(r), c = cos(r)
        var q = Int(qd) % 4
        if q < 0 { q += 4 }
        var (sx, cx): (Double, Double)
        switch q {
        case 0: (sx, cx) = (s, c)
        case 1: (sx, cx) = (c, -s)
        case 2: (sx, cx) = (-s, -c)
        default: (sx, cx) = (-c, s)
        }
        cx += 0  // no negative zero cosine
        if sx == 0 { sx = x < 0 ? -0.0 : 0.0 }
        return (sx, cx)
    }

    /// `sincosd(x + t)` for a small correction `t` degrees (|t| ≪ 1e-10).
    static func sincosde(_ x: Double, _ t: Double) -> (s: Double, c: Double) {
        let (s, c) = sincosd(x)
        guard t != 0 else { return (s, c) }
        let tr = t * degree
        return (s + c * tr, c - s * tr)
    }

    /// atan2 in degrees, exact for results at multiples of 45°; result in [-180, 180].
    static func atan2d(_ y0: Double, _ x0: Double) -> Double {
        var y = y0, x = x0
        var q = 0
        if abs(y) > abs(x) {
            swap(&x, &y)
            q = 2
        }
        if x.sign == .minus {
            x = -x
            q += 1
        }
        let ang = atan2(y, x) / degree
        switch q {
        case 1: return (y.sign == .minus ? -180 : 180) - ang
        case 2: return 90 - ang
        case 3: return -90 + ang
        default: return ang
        }
    }

    /// The longitude difference `y - x` in degrees reduced to [-180, 180], computed without
    /// rounding error: `d` is the rounded difference and `e` the (tiny) remainder.
    static func angDiff(_ x: Double, _ y: Double) -> (d: Double, e: Double) {
        let (s, t) = twoSum((-x).remainder(dividingBy: 360), y.remainder(dividingBy: 360))
        var d = s.remainder(dividingBy: 360)
        if d == 180 && t > 0 { d = -180 } else if d == -180 && t < 0 { d = 180 }
        let (d2, e2) = twoSum(d, t)
        return (d2, e2)
    }
}
