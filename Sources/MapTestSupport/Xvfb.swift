import Foundation

/// An Xvfb server on a free display number for tests that need X11, killed on deinit: keep it
/// alive for as long as the display is used (`withExtendedLifetime`), since Swift may release a
/// reference after its last use.
public final class Xvfb {
    public let process = Process()
    /// The display name, such as ":123".
    public let display: String
    /// Xvfb's standard output, kept open for the server's life (a write to a closed pipe would
    /// end it with SIGPIPE).
    private let output = Pipe()

    /// Starts `Xvfb` with one 1024×768×24 screen and waits (up to 10 s) until it accepts
    /// connections: Xvfb picks a free display itself and writes its number to standard output
    /// (`-displayfd 1`) only once it is ready, so two servers started at once cannot collide
    /// and no client connects to a socket that is not yet listening.
    public init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        // -noreset: by default the server resets when its last client disconnects, and refuses
        // connections meanwhile (a test that opened and closed SDL, then connected, failed so).
        process.arguments = ["-displayfd", "1", "-noreset", "-screen", "0", "1024x768x24", "-nolisten", "tcp"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let fd = output.fileHandleForReading.fileDescriptor
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
