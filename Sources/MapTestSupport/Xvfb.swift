import Foundation

/// An Xvfb server on a free display number for tests that need X11, killed on deinit.
public final class Xvfb {
    public let process = Process()
    /// The display name, such as ":123".
    public let display: String

    /// Starts `Xvfb` with one 1024×768×24 screen and waits (up to 10 s) for its socket.
    public init() throws {
        var n = 90 + Int.random(in: 0..<400)
        while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") || FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock") { n += 1 }
        display = ":\(n)"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        process.arguments = [display, "-screen", "0", "1024x768x24", "-nolisten", "tcp"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") {
            guard Date() < deadline, process.isRunning else { throw CocoaError(.fileNoSuchFile) }
            usleep(50_000)
        }
    }

    deinit {
        // SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
