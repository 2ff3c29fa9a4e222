import Foundation

/// Decimal text → Double, correctly rounded, without making Strings.
enum DecimalNumber {
    /// Exact powers of ten representable in a Double (10^0 … 10^22).
    private static let powers: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Parses `[+-]?(digits[.digits?]|.digits)([eE][+-]?digits)?` spanning exactly
    /// `start..<end`; nil when the span is anything else (empty, `NaN`, `1,5`, …).
    /// The result may be infinite for huge exponents; callers check finiteness.
    static func parse(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, allowPlus: Bool = true) -> Double? {
        var i = start
        guard i < end else { return nil }
        var negative = false
        if p[i] == 0x2D {
            negative = true
            i += 1
        } else if p[i] == 0x2B && allowPlus {
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0  // significant digits accumulated into mantissa
        var dropped = false  // digits beyond 19 were seen (fast path impossible)
        var exp10 = 0
        var sawDigit = false
        while i < end, p[i] &- 0x30 < 10 {
            sawDigit = true
            let d = UInt64(p[i] &- 0x30)
            if digits < 19 {
                if mantissa != 0 || d != 0 {
                    mantissa = mantissa * 10 + d
                    digits += 1
                }
            } else {
                dropped = true
                exp10 += 1
            }
            i += 1
        }
        if i < end && p[i] == 0x2E {
            i += 1
            while i < end, p[i] &- 0x30 < 10 {
                sawDigit = true
                let d = UInt64(p[i] &- 0x30)
                if digits < 19 {
                    if mantissa != 0 || d != 0 {
                        mantissa = mantissa * 10 + d
                        digits += 1
                    }
                    exp10 -= 1
                } else if d != 0 {
                    dropped = true
                }
                i += 1
            }
        }
        guard sawDigit else { return nil }
        if i < end && (p[i] | 0x20) == 0x65 {
            i += 1
            var expNegative = false
            if i < end && (p[i] == 0x2D || p[i] == 0x2B) {
                expNegative = p[i] == 0x2D
                i += 1
            }
            var e = 0
            var sawExpDigit = false
            while i < end, p[i] &- 0x30 < 10 {
                sawExpDigit = true
                if e < 100_000 { e = e * 10 + Int(p[i] &- 0x30) }
                i += 1
            }
            guard sawExpDigit else { return nil }
            exp10 += expNegative ? -e : e
        }
        guard i == end else { return nil }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        // Clinger's fast path: an exact mantissa and an exact power of ten give one
        // correctly rounded multiplication or division.
        if !dropped && mantissa <= (1 << 53) && exp10 >= -22 && exp10 <= 22 {
            let m = Double(mantissa)
            let v = exp10 >= 0 ? m * powers[exp10] : m / powers[-exp10]
            return negative ? -v : v
        }
        return slowPath(p, start, end)
    }

    /// strtod on a NUL-terminated copy of the span (the grammar was already checked).
    private static func slowPath(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        let n = end - start
        guard n < 4096 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: n + 1) { buf -> Double? in
            for k in 0..<n { buf[k] = CChar(bitPattern: p[start + k]) }
            buf[n] = 0
            guard let base = buf.baseAddress else { return nil }
            return strtod(base, nil)
        }
    }

    /// True when the span spells NaN or an infinity (`nan`, `inf`, `-Infinity`, …), any case.
    static func isNonFiniteWord(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var i = start
        if i < end && (p[i] == 0x2D || p[i] == 0x2B) { i += 1 }
        var word: [UInt8] = []
        while i < end && word.count < 9 {
            word.append(p[i] | 0x20)
            i += 1
        }
        guard i == end else { return false }
        let w = String(decoding: word, as: UTF8.self)
        return w == "nan" || w == "inf" || w == "infinity"
    }
}
