import ArgumentParser
import Foundation
import GeoKit
import MapCamera
import MapFormats
import MapGestures
import MapImage
import MapScene
import MapSnapshot
import MapViewer

/// `mapwright view`: the live map in a window, or scripted and headless for tests and demos.
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Show the map in a window you can drag, zoom, rotate and tilt (or run a script of input events headless).",
        discussion: """
            Mouse: drag pans, wheel zooms about the pointer, right-drag or Ctrl+drag rotates and \
            pitches, double-click zooms in (Shift: out), Shift+drag zooms to a box; a click on a \
            route shows the distance along it (and the time, when the track has times), on a marker \
            its label. Touch: pan, pinch, rotate, two-finger drag up/down pitches. Keys: arrows pan, \
            +/- zoom, Shift+arrows rotate and pitch, N north up (Shift+N also flat), M measure mode, \
            Esc clears, S saves a PNG, F1 shows frame times, Ctrl+Q quits. The compass (top right) \
            turns back to north on a click (Shift-click also flattens) and rotates the map when dragged.

            --script EVENTS.jsonl replays input events (one JSON object per line: \
            {"t": 0.25, "type": "down"|"move"|"up", "x": 10, "y": 20, "button": "left"|"right"}, \
            {"t": …, "type": "wheel", "x": …, "y": …, "dy": -3}, {"t": …, "type": "touch", "phase": \
            "down"|"move"|"up", "id": 1, "x": …, "y": …}, {"t": …, "type": "key", "key": "n"}, \
            {"t": …, "type": "wait"}; optional "modifiers": ["shift", "control"]). With --headless, \
            frame k is drawn at t = k/60 s after every event with t ≤ k/60 is applied, and the run \
            ends at the frame of the last event; in a window the events play in real time and the \
            frame times are printed at the end.
            """
    )

    @OptionGroup var options: SceneOptions
    @OptionGroup var motion: MotionOptions

    @Option(help: ArgumentHelp("Replay input events from a JSON-lines file, then exit.", valueName: "EVENTS.jsonl"))
    var script: String?
    @Flag(help: "Run the script without a window (no display needed).")
    var headless = false
    @Option(help: ArgumentHelp("With --headless: write every frame as a PNG into DIR.", valueName: "DIR/"))
    var frames: String?
    @Flag(name: .customLong("log-camera"), help: "Print one JSON line per frame (frame, t, lat, lon, zoom, bearing, pitch) and one per pick, moved marker and measurement.")
    var logCamera = false
    @Flag(help: "Start in measure mode: clicks drop points; legs and the total are geodesic distances.")
    var measure = false
    @Flag(name: .customLong("draggable-markers"), help: "Markers can be dragged to new positions (reported with --log-camera).")
    var draggableMarkers = false
    @Option(name: .customLong("follow-file"), help: ArgumentHelp("Draw positions another program appends to FILE (lat,lon lines or NMEA), as tail -f (repeatable).", valueName: "FILE"))
    var followFiles: [String] = []
    @Flag(name: .customLong("follow-newest"), help: "Keep the newest followed position in the middle of the view.")
    var followNewest = false
    @Flag(name: .customLong("no-compass"), help: "Leave out the compass.")
    var noCompass = false
    @Flag(name: .customLong("compass-auto-hide"), help: "Fade the compass out while north is up and the map is flat.")
    var compassAutoHide = false
    @Option(name: .customLong("ground-in-motion"), help: ArgumentHelp("While the view moves: auto (pictures of the ground's tiles stand in for it when frames drawn in full are slow, until the view is still), picture (always), exact (every frame drawn in full).", valueName: "auto|picture|exact"))
    var groundInMotion: String = "auto"
    @Option(name: .customLong("pick-tolerance"), help: "Picking tolerance in pixels (default 8).")
    var pickTolerance: Double?

    func run() throws {
        do {
            try view()
        } catch let e as CLIError {
            throw e
        } catch let e as ScriptError {
            throw CLIError("mapwright view: --script \(e)")
        } catch {
            throw CLIError("mapwright view: \(error)")
        }
    }

    private func view() throws {
        if headless && script == nil { throw CLIError("mapwright view: --headless needs --script EVENTS.jsonl") }
        if frames != nil && !headless { throw CLIError("mapwright view: --frames needs --headless") }
        if let frames, !frames.hasSuffix("/") { throw CLIError("mapwright view: --frames '\(frames)': expected a directory ending in /") }
        if let pickTolerance, !(pickTolerance.isFinite && pickTolerance >= 0 && pickTolerance <= 100) {
            throw CLIError("mapwright view: --pick-tolerance must be in 0…100 px")
        }
        guard let groundMode = MapViewer.GroundInMotion(rawValue: groundInMotion) else {
            throw CLIError("mapwright view: --ground-in-motion '\(groundInMotion)': expected auto, picture or exact")
        }
        let events = try script.map { try ViewerScript.read(path: $0) }
        var (doc, base) = try options.loadDocument(command: "view")
        let extra = try motion.apply(to: &doc, options: options, command: "view")
        var animated = try options.loader(for: doc, base: base, extraNames: extra).animatedSnapshot(from: doc)
        animated.still.glLayers = try options.glLayers(command: "view")
        // The window never waits for tiles: it draws stand-ins and refines as they arrive.
        if !headless { animated.still.tileWait = nil }
        var viewerOptions = ViewerOptions()
        viewerOptions.compass = !noCompass
        viewerOptions.compassAutoHide = compassAutoHide
        viewerOptions.measure = measure
        viewerOptions.draggableMarkers = draggableMarkers
        viewerOptions.followNewest = followNewest
        if let pickTolerance { viewerOptions.pickTolerance = pickTolerance }
        let session = ViewSession(animated, options: viewerOptions)
        for f in followFiles { session.follow(FollowedFile(path: f)) }
        let log = logCamera
        func emit(_ reports: [ViewerReport]) {
            for r in reports {
                if case .warning(let w) = r { FileHandle.standardError.write(Data("view: \(w)\n".utf8)) }
                if log { print(r.jsonLine) }
            }
            if log { fflush(nil) }
        }
        if headless, let events {
            // Ctrl-C part-way leaves none of this run's frames (a window handles its own quit).
            if frames != nil { InterruptCleanup.install() }
            let snapshotter = frames == nil ? nil : try options.makeSnapshotter(command: "view")
            let sink = try frames.map { try PNGSequenceWriter(directory: String($0.dropLast())) }
            do {
                try ScriptRun.run(session, events: events) { k, t, snap in
                    emit(session.takeReports())
                    if log { print(ViewSession.cameraLine(frame: k, t: t, camera: snap.camera)) }
                    if let snapshotter, let sink { try sink.write(try snapshotter.render(snap)) }
                }
                try sink?.finish()
            } catch {
                sink?.abort()
                throw error
            }
            let n = ScriptRun.lastFrame(of: events) + 1
            FileHandle.standardError.write(Data("view: \(n) frames (headless)\n".utf8))
            return
        }
        let snapshotter = try options.makeSnapshotter(command: "view")
        let viewer = try MapViewer(session: session, snapshotter: snapshotter, title: "Mapwright")
        viewer.groundInMotion = groundMode
        viewer.onReport = { emit([$0]) }
        if log {
            viewer.onFrame = { k, t, c in
                print(ViewSession.cameraLine(frame: k, t: t, camera: c))
                fflush(nil)
            }
        }
        let stats = try viewer.run(script: events)
        if events != nil { FileHandle.standardError.write(Data("\(stats.summary)\n".utf8)) }
    }
}
