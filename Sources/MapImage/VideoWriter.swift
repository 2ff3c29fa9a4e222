import Foundation

/// Writes an MP4 (H.264, yuv420p) or WebM (VP9) video through the `ffmpeg` program (Debian
/// package `ffmpeg`): raw RGBA frames are piped to its standard input. Odd sizes are padded by
/// one pixel to the even size yuv420p needs. The file appears at `path` only when ffmpeg
/// succeeds; `abort()` stops ffmpeg and removes its partial output. An ffmpeg that takes no
/// bytes of a frame for `stallTimeout` seconds, or has not finished that long after the last
/// frame, is stopped (SIGTERM, then SIGKILL two seconds later) and the write or `finish` fails:
/// a stuck encoder does not hang the caller.
public final class VideoWriter: FrameSink {
    /// The container, from the file name's extension.
    public enum Container: String, Sendable {
        /// MP4 with H.264 (libx264), yuv420p.
        case mp4
        /// WebM with VP9 (libvpx-vp9), yuv420p.
        case webm
    }

    /// The destination.
    public let path: String
    /// Frame size in pixels.
    public let width: Int, height: Int
    private let process = Process()
    private let input: FileHandle
    private let file: PendingFile
    private let log: URL
    private var done = false
    /// Seconds ffmpeg may go without reading, or without finishing after the last frame.
    public let stallTimeout: Double

    /// Where ffmpeg is, or nil when it is not on `PATH`.
    public static func ffmpegPath() -> String? {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for d in dirs {
            let p = "\(d)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    /// The longest `stallTimeout` (a day).
    public static let maxStallTimeout = 86_400.0

    /// Starts ffmpeg (`ffmpeg`, else the one on `PATH`) for `width`×`height` frames at `fps`.
    /// Throws when ffmpeg is missing (the message names the Debian package) or cannot start, or
    /// `stallTimeout` is not in (0, `maxStallTimeout`].
    public init(path: String, container: Container, width: Int, height: Int, fps: Double,
                stallTimeout: Double = 120, ffmpeg: String? = nil) throws(MapImageError) {
        guard stallTimeout > 0, stallTimeout <= Self.maxStallTimeout else {
            throw .encoding(path, "ffmpeg's timeout \(stallTimeout) s is not in (0, \(Int(Self.maxStallTimeout))]")
        }
        self.stallTimeout = stallTimeout
        guard let ffmpeg = ffmpeg ?? Self.ffmpegPath() else {
            throw .encoding(path, "writing .\(container.rawValue) needs the ffmpeg program, which is not installed "
                + "(Debian/Ubuntu: apt-get install ffmpeg); write .apng or a directory of PNG frames instead")
        }
        guard fps.isFinite, fps > 0 else { throw .encoding(path, "frame rate \(fps) is not positive") }
        self.path = path; self.width = width; self.height = height
        file = try PendingFile(path: path, temporarySuffix: ".tmp.\(container.rawValue)")
        file.close()
        log = FileManager.default.temporaryDirectory.appendingPathComponent("mapwright-ffmpeg-\(UUID().uuidString).log")
        InterruptCleanup.add(log.path)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        var args = ["-hide_banner", "-loglevel", "error", "-y",
                    "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-framerate", "\(fps)", "-i", "pipe:0",
                    "-an", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"]
        switch container {
        case .mp4:
            args += ["-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]
        case .webm:
            args += ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "0", "-crf", "33",
                     "-pix_fmt", "yuv420p"]
        }
        args.append(file.temporaryPath)
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = args
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try? FileHandle(forWritingTo: log)
        input = pipe.fileHandleForWriting
        // A dead ffmpeg must give EPIPE on the next write, not kill this process.
        signal(SIGPIPE, SIG_IGN)
        do { try process.run() } catch {
            file.discard()
            InterruptCleanup.remove(log.path)
            try? FileManager.default.removeItem(at: log)
            throw .encoding(path, "cannot start ffmpeg: \(error.localizedDescription)")
        }
        // Interrupted, this process stops ffmpeg before removing its half-written output.
        InterruptCleanup.addHelper(process.processIdentifier)
    }

    public func write(_ frame: Bitmap) throws(MapImageError) {
        guard !done else { throw .encoding(path, "frame written after finish") }
        guard frame.width == width, frame.height == height else {
            throw .encoding(path, "frame is \(frame.width)x\(frame.height), expected \(width)x\(height)")
        }
        switch send(frame.pixels) {
        case .sent: return
        case .stalled:
            abort()
            throw .encoding(path, "ffmpeg read nothing for \(Self.seconds(stallTimeout)) and was stopped")
        case .closed:
            let why = ffmpegLog()
            abort()
            throw .encoding(path, "ffmpeg stopped reading frames\(why.isEmpty ? "" : ": \(why)")")
        }
    }

    private enum Sent { case sent, stalled, closed }

    /// Writes all of `bytes` to ffmpeg's standard input, waiting (poll) while the pipe is full,
    /// at most `stallTimeout` seconds without progress.
    private func send(_ bytes: [UInt8]) -> Sent {
        let fd = input.fileDescriptor
        let flags = fcntl(fd, F_GETFL)
        if flags & O_NONBLOCK == 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        return bytes.withUnsafeBytes { raw -> Sent in
            guard let base = raw.baseAddress else { return .sent } // nothing to send
            var offset = 0
            var deadline = Self.now() + stallTimeout
            while offset < raw.count {
                let n = Foundation.write(fd, base + offset, raw.count - offset)
                if n > 0 {
                    offset += n
                    deadline = Self.now() + stallTimeout
                    continue
                }
                let err = errno
                if n < 0, err == EINTR { continue }
                guard n < 0, err == EAGAIN || err == EWOULDBLOCK else { return .closed }
                let left = deadline - Self.now()
                guard left > 0 else { return .stalled }
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                // POLLERR/POLLHUP (ffmpeg gone) come back as ready: the next write says EPIPE.
                _ = poll(&p, 1, Int32(min(left * 1000, 1000).rounded(.up)))
            }
            return .sent
        }
    }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    private static func seconds(_ s: Double) -> String {
        s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }

    /// Waits for ffmpeg to exit, at most `timeout` seconds; false if it is still running.
    private func waitForExit(timeout: Double) -> Bool {
        let deadline = Self.now() + timeout
        while process.isRunning {
            if Self.now() >= deadline { return false }
            usleep(2_000)
        }
        process.waitUntilExit()
        return true
    }

    /// Stops ffmpeg: SIGTERM, and SIGKILL if it has not gone two seconds later.
    private func stop() {
        if process.isRunning { process.terminate() }
        if !waitForExit(timeout: 2) {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    public func finish() throws(MapImageError) {
        guard !done else { return }
        try? input.close()
        let exited = waitForExit(timeout: stallTimeout)
        if !exited { stop() }
        InterruptCleanup.removeHelper(process.processIdentifier)
        done = true
        guard exited else {
            file.discard()
            removeLog()
            throw .encoding(path, "ffmpeg had not finished \(Self.seconds(stallTimeout)) after the last frame and was stopped")
        }
        guard process.terminationStatus == 0 else {
            let why = ffmpegLog()
            file.discard()
            removeLog()
            throw .encoding(path, "ffmpeg failed (status \(process.terminationStatus))\(why.isEmpty ? "" : ": \(why)")")
        }
        removeLog()
        try file.commit()
    }

    public func abort() {
        if !done {
            done = true
            try? input.close()
            stop()
            InterruptCleanup.removeHelper(process.processIdentifier)
        }
        file.discard()
        removeLog()
    }

    /// ffmpeg's log file goes, and with it its entry in the interrupt clean-up.
    private func removeLog() {
        try? FileManager.default.removeItem(at: log)
        InterruptCleanup.remove(log.path)
    }

    private func ffmpegLog() -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(3).joined(separator: "; ")
    }
}

/// Encodes frames on a worker thread while the caller renders the next ones (at most `depth`
/// frames wait). Errors from the sink come back from the next `write` or from `finish`.
public final class PipelinedSink: FrameSink, @unchecked Sendable {
    private let sink: FrameSink
    private let queue = DispatchQueue(label: "mapwright-encode")
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var failure: MapImageError?
    private var aborted = false

    /// Wraps `sink`; `depth` frames may be queued (default 2).
    public init(_ sink: FrameSink, depth: Int = 2) {
        self.sink = sink
        slots = DispatchSemaphore(value: max(1, depth))
    }

    private func pendingFailure() -> MapImageError? { lock.withLock { failure } }

    public func write(_ frame: Bitmap) throws(MapImageError) {
        if let f = pendingFailure() { throw f }
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            let skip = lock.withLock { failure != nil || aborted }
            if skip { return }
            do throws(MapImageError) { try sink.write(frame) } catch { lock.withLock { failure = error } }
        }
    }

    public func finish() throws(MapImageError) {
        queue.sync {}
        if let f = pendingFailure() {
            sink.abort()
            throw f
        }
        try sink.finish()
    }

    public func abort() {
        lock.withLock { aborted = true }
        queue.sync {}
        sink.abort()
    }
}
