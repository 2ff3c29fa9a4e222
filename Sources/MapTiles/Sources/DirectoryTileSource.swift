import Foundation
import GeoKit

/// A directory tree of tiles, `{z}/{x}/{y}.{png,jpg,jpeg,webp}` (what `gdal2tiles.py --xyz`,
/// `mb-util` and `mapwright tiles -o DIR/` write), or vector tiles `{z}/{x}/{y}.{pbf,mvt}`. Rows are XYZ (north first) unless `tms`.
/// The zoom range comes from the numbered folders; a `metadata.json` (mb-util's) or
/// `tilemapresource.xml` is not needed.
public struct DirectoryTileSource: TileSource {
    public let info: TileSourceInfo
    public let path: String
    public let tms: Bool
    private let extensions: [String]

    public init(path: String, tms: Bool = false) throws {
        self.path = path
        self.tms = tms
        let fm = FileManager.default
        let zooms = ((try? fm.contentsOfDirectory(atPath: path)) ?? []).compactMap { Int($0) }.filter { (0 ... 30).contains($0) }
        guard let minZ = zooms.min(), let maxZ = zooms.max() else {
            throw TileError(.open, "\(path): no zoom folders (0, 1, …) in the directory")
        }
        // The first tile found tells the extension.
        var found: [String] = []
        if let xs = try? fm.contentsOfDirectory(atPath: "\(path)/\(minZ)"), let x = xs.first(where: { Int($0) != nil }),
           let ys = try? fm.contentsOfDirectory(atPath: "\(path)/\(minZ)/\(x)") {
            for y in ys {
                let ext = (y as NSString).pathExtension.lowercased()
                if Self.extensions.contains(ext), !found.contains(ext) { found.append(ext) }
            }
        }
        extensions = found + Self.extensions.filter { !found.contains($0) }
        var attribution: String?
        var name = path
        if let data = fm.contents(atPath: "\(path)/metadata.json"),
           let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            attribution = obj["attribution"] as? String
            name = (obj["name"] as? String).map { "\($0) (\(path))" } ?? path
        }
        info = TileSourceInfo(name: name, format: found.first.map { $0 == "jpeg" ? "jpg" : $0 == "mvt" ? "pbf" : $0 },
                              minZoom: minZ, maxZoom: maxZ, attribution: attribution.map(TileSources.plainText))
    }

    /// The file extensions a tile may have, images first.
    static let extensions = ["png", "jpg", "jpeg", "webp", "pbf", "mvt"]

    public func tileData(_ id: TileID) async throws -> [UInt8]? {
        try Task.checkCancellation()
        guard info.mayContain(id) else { return nil }
        let row = tms ? (1 << id.z) - 1 - id.y : id.y
        for ext in extensions {
            let file = "\(path)/\(id.z)/\(id.x)/\(row).\(ext)"
            if let data = FileManager.default.contents(atPath: file) { return [UInt8](data) }
        }
        return nil
    }
}
