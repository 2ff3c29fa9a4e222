import ArgumentParser
import MapFormats

/// `mapwright symbols`: the Maki icon names a marker's `symbol` (scene files, `--marker-symbol`,
/// GeoJSON `marker-symbol`, Mapbox pins) can draw, one per line.
struct SymbolsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "symbols",
        abstract: "List the Maki icons markers can draw (one name per line).",
        discussion: "Icons from Maki (https://github.com/mapbox/maki, CC0 1.0), embedded."
    )

    @Option(help: "Only names containing this text.")
    var matching: String?

    func run() throws {
        let names = Maki.names.filter { n in matching.map { n.lowercased().contains($0.lowercased()) } ?? true }
        guard !names.isEmpty else {
            throw CLIError("mapwright symbols: no Maki icon name contains '\(matching ?? "")'")
        }
        print(names.joined(separator: "\n"))
    }
}
