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

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp(
        "The image to write: .png, .jpg/.jpeg, .webp or .gif by its extension (PNG without one; - is standard output).",
        valueName: "OUT.png"))
    var output: String
    @Option(help: ArgumentHelp("JPEG quality (default 90), or lossy WebP at this quality (WebP is lossless without it), 1…100."))
    var quality: Int?

    @Flag(help: "Write a .png with a palette of at most 256 colours (smaller; Google Static Maps' png8).")
    var palette = false

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

    /// The format `-o` names: by its extension; PNG for a name without one (`-`, `/dev/stdout`).
    /// `--quality` is checked with it.
    private func outputFormat() throws -> ImageFormat {
        if let q = quality, !(1...100).contains(q) { throw CLIError("mapwright render: --quality: \(q) is not in 1…100") }
        var format: ImageFormat
        if let ext = ImageFormat.fileExtension(of: output) {
            guard let named = ImageFormat.named(ext), named != .png8 else {
                throw CLIError("mapwright render: -o '\(output)': '.\(ext)' is not an image format written here "
                    + "(expected .png, .jpg, .jpeg, .webp or .gif)")
            }
            format = named
        } else {
            format = .png
        }
        if palette {
            guard format == .png else { throw CLIError("mapwright render: --palette applies to .png outputs") }
            format = .png8
        }
        if [.png, .png8, .gif].contains(format), quality != nil {
            throw CLIError("mapwright render: --quality applies to .jpg and .webp outputs")
        }
        return format
    }

    private func render() throws {
        guard (0...10_000).contains(`repeat`) else { throw CLIError("mapwright render: --repeat must be in 0…10000") }
        let format = try outputFormat()
        // GL starts on another thread (loading Mesa and LLVM and making the context: most of a
        // cold start) while this one reads the scene, the basemap and the fonts; with the default
        // `--samples`, the one `main` started before parsing the arguments.
        let starting = (options.samples == nil ? Self.takeEarly() : nil)
            ?? Started { [options] in try options.makeSnapshotter(command: "render", announce: false) }
        let snapshot: Snapshot
        do {
            let (doc, base) = try options.loadDocument(command: "render")
            var loaded = try options.loader(for: doc, base: base).snapshot(from: doc)
            loaded.glLayers = try options.glLayers(command: "render")
            guard FileManager.default.fileExists(atPath: URL(fileURLWithPath: output).deletingLastPathComponent().path) else {
                throw CLIError("mapwright render: cannot write '\(output)': the directory does not exist")
            }
            MapSnapshotter.preload(for: loaded)
            snapshot = loaded
        } catch {
            // Never leave a renderer half made: the exit must not run under its set-up.
            _ = try? starting.value()
            throw error
        }
        let snapshotter = try starting.value()
        options.announceGL(snapshotter)
        // One frame: nothing to redraw partially, so the renderer keeps no copy of its pixels.
        snapshotter.renderer.partialRedraw = false
        let bitmap = try snapshotter.render(snapshot)
        try options.reportTileWarnings(snapshot.tileLayers, command: "render")
        if format == .png {
            try bitmap.writePNG(to: output)
        } else {
            try AtomicFile.write(try bitmap.encoded(as: format, quality: quality), to: output)
        }
        if printCamera {
            let c = snapshot.camera
            print("\(c.center.lat) \(c.center.lon) \(c.zoom) \(c.bearing) \(c.pitch)")
        }
        if `repeat` > 0 {
            // Every timed render draws the whole frame, as a render of a new scene would (the
            // partial redraw of animations, off above, would otherwise find nothing changed).
            var times: [Double] = []
            var parts: [[Double]] = Array(repeating: [], count: 6)
            for _ in 0..<`repeat` {
                let t0 = DispatchTime.now().uptimeNanoseconds
                let b = try snapshotter.render(snapshot)
                let t1 = DispatchTime.now().uptimeNanoseconds
                _ = try b.encoded(as: format, quality: quality)
                let t2 = DispatchTime.now().uptimeNanoseconds
                times.append(Double(t2 - t0) / 1e6)
                let t = snapshotter.lastTimings
                for (k, v) in [t.basemap, t.plan, t.draw, t.readBack, t.extras, Double(t2 - t1) / 1e6].enumerated() {
                    parts[k].append(v)
                }
            }
            func median(_ v: [Double]) -> Double {
                let s = v.sorted()
                return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
            }
            times.sort()
            let p = parts.map(median)
            let line = String(format: "render: %d runs, median %.1f ms, min %.1f ms, max %.1f ms\n"
                              + "breakdown (medians, ms): basemap %.2f, plan %.2f, draw %.2f, read back %.2f, extras %.2f, %@ %.2f; %d triangles\n",
                              times.count, median(times), times.first ?? 0, times.last ?? 0, p[0], p[1], p[2], p[3], p[4],
                              format.rawValue, p[5],
                              snapshotter.lastTimings.triangles)
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// A snapshotter with the default options, started by `main` before the arguments are parsed
    /// when the command is `render`: loading Mesa's driver and LLVM and making the context is
    /// most of a cold render, and this way it overlaps Swift's start-up and the parsing (median
    /// 97 → 92 ms for the bench's standard scene, interleaved runs). `render` takes it when
    /// `--samples` is not given.
    nonisolated(unsafe) private static var early: Started<MapSnapshotter>?
    private static let earlyLock = NSLock()

    static func startEarly() {
        earlyLock.withLock { early = early ?? Started { try MapSnapshotter(samples: nil) } }
    }

    /// The early snapshotter, once (nil when none was started or it was taken).
    static func takeEarly() -> Started<MapSnapshotter>? {
        earlyLock.withLock {
            defer { early = nil }
            return early
        }
    }

    /// Waits for an early snapshotter that was not taken (help, a parse error, `--samples`), so
    /// that the process's GL teardown never runs while it is being made.
    static func finishEarly() {
        _ = try? takeEarly()?.value()
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

/// A value made on another thread, started at once and waited for by `value()`.
final class Started<T>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, Error>?

    init(_ make: @escaping @Sendable () throws -> T) {
        DispatchQueue.global().async { [self] in
            result = Result { try make() }
            done.signal()
        }
    }

    /// The value, or the error making it threw; waits until it is made. Call from one thread.
    func value() throws -> T {
        done.wait()
        done.signal()
        return try result!.get()
    }
}

/// An error the CLI reports as it is (one line on standard error, exit status 1).
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}
