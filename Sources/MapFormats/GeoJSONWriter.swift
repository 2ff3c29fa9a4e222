import Foundation

/// Writes tracks as GeoJSON (RFC 7946) text.
///
/// Numbers are printed in the shortest form that reads back to the same Double (Swift's
/// `description`), so a write/read round trip is exact. NaN and infinities, which JSON
/// cannot hold, are written as `null`. Object keys are sorted, so output is deterministic.
public enum GeoJSONWriter {
    /// A FeatureCollection: one LineString Feature per part (rings as well), then one Point
    /// Feature per waypoint; a part's or waypoint's name goes into its `name` property.
    public static func featureCollection(_ track: Track) -> String {
        var out = "{\"type\":\"FeatureCollection\",\"features\":["
        var first = true
        for part in track.parts {
            if !first { out += "," }
            first = false
            appendFeature(part, to: &out)
        }
        for w in track.waypoints {
            if !first { out += "," }
            first = false
            appendFeature(w, to: &out)
        }
        out += "]}"
        return out
    }

    /// One part as a LineString Feature.
    public static func feature(_ part: TrackPart) -> String {
        var out = ""
        appendFeature(part, to: &out)
        return out
    }

    /// A JSON value as compact text (keys sorted).
    public static func string(_ value: JSONValue) -> String {
        var out = ""
        append(value, to: &out)
        return out
    }

    /// A number as JSON: the shortest round-trip form, `null` when not finite.
    public static func number(_ x: Double) -> String {
        guard x.isFinite else { return "null" }
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        return "\(x)"
    }

    private static func appendFeature(_ part: TrackPart, to out: inout String) {
        var props = part.properties
        if let name = part.name { props["name"] = .string(name) }
        out += "{\"type\":\"Feature\",\"properties\":"
        append(.object(props), to: &out)
        out += ",\"geometry\":{\"type\":\"LineString\",\"coordinates\":["
        for (k, p) in part.points.enumerated() {
            if k > 0 { out += "," }
            appendPosition(p.coordinate.lon, p.coordinate.lat, p.elevation, to: &out)
        }
        out += "]}}"
    }

    private static func appendFeature(_ w: Waypoint, to out: inout String) {
        var props = w.properties
        if let name = w.name { props["name"] = .string(name) }
        out += "{\"type\":\"Feature\",\"properties\":"
        append(.object(props), to: &out)
        out += ",\"geometry\":{\"type\":\"Point\",\"coordinates\":"
        appendPosition(w.coordinate.lon, w.coordinate.lat, w.elevation, to: &out)
        out += "}}"
    }

    private static func appendPosition(_ lon: Double, _ lat: Double, _ ele: Double?, to out: inout String) {
        out += "["
        out += number(lon)
        out += ","
        out += number(lat)
        if let ele {
            out += ","
            out += number(ele)
        }
        out += "]"
    }

    private static func append(_ value: JSONValue, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let x): out += number(x)
        case .string(let s): appendString(s, to: &out)
        case .array(let a):
            out += "["
            for (k, v) in a.enumerated() {
                if k > 0 { out += "," }
                append(v, to: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (k, key) in o.keys.sorted().enumerated() {
                if k > 0 { out += "," }
                appendString(key, to: &out)
                out += ":"
                if let v = o[key] { append(v, to: &out) }
            }
            out += "}"
        }
    }

    /// A JSON string literal with `"` `\` and control characters escaped.
    public static func jsonString(_ s: String) -> String {
        var out = ""
        appendString(s, to: &out)
        return out
    }

    /// Appends a JSON string literal with `"` `\` and control characters escaped.
    static func appendString(_ s: String, to out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
