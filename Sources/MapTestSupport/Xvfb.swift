import Foundation

/// An Xvfb server on a free display number for tests that need X11, killed on deinit.
public final class Xvfb {
    public let process = Process()
    /// The display name, such as ":123".
    public let display: String

    /// Starts `Xvfb` with one 1024×768×24 screen and waits (up to 10 s) until it accepts
    /// connections: Xvfb picks a free display itself and writes its number to standard output
    /// (`-displayfd 1`) only once it is ready, so two servers started at once cannot collide
    /// and no client connects to a socket that is not yet listening.
    public init() throws {
        let out = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        process.arguments = ["-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"]
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let fd = out.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(10)
        var text = ""
        while !text.hasSuffix("\n") {
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&p, 1, left) > 0 else { break }
            var byte: UInt8 = 0
            guard read(fd, &byte, 1) == 1 else { break }
            text.append(Character(UnicodeScalar(byte)))
        }
        guard let n = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw CocoaError(.fileNoSuchFile)
        }
        display = ":\(n)"
    }

    deinit {
        // SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
