import Foundation

/// The inverse problem of Karney (2013) §4–5: the special cases (coincident points, meridians,
/// the equator, the poles), the starting guess (the short-line formula, the spherical
/// great-circle guess, or the astroid for nearly antipodal points) and Newton's method on
/// α₁ with a bisection safeguard.
extension Geodesic {
    /// Everything the inverse solution yields (angles in degrees, lengths in metres).
    struct InverseSolution {
        var s12: Double
        var azi1: Double
        var azi2: Double
        /// Arc length on the auxiliary sphere, degrees.
        var a12: Double
        /// Reduced length m₁₂, metres.
        var m12: Double
    }

    /// State of the auxiliary-sphere geodesic for a trial α₁, from `lambda12`.
    private struct Lambda12 {
        var lam12: Double  // λ₁₂(α₁) minus the target, radians
        var salp2: Double, calp2: Double
        var sig12: Double
        var ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
        var eps: Double
        var dlam12: Double  // ∂λ₁₂/∂α₁
    }

    private static let maxit1 = 20
    private static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10

    func solveInverse(lat1 lat1In: Double, lon1: Double, lat2 lat2In: Double, lon2: Double) -> InverseSolution {
        typealias M = GeodesicMath
        // Longitude difference in [0, 180] with its rounding remainder.
        var (lon12, lon12e) = M.angDiff(lon1, lon2)
        var lonsign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonsign
        lon12e *= lonsign
        let lam12 = lon12 * M.degree
        let (slam12, clam12) = M.sincosde(lon12, lon12e)
        let lon12s = (180 - lon12) - lon12e  // supplement of lon12

        var lat1 = M.angRound(M.latFix(lat1In))
        var lat2 = M.angRound(M.latFix(lat2In))
        guard lat1.isFinite && lat2.isFinite && lon12.isFinite else {
            return InverseSolution(s12: .nan, azi1: .nan, azi2: .nan, a12: .nan, m12: .nan)
        }
        // Put the point farther from the equator first, and make it southern: β₁ ≤ 0, |β₂| ≤ |β₁|.
        let swapp: Double = abs(lat1) < abs(lat2) ? -1 : 1
        if swapp < 0 {
            lonsign = -lonsign
            swap(&lat1, &lat2)
        }
        let latsign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latsign
        lat2 *= latsign

        var (sbet1, cbet1) = M.sincosd(lat1)
        sbet1 *= f1
        M.normalize(&sbet1, &cbet1)
        cbet1 = max(M.tiny, cbet1)
        var (sbet2, cbet2) = M.sincosd(lat2)
        sbet2 *= f1
        M.normalize(&sbet2, &cbet2)
        cbet2 = max(M.tiny, cbet2)
        // Make |β₂| == |β₁| exact when the latitudes are equal in size, so the tests below see it.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = sbet2.sign == .minus ? sbet1 : -sbet1 }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        let dn1 = (1 + ep2 * M.sq(sbet1)).squareRoot()
        let dn2 = (1 + ep2 * M.sq(sbet2)).squareRoot()

        var a12 = 0.0, sig12 = 0.0, s12x = 0.0, m12x = 0.0
        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0

        // Meridional: both points on one meridian (or point 1 at a pole).
        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            calp1 = clam12
            salp1 = slam12
            calp2 = 1
            salp2 = 0
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            sig12 = atan2(M.nonNegative(csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
            let len = lengths(
                eps: n, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1, ssig2: ssig2, csig2: csig2, dn2: dn2)
            s12x = len.s12b
            m12x = len.m12b
            // Over the pole is shortest unless a conjugate point lies before point 2 (m₁₂ < 0).
            if sig12 < 1 || m12x >= 0 {
                if sig12 < 3 * M.tiny || (sig12 < M.tol0 && (s12x < 0 || m12x < 0)) {
                    sig12 = 0
                    m12x = 0
                    s12x = 0
                }
                m12x *= b
                s12x *= b
                a12 = sig12 / M.degree
            } else {
                meridian = false
            }
        }

        if !meridian && sbet1 == 0 && (f <= 0 || lon12s >= f * 180) {
            // Equatorial: both on the equator and λ₁₂ ≤ (1 − f)π, so the equator is shortest.
            calp1 = 0
            calp2 = 0
            salp1 = 1
            salp2 = 1
            s12x = a * lam12
            sig12 = lam12 / f1
            m12x = b * sin(sig12)
            a12 = lon12 / f1
        } else if !meridian {
            let start = inverseStart(
                sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                lam12: lam12, slam12: slam12, clam12: clam12)
            sig12 = start.sig12
            salp1 = start.salp1
            calp1 = start.calp1
            if sig12 >= 0 {
                // Short line solved directly on a sphere of the local mean radius.
                salp2 = start.salp2
                calp2 = start.calp2
                s12x = sig12 * b * start.dnm
                m12x = M.sq(start.dnm) * b * sin(sig12 / start.dnm)
                a12 = sig12 / M.degree
            } else {
                var state = lambda12(
                    sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                    salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12, diffp: true)
                // Bracket on α₁: a below, b above the root (α₁ grows as cos/sin falls).
                var salp1a = M.tiny, calp1a = 1.0, salp1b = M.tiny, calp1b = -1.0
                var tripn = false, tripb = false
                for numit in 0..<Self.maxit2 {
                    if numit > 0 {
                        state = lambda12(
                            sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                            salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12,
                            diffp: numit < Self.maxit1)
                    }
                    let v = state.lam12
                    if tripb || !(abs(v) >= (tripn ? 8 : 1) * M.tol0) { break }
                    if v > 0 && (numit > Self.maxit1 || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1
                        calp1b = calp1
                    } else if v < 0 && (numit > Self.maxit1 || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1
                        calp1a = calp1
                    }
                    if numit < Self.maxit1 && state.dlam12 > 0 {
                        let dalp1 = -v / state.dlam12
                        if abs(dalp1) < .pi {
                            let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                            let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                            if nsalp1 > 0 {
                                calp1 = calp1 * cdalp1 - salp1 * sdalp1
                                salp1 = nsalp1
                                M.normalize(&salp1, &calp1)
                                tripn = abs(v) <= 16 * M.tol0
                                continue
                            }
                        }
                    }
                    // Newton left the bracket or stalled: bisect.
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    M.normalize(&salp1, &calp1)
                    tripn = false
                    tripb =
                        abs(salp1a - salp1) + (calp1a - calp1) < M.tolb
                        || abs(salp1 - salp1b) + (calp1 - calp1b) < M.tolb
                }
                salp2 = state.salp2
                calp2 = state.calp2
                sig12 = state.sig12
                let len = lengths(
                    eps: state.eps, sig12: sig12, ssig1: state.ssig1, csig1: state.csig1, dn1: dn1,
                    ssig2: state.ssig2, csig2: state.csig2, dn2: dn2)
                s12x = len.s12b * b
                m12x = len.m12b * b
                a12 = sig12 / M.degree
            }
        }

        // Undo the swaps and sign changes.
        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapp * lonsign
        calp1 *= swapp * latsign
        salp2 *= swapp * lonsign
        calp2 *= swapp * latsign
        return InverseSolution(
            s12: 0 + s12x, azi1: M.atan2d(salp1, calp1), azi2: M.atan2d(salp2, calp2), a12: a12, m12: m12x)
    }

    /// s₁₂/b (eq. 7, 15) and m₁₂/b (eq. 38) between σ₁ and σ₂ on the auxiliary sphere.
    private func lengths(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
        ssig2: Double, csig2: Double, dn2: Double
    ) -> (s12b: Double, m12b: Double) {
        let a1m1 = GeodesicSeries.a1m1(eps)
        let c1a = GeodesicSeries.c1(eps)
        let a2m1 = GeodesicSeries.a2m1(eps)
        let c2a = GeodesicSeries.c2(eps)
        let b1 = c1a.sinSeries(ssig2, csig2) - c1a.sinSeries(ssig1, csig1)
        let b2 = c2a.sinSeries(ssig2, csig2) - c2a.sinSeries(ssig1, csig1)
        let s12b = (1 + a1m1) * (sig12 + b1)
        // J₁₂ = I₁(σ₂) − I₁(σ₁) − (I₂(σ₂) − I₂(σ₁)), eq. (40).
        let j12 = (a1m1 - a2m1) * sig12 + (1 + a1m1) * b1 - (1 + a2m1) * b2
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (s12b, m12b)
    }

    /// λ₁₂(α₁) − λ₁₂ target, and (when `diffp`) its derivative ∂λ₁₂/∂α₁ = m₁₂/(a cos α₂ cos β₂)
    /// (eq. 46), for the trial azimuth (salp1, calp1).
    private func lambda12(
        sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
        salp1: Double, calp1 calp1In: Double, slam120: Double, clam120: Double, diffp: Bool
    ) -> Lambda12 {
        typealias M = GeodesicMath
        var calp1 = calp1In
        if sbet1 == 0 && calp1 == 0 {
            calp1 = -M.tiny  // break the degeneracy of an equatorial start
        }
        let salp0 = salp1 * cbet1
        let calp0 = (calp1 * calp1 + M.sq(salp1 * sbet1)).squareRoot()
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = calp1 * cbet1
        let comg1 = csig1
        M.normalize(&ssig1, &csig1)
        // α₂ by Clairaut, cos α₂ computed to keep accuracy near the vertex (eq. 45).
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2: Double
        if cbet2 != cbet1 || abs(sbet2) != -sbet1 {
            let d = cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)
            calp2 = (M.sq(calp1 * cbet1) + d).squareRoot() / cbet2
        } else {
            calp2 = abs(calp1)
        }
        var ssig2 = sbet2
        let somg2 = salp0 * sbet2
        var csig2 = calp2 * cbet2
        let comg2 = csig2
        M.normalize(&ssig2, &csig2)
        let sig12 = atan2(M.nonNegative(csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
        let somg12 = M.nonNegative(comg1 * somg2 - somg1 * comg2)
        let comg12 = comg1 * comg2 + somg1 * somg2
        // η = ω₁₂ − λ₁₂(target), kept as one atan2 for accuracy near λ₁₂ = π.
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)
        let k2 = calp0 * calp0 * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let c3a = c3f(eps)
        let b312 = c3a.sinSeries(ssig2, csig2) - c3a.sinSeries(ssig1, csig1)
        let domg12 = -f * a3f(eps) * salp0 * (sig12 + b312)
        var dlam12 = 0.0
        if diffp {
            if calp2 == 0 {
                dlam12 = -2 * f1 * dn1 / sbet1
            } else {
                let len = lengths(
                    eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1, ssig2: ssig2, csig2: csig2,
                    dn2: dn2)
                dlam12 = len.m12b * f1 / (calp2 * cbet2)
            }
        }
        return Lambda12(
            lam12: eta + domg12, salp2: salp2, calp2: calp2, sig12: sig12, ssig1: ssig1, csig1: csig1,
            ssig2: ssig2, csig2: csig2, eps: eps, dlam12: dlam12)
    }

    /// The starting α₁ for Newton's method (Karney 2013 §5). Returns sig12 ≥ 0 (with α₂ and the
    /// mean-radius factor dnm) when the points are so close that the short-line solution is final.
    private func inverseStart(
        sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
        lam12: Double, slam12: Double, clam12: Double
    ) -> (sig12: Double, salp1: Double, calp1: Double, salp2: Double, calp2: Double, dnm: Double) {
        typealias M = GeodesicMath
        var sig12 = -1.0, salp2 = Double.nan, calp2 = Double.nan, dnm = Double.nan
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1  // sin(β₂ − β₁)
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1  // sin(β₂ + β₁)
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        if shortline {
            // Sphere of radius b·dnm at the mean latitude: ω₁₂ = λ₁₂/((1 − f) dnm) (eq. 48).
            var sbetm2 = M.sq(sbet1 + sbet2)
            sbetm2 /= sbetm2 + M.sq(cbet1 + cbet2)
            dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }
        // Great-circle azimuth on the auxiliary sphere (eq. 49), in a cancellation-free form.
        var salp1 = cbet2 * somg12
        var calp1 =
            comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * M.sq(somg12) / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * M.sq(somg12) / (1 - comg12)
        let ssig12 = (salp1 * salp1 + calp1 * calp1).squareRoot()
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortline && ssig12 < etol2 {
            // Really short: the spherical solution is accurate to round-off (eq. 50–51).
            salp2 = cbet1 * somg12
            calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? M.sq(somg12) / (1 + comg12) : 1 - comg12)
            M.normalize(&salp2, &calp2)
            sig12 = atan2(ssig12, csig12)
        } else if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * M.sq(cbet1) {
            // Not nearly antipodal: the great-circle guess will do.
        } else if f >= 0 {
            // Nearly antipodal: scale to the astroid problem (eq. 53–57).
            let lam12x = atan2(-slam12, -clam12)  // λ₁₂ − π
            let k2 = M.sq(sbet1) * ep2
            let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            let lamscale = f * cbet1 * a3f(eps) * .pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -M.tol1 && x > -1 - M.xthresh {
                // On the cusp (β₁ = −β₂, both near the equator): sin α₁ = −x.
                salp1 = min(1, -x)
                calp1 = -(1 - M.sq(salp1)).squareRoot()
            } else {
                let k = Self.astroid(x, y)
                // π − ω₁₂ from sin α₁ = −x/(1 + μ), then the great-circle formula again.
                let omg12a = lamscale * (-x * k / (1 + k))
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * M.sq(somg12) / (1 - comg12)
            }
        }
        // Prolate and nearly antipodal: keep the great-circle guess; bisection guarantees convergence.
        if !(salp1 <= 0) {
            M.normalize(&salp1, &calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        return (sig12, salp1, calp1, salp2, calp2, dnm)
    }

    /// The positive root μ of the astroid equation μ⁴ + 2μ³ + (1 − x² − y²)μ² − 2y²μ − y² = 0
    /// (Karney 2013 eq. 55), solved in closed form via the resolvent cubic; 0 when y = 0 and
    /// x² ≤ 1 (the root is then on the cusp).
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x, q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        let s = p * q / 4
        let r2 = r * r, r3 = r * r2
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()  // no cancellation
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let ang = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(ang / 3)
        }
        let v = (u * u + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v  // u + v without cancellation
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }
}
