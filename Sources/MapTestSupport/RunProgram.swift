import Foundation

/// What a program printed and how it ended.
public struct ProgramOutput: Sendable {
    /// Exit status.
    public let status: Int32
    /// Standard output as bytes (oracles such as a PNG decoder print binary).
    public let data: Data
    /// Standard error as text.
    public let stderr: String

    public init(status: Int32, data: Data, stderr: String) {
        self.status = status; self.data = data; self.stderr = stderr
    }

    /// Standard output as UTF-8 text.
    public var stdout: String { String(decoding: data, as: UTF8.self) }
}

/// Runs a program (a test oracle: python3, ffprobe, …) to completion and returns its output.
/// `executable` is a path, or a name looked up on `PATH` through `/usr/bin/env`.
public func runProgram(_ executable: String, _ arguments: [String]) throws -> ProgramOutput {
    let process = Process()
    if executable.hasPrefix("/") {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
    }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let message = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProgramOutput(status: process.terminationStatus, data: data, stderr: String(decoding: message, as: UTF8.self))
}

/// The headless browser the tests drive: Debian's `chromium`, or Ubuntu's `chromium-browser`
/// (what `scripts/install-deps.sh` installs where each exists).
public let chromiumPath: String = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
    .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/chromium"
