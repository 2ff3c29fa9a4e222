import Foundation
import GeoKit
import MapCamera
import MapImage
import MapTestSupport
import Testing

/// Archives made by other tools, built once per test process by `Oracles/make_tile_archives.py`
/// (GDAL's `gdal_translate -of MBTILES` + `gdaladdo`, `gdal2tiles.py --xyz`, PyPI `mbutil` and
/// `pmtiles-convert`), with the mosaics their tiles make read back by Python.
enum TileArchives {
    struct View: Decodable { let z: Int; let lat: Double; let lon: Double; let path: String }
    struct Region: Decodable { let x0: Double, y0: Double, x1: Double, y1: Double; let width: Int, height: Int }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let venvPython = root.appendingPathComponent(".venv-oracles/bin/python").path

    /// The directory with the archives (made on first use).
    static let directory: Result<URL, Error> = {
        do {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tile-archives-\(UUID().uuidString)")
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Oracles/make_tile_archives.py")
            let r = try runProgram("/usr/bin/python3", [script.path, dir.path, venvPython])
            guard r.status == 0 else { throw OracleError("make_tile_archives.py failed: \(r.stderr)") }
            return .success(dir)
        } catch { return .failure(error) }
    }()

    static func views() throws -> [String: View] {
        let dir = try directory.get()
        return try JSONDecoder().decode([String: View].self, from: Data(contentsOf: dir.appendingPathComponent("views.json")))
    }

    static func region() throws -> Region {
        try JSONDecoder().decode(Region.self, from: Data(contentsOf: try directory.get().appendingPathComponent("region.json")))
    }
}

struct OracleError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

@Suite(.serialized) struct TileSourceCLITests {
    let dir: ScratchDirectory
    init() throws { dir = try ScratchDirectory("tile-sources") }

    /// Each archive at its deepest zoom, north up, with a tile corner in the middle of a 512-px
    /// view: the image is the 2×2 mosaic of those tiles, within a mean difference of 2 per channel.
    @Test(arguments: ["gdal.mbtiles", "gdal2tiles", "mbutil.mbtiles", "pmtiles.pmtiles"])
    func anArchiveMadeByAnotherToolDrawsAsItsTiles(_ name: String) throws {
        let view = try #require(try TileArchives.views()[name])
        let out = dir.path("\(name).png")
        // 256-px tiles of zoom z are drawn at camera zoom z − 1 (the world is 512·2^zoom px).
        let r = try runMapwright(["render", "--tiles", view.path, "--center", "\(view.lat),\(view.lon)", "--zoom", "\(view.z - 1)",
                                  "--size", "512x512", "--no-attribution", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "no warnings expected: \(r.stderr)")
        let image = try Bitmap(contentsOfPNGFile: out)
        let mosaic = try Bitmap(contentsOfPNGFile: try TileArchives.directory.get().appendingPathComponent("\(name).mosaic.png").path)
        #expect(image.width == 512 && image.height == 512)
        var sum = 0
        for i in 0 ..< 512 * 512 {
            for c in 0 ..< 3 { sum += abs(Int(image.pixels[i * 4 + c]) - Int(mosaic.pixels[i * 4 + c])) }
        }
        let mad = Double(sum) / Double(512 * 512 * 3)
        #expect(mad <= 2, "\(name): mean absolute difference \(mad)")
    }

    /// Bearing 30, pitch 45: the raster's colours encode position (red west→east, green
    /// north→south), so each pixel must show the colour of the ground point the camera maps it to.
    @Test(arguments: ["gdal.mbtiles", "pmtiles.pmtiles"])
    func pixelsLandWhereTheCameraPutsTheirPositions(_ name: String) throws {
        let view = try #require(try TileArchives.views()[name])
        let region = try TileArchives.region()
        let center = LatLng(lat: 45.74, lon: 14.40)
        let cam = Camera(center: center, zoom: 10.6, bearing: 30, pitch: 45, size: ScreenSize(width: 640, height: 480))
        let out = dir.path("\(name)-pitched.png")
        let r = try runMapwright(["render", "--tiles", view.path, "--center", "45.74,14.40", "--zoom", "10.6", "--bearing", "30",
                                  "--pitch", "45", "--size", "640x480", "--no-attribution", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try Bitmap(contentsOfPNGFile: out)
        let world = 2 * Double.pi * 6378137.0
        var checked = 0, worst = 0, checkerChecked = 0
        for sy in stride(from: 30, to: 470, by: 22) {
            for sx in stride(from: 20, to: 630, by: 25) {
                guard let ll = cam.unproject(ScreenPoint(x: Double(sx) + 0.5, y: Double(sy) + 0.5)) else { continue }
                let m = MapPoint(ll)
                let mx = (m.x - 0.5) * world, my = (0.5 - m.y) * world
                let fi = (mx - region.x0) / (region.x1 - region.x0) * Double(region.width)
                let fj = (region.y1 - my) / (region.y1 - region.y0) * Double(region.height)
                // Away from the raster's edges.
                guard fi > 8, fj > 8, fi < Double(region.width - 8), fj < Double(region.height - 8) else { continue }
                let p = try #require(image.pixel(x: sx, y: sy))
                let er = Int(fi * 256 / Double(region.width)), eg = Int(fj * 256 / Double(region.height))
                let d = max(abs(Int(p.r) - er), abs(Int(p.g) - eg))
                worst = max(worst, d)
                checked += 1
                #expect(d <= 6, "\(name): pixel (\(sx), \(sy)) is \(p), expected red \(er) green \(eg)")
                // Blue is a checker of 23 × 17 source pixels: away from its edges it is 40 or 215.
                let ci = fi.truncatingRemainder(dividingBy: 23), cj = fj.truncatingRemainder(dividingBy: 17)
                if ci > 3, ci < 20, cj > 3, cj < 14 {
                    let eb = (Int(fi / 23) + Int(fj / 17)) % 2 == 1 ? 40 : 215
                    checkerChecked += 1
                    #expect(abs(Int(p.b) - eb) <= 30, "\(name): pixel (\(sx), \(sy)) blue \(p.b), expected \(eb)")
                }
            }
        }
        #expect(checked > 200 && checkerChecked > 50, "only \(checked) points fell on the raster (\(checkerChecked) inside checker cells)")
    }
}
