import Foundation
import GeoKit

/// Reads GPX 1.1 (and 1.0) files: `<trk>`/`<trkseg>`/`<trkpt>`, `<rte>`/`<rtept>`, `<wpt>`,
/// with `<ele>`, `<time>` (ISO 8601), `<name>`, `<desc>`, `<type>`; `<metadata><name>` names
/// the track. Namespace prefixes are ignored (`<gpx:trkpt>` is a `<trkpt>`), `<extensions>`
/// are skipped. Each `<trkseg>` is a part; each `<rte>` is a part of kind `.route`.
struct GPXReader {
    let source: SourceText
    let options: TrackReadOptions

    private enum Tag {
        case gpx, metadata, wpt, rte, rtept, trk, trkseg, trkpt, ele, time, name, desc, cmt, type, extensions, other
    }

    /// A point being read (`<wpt>`, `<rtept>` or `<trkpt>`).
    private struct OpenPoint {
        var coordinate: LatLng
        var elevation: Double?
        var time: Date?
        var name: String?
        var desc: String?
    }

    func read() throws -> Track {
        try source.bytes.withUnsafeBufferPointer { try parse($0) }
    }

    private func fail(_ e: FormatError, _ offset: Int) -> FormatError { source.locate(e, at: offset) }

    /// The GPX element a (possibly prefixed) name is, without allocating.
    private func tag(_ t: XMLTokenizer, _ name: Range<Int>) -> Tag {
        let local = t.localName(name)
        let p = t.p
        let s = local.lowerBound
        func eq(_ word: StaticString) -> Bool {
            guard word.utf8CodeUnitCount == local.count else { return false }
            let w = word.utf8Start
            for k in 0..<local.count where p[s + k] != w[k] { return false }
            return true
        }
        switch local.count {
        case 3:
            if eq("ele") { return .ele }
            if eq("trk") { return .trk }
            if eq("wpt") { return .wpt }
            if eq("rte") { return .rte }
            if eq("gpx") { return .gpx }
            if eq("cmt") { return .cmt }
        case 4:
            if eq("time") { return .time }
            if eq("name") { return .name }
            if eq("desc") { return .desc }
            if eq("type") { return .type }
        case 5:
            if eq("trkpt") { return .trkpt }
            if eq("rtept") { return .rtept }
        case 6:
            if eq("trkseg") { return .trkseg }
        case 8:
            if eq("metadata") { return .metadata }
        case 10:
            if eq("extensions") { return .extensions }
        default:
            break
        }
        return .other
    }

    private func parse(_ p: UnsafeBufferPointer<UInt8>) throws -> Track {
        var t = XMLTokenizer(p, source: source, maxDepth: options.maxDepth)
        var track = Track(format: .gpx)
        var tags: [Tag] = []
        tags.reserveCapacity(16)
        var skipDepth = 0  // > 0 inside <extensions> or unknown elements
        var point: OpenPoint?
        var points: [TrackPoint] = []  // the open segment or route
        var partName: String?
        var partDesc: String?
        var partType: String?
        var feature = -1
        var total = 0
        var text: [UInt8] = []
        var textStart = 0
        var collecting = false

        func finishPart(kind: TrackPart.Kind) {
            guard !points.isEmpty else { return }
            var props: [String: JSONValue] = [:]
            if let partDesc { props["desc"] = .string(partDesc) }
            if let partType { props["type"] = .string(partType) }
            track.parts.append(
                TrackPart(kind: kind, points: points, name: partName, feature: max(feature, 0), properties: props))
            points = []
        }

        loop: while true {
            let event = try t.next()
            switch event {
            case .eof:
                break loop
            case .text(let r):
                if collecting {
                    if text.isEmpty { textStart = r.lowerBound }
                    try t.decode(r, into: &text)
                }
            case .cdata(let r):
                if collecting {
                    if text.isEmpty { textStart = r.lowerBound }
                    text.append(contentsOf: UnsafeBufferPointer(rebasing: p[r]))
                }
            case .start(let name, let at):
                let kind = tag(t, name)
                if tags.isEmpty && kind != .gpx {
                    throw fail(.unexpected("<\(t.string(name))>", expected: "a <gpx> root element"), at)
                }
                let parent = tags.last ?? .other
                tags.append(kind)
                if skipDepth > 0 || kind == .extensions || kind == .other {
                    skipDepth += 1
                    continue
                }
                switch kind {
                case .wpt, .rtept, .trkpt:
                    let expectedParent: Tag = kind == .wpt ? .gpx : kind == .rtept ? .rte : .trkseg
                    guard parent == expectedParent || (kind == .trkpt && parent == .trk) else {
                        throw fail(
                            .unexpected(
                                "<\(t.string(name))> inside <\(String(describing: parent))>",
                                expected: "<\(String(describing: kind))> inside <\(String(describing: expectedParent))>"
                            ), at)
                    }
                    point = OpenPoint(coordinate: try coordinate(t, name, at))
                    total += 1
                    guard total <= options.maxPoints else { throw fail(.tooManyPoints(limit: options.maxPoints), at) }
                case .trk, .rte:
                    feature += 1
                    partName = nil
                    partDesc = nil
                    partType = nil
                case .ele, .time, .name, .desc, .cmt, .type:
                    collecting =
                        parent == .wpt || parent == .rtept || parent == .trkpt || parent == .trk || parent == .rte
                        || (parent == .metadata && kind == .name)
                    text.removeAll(keepingCapacity: true)
                    textStart = t.i
                default:
                    break
                }
            case .end:
                let kind = tags.removeLast()
                if skipDepth > 0 {
                    skipDepth -= 1
                    continue
                }
                let parent = tags.last ?? .other
                switch kind {
                case .ele, .time, .name, .desc, .cmt, .type:
                    guard collecting else { continue }
                    collecting = false
                    try assign(kind, parent: parent, &point, &partName, &partDesc, &partType, &track, text, textStart)
                case .trkpt, .rtept:
                    if let pt = point {
                        var tp = TrackPoint(pt.coordinate, elevation: pt.elevation, time: pt.time)
                        if let n = pt.name { tp.properties["name"] = .string(n) }
                        if let d = pt.desc { tp.properties["desc"] = .string(d) }
                        points.append(tp)
                    }
                    point = nil
                case .wpt:
                    if let pt = point {
                        var props: [String: JSONValue] = [:]
                        if let d = pt.desc { props["desc"] = .string(d) }
                        track.waypoints.append(
                            Waypoint(
                                pt.coordinate, elevation: pt.elevation, time: pt.time, name: pt.name,
                                feature: track.waypoints.count, properties: props))
                    }
                    point = nil
                case .trkseg, .trk:
                    finishPart(kind: .line)
                case .rte:
                    finishPart(kind: .route)
                default:
                    break
                }
            }
        }
        guard !track.parts.isEmpty || !track.waypoints.isEmpty else {
            throw source.named(.noPoints("the GPX has no track, route or waypoint points"))
        }
        return track
    }

    /// The `lat`/`lon` attributes of a point tag.
    private func coordinate(_ t: XMLTokenizer, _ name: Range<Int>, _ at: Int) throws -> LatLng {
        var lat: Double?
        var lon: Double?
        for a in t.attributes {
            let local = t.localName(a.name)
            guard local.count == 3 else { continue }
            let b0 = t.p[local.lowerBound], b1 = t.p[local.lowerBound + 1], b2 = t.p[local.lowerBound + 2]
            if b0 == 0x6C && b1 == 0x61 && b2 == 0x74 {  // lat
                let v = try number(t, a.value, what: "latitude", unit: "degrees")
                guard v >= -90 && v <= 90 else { throw fail(.latitudeOutOfRange(v), a.value.lowerBound) }
                lat = v
            } else if b0 == 0x6C && b1 == 0x6F && b2 == 0x6E {  // lon
                lon = try number(t, a.value, what: "longitude", unit: "degrees")
            }
        }
        guard let lat else { throw fail(.invalid("<\(t.string(name))> has no lat attribute"), at) }
        guard let lon else { throw fail(.invalid("<\(t.string(name))> has no lon attribute"), at) }
        return LatLng(lat: lat, lon: lon)
    }

    private func number(_ t: XMLTokenizer, _ r: Range<Int>, what: String, unit: String) throws -> Double {
        var s = r.lowerBound, e = r.upperBound
        while s < e && (t.p[s] == 0x20 || t.p[s] == 0x09 || t.p[s] == 0x0A || t.p[s] == 0x0D) { s += 1 }
        while e > s && (t.p[e - 1] == 0x20 || t.p[e - 1] == 0x09 || t.p[e - 1] == 0x0A || t.p[e - 1] == 0x0D) { e -= 1 }
        if let v = DecimalNumber.parse(t.p, s, e) {
            guard v.isFinite else { throw fail(.notFinite(what.capitalizedFirst), s) }
            return v
        }
        if DecimalNumber.isNonFiniteWord(t.p, s, e) {
            throw fail(.notFinite("\(what.capitalizedFirst) \(quoted(t.p, s, e))"), s)
        }
        let found = s == e ? "an empty value" : quoted(t.p, s, e)
        throw fail(.unexpected(found, expected: "a \(what) in \(unit)"), s)
    }

    private func assign(
        _ kind: Tag, parent: Tag, _ point: inout OpenPoint?, _ partName: inout String?,
        _ partDesc: inout String?, _ partType: inout String?, _ track: inout Track,
        _ text: [UInt8], _ textStart: Int
    ) throws {
        let isPoint = parent == .wpt || parent == .rtept || parent == .trkpt
        switch kind {
        case .ele where isPoint:
            point?.elevation = try text.withUnsafeBufferPointer { buf in
                try elevation(buf, textStart)
            }
        case .time where isPoint:
            point?.time = try text.withUnsafeBufferPointer { buf in
                var s = 0, e = buf.count
                while s < e && buf[s] <= 0x20 { s += 1 }
                while e > s && buf[e - 1] <= 0x20 { e -= 1 }
                guard let d = ISO8601Time.parse(buf, s, e) else {
                    throw fail(
                        .unexpected(s == e ? "an empty value" : quoted(buf, s, e), expected: "an ISO 8601 time"),
                        textStart)
                }
                return d
            }
        case .name, .desc, .cmt, .type:
            let s = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if isPoint {
                if kind == .name { point?.name = s } else if kind == .desc { point?.desc = s }
            } else if parent == .metadata {
                track.name = s
            } else if kind == .name {
                partName = s
            } else if kind == .desc {
                partDesc = s
            } else if kind == .type {
                partType = s
            }
        default:
            break
        }
    }

    private func elevation(_ buf: UnsafeBufferPointer<UInt8>, _ textStart: Int) throws -> Double {
        var s = 0, e = buf.count
        while s < e && buf[s] <= 0x20 { s += 1 }
        while e > s && buf[e - 1] <= 0x20 { e -= 1 }
        if let v = DecimalNumber.parse(buf, s, e) {
            guard v.isFinite else { throw fail(.notFinite("Elevation"), textStart) }
            return v
        }
        if DecimalNumber.isNonFiniteWord(buf, s, e) {
            throw fail(.notFinite("Elevation \(quoted(buf, s, e))"), textStart)
        }
        throw fail(
            .unexpected(s == e ? "an empty value" : quoted(buf, s, e), expected: "an elevation in metres"), textStart)
    }
}
