/// The track file formats MapFormats reads.
public enum TrackFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Comma-separated values with latitude/longitude columns, or bare `LAT,LON` lines.
    case csv
    /// GPX 1.1 (tracks, routes, waypoints).
    case gpx
    /// GeoJSON (RFC 7946).
    case geojson
    /// Encoded polylines, one per line.
    case polyline

    /// The format's usual name: `CSV`, `GPX`, `GeoJSON`, `encoded polyline`.
    public var description: String {
        switch self {
        case .csv: "CSV"
        case .gpx: "GPX"
        case .geojson: "GeoJSON"
        case .polyline: "encoded polyline"
        }
    }

    /// The format a file extension names (`gpx`; `csv`, `tsv`; `geojson`, `json`; `polyline`),
    /// case-insensitive, or nil.
    public init?(fileExtension ext: String) {
        switch ext.lowercased() {
        case "gpx": self = .gpx
        case "csv", "tsv": self = .csv
        case "geojson", "json": self = .geojson
        case "polyline": self = .polyline
        default: return nil
        }
    }

    /// Guesses the format from the first bytes: `<` starts GPX, `{` or `[` GeoJSON, a first
    /// line made only of polyline characters (`?`…`~`) an encoded polyline, anything else CSV.
    /// A UTF-8 byte order mark and leading white space are skipped. Nil for empty input.
    public static func sniff(_ bytes: some Collection<UInt8>) -> TrackFormat? {
        var it = bytes.drop {
            $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF
        }
        guard let first = it.first else { return nil }
        switch first {
        case UInt8(ascii: "<"): return .gpx
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .geojson
        default: break
        }
        it = it.prefix { $0 != 0x0A && $0 != 0x0D }
        let line = it.reversed().drop { $0 == 0x20 || $0 == 0x09 }
        if line.allSatisfy({ $0 >= 63 && $0 <= 126 }) { return .polyline }
        return .csv
    }

    /// The format of a file: from its extension when it names one, else by sniffing.
    public static func detect(path: String, bytes: some Collection<UInt8>) -> TrackFormat? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."),
            let f = TrackFormat(fileExtension: String(name[name.index(after: dot)...]))
        {
            return f
        }
        return sniff(bytes)
    }
}
