import Canvas2D
import Foundation
import MapImage
import Testing

@Suite struct ReadmeExampleTests {
    /// The README's Canvas2D example, verbatim apart from the output path.
    @Test("the README example draws what it says")
    func readmeExample() throws {
        let out = NSTemporaryDirectory() + "canvas2d-readme-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let canvas = try Canvas(pixelWidth: 512, pixelHeight: 256, scale: 2)  // 256×128 logical px
        canvas.clear(.white)
        var route = CanvasPath()
        route.move(to: CanvasPoint(x: 10, y: 100))
        route.addCurve(
            to: CanvasPoint(x: 240, y: 30), control1: CanvasPoint(x: 80, y: 0), control2: CanvasPoint(x: 160, y: 128))
        canvas.stroke(
            route, color: try RGBAColor(hex: "#E53935"),
            style: StrokeStyle(width: 4, join: .round, cap: .round, dash: [8, 4]))
        canvas.fill(
            .circle(center: CanvasPoint(x: 128, y: 64), radius: 30),
            color: RGBAColor(red: 0.1, green: 0.5, blue: 0.9, alpha: 0.4))
        canvas.drawText(
            "Mapwright", at: CanvasPoint(x: 20, y: 40), font: Font(size: 16, weight: .bold), color: .black,
            halo: TextHalo())
        try canvas.makeBitmap().writePNG(to: out)

        let b = try Bitmap(contentsOfPNGFile: out)
        #expect(b.width == 512 && b.height == 256 && b.isOpaque)
        // The route starts at (10, 100) logical = (20, 200) px: red there (first dash is on).
        let start = try #require(b.pixel(x: 22, y: 200))
        #expect(start.r > 200 && start.g < 100, "\(start)")
        // Inside the circle, 20 px below its centre (128, 84) → (256, 168) px, away from the route:
        // 40 % of (25.5, 127.5, 229.5) over white = (163.2, 204, 244.8).
        let centre = try #require(b.pixel(x: 256, y: 168))
        #expect(
            abs(Int(centre.r) - 163) <= 1 && abs(Int(centre.g) - 204) <= 1 && abs(Int(centre.b) - 245) <= 1, "\(centre)"
        )
    }
}
