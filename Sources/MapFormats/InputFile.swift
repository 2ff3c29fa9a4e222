import Foundation

/// Reads a whole input file the way Unix tools do: a regular file, or a stream (a pipe such as
/// the shell's `<(…)`, `/dev/stdin`, a device), with `-` standing for standard input. At most
/// `limit` bytes are read: a larger file is refused before reading, and a stream that goes on
/// past the limit (`/dev/zero`) is refused once it has, so no input takes unbounded memory.
public enum InputFile {
    /// Why an input could not be read, in words (`no such file`, `is a directory`, …).
    public struct Failure: Error, Sendable, CustomStringConvertible, Equatable {
        public enum Kind: Sendable, Equatable {
            /// The file or stream holds more than the limit.
            case tooLarge(bytes: Int?, limit: Int)
            /// It cannot be opened or read; `reason` says why.
            case unreadable
        }
        public let kind: Kind
        public let reason: String
        public var description: String { reason }
    }

    /// The most bytes a file read whole may hold where nothing more specific applies (scene
    /// files, scripts, images, archives' pieces): 512 MiB.
    public static let wholeFileLimit = 512 << 20

    /// The name used in messages: `standard input` for `-`, else the path.
    public static func displayName(_ path: String) -> String { path == "-" ? "standard input" : path }

    /// The bytes of `path` (`-`: standard input). `rejects`, given the first 64 KiB, may stop the
    /// read early (it returns what was read): a reader that will refuse binary data need not read
    /// a gigabyte of `/dev/zero` to say so.
    public static func read(_ path: String, limit: Int, rejects: (([UInt8]) -> Bool)? = nil) throws(Failure) -> [UInt8] {
        let fd: Int32
        if path == "-" {
            fd = dup(STDIN_FILENO)
        } else {
            fd = open(path, O_RDONLY | O_CLOEXEC)
        }
        guard fd >= 0 else { throw failure(errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(errno) }
        let type = info.st_mode & S_IFMT
        guard type != S_IFDIR else { throw Failure(kind: .unreadable, reason: "is a directory") }
        if type == S_IFREG, Int(info.st_size) > limit {
            throw Failure(kind: .tooLarge(bytes: Int(info.st_size), limit: limit),
                          reason: "file is \(info.st_size) bytes, more than the limit of \(limit)")
        }
        var bytes: [UInt8] = []
        if type == S_IFREG { bytes.reserveCapacity(Int(info.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(errno)
            }
            if n == 0 { break }
            guard bytes.count + n <= limit else {
                throw Failure(kind: .tooLarge(bytes: nil, limit: limit), reason: "more than the limit of \(limit) bytes")
            }
            let first = bytes.isEmpty
            bytes.append(contentsOf: chunk[0 ..< n])
            if first, let rejects, rejects(bytes) { return bytes }
        }
        return bytes
    }

    static func failure(_ code: Int32) -> Failure {
        switch code {
        case ENOENT, ENOTDIR: return Failure(kind: .unreadable, reason: "no such file")
        case EISDIR: return Failure(kind: .unreadable, reason: "is a directory")
        default: return Failure(kind: .unreadable, reason: String(cString: strerror(code)))
        }
    }
}
