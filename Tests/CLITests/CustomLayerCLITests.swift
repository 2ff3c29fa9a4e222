import Foundation
import GeoKit
import MapCamera
import MapImage
import MapTestSupport
import Testing

/// The custom GL layer example (`--spinning-box`): drawn where the camera math puts it and
/// depth-tested against columns.
@Suite struct CustomLayerCLITests {
    let dir: ScratchDirectory
    init() throws { dir = try ScratchDirectory("custom-layer") }

    @Test func theBoxStandsWhereTheCameraPutsItAndColumnsInFrontHideIt() throws {
        let box = LatLng(lat: 46.05, lon: 14.5)
        let cam = Camera(center: box, zoom: 15, bearing: 30, pitch: 55, size: ScreenSize(width: 640, height: 480))
        // A column 300 m from the box towards the camera (azimuth bearing + 180): on screen it
        // stands over the box's middle.
        let front = Geodesic.wgs84.direct(from: box, azimuth: 210, distance: 300).point
        let common = ["--center", "46.05,14.5", "--zoom", "15", "--bearing", "30", "--pitch", "55", "--size", "640x480",
                      "--basemap", "none", "--spinning-box", "46.05,14.5,150"]
        let alone = try runMapwright(["render", "-o", dir.path("alone.png")] + common)
        #expect(alone.status == 0, "\(alone.stderr)")
        let hidden = try runMapwright(["render", "-o", dir.path("hidden.png")] + common
                                      + ["--column", "\(front.lat),\(front.lon),600,60", "--column-color", "2da44e"])
        #expect(hidden.status == 0, "\(hidden.stderr)")
        let a = try Bitmap(contentsOfPNGFile: dir.path("alone.png"))
        let h = try Bitmap(contentsOfPNGFile: dir.path("hidden.png"))
        // At t = 0 the box has not turned or risen: its top face (shade 1: #FA9E1F) is centred
        // at 150 m above the point, its south face (shade 0.8) faces the camera.
        let top = try #require(cam.project(box, height: 150))
        let topPixel = try #require(a.pixel(x: Int(top.x), y: Int(top.y) - 6))
        #expect(colorDistance(topPixel, 250, 158, 31) <= 3, "top face at \(top): \(topPixel)")
        let middle = try #require(cam.project(box, height: 75))
        let boxPixel = try #require(a.pixel(x: Int(middle.x), y: Int(middle.y)))
        #expect(Int(boxPixel.a) == 255 && boxPixel.r > 150 && boxPixel.b < 60, "box at \(middle): \(boxPixel)")
        // With the column in front the same pixel is the column's green, not the box's orange.
        let hiddenPixel = try #require(h.pixel(x: Int(middle.x), y: Int(middle.y)))
        #expect(hiddenPixel.g > hiddenPixel.r && hiddenPixel.g > hiddenPixel.b, "column at \(middle): \(hiddenPixel)")
        // Far from both: neither orange nor green.
        let corner = try #require(a.pixel(x: 20, y: 460))
        #expect(colorDistance(corner, 250, 158, 31) > 60 && !(Int(corner.g) > Int(corner.r) + 40), "\(corner)")
    }
}
