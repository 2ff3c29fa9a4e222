import GeoKit

/// Reads text files of encoded polylines: each non-blank line (surrounding spaces ignored)
/// is one part, decoded at `TrackReadOptions.polylinePrecision`.
struct PolylineFileReader {
    let source: SourceText
    let options: TrackReadOptions

    func read() throws -> Track {
        let p = source.bytes
        let n = p.count
        var i = 0
        if n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { i = 3 }
        var track = Track(format: .polyline)
        var total = 0
        while i < n {
            var e = i
            while e < n && p[e] != 0x0A && p[e] != 0x0D { e += 1 }
            var s = i
            var t = e
            while s < t && (p[s] == 0x20 || p[s] == 0x09) { s += 1 }
            while t > s && (p[t - 1] == 0x20 || p[t - 1] == 0x09) { t -= 1 }
            if s < t {
                let line = String(decoding: p[s..<t], as: UTF8.self)
                let points: [LatLng]
                do {
                    points = try PolylineCodec.decode(line, precision: options.polylinePrecision)
                } catch {
                    throw source.locate(.invalid("invalid encoded polyline: \(error.message)"), at: s + error.offset)
                }
                total += points.count
                guard total <= options.maxPoints else {
                    throw source.locate(.tooManyPoints(limit: options.maxPoints), at: s)
                }
                if !points.isEmpty {
                    track.parts.append(TrackPart(points: points.map { TrackPoint($0) }, feature: track.parts.count))
                }
            }
            i = e + 1
        }
        guard !track.parts.isEmpty else { throw source.named(.noPoints("the file has no encoded polyline")) }
        return track
    }
}
