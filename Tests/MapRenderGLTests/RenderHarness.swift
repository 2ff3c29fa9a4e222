import Foundation
import GeoKit
import MapCamera
import MapImage
import MapRender
import MapRenderGL
import MapScene
import Testing

/// One renderer shared by the GL tests (it serialises calls on its own thread).
enum RenderHarness {
    static let shared: Result<MapRenderer, any Error> = Result { try MapRenderer() }

    static func renderer() throws -> MapRenderer {
        try shared.get()
    }

    static var referencesDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("References")
    }

    static func bitmap(_ frame: Frame) throws -> Bitmap {
        try Bitmap(width: frame.width, height: frame.height, pixels: frame.pixels)
    }
}

/// Compares a frame with `References/<name>/expected.png`: a pixel differs when any channel is
/// more than `channelTolerance` apart, and the test fails when more than `maxDifferentFraction`
/// of the pixels differ. Set `MAPWRIGHT_RECORD=1` to (re)write the baselines; a missing
/// baseline is written and the test still fails, so that a person looks at it first.
func expectImage(_ frame: Frame, named name: String, channelTolerance: Int = 24, maxDifferentFraction: Double = 0.003,
                 sourceLocation: SourceLocation = #_sourceLocation) throws {
    let dir = RenderHarness.referencesDirectory.appendingPathComponent(name)
    let expectedURL = dir.appendingPathComponent("expected.png")
    let actual = try RenderHarness.bitmap(frame)
    let record = ProcessInfo.processInfo.environment["MAPWRIGHT_RECORD"] == "1"
    let exists = FileManager.default.fileExists(atPath: expectedURL.path)
    if record || !exists {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try actual.writePNG(to: expectedURL.path, options: .balanced)
        if !exists {
            Issue.record("recorded missing baseline \(expectedURL.path); look at it and commit it", sourceLocation: sourceLocation)
        }
        return
    }
    let expected = try Bitmap(contentsOfPNGFile: expectedURL.path)
    guard expected.width == actual.width, expected.height == actual.height else {
        Issue.record("\(name): size \(actual.width)x\(actual.height) differs from the baseline \(expected.width)x\(expected.height)",
                     sourceLocation: sourceLocation)
        return
    }
    var different = 0
    let a = actual.pixels, e = expected.pixels
    for i in stride(from: 0, to: a.count, by: 4) {
        for c in 0 ..< 4 where abs(Int(a[i + c]) - Int(e[i + c])) > channelTolerance {
            different += 1
            break
        }
    }
    let fraction = Double(different) / Double(actual.width * actual.height)
    if fraction > maxDifferentFraction {
        let failed = dir.appendingPathComponent("actual.png")
        try? actual.writePNG(to: failed.path, options: .balanced)
        Issue.record("\(name): \(different) pixels (\(fraction * 100)%) differ from the baseline by more than \(channelTolerance); see \(failed.path)",
                     sourceLocation: sourceLocation)
    }
}
