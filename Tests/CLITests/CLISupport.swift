import Foundation
import MapImage

// Shared helpers for the CLI tests: run the built binary, scratch directories, pixel checks.

/// Runs the built `mapwright` binary (next to the test bundle in .build/debug).
func runMapwright(_ arguments: [String], stdin: String = "", in directory: URL? = nil,
                  environment: [String: String]? = nil) throws -> (
    status: Int32, stdout: String, stderr: String
) {
    // The test bundle sits in the build products directory, next to the `mapwright` binary.
    let candidates = [
        Bundle(for: BundleToken.self).bundleURL.deletingLastPathComponent(),
        Bundle.main.executableURL?.deletingLastPathComponent(),
        Bundle.main.bundleURL,
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug"),
    ].compactMap { $0?.appendingPathComponent("mapwright").standardized }
    let exe =
        candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[candidates.count - 1]
    let process = Process()
    process.executableURL = exe
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if let environment { process.environment = environment }
    let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
    process.standardInput = inPipe
    process.standardOutput = outPipe
    process.standardError = errPipe
    try process.run()
    inPipe.fileHandleForWriting.write(Data(stdin.utf8))
    try inPipe.fileHandleForWriting.close()
    let out = outPipe.fileHandleForReading.readDataToEndOfFile()
    let err = errPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

final class BundleToken {}

/// A fresh scratch directory for one test suite instance.
struct ScratchDirectory {
    let url: URL

    init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` and returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }
}

/// The largest difference over R, G and B between a pixel and a colour (999 outside the image).
func colorDistance(_ p: RGBA8?, _ r: Int, _ g: Int, _ b: Int) -> Int {
    guard let p else { return 999 }
    return max(abs(Int(p.r) - r), abs(Int(p.g) - g), abs(Int(p.b) - b))
}
