import Foundation
import GeoKit

/// Follows a file another program appends positions to, like `tail -f`: each `poll()` returns
/// the positions in the complete lines added since the last one.
///
/// Lines are `lat,lon[,…]` (CSV; a header or any line whose first two fields are not numbers is
/// skipped) or NMEA sentences (`$GPGGA`/`$GNGGA` with a fix, `$GPRMC`/`$GNRMC` with status A).
/// A line is read once its newline arrives. When the file shrinks (truncated) or is replaced by
/// another file (rotated: a new inode), reading starts again at its beginning; the points read
/// so far are kept by the caller. A missing file is waited for. At most 16 MiB is read per poll.
/// What stands in the way (no such file yet, a directory, a pipe or device, no permission) is
/// one warning when it starts, not one per poll.
public final class FollowedFile: @unchecked Sendable {
    /// The path followed.
    public let path: String
    private var offset: UInt64 = 0
    private var inode: UInt64?
    private var pending = Data()
    private var lineNumber = 0
    /// The condition last reported (reported again only after it has cleared).
    private var problem: String?
    private let lock = NSLock()
    /// The most bytes read per poll.
    public static let maxReadPerPoll = 16 << 20

    /// Follows `path` from its beginning (`fromEnd`: only what is appended from now on).
    public init(path: String, fromEnd: Bool = false) {
        self.path = path
        if fromEnd, case .file(let size, let ino) = Self.status(path) {
            offset = size
            inode = ino
        }
    }

    enum Status: Equatable { case file(size: UInt64, inode: UInt64), missing, directory, notAFile, error(String) }

    static func status(_ path: String) -> Status {
        var st = stat()
        guard stat(path, &st) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .missing : .error(String(cString: strerror(errno)))
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .file(size: UInt64(max(0, st.st_size)), inode: UInt64(st.st_ino))
        case S_IFDIR: return .directory
        default: return .notAFile
        }
    }

    /// `message` if it is not the condition reported last; remembers it.
    private func once(_ message: String) -> [String] {
        defer { problem = message }
        return message == problem ? [] : [message]
    }

    /// New positions, and warnings (`path:line: reason`) for lines that could not be read.
    public func poll() -> (points: [LatLng], warnings: [String]) {
        lock.withLock {
            let st: (size: UInt64, inode: UInt64)
            switch Self.status(path) {
            case .file(let size, let ino): st = (size, ino)
            case .missing: return ([], once("\(path): no such file yet; waiting for it to appear"))
            case .directory: return ([], once("\(path): is a directory; waiting for a file there"))
            case .notAFile:
                return ([], once("\(path): not a regular file (a pipe, socket or device); --follow-file reads a file that another program appends to"))
            case .error(let why): return ([], once("\(path): \(why)"))
            }
            var warnings: [String] = []
            if inode != nil && st.inode != inode {
                warnings.append("\(path): the file was replaced; reading the new one from its start")
                offset = 0; pending.removeAll(); lineNumber = 0
            } else if st.size < offset {
                warnings.append("\(path): the file was truncated; reading again from its start")
                offset = 0; pending.removeAll(); lineNumber = 0
            }
            inode = st.inode
            guard st.size > offset else {
                problem = nil
                return ([], warnings)
            }
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return ([], warnings + once("\(path): cannot be opened: \(String(cString: strerror(errno)))")) }
            defer { close(fd) }
            let want = Int(min(st.size - offset, UInt64(Self.maxReadPerPoll)))
            var buffer = [UInt8](repeating: 0, count: want)
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, want, off_t(offset)) }
            guard n >= 0 else { return ([], warnings + once("\(path): cannot be read: \(String(cString: strerror(errno)))")) }
            problem = nil
            offset += UInt64(n)
            pending.append(contentsOf: buffer[0 ..< n])
            // Complete lines only; the unfinished tail stays pending (consumed once, not per line).
            var points: [LatLng] = []
            var start = pending.startIndex
            while let nl = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let lineData = pending[start..<nl]
                start = nl + 1
                lineNumber += 1
                guard let line = String(data: lineData, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
                      !line.isEmpty else { continue }
                switch Self.parse(line) {
                case .point(let p): points.append(p)
                case .skip: break
                case .bad(let why): warnings.append("\(path):\(lineNumber): \(why)")
                }
            }
            pending = Data(pending[start...])
            if pending.count > 1 << 20 {
                warnings.append("\(path):\(lineNumber + 1): a line longer than 1 MiB; skipped")
                pending.removeAll()
            }
            return (points, warnings)
        }
    }

    enum Parsed: Equatable { case point(LatLng), skip, bad(String) }

    static func parse(_ line: String) -> Parsed {
        if line.hasPrefix("$") { return nmea(line) }
        let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count >= 2, let lat = Double(fields[0]), let lon = Double(fields[1]) else { return .skip }
        let p = LatLng(lat: lat, lon: lon)
        guard p.isValid else { return .bad("invalid position \(fields[0]),\(fields[1])") }
        return .point(p)
    }

    /// `$--GGA,time,lat,N,lon,E,quality,…` and `$--RMC,time,status,lat,N,lon,E,…`.
    static func nmea(_ line: String) -> Parsed {
        let body = line.split(separator: "*", maxSplits: 1).first.map(String.init) ?? line
        let f = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard let kind = f.first, kind.count == 6 else { return .skip }
        let type = kind.suffix(3)
        let at: Int
        if type == "GGA" {
            guard f.count > 6 else { return .bad("a GGA sentence needs 6 fields") }
            guard let q = Int(f[6]), q > 0 else { return .skip }  // no fix
            at = 2
        } else if type == "RMC" {
            guard f.count > 6 else { return .bad("an RMC sentence needs 6 fields") }
            guard f[2] == "A" else { return .skip }  // void
            at = 3
        } else {
            return .skip
        }
        guard let lat = degrees(f[at], f[at + 1], "N", "S", 2), let lon = degrees(f[at + 2], f[at + 3], "E", "W", 3) else {
            return .bad("cannot read the position in \(kind)")
        }
        let p = LatLng(lat: lat, lon: lon)
        guard p.isValid else { return .bad("invalid position \(lat),\(lon)") }
        return .point(p)
    }

    /// `ddmm.mmmm` (or `dddmm.mmmm`) with a hemisphere letter.
    static func degrees(_ v: String, _ hemi: String, _ pos: String, _ neg: String, _ degDigits: Int) -> Double? {
        guard v.count > degDigits, let d = Double(v.prefix(degDigits)), let m = Double(v.dropFirst(degDigits)), m < 60 else {
            return nil
        }
        let value = d + m / 60
        switch hemi {
        case pos: return value
        case neg: return -value
        default: return nil
        }
    }
}
