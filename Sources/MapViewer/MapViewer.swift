import CSDL2
import Foundation
import MapCamera
import MapGestures
import MapImage
import MapRender
import MapSnapshot

/// Why a window could not be shown.
public struct ViewerError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ d: String) { description = d }
}

/// The live map window: an SDL2 window showing frames from the same renderer as headless
/// output (`MapSnapshotter`, EGL), driven by a `ViewSession`.
///
/// Threads: the main thread handles input (SDL events → the session, under a lock) and shows
/// finished frames; a render thread draws frames at up to 60 Hz while the session needs them and
/// sleeps on a condition when nothing moves (no frames, ~0 % CPU). Input never waits for a
/// frame (events are applied between frames, the lock is held only for the session's cheap
/// bookkeeping) and a frame never waits for input.
///
/// Keys: the gesture keys (arrows, +/−, Shift+arrows, N), `M` measure mode, `Esc` clears the
/// callout and measurement, `S` saves the current view as a PNG, `F1` toggles the HUD, Ctrl+Q
/// or closing the window quits.
public final class MapViewer: @unchecked Sendable {
    /// Frame statistics of a run.
    public struct Stats: Sendable {
        /// Frames drawn.
        public var frames: Int
        /// Median and 95th percentile time to draw a frame (render and show), ms.
        public var medianMs: Double
        public var p95Ms: Double
        /// The longest frame, ms.
        public var maxMs = 0.0
        /// Frames drawn with a picture of the ground standing in for it (`groundInMotion`), and
        /// pictures drawn.
        public var standIns = 0
        public var pictures = 0
        /// The one-line summary printed after a scripted run.
        public var summary: String {
            String(format: "view: %d frames, frame time median %.1f ms, p95 %.1f ms, longest %.1f ms; %d with the ground pictured (%d pictures)",
                   frames, medianMs, p95Ms, maxMs, standIns, pictures)
        }
    }

    public let session: ViewSession
    public let snapshotter: MapSnapshotter
    /// Where `S` saves (a directory); the file is `mapwright-view-N.png`.
    public var saveDirectory = "."
    /// Called on the main thread for each session report (picks, moved markers, warnings).
    public var onReport: ((ViewerReport) -> Void)?
    /// Called on the render thread for each frame drawn (index, time, camera).
    public var onFrame: ((Int, Double, Camera) -> Void)?

    private var window: OpaquePointer?
    /// SDL2's functions, loaded when the first window opens (see `SDLLibrary`).
    private let sdl: SDLLibrary
    private let sessionLock = NSLock()
    private let cond = NSCondition()
    private var wake = true
    private var quit = false
    private var mailbox: Bitmap?
    private var lastShown: Bitmap?
    private var renderError: Error?
    private var frameTimes: [Double] = []
    private var frameStarts: [Double] = []
    private var frameIndex = 0
    private let start = DispatchTime.now().uptimeNanoseconds
    private var wakeEvent: UInt32 = 0
    private var saved = 0
    /// Output pixels per logical pixel (the camera's pixel ratio).
    private let ratio: Double

    /// Opens the window (hidden until the first frame is ready). Throws `ViewerError` when there
    /// is no display.
    public init(session: ViewSession, snapshotter: MapSnapshotter, title: String = "Mapwright") throws {
        self.session = session
        self.snapshotter = snapshotter
        let env = ProcessInfo.processInfo.environment
        let noDisplay = "no display: DISPLAY and WAYLAND_DISPLAY are not set. Run under X11 or Wayland (or Xvfb), or use --headless with --script to run without a window"
        if (env["DISPLAY"] ?? "").isEmpty, (env["WAYLAND_DISPLAY"] ?? "").isEmpty, (env["SDL_VIDEODRIVER"] ?? "").isEmpty {
            throw ViewerError(noDisplay)
        }
        sdl = try SDLLibrary.shared.get()
        // Only the display the environment names: when it cannot be reached, SDL would otherwise
        // go on to its other drivers (KMS/DRM, offscreen) and "open" a window nobody sees.
        let display = env["DISPLAY"] ?? "", wayland = env["WAYLAND_DISPLAY"] ?? ""
        if (env["SDL_VIDEODRIVER"] ?? "").isEmpty {
            let drivers = [wayland.isEmpty ? nil : "wayland", display.isEmpty ? nil : "x11"].compactMap { $0 }
            _ = sdl.SetHint(SDL_HINT_VIDEODRIVER, drivers.joined(separator: ","))
        }
        _ = sdl.SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0")
        _ = sdl.SetHint(SDL_HINT_MOUSE_TOUCH_EVENTS, "0")
        _ = sdl.SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        // Frames are drawn by our own (offscreen) renderer and copied into the window's surface.
        // Without this SDL may back that surface with a GL texture of its own: it then re-creates
        // the window with a GL flag (so the window first shown goes away, which confuses tools
        // that look for it) and runs a second GL context that GLLifetime does not tear down.
        _ = sdl.SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        // The render thread's wake-ups may race the window's destruction on quit (see X11ErrorFilter).
        guard sdl.initVideo() == 0 else {
            let why = sdl.GetError().map { String(cString: $0) } ?? "unknown error"
            let names = [display.isEmpty ? nil : "DISPLAY '\(display)'", wayland.isEmpty ? nil : "WAYLAND_DISPLAY '\(wayland)'"]
                .compactMap { $0 }.joined(separator: " or ")
            let target = names.isEmpty ? "" : " on \(names)"
            throw ViewerError("cannot open a window\(target) (\(why)): is that display running and may this user connect to it? "
                + "Use --headless with --script to run without one")
        }
        let size = session.camera.size
        ratio = session.camera.pixelRatio
        let centered = Int32(bitPattern: 0x2FFF_0000)
        // The window is the image's size in pixels (logical size × --scale): on X11 a window's
        // size is in pixels, and input coordinates are divided back by the ratio.
        guard let w = sdl.CreateWindow(title, centered, centered, Int32((size.width * ratio).rounded()), Int32((size.height * ratio).rounded()),
                                       SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue) else {
            let why = sdl.GetError().map { String(cString: $0) } ?? "unknown error"
            sdl.Quit()
            throw ViewerError("cannot open a window: \(why)")
        }
        window = w
        wakeEvent = sdl.RegisterEvents(1)
        // Tiles arrive in the background: each one wakes the render thread (the frame shows
        // stand-ins until then).
        for layer in session.animated.still.tileLayers {
            layer.onChange = { [weak self] in self?.groundChanged() }
        }
        // So are the meshes of vector tiles' sets (and of other multi-shape overlays): a frame
        // draws a set's mesh of an earlier zoom bucket, and a tile's stand-ins, until its own is
        // built, and each mesh built wakes the render thread too.
        snapshotter.renderer.planner.backgroundMeshing = BackgroundMeshing(onReady: { [weak self] in self?.groundChanged() })
    }

    deinit {
        if let window { sdl.DestroyWindow(window) }
        sdl.Quit()
    }

    private func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    /// Runs until the window is closed, or with a script until its last event (replayed in
    /// real time, events at their script times). Returns the frame statistics.
    public func run(script: [ScriptEvent]? = nil, followPoll: Double = 0.25) throws -> Stats {
        let renderThread = Thread { [self] in renderLoop() }
        renderThread.stackSize = 8 << 20
        renderThread.start()
        defer {
            cond.lock()
            quit = true
            cond.broadcast()
            while !renderDone { cond.wait() }
            cond.unlock()
        }
        var nextScript = 0
        let scriptEnd = script?.last?.t
        var lastPoll = -1.0
        var endRequested = false
        let followPoll = sessionLock.withLock { session.isFollowing } ? followPoll : 0
        var event = SDL_Event()
        var running = true
        while running {
            let now = seconds()
            if let script {
                while nextScript < script.count, script[nextScript].t <= now {
                    if let input = script[nextScript].input { apply(TimedEvent(t: script[nextScript].t, event: input)) }
                    nextScript += 1
                }
                if nextScript == script.count, let end = scriptEnd, now >= end {
                    // The frame at the end time is the last; draw it even when nothing moves.
                    if framesShown(after: end) { running = false } else if !endRequested { endRequested = true; requestFrame(live: true) }
                }
            }
            if followPoll > 0, now - lastPoll >= followPoll {
                lastPoll = now
                let got = sessionLock.withLock { session.pollFollowedFiles() }
                if got { requestFrame() }
            }
            // Sleep until input, a finished frame, the next scripted event or the next poll.
            var timeout = 1000.0
            if let script, nextScript < script.count { timeout = min(timeout, (script[nextScript].t - now) * 1000) }
            if script != nil, nextScript == script?.count { timeout = min(timeout, 5) }
            if followPoll > 0 { timeout = min(timeout, (lastPoll + followPoll - now) * 1000) }
            if sdl.WaitEventTimeout(&event, Int32(max(1, timeout.rounded(.up)))) != 0 {
                repeat {
                    if !handle(&event) { running = false }
                } while sdl.PollEvent(&event) != 0
            }
            show()
            if let e = cond.withLock({ renderError }) { throw e }
            flushReports()
        }
        return stats()
    }

    private var renderDone = false
    private var lastFrameTime = -1.0
    private var liveRequested = false
    private var standInFrames = 0
    private var picturesDrawn = 0
    private var groundGeneration = 0

    /// How frames are drawn while the view moves.
    public enum GroundInMotion: String, Sendable, CaseIterable {
        /// Pictures of the ground's tiles (`GroundTiles`) stand in for it when frames drawn in full
        /// are slow (`slowFrameMs` or more: a dense vector basemap on a CPU rasteriser).
        case auto
        /// Pictures of the ground's tiles stand in for it in every frame in motion.
        case picture
        /// Every frame is drawn in full.
        case exact
    }

    /// How frames are drawn while the view moves. Pictures of the ground cut along the tile
    /// grid are glued to the map (images between their tiles' corners), with labels, overlays
    /// and extras drawn live over them; the view's tiles and those around it are pictured while
    /// it is still, while it moves only those nothing can stand in for (`GroundTiles.urgent`)
    /// and those pictured before what they lacked arrived (`GroundTiles.stale`), `tileBudgetMs` a
    /// frame (the others show ancestors' and children's pictures), and the exact frame follows
    /// when the view has been still for `settleDelay`.
    public var groundInMotion = GroundInMotion.auto
    /// With `.auto`, a frame drawn in full at least this slow (ms) makes the ground worth
    /// pictures.
    static let slowFrameMs = 30.0
    /// The share of the view's longer side beyond each edge whose tiles are pictured while the
    /// view is still.
    static let pictureMargin = 0.5
    /// The most tiles beyond the view's own pictured while it is still.
    static let aheadTiles = 24
    /// The most time (ms) a frame in motion spends picturing tiles (one at least, when any is
    /// missing).
    static let tileBudgetMs = 20.0
    /// Seconds without a frame request before the exact frame follows pictured ones.
    static let settleDelay = 0.12
    /// Seconds the view stays still before its ground is pictured for the next move.
    static let pictureDelay = 0.3

    private func framesShown(after t: Double) -> Bool { cond.withLock { lastFrameTime >= t && mailbox == nil } }

    /// Frame statistics so far.
    public func stats() -> Stats {
        let times = cond.withLock { frameTimes }.sorted()
        func q(_ p: Double) -> Double { times.isEmpty ? 0 : times[min(times.count - 1, Int((Double(times.count - 1) * p).rounded()))] }
        let (standIns, pictures) = cond.withLock { (standInFrames, picturesDrawn) }
        return Stats(frames: times.count, medianMs: q(0.5), p95Ms: q(0.95), maxMs: times.last ?? 0, standIns: standIns, pictures: pictures)
    }

    private func apply(_ e: TimedEvent) {
        sessionLock.withLock { session.handle(e) }
        requestFrame()
    }

    private func requestFrame(live: Bool = false) {
        cond.lock()
        wake = true
        if live { liveRequested = true }
        cond.signal()
        cond.unlock()
    }

    /// A tile or a set's mesh arrived: the ground drawn so far is out of date.
    private func groundChanged() {
        cond.withLock { groundGeneration += 1 }
        requestFrame()
    }

    private func flushReports() {
        let reports = sessionLock.withLock { session.takeReports() }
        for r in reports { onReport?(r) }
    }

    // MARK: Render thread

    /// What the render thread does when it finds no frame requested: wait for one, or after a
    /// while without one draw the view as it is (after frames that stood a picture in for the
    /// ground) or picture the ground for the next move.
    private enum Idle { case wait, settle, picture }

    private func renderLoop() {
        defer { cond.withLock { renderDone = true; cond.broadcast() } }
        var lastCamera: Camera?
        var lastSnapshot: Snapshot?
        let tiles = GroundTiles()
        var noGround = false
        var lastStoodIn = false
        var lastLiveMs = 0.0
        var prefetching = false
        while true {
            // Frames were drawn over pictures of the ground: the exact one follows when the view
            // has been still for a moment. A slow ground was drawn live: once the view has been
            // still a while, its tiles and those around it are pictured for the next move, one
            // at a time, as long as no frame is asked for.
            let generation = cond.withLock { groundGeneration }
            let slowFrame = groundInMotion == .picture ? 0.0 : Self.slowFrameMs
            let pictures = groundInMotion != .exact && !noGround
            var ahead: [CoverTile] = []
            // (Only when the thread would wait: with a frame already asked for, it is not still.)
            if pictures, !lastStoodIn, lastLiveMs >= slowFrame, let camera = lastCamera, cond.withLock({ !wake }) {
                // The view's own tiles, then at most `aheadTiles` around it (a steep view's wider
                // cover reaches far towards the horizon).
                let own = GroundTiles.cover(for: camera)
                let around = Set(own)
                ahead = tiles.wanted(own, generation: generation)
                ahead += tiles.wanted(GroundTiles.cover(for: camera, grownBy: Self.pictureMargin), generation: generation)
                    .filter { !around.contains($0) }.prefix(Self.aheadTiles)
            }
            let idle: Idle = lastStoodIn ? .settle : !ahead.isEmpty ? .picture : .wait
            var live = false
            cond.lock()
            if idle == .wait {
                while !wake && !quit { cond.wait() }
            } else {
                let delay = idle == .settle ? Self.settleDelay : prefetching ? 0 : Self.pictureDelay
                let deadline = Date(timeIntervalSinceNow: delay)
                while !wake && !quit { if !cond.wait(until: deadline) { break } }
            }
            if quit { cond.unlock(); return }
            let timedOut = !wake
            wake = false
            if liveRequested { live = true; liveRequested = false }
            cond.unlock()
            if timedOut {
                if idle == .settle {
                    live = true
                } else {
                    // Still: one tile ahead pictured (no frame shown), then look for input again.
                    if let tile = ahead.first, let snap = lastSnapshot {
                        if (try? tiles.draw(tile, of: snap, with: snapshotter, generation: generation)) == true {
                            cond.withLock { picturesDrawn += 1 }
                        } else {
                            noGround = true
                        }
                    }
                    prefetching = true
                    continue
                }
            }
            prefetching = false
            let t0 = seconds()
            var (snap, more): (Snapshot, Bool) = sessionLock.withLock {
                let stats = stats()
                let recent = cond.withLock { frameStarts.suffix(31) }
                let fps = recent.count > 1 ? Double(recent.count - 1) / max(1e-9, recent.last! - recent.first!) : 0
                session.hudStats = [String(format: "%.0f fps  frame %.1f ms (median %.1f, p95 %.1f, %d frames)",
                                           fps, cond.withLock { frameTimes.last ?? 0 }, stats.medianMs, stats.p95Ms, stats.frames)
                                    + (lastStoodIn ? ", ground pictured" : "")]
                let s = session.frame(at: t0)
                return (s, session.needsFrame)
            }
            // While the view moves over a ground that is slow to draw, pictures of its tiles stand
            // in; those it cannot do without (`GroundTiles.urgent`: no parent's or children's
            // pictures to stand in) are drawn first, nearest the centre first, then those drawn
            // while their tiles or meshes were missing, once the ground has changed
            // (`GroundTiles.stale`), for `tileBudgetMs` at most (at least one); the rest wait
            // until the view is still.
            let moving = lastCamera.map { $0 != snap.camera } ?? false
            var stoodIn = false
            if pictures, moving, !live, lastStoodIn || lastLiveMs >= slowFrame {
                let cover = GroundTiles.cover(for: snap.camera)
                let start = seconds()
                for tile in tiles.urgent(cover) + tiles.stale(cover, generation: generation) {
                    if (seconds() - start) * 1000 >= Self.tileBudgetMs { break }
                    guard (try? tiles.draw(tile, of: snap, with: snapshotter, generation: generation)) == true else {
                        noGround = true
                        break
                    }
                    cond.withLock { picturesDrawn += 1 }
                }
                if !noGround {
                    snap.groundStandIn = tiles.images(for: cover)
                    stoodIn = true
                }
            }
            do {
                let bitmap = try snapshotter.render(snap)
                let ms = (seconds() - t0) * 1000
                if !stoodIn { lastLiveMs = ms }
                lastStoodIn = stoodIn
                lastCamera = snap.camera
                lastSnapshot = snap
                cond.withLock {
                    mailbox = bitmap
                    if stoodIn { standInFrames += 1 }
                    frameTimes.append(ms)
                    frameStarts.append(t0)
                    if frameStarts.count > 64 { frameStarts.removeFirst(32) }
                    lastFrameTime = t0
                }
                onFrame?(frameIndex, t0, snap.camera)
                frameIndex += 1
            } catch {
                cond.withLock { renderError = error; quit = true }
            }
            var ev = SDL_Event()
            ev.type = wakeEvent
            _ = sdl.PushEvent(&ev)
            if more || snapshotter.labelsFading {
                // Pace at 60 Hz.
                let left = 1.0 / 60 - (seconds() - t0)
                if left > 0 { usleep(UInt32(left * 1e6)) }
                cond.withLock { wake = true }
            }
        }
    }

    // MARK: Main thread

    private func show() {
        guard let bitmap = cond.withLock({ () -> Bitmap? in defer { mailbox = nil }; return mailbox }),
              let window, let surface = sdl.GetWindowSurface(window) else { return }
        lastShown = bitmap
        let s = surface.pointee
        let w = min(Int(s.w), bitmap.width), h = min(Int(s.h), bitmap.height)
        guard w > 0, h > 0 else { return }
        if SDL_MUSTLOCK(surface) { _ = sdl.LockSurface(surface) }
        bitmap.pixels.withUnsafeBytes { src in
            _ = sdl.ConvertPixels(Int32(w), Int32(h), SDL_PIXELFORMAT_ABGR8888.rawValue, src.baseAddress, Int32(bitmap.width * 4),
                                  s.format.pointee.format, s.pixels, s.pitch)
        }
        if SDL_MUSTLOCK(surface) { sdl.UnlockSurface(surface) }
        _ = sdl.UpdateWindowSurface(window)
    }

    private func SDL_MUSTLOCK(_ s: UnsafeMutablePointer<SDL_Surface>) -> Bool { (s.pointee.flags & UInt32(SDL_RLEACCEL)) != 0 }

    /// Handles one SDL event; false to quit.
    private func handle(_ e: inout SDL_Event) -> Bool {
        let t = seconds()
        let mods = Self.modifiers(sdl.GetModState())
        switch SDL_EventType(e.type) {
        case SDL_QUIT:
            return false
        case SDL_WINDOWEVENT:
            let we = SDL_WindowEventID(UInt32(e.window.event))
            if we == SDL_WINDOWEVENT_SIZE_CHANGED || we == SDL_WINDOWEVENT_RESIZED {
                var lw: Int32 = 0, lh: Int32 = 0
                sdl.GetWindowSize(window, &lw, &lh)
                sessionLock.withLock { session.resize(to: ScreenSize(width: Double(lw) / ratio, height: Double(lh) / ratio)) }
            }
            requestFrame()
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP:
            guard let button = Self.button(e.button.button) else { break }
            let x = Double(e.button.x) / ratio, y = Double(e.button.y) / ratio
            let down = SDL_EventType(e.type) == SDL_MOUSEBUTTONDOWN
            apply(TimedEvent(t: t, event: down ? .pointerDown(x: x, y: y, button: button, modifiers: mods)
                                                  : .pointerUp(x: x, y: y, button: button, modifiers: mods)))
        case SDL_MOUSEMOTION:
            apply(TimedEvent(t: t, event: .pointerMove(x: Double(e.motion.x) / ratio, y: Double(e.motion.y) / ratio, modifiers: mods)))
        case SDL_MOUSEWHEEL:
            var y = Double(e.wheel.preciseY)
            if e.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue { y = -y }
            guard y != 0 else { break }
            // A notch as a browser reports it (100 px, 25 wheel deltas); fractions are a trackpad's.
            let dy = y == y.rounded() ? -y * 25 * MapInteraction.wheelDelta : -y * 100
            apply(TimedEvent(t: t, event: .wheel(x: Double(e.wheel.mouseX) / ratio, y: Double(e.wheel.mouseY) / ratio, dy: dy, modifiers: mods)))
        case SDL_FINGERDOWN, SDL_FINGERMOTION, SDL_FINGERUP:
            let size = sessionLock.withLock { session.camera.size }
            let phase: TouchPhase = switch SDL_EventType(e.type) {
            case SDL_FINGERDOWN: .down
            case SDL_FINGERUP: .up
            default: .move
            }
            apply(TimedEvent(t: t, event: .touch(phase: phase, id: Int(truncatingIfNeeded: e.tfinger.fingerId),
                                                 x: Double(e.tfinger.x) * size.width, y: Double(e.tfinger.y) * size.height)))
        case SDL_KEYDOWN:
            let sym = Int(e.key.keysym.sym)
            if sym == Int(SDLK_q.rawValue), mods.contains(.control) { return false }
            if sym == Int(SDLK_s.rawValue) { save(); break }
            if sym == Int(SDLK_F1.rawValue) {
                sessionLock.withLock { session.hudVisible.toggle() }
                requestFrame()
                break
            }
            if let name = Self.keyName(sym) { apply(TimedEvent(t: t, event: .key(name, modifiers: mods))) }
        default:
            break
        }
        return true
    }

    private func save() {
        guard let bitmap = lastShown ?? cond.withLock({ mailbox }) else { return }
        let fm = FileManager.default
        var path: String
        repeat {
            saved += 1
            path = (saveDirectory as NSString).appendingPathComponent("mapwright-view-\(saved).png")
        } while fm.fileExists(atPath: path) && saved < 100_000
        do {
            try bitmap.writePNG(to: path)
            FileHandle.standardError.write(Data("view: saved \(path)\n".utf8))
        } catch {
            FileHandle.standardError.write(Data("view: cannot save \(path): \(error)\n".utf8))
        }
    }

    static func modifiers(_ m: SDL_Keymod) -> Modifiers {
        var out: Modifiers = []
        let v = m.rawValue
        if v & KMOD_SHIFT.rawValue != 0 { out.insert(.shift) }
        if v & KMOD_CTRL.rawValue != 0 { out.insert(.control) }
        if v & KMOD_ALT.rawValue != 0 { out.insert(.alt) }
        if v & KMOD_GUI.rawValue != 0 { out.insert(.meta) }
        return out
    }

    static func button(_ b: UInt8) -> PointerButton? {
        switch Int32(b) {
        case SDL_BUTTON_LEFT: .left
        case SDL_BUTTON_RIGHT: .right
        case SDL_BUTTON_MIDDLE: .middle
        default: nil
        }
    }

    static func keyName(_ sym: Int) -> String? {
        switch sym {
        case Int(SDLK_LEFT.rawValue): "left"
        case Int(SDLK_RIGHT.rawValue): "right"
        case Int(SDLK_UP.rawValue): "up"
        case Int(SDLK_DOWN.rawValue): "down"
        case Int(SDLK_PLUS.rawValue), Int(SDLK_EQUALS.rawValue), Int(SDLK_KP_PLUS.rawValue): "+"
        case Int(SDLK_MINUS.rawValue), Int(SDLK_KP_MINUS.rawValue): "-"
        case Int(SDLK_n.rawValue): "n"
        case Int(SDLK_m.rawValue): "m"
        case Int(SDLK_ESCAPE.rawValue): "escape"
        default: nil
        }
    }
}
