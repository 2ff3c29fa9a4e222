import ArgumentParser
import Foundation
import MapFormats
import MapImage
import MapMotion
import MapSnapshot

/// `mapwright animate`: renders an animation (pulses, replays, animated scene overlays) to an
/// APNG, a directory of PNG frames, or an MP4/WebM through ffmpeg.
struct AnimateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "animate",
        abstract: "Render an animation (pulsing circles, track replays, animated scenes) to APNG, GIF, PNG frames, MP4 or WebM.",
        discussion: """
            OUT ending in .png or .apng writes an animated PNG; .gif an animated GIF (256 colours a \
            frame, at most 50 fps); .mp4 (H.264) and .webm (VP9) need the \
            ffmpeg program; a path ending in / writes 000000.png, 000001.png, … into that directory. \
            Frame N is the scene at exactly t = N / fps. Every flag of `mapwright render` works the \
            same. Limits: fps in (0, 120], duration up to 600 s, at most 20000 frames. On any error \
            nothing is left behind and the exit status is non-zero.
            """
    )

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("OUT.apng, OUT.png, OUT.gif, OUT.mp4, OUT.webm or DIR/.", valueName: "OUT"))
    var output: String

    @OptionGroup var options: SceneOptions

    @Option(help: "Length in seconds (default: the scene's, a replay's length at --speed, or 3.2 s).")
    var duration: Double?
    @Option(help: "Frames per second, up to 120 (default 30).")
    var fps: Double?
    @Flag(inversion: .prefixedNo, help: "APNG: play forever or once (default: the scene's \"loop\", else forever).")
    var loop: Bool?
    @Option(name: .customLong("ffmpeg-timeout"), help: ArgumentHelp("MP4/WebM: seconds ffmpeg may go without reading a frame, or without finishing after the last one, before it is stopped and the command fails (default 120).", valueName: "SECONDS"))
    var ffmpegTimeout: Double = 120

    @OptionGroup var motion: MotionOptions

    func run() throws {
        // Ctrl-C or SIGTERM part-way leaves no temporary video, APNG or frames of this run.
        InterruptCleanup.install()
        do {
            try animate()
        } catch let e as CLIError {
            throw e
        } catch {
            throw CLIError("mapwright animate: \(error)")
        }
    }

    enum Target {
        case apng, gif, directory, video(VideoWriter.Container)
    }

    private func target() throws -> Target {
        let lower = output.lowercased()
        if output.hasSuffix("/") { return .directory }
        if lower.hasSuffix(".png") || lower.hasSuffix(".apng") { return .apng }
        if lower.hasSuffix(".gif") { return .gif }
        if lower.hasSuffix(".mp4") { return .video(.mp4) }
        if lower.hasSuffix(".webm") { return .video(.webm) }
        throw CLIError("mapwright animate: -o '\(output)': expected a name ending in .apng, .png, .gif, .mp4, .webm, or a directory ending in /")
    }

    private func animate() throws {
        let kind = try target()
        var (doc, base) = try options.loadDocument(command: "animate")
        let extra = try motion.apply(to: &doc, options: options, command: "animate")
        if let duration { doc.duration = duration }
        if let fps { doc.fps = fps }
        if let loop { doc.loop = loop }
        if motion.follow {
            var cam = doc.camera ?? SceneDocument.CameraSpec()
            cam.follow = true
            doc.camera = cam
        }
        var animated = try options.loader(for: doc, base: base, extraNames: extra).animatedSnapshot(from: doc)
        animated.still.glLayers = try options.glLayers(command: "animate")
        let clock: FrameClock
        do { clock = try FrameClock(duration: animated.duration, fps: animated.fps ?? 30) } catch {
            let flag = ["fps": "--fps", "duration": "--duration", "frames": "--duration × --fps"][error.parameter] ?? error.parameter
            throw CLIError("mapwright animate: \(flag): \(error.reason)")
        }
        let (width, height) = animated.still.camera.pixelSize
        let snapshotter = try options.makeSnapshotter(command: "animate")
        let sink: FrameSink
        switch kind {
        case .apng:
            sink = try APNGWriter(path: output, width: width, height: height, frameCount: clock.frameCount, fps: clock.fps,
                                  loops: animated.loop)
        case .gif:
            sink = try GIFWriter(path: output, width: width, height: height, frameCount: clock.frameCount, fps: clock.fps,
                                 loops: animated.loop)
        case .directory:
            sink = try PNGSequenceWriter(directory: String(output.dropLast()))
        case .video(let container):
            guard ffmpegTimeout > 0, ffmpegTimeout <= VideoWriter.maxStallTimeout else {
                throw CLIError("mapwright animate: --ffmpeg-timeout: \(ffmpegTimeout) is not in (0, \(Int(VideoWriter.maxStallTimeout))]")
            }
            sink = try VideoWriter(path: output, container: container, width: width, height: height, fps: clock.fps,
                                   stallTimeout: ffmpegTimeout)
        }
        let progress = ProgressLine(total: clock.frameCount)
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            try Self.render(animated, clock: clock, with: snapshotter, to: sink,
                            beforeFinish: { try options.reportTileWarnings(animated.still.tileLayers, command: "animate") }) {
                progress.update(done: $0)
            }
        } catch {
            progress.clear()
            throw error
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        progress.finish(frames: clock.frameCount, seconds: seconds)
        if let frames = sink as? PNGSequenceWriter, frames.removedStaleFrames > 0 {
            let last = PNGSequenceWriter.name(ofFrame: clock.frameCount + frames.removedStaleFrames - 1)
            FileHandle.standardError.write(Data(("animate: removed \(frames.removedStaleFrames) frames of an earlier run from '\(output)' ("
                + "\(PNGSequenceWriter.name(ofFrame: clock.frameCount)) to \(last)), which followed this run's last frame\n").utf8))
        }
    }

    /// Renders every frame (frame N at t = N / fps) into `sink`, encoding each while the next is
    /// drawn; on any error the sink is aborted (nothing is left behind) and the error rethrown.
    static func render(_ animated: AnimatedSnapshot, clock: FrameClock, with snapshotter: MapSnapshotter, to sink: FrameSink,
                       beforeFinish: () throws -> Void = {}, progress: (Int) -> Void = { _ in }) throws {
        let pipeline = PipelinedSink(sink)
        do {
            for n in 0..<clock.frameCount {
                var frame = animated.frame(at: clock.time(ofFrame: n))
                frame.labelFade = animated.labelFade
                let bitmap = try snapshotter.render(frame)
                try pipeline.write(bitmap)
                progress(n + 1)
            }
            try beforeFinish()
            try pipeline.finish()
        } catch {
            pipeline.abort()
            throw error
        }
    }
}

/// Progress on standard error: a bar redrawn in place on a terminal, else one summary line.
final class ProgressLine {
    let total: Int
    let unit: String
    let tty = isatty(STDERR_FILENO) != 0
    private let start = DispatchTime.now().uptimeNanoseconds
    private var lastDraw: UInt64 = 0

    init(total: Int, unit: String = "frames") { self.total = total; self.unit = unit }

    func update(done: Int) {
        guard tty else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard done == total || now - lastDraw > 100_000_000 else { return }
        lastDraw = now
        let elapsed = Double(now - start) / 1e9
        let fps = elapsed > 0 ? Double(done) / elapsed : 0
        let left = fps > 0 ? Double(total - done) / fps : 0
        let width = 30
        let filled = total > 0 ? done * width / total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let line = String(format: "\r[%@] %d/%d %@, %.1f/s, %.1f s left ", bar, done, total, unit, fps, left)
        FileHandle.standardError.write(Data(line.utf8))
    }

    func clear() {
        if tty { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    func finish(frames: Int, seconds: Double) {
        clear()
        let line = String(format: "animate: %d frames in %.2f s (%.1f fps)\n", frames, seconds,
                          seconds > 0 ? Double(frames) / seconds : 0)
        FileHandle.standardError.write(Data(line.utf8))
    }
}
