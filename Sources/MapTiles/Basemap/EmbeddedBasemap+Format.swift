import GeoKit

// The resource layout (all integers little-endian; see scripts/basemap/README.md):
//
//   header (32 bytes): magic "MWBASEMP", u16 version (1), u16 levelCount,
//                      u32 placesOffset, u32 placesLength, u32 attributionOffset, u32 attributionLength
//   levelCount × 16 bytes: u8 tileZoom, u8 gridBits, u8 minZoom, u8 scale (110, 50, 10),
//                          u32 tileCount, u32 indexOffset, u32 dataOffset
//   per level, tileCount × 12 bytes at indexOffset: u16 x, u16 y, u32 offset (from dataOffset), u32 length
//   tile data (see TileDecoder), places, attribution (UTF-8)
extension EmbeddedBasemap {
    static let magic: [UInt8] = Array("MWBASEMP".utf8)
    static let formatVersion: UInt16 = 1

    static func parse(_ raw: UnsafeRawBufferPointer) throws(BasemapError)
        -> (levels: [Level], places: [BasemapPlace], attribution: String)
    {
        var r = ByteReader(raw)
        let magic = try r.bytes(8)
        guard magic.elementsEqual(Self.magic) else {
            throw .malformed(offset: 0, "not a Mapwright basemap (magic \"MWBASEMP\" missing)")
        }
        let version = try r.u16()
        guard version == formatVersion else {
            throw .malformed(offset: 8, "format version \(version), this reader knows \(formatVersion)")
        }
        let levelCount = Int(try r.u16())
        guard (1...16).contains(levelCount) else { throw .malformed(offset: 10, "\(levelCount) levels") }
        let placesRange = try range(&r, in: raw, what: "places")
        let attributionRange = try range(&r, in: raw, what: "attribution")
        r.offset = 32

        var levels: [Level] = []
        var previousMinZoom = -1
        for _ in 0..<levelCount {
            let at = r.offset
            let tileZoom = Int(try r.u8()), gridBits = Int(try r.u8())
            let minZoom = Int(try r.u8()), scale = Int(try r.u8())
            let tileCount = Int(try r.u32()), indexOffset = Int(try r.u32()), dataOffset = Int(try r.u32())
            guard tileZoom <= 14, gridBits <= 28, gridBits >= tileZoom else {
                throw .malformed(offset: at, "tile zoom \(tileZoom) with \(gridBits) grid bits")
            }
            guard minZoom > previousMinZoom else { throw .malformed(offset: at + 2, "levels not in zoom order") }
            previousMinZoom = minZoom
            guard tileCount <= (1 << (2 * tileZoom)), indexOffset <= raw.count,
                tileCount * 12 <= raw.count - indexOffset, dataOffset <= raw.count
            else { throw .malformed(offset: at + 4, "tile index out of bounds") }
            var ir = ByteReader(raw, offset: indexOffset)
            var tiles: [UInt32: Range<Int>] = [:]
            tiles.reserveCapacity(tileCount)
            let side = 1 << tileZoom
            for _ in 0..<tileCount {
                let entry = ir.offset
                let x = try ir.u16(), y = try ir.u16()
                let offset = Int(try ir.u32()), length = Int(try ir.u32())
                guard Int(x) < side, Int(y) < side, offset <= raw.count - dataOffset,
                    length <= raw.count - dataOffset - offset
                else { throw .malformed(offset: entry, "tile \(x),\(y) out of bounds") }
                tiles[UInt32(y) << 16 | UInt32(x)] = (dataOffset + offset)..<(dataOffset + offset + length)
            }
            levels.append(Level(tileZoom: tileZoom, gridBits: gridBits, minZoom: minZoom, scale: scale, tiles: tiles))
        }

        let places = try parsePlaces(raw, range: placesRange)
        let attribution = String(decoding: UnsafeRawBufferPointer(rebasing: raw[attributionRange]), as: UTF8.self)
        return (levels, places, attribution)
    }

    private static func range(_ r: inout ByteReader, in raw: UnsafeRawBufferPointer, what: String)
        throws(BasemapError) -> Range<Int>
    {
        let at = r.offset
        let offset = Int(try r.u32()), length = Int(try r.u32())
        guard offset <= raw.count, length <= raw.count - offset else {
            throw .malformed(offset: at, "\(what) section \(offset)+\(length) beyond the \(raw.count)-byte file")
        }
        return offset..<(offset + length)
    }

    // Places: u32 count, then per place: i32 lat·10^6, i32 lon·10^6, u8 minZoom, u8 scalerank,
    // u8 labelrank, u8 flags (1 national capital, 2 world city/megacity, 4 admin-1 capital, 8 country),
    // u32 pop_max, u8 nameLength, name (UTF-8). Sorted by minZoom, scalerank, -pop_max, name.
    private static func parsePlaces(_ raw: UnsafeRawBufferPointer, range: Range<Int>) throws(BasemapError)
        -> [BasemapPlace]
    {
        var r = ByteReader(raw, offset: range.lowerBound, end: range.upperBound)
        let count = Int(try r.u32())
        guard count <= range.count / 17 else { throw .malformed(offset: range.lowerBound, "\(count) places") }
        var out: [BasemapPlace] = []
        out.reserveCapacity(count)
        var previousMinZoom = 0
        for _ in 0..<count {
            let at = r.offset
            let lat = Double(try r.i32()) / 1e6, lon = Double(try r.i32()) / 1e6
            let minZoom = Int(try r.u8()), rank = Int(try r.u8()), labelRank = Int(try r.u8())
            let flags = try r.u8()
            let population = Int(try r.u32())
            let nameLength = Int(try r.u8())
            let name = String(decoding: try r.bytes(nameLength), as: UTF8.self)
            guard abs(lat) <= 90, abs(lon) <= 180, minZoom >= previousMinZoom else {
                throw .malformed(offset: at, "place \(name) at \(lat),\(lon) zoom \(minZoom)")
            }
            previousMinZoom = minZoom
            let position = LatLng(lat: lat, lon: lon)
            out.append(
                BasemapPlace(
                    name: name, position: position, point: MapPoint(position), rank: rank, labelRank: labelRank,
                    minZoom: minZoom, population: population, isCapital: flags & 1 != 0,
                    isRegionalCapital: flags & 4 != 0, isMajorCity: flags & 2 != 0, isCountry: flags & 8 != 0))
        }
        return out
    }
}
