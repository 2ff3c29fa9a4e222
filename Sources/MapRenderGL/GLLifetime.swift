import CEGL
import Foundation

/// Process-wide GL lifetime: every live renderer's GL thread, the EGL displays initialised, and
/// the teardown that must run before the process's C++ static destructors.
///
/// Why: Mesa's llvmpipe compiles shaders with LLVM and rasterises on its own threads. When a
/// process ends with `exit` while a GL thread is still creating a context, compiling or
/// drawing, `exit` runs the static destructors of LLVM (and of Mesa) under that work: heap
/// corruption ("corrupted double-linked list", "double free") or a segfault, in about 1 run in
/// 70 of `mapwright-bench exit-race` on a loaded 2-core machine. The fix is ordering, not
/// skipping destructors: `shutdownAll()` refuses new renderers, lets each GL thread finish the
/// job it is on, destroys its context on that thread, releases the thread's EGL state, and
/// finally terminates the displays, which joins llvmpipe's own threads.
///
/// Call it before ending the process while renderers may be busy; the CLI does. For every
/// other path an `atexit` handler runs it, installed when each renderer has made its context
/// and again after its frames 1, 2, 4, 8, … (at most a few dozen entries). `atexit` handlers
/// run in reverse order of registration, and LLVM registers the destructors of its lazily
/// built statics (the pass registry, the target registry) when they are first used — during
/// shader compilations, which happen in frames (programs are compiled on first use, llvmpipe's
/// variants at draw time) — so a handler installed earlier would run after they are gone; one
/// installed after them runs before. The handler waits at most `exitWait` seconds for a busy
/// GL thread. A process that exits while its first renderer is still being created, without
/// calling `shutdownAll`, stays exposed to the race (measured: 1 run in 70 of `exit-race` with
/// early exits; none in 150 exits after the first frame, none in 200 with `shutdownAll` first).
public enum GLLifetime {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var renderers: [ObjectIdentifier: (GLThread, () -> Void)] = [:]
    nonisolated(unsafe) private static var displays: [EGLDisplay] = []
    nonisolated(unsafe) private static var shuttingDown = false

    /// How long the exit handler waits for one busy GL thread before letting the exit go on.
    public static let exitWait = 10.0

    /// Registers a renderer's GL thread and the teardown to run on it; throws once shut down.
    static func register(_ owner: AnyObject, thread: GLThread, teardown: @escaping () -> Void) throws {
        try lock.withLock {
            guard !shuttingDown else { throw RenderError(.threadStopped) }
            renderers[ObjectIdentifier(owner)] = (thread, teardown)
        }
    }

    /// Installs the exit handler (again): called once a renderer's context is made and after
    /// its frames 1, 2, 4, 8, …, so that it runs before the destructors of whatever LLVM built
    /// by then.
    static func installExitHook() {
        atexit { GLLifetime.shutdownAll(waitingAtMost: GLLifetime.exitWait) }
    }

    static func unregister(_ owner: AnyObject) {
        _ = lock.withLock { renderers.removeValue(forKey: ObjectIdentifier(owner)) }
    }

    /// Runs `initialize` (which calls `eglInitialize`) under the lifetime lock, so no display is
    /// initialised while `shutdownAll` terminates them, and remembers the display.
    static func initialize(_ display: EGLDisplay, _ initialize: () -> Bool) throws -> Bool {
        try lock.withLock {
            guard !shuttingDown else { throw RenderError(.threadStopped) }
            guard initialize() else { return false }
            if !displays.contains(where: { $0 == display }) { displays.append(display) }
            pinDriversUnderLeakSanitizer()
            return true
        }
    }

    nonisolated(unsafe) private static var pinned = false

    /// Under LeakSanitizer only (`scripts/sanitize.sh address`): keeps Mesa's driver (and the
    /// LLVM it loaded) mapped after `eglTerminate`, which otherwise unloads it. LeakSanitizer
    /// reports at exit, and memory a driver keeps for the process would then be listed under
    /// `<unknown module>`, where no suppression can name it. Without the sanitizer nothing changes.
    private static func pinDriversUnderLeakSanitizer() {
        guard !pinned else { return }
        pinned = true
        guard let global = dlopen(nil, RTLD_LAZY), dlsym(global, "__lsan_do_leak_check") != nil else { return }
        // The mapped files, as the kernel lists them (path last on each line).
        let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
        var names: Set<String> = []
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            if path.contains("/dri/") || path.contains("libgallium") { names.insert(path) }
        }
        for path in names { _ = dlopen(path, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE) }
    }

    /// Tears every renderer's GL down, each on its own thread after the job it is on, then
    /// terminates the EGL displays. Idempotent; renderers created afterwards throw
    /// `RenderError.threadStopped`, and calls on existing ones throw the same.
    public static func shutdownAll() { shutdownAll(waitingAtMost: nil) }

    static func shutdownAll(waitingAtMost limit: Double?) {
        let live: [(GLThread, () -> Void)] = lock.withLock {
            shuttingDown = true
            let r = Array(renderers.values)
            renderers = [:]
            return r
        }
        var allStopped = true
        for (thread, teardown) in live where !thread.stop(after: teardown, waitingAtMost: limit) { allStopped = false }
        // A thread still busy past the limit may be using the display: leave it.
        guard allStopped else { return }
        let ds: [EGLDisplay] = lock.withLock {
            let d = displays
            displays = []
            return d
        }
        for d in ds { eglTerminate(d) }
        eglReleaseThread()
    }
}
