import ArgumentParser
import Foundation
import GeoKit
import MapCamera
import MapFormats
import MapImage
import MapSnapshot

/// `mapwright render`: draws a map with overlays to a PNG.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a map with routes, circles, markers and more to a PNG.",
        discussion: """
            Without --center and --zoom the camera fits every overlay with --padding. Flags add to \
            (and override the camera and extras of) a --scene file. Colours are RRGGBB or RRGGBBAA \
            hex, '#' optional. Output sizes are limited to 8192 px a side and 64 megapixels (after \
            --scale). On any error nothing is written and the exit status is non-zero.
            """
    )

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The PNG file to write.", valueName: "OUT.png"))
    var output: String

    @OptionGroup var options: SceneOptions

    @Flag(name: .customLong("print-camera"), help: "Write the camera used as `lat lon zoom bearing pitch` on standard output.")
    var printCamera = false
    @Option(help: "After the first render, render N more times in this process and print timings on standard error.")
    var `repeat`: Int = 0

    func run() throws {
        do {
            try render()
        } catch let e as CLIError {
            throw e
        } catch {
            throw CLIError("mapwright render: \(error)")
        }
    }

    private func render() throws {
        guard (0...10_000).contains(`repeat`) else { throw CLIError("mapwright render: --repeat must be in 0…10000") }
        let (doc, base) = try options.loadDocument(command: "render")
        let snapshot = try options.loader(for: doc, base: base).snapshot(from: doc)
        guard FileManager.default.fileExists(atPath: URL(fileURLWithPath: output).deletingLastPathComponent().path) else {
            throw CLIError("mapwright render: cannot write '\(output)': the directory does not exist")
        }
        let snapshotter = try options.makeSnapshotter(command: "render")
        let bitmap = try snapshotter.render(snapshot)
        try bitmap.writePNG(to: output)
        if printCamera {
            let c = snapshot.camera
            print("\(c.center.lat) \(c.center.lon) \(c.zoom) \(c.bearing) \(c.pitch)")
        }
        if `repeat` > 0 {
            // Every timed render draws the whole frame, as a render of a new scene would: the
            // partial redraw of animations would otherwise find nothing changed.
            snapshotter.renderer.partialRedraw = false
            var times: [Double] = []
            for _ in 0..<`repeat` {
                let t0 = DispatchTime.now().uptimeNanoseconds
                let b = try snapshotter.render(snapshot)
                _ = try b.pngData()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            }
            times.sort()
            let median = times.count % 2 == 1 ? times[times.count / 2]
                : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
            let line = String(format: "render: %d runs, median %.1f ms, min %.1f ms, max %.1f ms\n",
                              times.count, median, times.first ?? 0, times.last ?? 0)
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    static func why(_ error: Error) -> String {
        let ns = error as NSError
        if let u = ns.userInfo[NSUnderlyingErrorKey] as? NSError, u.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(u.code)) {
            return String(cString: strerror(code.rawValue))
        }
        if ns.domain == NSCocoaErrorDomain && ns.code == NSFileReadNoSuchFileError { return "no such file" }
        return ns.localizedDescription
    }
}

/// An error the CLI reports as it is (one line on standard error, exit status 1).
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}
