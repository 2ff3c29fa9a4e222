import Foundation
import GeoKit
import Testing
@testable import MapTiles

/// Neighbouring tiles must meet exactly: a polygon vertex that lies on (or closer than one grid
/// quantum of) the edge shared by two tiles must decode to the very same Double as that edge,
/// `Double(k) / Double(tilesPerSide)`, in both tiles; otherwise the renderer sees two cut
/// edges that do not coincide and can open a sliver between them.
@Suite struct BasemapTileSeamTests {
    /// Up to this many adjacent pairs per level and direction (sorted by tile key, so stable).
    static let samplePairs = 60

    @Test(arguments: [1, 2, 3])
    func sharedEdgeVerticesAreExactlyOnTheBoundary(levelIndex: Int) throws {
        let basemap = try EmbeddedBasemap.shared()
        try #require(levelIndex < basemap.levels.count)
        let level = basemap.levels[levelIndex]
        let side = 1 << level.tileZoom
        // Tolerance: less than one grid quantum (2^-gridBits) decides which vertices count as "on the edge";
        // on them the check is exact (==), the boundary being a dyadic rational.
        let quantum = 1 / Double(1 << level.gridBits)
        let keys = level.tiles.keys.sorted()
        var checkedPairs = 0, checkedVertices = 0
        for vertical in [false, true] {
            var pairs = 0
            for key in keys where pairs < Self.samplePairs {
                let x = Int(key & 0xFFFF), y = Int(key >> 16)
                let (nx, ny) = vertical ? (x, y + 1) : (x + 1, y)
                guard nx < side, ny < side, level.tiles[UInt32(ny) << 16 | UInt32(nx)] != nil else { continue }
                pairs += 1
                let boundary = Double(vertical ? ny : nx) / Double(side)
                for (tx, ty) in [(x, y), (nx, ny)] {
                    let f = try decode(basemap, level, tx, ty)
                    for polygon in f.polygons {
                        for ring in polygon.rings {
                            for p in ring {
                                let c = vertical ? p.y : p.x
                                guard abs(c - boundary) < quantum else { continue }
                                checkedVertices += 1
                                #expect(c == boundary, "level \(levelIndex) tile \(tx),\(ty): \(c) vs \(boundary)")
                            }
                        }
                    }
                }
            }
            checkedPairs += pairs
        }
        #expect(checkedPairs > 0)
        #expect(checkedVertices > 0)
    }

    private func decode(_ basemap: EmbeddedBasemap, _ level: EmbeddedBasemap.Level, _ x: Int, _ y: Int)
        throws -> BasemapFeatures
    {
        let range = try #require(level.tiles[UInt32(y) << 16 | UInt32(x)])
        var out = BasemapFeatures()
        let result = basemap.bytes.withUnsafeBytes { raw in
            Result { () throws(BasemapError) in
                try TileDecoder.decode(raw, range: range, level: level, x: x, y: y, shiftX: 0, into: &out)
            }
        }
        try result.get()
        return out
    }
}
