import Foundation

/// Files to remove when the process is interrupted: the temporary files of writers in progress
/// (an animation's APNG or video, a tile archive, the frames of a run so far), and helper
/// processes to stop first (ffmpeg, which would otherwise finish a video nobody wants).
///
/// Writers `add` a path before they create it and `remove` it once it is renamed into place or
/// discarded. Long-running commands call `install()` once: SIGINT, SIGTERM and SIGHUP then wake
/// a cleanup thread (the signal handler only writes the signal's number to a pipe, which is
/// async-signal-safe). The cleanup holds the registry's lock to the end, so no writer registers
/// (and so creates) anything more; it kills the helpers, removes every registered path a few
/// times over 0.1 s (a file whose creation was already under way lands in that time), and lets
/// the signal end the process as it would have (exit status 128 + signal for a shell). Without
/// `install()` the registry is kept but nothing is routed (the server handles its own SIGTERM).
public enum InterruptCleanup {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []
    nonisolated(unsafe) private static var helpers: Set<Int32> = []
    nonisolated(unsafe) private static var handlers: [Int: @Sendable () -> Void] = [:]
    nonisolated(unsafe) private static var nextHandler = 0
    nonisolated(unsafe) private static var installed = false
    /// The write end of the wake-up pipe, read by the signal handler.
    nonisolated(unsafe) fileprivate static var wakeFD: Int32 = -1

    /// The signals routed to the cleanup.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Removes `path` (a file, or a directory once empty) if the process is interrupted before
    /// `remove(path)`. Call it before creating the file.
    public static func add(_ path: String) { _ = lock.withLock { paths.insert(path) } }

    /// Forgets `path` (it was renamed into place, or removed).
    public static func remove(_ path: String) { _ = lock.withLock { paths.remove(path) } }

    /// Kills process `pid` (SIGKILL) if this process is interrupted before `removeHelper(pid)`.
    public static func addHelper(_ pid: Int32) { _ = lock.withLock { helpers.insert(pid) } }

    /// Forgets helper process `pid` (it has ended).
    public static func removeHelper(_ pid: Int32) { _ = lock.withLock { helpers.remove(pid) } }

    /// Runs `body` on the cleanup thread if the process is interrupted before
    /// `removeHandler(_:)`, before helpers are killed and registered paths removed: for writers
    /// whose output is too many files to register one by one (a directory of tiles). `body`
    /// must stop the writer (take its lock, mark it stopped) before removing what it wrote, and
    /// must not call into `InterruptCleanup`. Returns the handler's key.
    public static func addHandler(_ body: @escaping @Sendable () -> Void) -> Int {
        lock.withLock {
            nextHandler += 1
            handlers[nextHandler] = body
            return nextHandler
        }
    }

    /// Forgets the handler `key` (its writer finished or cleaned up itself).
    public static func removeHandler(_ key: Int) { _ = lock.withLock { handlers.removeValue(forKey: key) } }

    /// Routes SIGINT, SIGTERM and SIGHUP to the cleanup (once per process; later calls do nothing).
    public static func install() {
        lock.lock()
        defer { lock.unlock() }
        guard !installed else { return }
        var fds: [Int32] = [-1, -1]
        // Close-on-exec: ffmpeg and other helpers must not hold the wake-up pipe.
        guard pipe(&fds) == 0 else { return }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        installed = true
        wakeFD = fds[1]
        let readFD = fds[0]
        let thread = Thread {
            var sig: UInt8 = 0
            while true {
                let n = read(readFD, &sig, 1)
                if n == 1 { break }
                if n < 0, errno == EINTR { continue }
                return
            }
            cleanUpAndDie(Int32(sig))
        }
        thread.name = "interrupt-cleanup"
        thread.start()
        // A parent may have started this process with these signals blocked (test runners do);
        // a command that promises to clean up on them must receive them.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for s in signals { sigaddset(&unblock, s) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = interruptHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(s, &action, nil)
        }
    }

    private static func cleanUpAndDie(_ sig: Int32) -> Never {
        // Handlers first, without the lock: a writer they wait for may be registering a
        // temporary file (`AtomicFile`) on its way to finishing the file in hand.
        for body in lock.withLock({ handlers.sorted { $0.key < $1.key }.map(\.value) }) { body() }
        lock.lock()  // held to the end: writers block in `add`
        for pid in helpers { kill(pid, SIGKILL) }
        // Files first, then the directories a writer created for them (rmdir removes only
        // empty ones), deepest first; again for 0.1 s, for files whose creation was under way.
        let doomed = paths.sorted { $0.count > $1.count }
        for round in 0..<10 {
            if round > 0 { usleep(10_000) }
            for p in doomed where unlink(p) != 0 && (errno == EISDIR || errno == EPERM) { rmdir(p) }
        }
        // The default action, now: the process ends by the signal.
        signal(sig, SIG_DFL)
        kill(getpid(), sig)
        while true { pause() }
    }
}

/// Writes the signal's number to the cleanup thread's pipe (async-signal-safe).
private func interruptHandler(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(InterruptCleanup.wakeFD, &byte, 1)
}
