import Foundation

/// A fresh directory under the system's temporary directory for a test's files, removed with
/// everything in it when the last reference to it goes: a suite instance's (Swift Testing makes
/// one per test), or a test's local. One kept for the whole run (in a `static let`) is made with
/// `removedAtExit(_:)` instead.
public final class ScratchDirectory: @unchecked Sendable {
    /// The directory.
    public let url: URL
    private let keep: Bool

    /// Creates `<temporary directory>/<prefix>-<UUID>`.
    public convenience init(_ prefix: String) throws { try self.init(prefix, keep: false) }

    private init(_ prefix: String, keep: Bool) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        self.keep = keep
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        if !keep { try? FileManager.default.removeItem(at: url) }
    }

    /// A directory that lives until the test process exits, then is removed.
    public static func removedAtExit(_ prefix: String) throws -> ScratchDirectory {
        let dir = try ScratchDirectory(prefix, keep: true)
        ExitCleanup.shared.add(dir.url.path)
        return dir
    }

    /// The directory's path.
    public var path: String { url.path }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` and returns its path.
    public func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }
}

/// Paths removed when the process exits (`atexit`).
private final class ExitCleanup: @unchecked Sendable {
    static let shared = ExitCleanup()
    private let lock = NSLock()
    private var paths: [String] = []

    private init() {
        atexit { ExitCleanup.shared.removeAll() }
    }

    func add(_ path: String) { lock.withLock { paths.append(path) } }

    func removeAll() {
        for p in lock.withLock({ paths }) { try? FileManager.default.removeItem(atPath: p) }
    }
}
