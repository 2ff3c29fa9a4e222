import GeoKit

/// A map tile the camera needs, as an `z/x/y` address plus the copy of the world it is
/// drawn in (`wrap` 0 is the primary world, −1 the copy to the west, …).
///
/// `x` and `y` are in 0..<2^z for every copy; `tileID` gives GeoKit's `TileID` for
/// fetching the tile.
public struct CoverTile: Hashable, Sendable, CustomStringConvertible {
    /// Tile zoom level.
    public var z: Int
    /// Column, 0 at 180°W.
    public var x: Int
    /// Row, 0 at the north edge.
    public var y: Int
    /// The copy of the world: world x offset in whole worlds.
    public var wrap: Int

    /// Creates a tile address.
    public init(z: Int, x: Int, y: Int, wrap: Int = 0) {
        self.z = z; self.x = x; self.y = y; self.wrap = wrap
    }

    /// The GeoKit tile index (the same for every world copy); nil only for an address made by
    /// hand outside the pyramid.
    public var tileID: TileID? { try? TileID(z: z, x: x, y: y) }

    /// `z/x/y`, with `@wrap` when not the primary world.
    public var description: String { wrap == 0 ? "\(z)/\(x)/\(y)" : "\(z)/\(x)/\(y)@\(wrap)" }
}
