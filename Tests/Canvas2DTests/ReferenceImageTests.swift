import Canvas2D
import Foundation
import MapImage
import Testing

/// Reference images of the map sprites, committed under References/ after being looked at.
/// A missing reference is written and the test fails until a person has looked at it; set
/// MAPWRIGHT_RECORD_REFERENCES=1 to re-record all of them deliberately.
struct UnknownCase: Error {
    let name: String
}

@Suite struct ReferenceImageTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "References")
    static let blue = RGBAColor(r8: 0x1E, g8: 0x88, b8: 0xE5)

    static let cases: [String] = [
        "marker-dot-1x", "marker-dot-2x", "marker-pin-1x", "marker-pin-2x", "label-halo-1x", "label-halo-2x",
        "label-multiline-2x", "compass-north-2x", "compass-bearing30-pitch50-2x", "compass-bearing90-1x",
        "scale-bar-1x", "scale-bar-2x", "attribution-2x",
    ]

    static func render(_ name: String) throws -> Bitmap {
        switch name {
        case "marker-dot-1x": return try MapSprites.markerDot(color: blue, scale: 1).bitmap
        case "marker-dot-2x": return try MapSprites.markerDot(color: blue, scale: 2).bitmap
        case "marker-pin-1x":
            return try MapSprites.markerPin(color: RGBAColor(r8: 0xE5, g8: 0x39, b8: 0x35), scale: 1).bitmap
        case "marker-pin-2x":
            return try MapSprites.markerPin(color: RGBAColor(r8: 0xE5, g8: 0x39, b8: 0x35), scale: 2).bitmap
        case "label-halo-1x": return try MapSprites.label("Reykjavík", scale: 1).bitmap
        case "label-halo-2x": return try MapSprites.label("Reykjavík", scale: 2).bitmap
        case "label-multiline-2x":
            return try MapSprites.label(
                "Golden Gate\nBridge", font: Font(size: 12, weight: .bold), anchor: .left, scale: 2
            ).bitmap
        case "compass-north-2x": return try MapSprites.compass(bearing: 0, scale: 2).bitmap
        case "compass-bearing30-pitch50-2x": return try MapSprites.compass(bearing: 30, pitch: 50, scale: 2).bitmap
        case "compass-bearing90-1x": return try MapSprites.compass(bearing: 90, scale: 1).bitmap
        case "scale-bar-1x": return try MapSprites.scaleBar(metresPerPixel: 6, scale: 1).bitmap
        case "scale-bar-2x": return try MapSprites.scaleBar(metresPerPixel: 38.2, scale: 2).bitmap
        case "attribution-2x": return try MapSprites.attribution("© Natural Earth · Mapwright", scale: 2).bitmap
        default: throw UnknownCase(name: name)
        }
    }

    /// Pixels may differ by antialiasing noise (font or Cairo versions): a pixel counts as
    /// different when a channel differs by more than 24 levels, and at most 1 % may.
    @Test("sprites match their reference images", arguments: cases)
    func matchesReference(name: String) throws {
        let actual = try Self.render(name)
        let path = Self.directory.appendingPathComponent(name + ".png").path
        let record = ProcessInfo.processInfo.environment["MAPWRIGHT_RECORD_REFERENCES"] == "1"
        guard !record, FileManager.default.fileExists(atPath: path) else {
            try actual.writePNG(to: path, options: .smallest)
            Issue.record("recorded \(path): look at it, then run again")
            return
        }
        let expected = try Bitmap(contentsOfPNGFile: path)
        #expect(expected.width == actual.width && expected.height == actual.height, "size of \(name)")
        guard expected.width == actual.width, expected.height == actual.height else { return }
        var different = 0
        for i in stride(from: 0, to: actual.pixels.count, by: 4) {
            let d = (0..<4).map { abs(Int(actual.pixels[i + $0]) - Int(expected.pixels[i + $0])) }.max() ?? 0
            if d > 24 { different += 1 }
        }
        let allowed = actual.width * actual.height / 100
        #expect(different <= allowed, "\(name): \(different) pixels differ (allowed \(allowed))")
    }
}
