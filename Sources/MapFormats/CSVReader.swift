import Foundation
import GeoKit

/// Reads CSV tracks (RFC 4180 quoting, LF or CRLF line ends, `,` `;` or tab separators).
///
/// With a header, latitude and longitude columns are found by name in any order
/// (`lat`/`latitude`, `lon`/`lng`/`long`/`longitude`), optional `time`/`timestamp`
/// (ISO 8601 or seconds since 1970), `ele`/`elevation`/`alt`/`altitude` (metres) and
/// `segment`/`track`/`part` (a change of value starts a new part); other columns become
/// per-point string properties (empty cells left out). Without a header every line is
/// `LAT,LON[,…]`. Blank lines are skipped.
struct CSVReader {
    let source: SourceText
    let options: TrackReadOptions

    /// One field of a record: its byte span (inside the quotes when quoted).
    private struct Field {
        var start: Int
        var end: Int
        var quoted: Bool
        var escaped: Bool  // holds "" pairs
    }

    private struct Columns {
        var lat = -1, lon = -1, time = -1, ele = -1, segment = -1
        var names: [String] = []
        var count: Int { names.count }
    }

    func read() throws -> Track {
        try source.bytes.withUnsafeBufferPointer { try parse($0) }
    }

    private func fail(_ e: FormatError, _ offset: Int) -> FormatError { source.locate(e, at: offset) }

    private func parse(_ p: UnsafeBufferPointer<UInt8>) throws -> Track {
        let n = p.count
        var i = 0
        if n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { i = 3 }
        let delimiter = sniffDelimiter(p, from: i)
        var fields: [Field] = []
        fields.reserveCapacity(16)
        var columns: Columns?
        var headerless = false
        var parts: [TrackPart] = []
        var points: [TrackPoint] = []
        var segmentValue: String?
        var total = 0

        while i < n {
            let recordStart = i
            try readRecord(p, &i, delimiter, &fields)
            if fields.count == 1 && trimmed(p, fields[0]).isEmpty && !fields[0].quoted { continue }
            if columns == nil {
                let names = fields.map { text(p, $0).trimmingCharacters(in: .whitespaces) }
                var c = Columns()
                c.names = names
                for (k, raw) in names.enumerated() {
                    switch raw.lowercased() {
                    case "lat", "latitude": if c.lat < 0 { c.lat = k }
                    case "lon", "lng", "long", "longitude": if c.lon < 0 { c.lon = k }
                    case "time", "timestamp", "datetime": if c.time < 0 { c.time = k }
                    case "ele", "elevation", "alt", "altitude": if c.ele < 0 { c.ele = k }
                    case "segment", "track", "part": if c.segment < 0 { c.segment = k }
                    default: break
                    }
                }
                if c.lat >= 0 && c.lon >= 0 {
                    columns = c
                    continue
                }
                let numeric =
                    fields.count >= 2
                    && DecimalNumber.parse(p, trimmed(p, fields[0]).lowerBound, trimmed(p, fields[0]).upperBound) != nil
                if numeric || (fields.count >= 2 && looksNumericOrNonFinite(p, fields[0])) {
                    headerless = true
                    c = Columns()
                    c.lat = 0
                    c.lon = 1
                    c.names = (0..<fields.count).map { $0 < 2 ? "" : "column\($0 + 1)" }
                    columns = c
                } else if c.lat >= 0 {
                    throw fail(
                        .invalid(
                            "the header has a latitude column but no longitude column (lon, lng, long or longitude)"),
                        recordStart)
                } else if c.lon >= 0 {
                    throw fail(
                        .invalid("the header has a longitude column but no latitude column (lat or latitude)"),
                        recordStart)
                } else {
                    throw fail(
                        .unexpected(
                            quoted(p, recordStart, fields.last.map { $0.end } ?? recordStart),
                            expected: "a header naming latitude and longitude columns, or LAT,LON numbers"),
                        recordStart)
                }
            }
            guard let c = columns else { continue }
            if headerless {
                guard fields.count >= 2 else {
                    throw fail(.unexpected("\(fields.count) field", expected: "LAT,LON"), recordStart)
                }
            } else if fields.count != c.count {
                throw fail(
                    .unexpected("\(fields.count) fields", expected: "\(c.count) fields as in the header"), recordStart)
            }
            let lat = try number(p, fields[c.lat], what: "latitude")
            guard lat >= -90 && lat <= 90 else {
                throw fail(.latitudeOutOfRange(lat), trimmed(p, fields[c.lat]).lowerBound)
            }
            let lon = try number(p, fields[c.lon], what: "longitude")
            var point = TrackPoint(LatLng(lat: lat, lon: lon))
            if c.ele >= 0 && !trimmed(p, fields[c.ele]).isEmpty {
                point.elevation = try number(p, fields[c.ele], what: "elevation")
            }
            if c.time >= 0 {
                let r = trimmed(p, fields[c.time])
                if !r.isEmpty {
                    if let t = ISO8601Time.parse(p, r.lowerBound, r.upperBound) {
                        point.time = t
                    } else if let s = DecimalNumber.parse(p, r.lowerBound, r.upperBound), s.isFinite {
                        point.time = Date(timeIntervalSince1970: s)
                    } else {
                        throw fail(
                            .unexpected(
                                quoted(p, r.lowerBound, r.upperBound),
                                expected: "an ISO 8601 time or seconds since 1970"), r.lowerBound)
                    }
                }
            }
            if c.segment >= 0 {
                let s = text(p, fields[c.segment])
                if s != segmentValue {
                    if !points.isEmpty {
                        parts.append(TrackPart(points: points, name: segmentValue, feature: parts.count))
                        points = []
                    }
                    segmentValue = s
                }
            }
            for k in 0..<fields.count where k != c.lat && k != c.lon && k != c.ele && k != c.time && k != c.segment {
                let f = fields[k]
                guard f.start < f.end else { continue }
                let name = k < c.count ? c.names[k] : "column\(k + 1)"
                point.properties[name] = .string(text(p, f))
            }
            total += 1
            guard total <= options.maxPoints else { throw fail(.tooManyPoints(limit: options.maxPoints), recordStart) }
            points.append(point)
        }
        if !points.isEmpty { parts.append(TrackPart(points: points, name: segmentValue, feature: parts.count)) }
        guard !parts.isEmpty else {
            throw source.named(.noPoints(columns == nil ? "the file is empty" : "the file has a header but no rows"))
        }
        return Track(format: .csv, parts: parts)
    }

    /// The separator: whichever of `,` `;` tab is most frequent on the first line (`,` on a tie).
    private func sniffDelimiter(_ p: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt8 {
        var comma = 0, semicolon = 0, tab = 0
        var i = start
        var inQuotes = false
        while i < p.count {
            let b = p[i]
            if b == 0x22 { inQuotes.toggle() }
            if !inQuotes {
                if b == 0x0A || b == 0x0D { break }
                if b == 0x2C { comma += 1 } else if b == 0x3B { semicolon += 1 } else if b == 0x09 { tab += 1 }
            }
            i += 1
        }
        if semicolon > comma && semicolon >= tab { return 0x3B }
        if tab > comma && tab > semicolon { return 0x09 }
        return 0x2C
    }

    /// Reads one record starting at `i`, leaving `i` after its line end.
    private func readRecord(
        _ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ delimiter: UInt8,
        _ fields: inout [Field]
    ) throws {
        fields.removeAll(keepingCapacity: true)
        let n = p.count
        while true {
            var j = i
            // Leading spaces before an opening quote are tolerated.
            while j < n && p[j] == 0x20 { j += 1 }
            if j < n && p[j] == 0x22 {
                let open = j
                j += 1
                let start = j
                var escaped = false
                while true {
                    guard j < n else {
                        throw fail(.truncated(expected: "the closing quote of the field opened here"), open)
                    }
                    if p[j] == 0x22 {
                        if j + 1 < n && p[j + 1] == 0x22 {
                            escaped = true
                            j += 2
                            continue
                        }
                        break
                    }
                    j += 1
                }
                fields.append(Field(start: start, end: j, quoted: true, escaped: escaped))
                j += 1
                while j < n && p[j] == 0x20 { j += 1 }
                if j < n && p[j] != delimiter && p[j] != 0x0A && p[j] != 0x0D {
                    throw fail(
                        .unexpected(describeByte(p[j]), expected: "a separator or line end after the closing quote"), j)
                }
            } else {
                j = i
                while j < n {
                    let b = p[j]
                    if b == delimiter || b == 0x0A || b == 0x0D { break }
                    j += 1
                }
                fields.append(Field(start: i, end: j, quoted: false, escaped: false))
            }
            if j >= n {
                i = n
                return
            }
            if p[j] == delimiter {
                i = j + 1
                if i >= n {  // a trailing separator at the very end: one more empty field
                    fields.append(Field(start: n, end: n, quoted: false, escaped: false))
                    return
                }
                continue
            }
            i = j + (p[j] == 0x0D && j + 1 < n && p[j + 1] == 0x0A ? 2 : 1)
            return
        }
    }

    private func trimmed(_ p: UnsafeBufferPointer<UInt8>, _ f: Field) -> Range<Int> {
        var s = f.start, e = f.end
        while s < e && (p[s] == 0x20 || p[s] == 0x09) { s += 1 }
        while e > s && (p[e - 1] == 0x20 || p[e - 1] == 0x09) { e -= 1 }
        return s..<e
    }

    private func text(_ p: UnsafeBufferPointer<UInt8>, _ f: Field) -> String {
        let s = String(decoding: UnsafeBufferPointer(rebasing: p[f.start..<f.end]), as: UTF8.self)
        return f.escaped ? s.replacingOccurrences(of: "\"\"", with: "\"") : s
    }

    private func looksNumericOrNonFinite(_ p: UnsafeBufferPointer<UInt8>, _ f: Field) -> Bool {
        let r = trimmed(p, f)
        return DecimalNumber.isNonFiniteWord(p, r.lowerBound, r.upperBound)
    }

    private func number(_ p: UnsafeBufferPointer<UInt8>, _ f: Field, what: String) throws -> Double {
        let r = trimmed(p, f)
        let unit = what == "elevation" ? "metres" : "degrees"
        guard !r.isEmpty else { throw fail(.unexpected("an empty field", expected: "a \(what) in \(unit)"), f.start) }
        if let v = DecimalNumber.parse(p, r.lowerBound, r.upperBound) {
            guard v.isFinite else { throw fail(.notFinite(what.capitalizedFirst), r.lowerBound) }
            return v
        }
        if DecimalNumber.isNonFiniteWord(p, r.lowerBound, r.upperBound) {
            throw fail(.notFinite("\(what.capitalizedFirst) \(quoted(p, r.lowerBound, r.upperBound))"), r.lowerBound)
        }
        throw fail(.unexpected(quoted(p, r.lowerBound, r.upperBound), expected: "a \(what) in \(unit)"), r.lowerBound)
    }
}

extension String {
    /// The string with its first letter upper-cased.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
