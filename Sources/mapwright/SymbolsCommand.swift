import ArgumentParser
import Canvas2D
import MapFormats
import MapImage

/// `mapwright symbols`: the Maki icon names a marker's `symbol` (scene files, `--marker-symbol`,
/// GeoJSON `marker-symbol`, Mapbox pins) can draw, one per line; `--sheet` draws them.
struct SymbolsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "symbols",
        abstract: "List the Maki icons markers can draw (one name per line), or draw them on a sheet.",
        discussion: "Icons from Maki (https://github.com/mapbox/maki, CC0 1.0), embedded."
    )

    @Option(help: "Only names containing this text (ignoring case).")
    var matching: String?

    @Option(help: ArgumentHelp("Write a PNG of the icons with their names (a grid, 8 to a row) instead of listing them.", valueName: "FILE.png"))
    var sheet: String?

    @Option(help: "Output pixels per logical pixel of the sheet, 1…4.")
    var scale: Double = 1

    /// A cell of the sheet: the icon at 30 px (twice its design size) over its name.
    static let cell = (width: 112.0, height: 64.0, icon: 30.0), columns = 8

    func run() throws {
        let names = Maki.names.filter { n in matching.map { n.lowercased().contains($0.lowercased()) } ?? true }
        guard !names.isEmpty else {
            throw CLIError("mapwright symbols: no Maki icon name contains '\(matching ?? "")'")
        }
        guard let sheet else {
            print(names.joined(separator: "\n"))
            return
        }
        guard scale.isFinite, (1 ... 4).contains(scale) else { throw CLIError("mapwright symbols: --scale must be in 1…4") }
        let c = Self.cell
        let rows = (names.count + Self.columns - 1) / Self.columns
        let columns = min(names.count, Self.columns)
        let canvas = try Canvas(pixelWidth: Int((Double(columns) * c.width * scale).rounded()),
                                pixelHeight: Int((Double(rows) * c.height * scale).rounded()), scale: scale)
        canvas.clear(.white)
        let font = Font(size: 11)
        for (i, name) in names.enumerated() {
            let x = Double(i % Self.columns) * c.width, y = Double(i / Self.columns) * c.height
            guard let path = Maki.path(name) else { continue }
            canvas.fill(CanvasPath(path, scale: c.icon / Maki.boxSize, offset: CanvasPoint(x: x + (c.width - c.icon) / 2, y: y + 8)),
                        color: RGBAColor(r8: 0x1F, g8: 0x23, b8: 0x28, a8: 255))
            // The name centred under the icon, shortened with an ellipsis when it is too long.
            var label = name
            while canvas.measure(label, font: font).width > c.width - 6, label.count > 2 { label = String(label.dropLast(2)) + "…" }
            let w = canvas.measure(label, font: font).width
            canvas.drawText(label, at: CanvasPoint(x: x + (c.width - w) / 2, y: y + c.icon + 24), font: font,
                            color: RGBAColor(r8: 0x57, g8: 0x60, b8: 0x6A, a8: 255))
        }
        let bytes = try canvas.makeBitmap().pngData()
        do { try AtomicFile.write(bytes, to: sheet) } catch {
            throw CLIError("mapwright symbols: \(sheet): \(error)")
        }
        print("\(sheet)  \(canvas.pixelWidth)x\(canvas.pixelHeight)  \(names.count) icons")
    }
}
