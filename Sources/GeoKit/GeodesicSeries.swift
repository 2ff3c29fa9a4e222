/// Up to six Fourier coefficients c₁…c₆ of a series Σ cₗ sin(2lσ), stored inline (no heap).
struct GeodesicCoefficients: Sendable {
    var c1 = 0.0, c2 = 0.0, c3 = 0.0, c4 = 0.0, c5 = 0.0, c6 = 0.0

    /// Σₗ cₗ sin(2lσ) given sin σ and cos σ, by Clenshaw summation
    /// (bₖ = cₖ + 2cos2σ·bₖ₊₁ − bₖ₊₂; sum = b₁ sin 2σ), Karney (2013) eq. (59).
    @inline(__always)
    func sinSeries(_ s: Double, _ c: Double) -> Double {
        let ar = 2 * (c - s) * (c + s)  // 2 cos 2σ
        var b1 = c6
        var b2 = 0.0
        var t = c5 + ar * b1 - b2; b2 = b1; b1 = t
        t = c4 + ar * b1 - b2; b2 = b1; b1 = t
        t = c3 + ar * b1 - b2; b2 = b1; b1 = t
        t = c2 + ar * b1 - b2; b2 = b1; b1 = t
        t = c1 + ar * b1 - b2
        return 2 * s * c * t
    }
}

/// The series of Karney (2013) in the small parameter ε = (√(1+k²) − 1)/(√(1+k²) + 1)
/// and the third flattening n, each to order 6. Equation numbers refer to that paper.
enum GeodesicSeries {
    /// A₁ − 1, eq. (17): A₁ = (1 + ε²/4 + ε⁴/64 + ε⁶/256)/(1 − ε).
    static func a1m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (e2 + 4) + 64) / 256
        return (t + eps) / (1 - eps)
    }

    /// C₁ₗ, eq. (18): the coefficients of I₁(σ)/A₁ = σ + Σ C₁ₗ sin 2lσ.
    static func c1(_ eps: Double) -> GeodesicCoefficients {
        let e2 = eps * eps
        var c = GeodesicCoefficients()
        var d = eps
        c.c1 = d * (e2 * (-e2 / 32 + 3.0 / 16) - 0.5)
        d *= eps
        c.c2 = d * (e2 * (-9 * e2 / 2048 + 1.0 / 32) - 1.0 / 16)
        d *= eps
        c.c3 = d * (3 * e2 / 256 - 1.0 / 48)
        d *= eps
        c.c4 = d * (3 * e2 / 512 - 5.0 / 512)
        d *= eps
        c.c5 = -7 * d / 1280
        d *= eps
        c.c6 = -7 * d / 2048
        return c
    }

    /// C′₁ₗ, eq. (21): the reversion σ = τ + Σ C′₁ₗ sin 2lτ.
    static func c1p(_ eps: Double) -> GeodesicCoefficients {
        let e2 = eps * eps
        var c = GeodesicCoefficients()
        var d = eps
        c.c1 = d * (e2 * (205 * e2 / 1536 - 9.0 / 32) + 0.5)
        d *= eps
        c.c2 = d * (e2 * (1335 * e2 / 4096 - 37.0 / 96) + 5.0 / 16)
        d *= eps
        c.c3 = d * (29.0 / 96 - 75 * e2 / 128)
        d *= eps
        c.c4 = d * (539.0 / 1536 - 2391 * e2 / 2560)
        d *= eps
        c.c5 = 3467 * d / 7680
        d *= eps
        c.c6 = 38081 * d / 61440
        return c
    }

    /// A₂ − 1, eq. (42): A₂ = (1 − ε)(1 + ε²/4 + 9ε⁴/64 + 25ε⁶/256) = (1 + t)/(1 + ε) with
    /// t = −3ε²/4 − 7ε⁴/64 − 11ε⁶/256.
    static func a2m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (-11 * e2 - 28) - 192) / 256
        return (t - eps) / (1 + eps)
    }

    /// C₂ₗ, eq. (43): the coefficients of I₂(σ)/A₂ = σ + Σ C₂ₗ sin 2lσ.
    static func c2(_ eps: Double) -> GeodesicCoefficients {
        let e2 = eps * eps
        var c = GeodesicCoefficients()
        var d = eps
        c.c1 = d * (e2 * (e2 / 32 + 1.0 / 16) + 0.5)
        d *= eps
        c.c2 = d * (e2 * (35 * e2 / 2048 + 1.0 / 32) + 3.0 / 16)
        d *= eps
        c.c3 = d * (5 * e2 / 256 + 5.0 / 48)
        d *= eps
        c.c4 = d * (7 * e2 / 512 + 35.0 / 512)
        d *= eps
        c.c5 = 63 * d / 1280
        d *= eps
        c.c6 = 77 * d / 2048
        return c
    }

    /// Coefficients of A₃ in powers ε⁰…ε⁵ for third flattening `n`, eq. (24).
    static func a3Coefficients(n: Double) -> [Double] {
        [
            1,
            -(1.0 / 2 - n / 2),
            -(1.0 / 4 + n / 8 - 3 * n * n / 8),
            -(1.0 / 16 + 3 * n / 16 + n * n / 16),
            -(3.0 / 64 + n / 32),
            -3.0 / 128,
        ]
    }

    /// Coefficients of C₃ₗ (l = 1…5) in powers ε¹…ε⁵ for third flattening `n`, eq. (25);
    /// row l−1 holds the coefficients of ε^l … ε⁵ (padded with zeros to five entries).
    static func c3Coefficients(n: Double) -> [[Double]] {
        let n2 = n * n
        return [
            [1.0 / 4 - n / 4, 1.0 / 8 - n2 / 8, 3.0 / 64 + 3 * n / 64 - n2 / 64, 5.0 / 128 + n / 64, 3.0 / 128],
            [1.0 / 16 - 3 * n / 32 + n2 / 32, 3.0 / 64 - n / 32 - 3 * n2 / 64, 3.0 / 128 + n / 128, 5.0 / 256, 0],
            [5.0 / 192 - 3 * n / 64 + 5 * n2 / 192, 3.0 / 128 - 5 * n / 192, 7.0 / 512, 0, 0],
            [7.0 / 512 - 7 * n / 256, 7.0 / 512, 0, 0, 0],
            [21.0 / 2560, 0, 0, 0, 0],
        ]
    }
}
