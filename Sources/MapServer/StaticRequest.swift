import Foundation
import GeoKit
import MapFormats
import MapImage

/// Image formats the server answers with (MapImage's `ImageFormat`).
extension ImageFormat {
    /// The `format` query parameter of Mapbox URLs and posted scenes: each must name a format,
    /// the last one wins, PNG without one.
    static func requested(in query: [(key: String, value: String)]) throws(APIError) -> ImageFormat {
        var format = ImageFormat.png
        for (k, v) in query where k == "format" {
            guard let f = named(v) else { throw APIError.bad("format", "'\(v.prefix(20))' is not png, png8, gif, jpg or webp") }
            format = f
        }
        return format
    }
}

/// A static-map request turned into a scene: what to draw and how to encode it. Both URL
/// grammars and `POST /static` end here, so the cache key is the same for equal requests
/// however they were spelled.
public struct StaticRequest: Sendable, Equatable {
    public var scene: SceneDocument
    public var format: ImageFormat = .png
    /// JPEG/WebP quality 1…100.
    public var quality = 85

    public init(scene: SceneDocument, format: ImageFormat = .png) {
        self.scene = scene
        self.format = format
    }

    /// The normalised request: the scene as sorted-key JSON plus the encoding.
    public var cacheKey: String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        let json = (try? enc.encode(scene)).map { String(decoding: $0, as: UTF8.self) } ?? UUID().uuidString
        return "static|\(format.rawValue)|\(quality)|\(json)"
    }
}

/// `application/x-www-form-urlencoded` query strings, decoded strictly: `%XX` escapes and `+` as
/// a space, UTF-8 only; keys keep their order and repeats.
public enum QueryString {
    public static func parse(_ raw: Substring) throws(APIError) -> [(key: String, value: String)] {
        var out: [(String, String)] = []
        for item in raw.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = try decode(parts[0], what: "query key")
            let value = parts.count > 1 ? try decode(parts[1], what: key) : ""
            if key.isEmpty { continue }
            out.append((key, value))
        }
        return out
    }

    /// Percent-decodes (and `+` → space when `plus`), failing on broken escapes or invalid UTF-8.
    public static func decode(_ s: Substring, what: String, plus: Bool = true) throws(APIError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count)
        var it = s.utf8.makeIterator()
        while let b = it.next() {
            if b == UInt8(ascii: "%") {
                guard let h = it.next(), let l = it.next(), let hv = hex(h), let lv = hex(l) else {
                    throw APIError.bad(what, "a broken %-escape")
                }
                bytes.append(hv << 4 | lv)
            } else if plus, b == UInt8(ascii: "+") {
                bytes.append(32)
            } else {
                bytes.append(b)
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw APIError.bad(what, "not valid UTF-8") }
        return text
    }

    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 48 ... 57: b - 48
        case 65 ... 70: b - 55
        case 97 ... 102: b - 87
        default: nil
        }
    }
}

/// Numbers in URLs: finite decimals only (no `nan`, `inf` or hex floats).
enum URLNumber {
    static func double(_ s: Substring, _ parameter: String, what: String) throws(APIError) -> Double {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, t.count <= 40, t.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
              let v = Double(t), v.isFinite
        else { throw APIError.bad(parameter, "'\(s.prefix(40))' is not a number (\(what))") }
        return v
    }

    static func latLng(_ s: Substring, _ parameter: String, lonFirst: Bool = false) throws(APIError) -> [Double] {
        let p = s.split(separator: ",", omittingEmptySubsequences: false)
        guard p.count == 2 else {
            throw APIError.bad(parameter, "'\(s.prefix(60))' is not a \(lonFirst ? "lon,lat" : "lat,lon") position (place names are not geocoded)")
        }
        var lat = try double(p[lonFirst ? 1 : 0], parameter, what: "latitude")
        let lon = try double(p[lonFirst ? 0 : 1], parameter, what: "longitude")
        guard abs(lat) <= 90 else { throw APIError.bad(parameter, "latitude \(lat) is outside -90…90") }
        guard abs(lon) <= 540 else { throw APIError.bad(parameter, "longitude \(lon) is outside -540…540") }
        lat = min(max(lat, -85.05), 85.05)
        return [lat, lon]
    }
}

/// Colours in the Google (`0xRRGGBB[AA]`, names) and Mapbox (`RGB`, `RRGGBB`) spellings, as scene colours.
enum URLColor {
    static let googleNames: [String: String] = [
        "black": "000000", "brown": "a52a2a", "green": "00c000", "purple": "800080", "yellow": "ffff00",
        "blue": "0000ff", "gray": "808080", "orange": "ffa500", "red": "ff0000", "white": "ffffff",
    ]

    static func google(_ s: String, _ parameter: String) throws(APIError) -> String {
        let t = s.lowercased()
        if let n = googleNames[t] { return "#" + n }
        guard t.hasPrefix("0x") else { throw APIError.bad(parameter, "colour '\(s.prefix(20))' is not 0xRRGGBB, 0xRRGGBBAA or a colour name") }
        let hex = t.dropFirst(2)
        guard hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit) else {
            throw APIError.bad(parameter, "colour '\(s.prefix(20))' is not 0xRRGGBB or 0xRRGGBBAA")
        }
        return "#" + hex
    }

    /// Mapbox: 3 or 6 hex digits, with an opacity 0…1 folded into the alpha.
    static func mapbox(_ s: Substring, opacity: Double?, _ parameter: String) throws(APIError) -> String {
        var hex = String(s.lowercased())
        guard hex.count == 3 || hex.count == 6, hex.allSatisfy(\.isHexDigit) else {
            throw APIError.bad(parameter, "colour '\(s.prefix(20))' is not 3 or 6 hex digits")
        }
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        if let o = opacity {
            guard o.isFinite, (0 ... 1).contains(o) else { throw APIError.bad(parameter, "opacity \(o) is not in 0…1") }
            hex += String(format: "%02x", Int((o * 255).rounded()))
        }
        return "#" + hex
    }
}
