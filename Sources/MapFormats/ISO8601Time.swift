import Foundation

/// ISO 8601 / RFC 3339 date-times as GPX and CSV carry them, read and written without
/// Foundation formatters (fast, and the same on every platform).
enum ISO8601Time {
    /// Parses `YYYY-MM-DD[(T| )hh:mm[:ss[.fraction]]][Z|±hh[:mm]]` spanning `start..<end`.
    /// A time without a zone is taken as UTC; a date alone is midnight UTC. Nil when malformed
    /// or out of range (month 13, 31 April, hour 25, …).
    static func parse(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Date? {
        var i = start
        func digits(_ count: Int) -> Int? {
            guard i + count <= end else { return nil }
            var v = 0
            for k in 0..<count {
                let d = p[i + k] &- 0x30
                guard d < 10 else { return nil }
                v = v * 10 + Int(d)
            }
            i += count
            return v
        }
        func expect(_ b: UInt8) -> Bool {
            guard i < end, p[i] == b else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2) else {
            return nil
        }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        var seconds = Double(daysFromCivil(year: year, month: month, day: day)) * 86_400
        if i == end { return Date(timeIntervalSince1970: seconds) }
        guard p[i] == 0x54 || p[i] == 0x74 || p[i] == 0x20 else { return nil }
        i += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2) else { return nil }
        var second = 0
        var fraction = 0.0
        if i < end && p[i] == 0x3A {
            i += 1
            guard let s = digits(2) else { return nil }
            second = s
            if i < end && (p[i] == 0x2E || p[i] == 0x2C) {
                i += 1
                var scale = 0.1
                var any = false
                while i < end, p[i] &- 0x30 < 10 {
                    fraction += Double(p[i] &- 0x30) * scale
                    scale /= 10
                    any = true
                    i += 1
                }
                guard any else { return nil }
            }
        }
        guard hour < 24, minute < 60, second <= 60 else { return nil }
        seconds += Double(hour * 3600 + minute * 60 + second) + fraction
        if i < end {
            let sign = p[i]
            if sign == 0x5A || sign == 0x7A {
                i += 1
            } else if sign == 0x2B || sign == 0x2D {
                i += 1
                guard let oh = digits(2) else { return nil }
                var om = 0
                if i < end {
                    _ = expect(0x3A)
                    guard let m = digits(2) else { return nil }
                    om = m
                }
                guard oh < 24, om < 60 else { return nil }
                let offset = Double(oh * 3600 + om * 60)
                seconds += sign == 0x2B ? -offset : offset
            } else {
                return nil
            }
        }
        guard i == end else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// `YYYY-MM-DDThh:mm:ss[.fff]Z` in UTC; milliseconds only when not whole seconds.
    static func format(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        guard t.isFinite, abs(t) < 1e14 else { return "\(t)" }
        var ms = Int64((t * 1000).rounded(.toNearestOrAwayFromZero))
        var days = ms / 86_400_000
        ms -= days * 86_400_000
        if ms < 0 {
            ms += 86_400_000
            days -= 1
        }
        let (y, m, d) = civilFromDays(Int(days))
        let secs = Int(ms / 1000), milli = Int(ms % 1000)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var year = String(abs(y))
        while year.count < 4 { year = "0" + year }
        if y < 0 { year = "-" + year }
        var s = "\(year)-\(two(m))-\(two(d))T\(two(secs / 3600)):\(two(secs / 60 % 60)):\(two(secs % 60))"
        if milli != 0 {
            var f = String(milli)
            while f.count < 3 { f = "0" + f }
            while f.hasSuffix("0") { f.removeLast() }
            s += "." + f
        }
        return s + "Z"
    }

    private static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (era arithmetic: 400-year eras
    /// of 146097 days, years counted from March so the leap day ends the year).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12  // March = 0
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The inverse of `daysFromCivil`.
    static func civilFromDays(_ z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
