import Foundation
import GeoKit
import MapCamera
import MapImage
import MapScene
import MapSnapshot
import MapTiles
import Testing

/// Houses whose party walls are shared, simplified alike: GDAL's archive of a block of 8 × 4
/// houses (`MapTilesTests/Fixtures/vector/make-terrace.py`) whose walls wiggle up to 1.6
/// simplification tolerances off their chords at zoom 16. Simplified house by house, a wall's
/// point kept in one house and dropped in the next opens a sliver of background between them
/// (light specks and lines inside the block); a vector tile's areas are simplified piece by piece
/// between the corners where their rings part (`PolygonSet(sharingEdges:)`), so the block is one
/// colour inside.
@Suite struct VectorTileTerraceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../MapTilesTests/Fixtures/vector").standardized
    static let style = VectorTileStyle.light

    /// GDAL's input: the houses' rings (on the tiles' grid) and the block's bounds (west, north,
    /// east, south).
    static func houses() throws -> (rings: [PolygonRings], block: (Double, Double, Double, Double)) {
        let data = try Data(contentsOf: folder.appendingPathComponent("terrace.geojson"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let b = try #require(json["block"] as? [String: Double])
        let features = try #require(json["features"] as? [[String: Any]])
        let rings = try features.map { f -> PolygonRings in
            let g = try #require(f["geometry"] as? [String: Any])
            let ring = try #require((g["coordinates"] as? [[[Double]]])?.first)
            // On the tiles' grid (4096 units a tile at zoom 16), as GDAL encodes them.
            let grid = 4096 * 65536.0
            return PolygonRings(exterior: try GeoPath(points: ring.map {
                let p = MapPoint(LatLng(lat: $0[1], lon: $0[0]))
                return MapPoint(x: (p.x * grid).rounded() / grid, y: (p.y * grid).rounded() / grid)
            }))
        }
        return (rings, (b["west"]!, b["north"]!, b["east"]!, b["south"]!))
    }

    /// A render of the block `b` at zoom 16, bearing `bearing`: from the archive, or the houses as
    /// one set in the style's building colour over its background.
    func render(_ b: (Double, Double, Double, Double), tiles: Bool, set: PolygonSet? = nil, bearing: Double = 0) throws -> (Bitmap, Camera) {
        let camera = Camera(center: LatLng(lat: (b.1 + b.3) / 2, lon: (b.0 + b.2) / 2), zoom: 16, bearing: bearing,
                            size: ScreenSize(width: 320, height: 240))
        var snap = Snapshot(camera: camera, basemapStyle: nil, background: Color(Self.style.background), attribution: false)
        snap.placeLabels = false
        if tiles {
            let layer = TileLayer(source: try MBTilesSource(path: Self.folder.appendingPathComponent("terrace.mbtiles").path))
            layer.vectorStyle = Self.style
            snap.tileLayers = [layer]
            snap.tileWait = 10
        }
        if let set {
            snap.overlays = [.multiPolygon(MultiPolygon(polygons: set, fill: Color(Self.style.colors[.building]!)))]
        }
        let snapshotter = try MapSnapshotter()
        let image = try snapshotter.render(snap)
        #expect(snapshotter.lastTileProblems.isEmpty, "\(snapshotter.lastTileProblems)")
        return (image, camera)
    }

    /// The pixels inside the block `b`, at least 2 px from its outline, lighter than the building
    /// colour by more than 6 levels over the three channels (the background, 75 levels lighter,
    /// showing through).
    func specks(_ image: Bitmap, _ camera: Camera, _ b: (Double, Double, Double, Double)) throws -> (count: Int, inside: Int) {
        let corners = try [(b.1, b.0), (b.1, b.2), (b.3, b.2), (b.3, b.0)].map {
            try #require(camera.project(LatLng(lat: $0.0, lon: $0.1)))
        }
        // Inside the quadrilateral by at least 2 px (its corners go round one way).
        func inside(_ x: Double, _ y: Double) -> Bool {
            var sign = 0.0
            for k in 0 ..< 4 {
                let a = corners[k], c = corners[(k + 1) % 4]
                let dx = c.x - a.x, dy = c.y - a.y
                let d = (dx * (y - a.y) - dy * (x - a.x)) / (dx * dx + dy * dy).squareRoot()
                if sign == 0 { sign = d < 0 ? -1 : 1 }
                if d * sign < 2 { return false }
            }
            return true
        }
        let building = Color(Self.style.colors[.building]!)
        let level = Int(building.r) + Int(building.g) + Int(building.b)
        var count = 0, total = 0
        for y in 0 ..< image.height {
            for x in 0 ..< image.width where inside(Double(x) + 0.5, Double(y) + 0.5) {
                total += 1
                let p = try #require(image.pixel(x: x, y: y))
                if Int(p.r) + Int(p.g) + Int(p.b) > level + 6 { count += 1 }
            }
        }
        return (count, total)
    }

    @Test(arguments: [0.0, 30.0])
    func theBlockIsOneColourInside(bearing: Double) throws {
        let (rings, block) = try Self.houses()
        let (tiled, camera) = try render(block, tiles: true, bearing: bearing)
        let fromTiles = try specks(tiled, camera, block)
        let alike = try specks(render(block, tiles: false, set: PolygonSet(sharingEdges: rings), bearing: bearing).0, camera, block)
        // House by house, the rings the way round the tiles hold them (clockwise on screen, as
        // GDAL writes exteriors).
        let clockwise = try rings.map { PolygonRings(exterior: try GeoPath(points: $0.exterior.points.reversed())) }
        let apart = try specks(render(block, tiles: false, set: PolygonSet(clockwise), bearing: bearing).0, camera, block)
        print("bearing \(bearing): of \(fromTiles.inside) pixels inside the block, lighter: \(fromTiles.count) from the tiles, "
            + "\(alike.count) shared edges alike, \(apart.count) house by house")
        #expect(fromTiles.inside > 15_000)
        #expect(fromTiles.count == 0)
        #expect(alike.count == 0)
        // (The fixture is one where simplifying house by house does leave slivers.)
        #expect(apart.count >= 5)
    }
}
