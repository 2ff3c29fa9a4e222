#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import MapFormats

/// Whole-file reads and atomic writes, with errors naming the path and the reason.
public enum AtomicFile {
    /// The largest file ``read(_:)`` accepts, in bytes (512 MiB).
    public static let maxReadSize = InputFile.wholeFileLimit

    /// Writes `bytes` to `path` atomically: into a new temporary file in the same directory,
    /// then `rename(2)` over `path`. Readers see the old file or the whole new one, never a
    /// partial one; on failure the temporary file is removed and `path` is left untouched.
    /// (No `fsync`: atomic against failures of this process, not against power loss.)
    ///
    /// `-` is standard output. A path that is a device, pipe or socket (`/dev/stdout`, a FIFO) is
    /// written in place: replacing it would leave a regular file where it was. A symbolic link
    /// to a file has that file replaced and stays a link.
    public static func write(_ bytes: [UInt8], to path: String) throws(MapImageError) {
        guard !path.isEmpty else { throw .fileWrite(path, "empty path") }
        if path == "-" {
            if let failure = writeAll(STDOUT_FILENO, bytes) { throw .fileWrite("standard output", failure) }
            return
        }
        var info = stat()
        if stat(path, &info) == 0 {
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR { throw .fileWrite(path, "is a directory") }
            if type != S_IFREG {
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw .fileWrite(path, errorText()) }
                var failure = writeAll(fd, bytes)
                if close(fd) != 0, failure == nil { failure = "close failed: \(errorText())" }
                if let failure { throw .fileWrite(path, failure) }
                return
            }
        }
        var target = path
        var link = stat()
        if lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
        let directory: String
        let name: String
        if let slash = target.lastIndex(of: "/") {
            directory = slash == target.startIndex ? "/" : String(target[..<slash])
            name = String(target[target.index(after: slash)...])
        } else {
            directory = "."
            name = target
        }
        guard !name.isEmpty else { throw .fileWrite(path, "path names a directory, not a file") }

        var fd: Int32 = -1
        var temporary = ""
        for _ in 0..<16 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            temporary = (directory == "/" ? "/" : directory + "/") + ".\(name).\(suffix).tmp"
            InterruptCleanup.add(temporary)  // before it exists: an interruption then removes it
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 { break }
            let failed = errno
            InterruptCleanup.remove(temporary)
            if failed != EEXIST { errno = failed; break }
        }
        guard fd >= 0 else { throw .fileWrite(path, "cannot create a temporary file in \(directory): \(errorText())") }
        defer { InterruptCleanup.remove(temporary) }

        var failure = writeAll(fd, bytes)
        if close(fd) != 0, failure == nil { failure = "close failed: \(errorText())" }
        if failure == nil, rename(temporary, target) != 0 { failure = "rename into place failed: \(errorText())" }
        if let failure {
            unlink(temporary)
            throw .fileWrite(path, failure)
        }
    }

    /// Writes all of `bytes` to `fd`; nil, or why it failed.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> String? {
        var failure: String?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = "write failed after \(offset) of \(raw.count) bytes: \(errorText())"
                    return
                }
                offset += n
            }
        }
        return failure
    }

    /// Reads the whole file at `path` (at most ``maxReadSize`` bytes), as every input is read
    /// (`InputFile`: pipes too, `-` for standard input).
    public static func read(_ path: String) throws(MapImageError) -> [UInt8] {
        do {
            return try InputFile.read(path, limit: maxReadSize)
        } catch {
            if case .tooLarge = error.kind { throw .fileRead(path, "file is larger than \(maxReadSize) bytes") }
            throw .fileRead(path, error.reason)
        }
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
