import Foundation
import MapImage

// Shared helpers for the CLI tests: run the built binary, scratch directories, pixel checks.

/// Runs the built `mapwright` binary (next to the test bundle in .build/debug).
func runMapwright(_ arguments: [String], stdin: String = "", in directory: URL? = nil,
                  environment: [String: String]? = nil) throws -> (
    status: Int32, stdout: String, stderr: String
) {
    let process = Process()
    process.executableURL = mapwrightExecutable()
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

/// The built `mapwright` binary: the test bundle sits in the build products directory next to it.
func mapwrightExecutable() -> URL {
    let candidates = [
        Bundle(for: BundleToken.self).bundleURL.deletingLastPathComponent(),
        Bundle.main.executableURL?.deletingLastPathComponent(),
        Bundle.main.bundleURL,
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug"),
    ].compactMap { $0?.appendingPathComponent("mapwright").standardized }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[candidates.count - 1]
}

final class BundleToken {}

/// The largest difference over R, G and B between a pixel and a colour (999 outside the image).
func colorDistance(_ p: RGBA8?, _ r: Int, _ g: Int, _ b: Int) -> Int {
    guard let p else { return 999 }
    return max(abs(Int(p.r) - r), abs(Int(p.g) - g), abs(Int(p.b) - b))
}

/// The compass needle's direction in an image, degrees clockwise from screen-up: the direction
/// from the compass centre to the centroid of its red (north) half. nil when no red is found.
func compassNeedleAngle(_ image: Bitmap, center: (x: Double, y: Double), radius: Double) -> Double? {
    var sx = 0.0, sy = 0.0, n = 0.0
    let x0 = max(0, Int(center.x - radius)), x1 = min(image.width - 1, Int(center.x + radius))
    let y0 = max(0, Int(center.y - radius)), y1 = min(image.height - 1, Int(center.y + radius))
    guard x0 <= x1, y0 <= y1 else { return nil }
    let px = image.pixels
    for y in y0...y1 {
        for x in x0...x1 {
            let i = (y * image.width + x) * 4
            let r = Int(px[i]), g = Int(px[i + 1]), b = Int(px[i + 2])
            // #D32F2F and its antialiased edge over white/grey: red well above green and blue.
            guard r > 150, r - g > 80, r - b > 80 else { continue }
            let w = Double(r - max(g, b))
            sx += (Double(x) + 0.5 - center.x) * w
            sy += (Double(y) + 0.5 - center.y) * w
            n += w
        }
    }
    guard n > 0 else { return nil }
    return atan2(sx / n, -sy / n) * 180 / .pi
}

/// The difference of two angles in degrees, in (−180, 180].
func angleDifference(_ a: Double, _ b: Double) -> Double {
    var d = (a - b).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 }
    if d <= -180 { d += 360 }
    return d
}
