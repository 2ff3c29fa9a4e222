/// Mapbox's Maki icon set (https://github.com/mapbox/maki, CC0 1.0: public domain), embedded:
/// the names simplestyle's `marker-symbol` and Mapbox's static pins (`pin-s-bus`) use, and each
/// icon's outline as SVG path data in a 15 × 15 box (filled with the nonzero rule).
/// `scripts/maki/make_swift.py` writes the table from a Maki checkout.
public enum Maki {
    /// Every icon name, sorted (`airport`, `bus`, `cafe`, …; 214 in Maki 8.1.0).
    public static var names: [String] { icons.keys.sorted() }

    /// Whether `name` is a Maki icon (names are case-sensitive, as Maki's own: `bank-JP`).
    public static func contains(_ name: String) -> Bool { icons[name] != nil }

    /// The icon's SVG path data as Maki gives it (whitespace collapsed), nil for an unknown name.
    public static func pathData(_ name: String) -> String? { icons[name] }

    /// The icon's outline, parsed (nil for an unknown name), in the 15 × 15 box, y down.
    public static func path(_ name: String) -> SVGPath? {
        guard let d = icons[name] else { return nil }
        // The table is checked by the tests: every entry parses.
        return try? SVGPath(d)
    }

    /// The side of the box the icons are drawn in.
    public static let boxSize = 15.0

    /// A known name close to `name` (edit distance at most 2, or the same when case is
    /// ignored), for an error's "did you mean".
    public static func suggestion(for name: String) -> String? {
        let lower = name.lowercased()
        if let same = icons.keys.first(where: { $0.lowercased() == lower }) { return same }
        guard name.count <= 40 else { return nil }
        var best: (String, Int)?
        for candidate in icons.keys.sorted() {
            let d = distance(Array(lower.utf8), Array(candidate.lowercased().utf8))
            if d <= 2, d < (best?.1 ?? .max) { best = (candidate, d) }
        }
        return best?.0
    }

    /// Why `name` is not an icon, with a suggestion when one is close.
    public static func unknownReason(_ name: String) -> String {
        let shown = String(name.prefix(40))
        if let s = suggestion(for: name) { return "'\(shown)' is not a Maki icon (did you mean '\(s)'?)" }
        return "'\(shown)' is not a Maki icon (names as in Maki \(version): airport, bus, cafe, …)"
    }

    /// Name → path data, read from `table` once.
    static let icons: [String: String] = {
        var out: [String: String] = [:]
        for line in table.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t") else { continue }
            out[String(line[..<tab])] = String(line[line.index(after: tab)...])
        }
        return out
    }()

    /// Edit distance counting a swap of two neighbouring letters as one edit (optimal string
    /// alignment: "bsu" is one edit from "bus").
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0 ... a.count { d[i][0] = i }
        for j in 0 ... b.count { d[0][j] = j }
        for i in 1 ... a.count {
            for j in 1 ... b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
