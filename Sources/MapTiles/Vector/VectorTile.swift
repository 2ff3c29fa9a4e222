import GeoKit
import MapImage

/// One Mapbox Vector Tile (MVT 2.1, the protobuf `vector_tile.proto`), decoded: its layers,
/// each with features, their properties and geometry in the layer's tile coordinates
/// (0…`extent` across the tile, x east, y south; a tile's buffer reaches past both ends).
///
/// Decoding checks every length and count against the bytes that are there, so a damaged or
/// hostile tile is a `TileError` saying where and why, never a trap or a runaway allocation.
/// Limits: `maxBytes` per tile (after gzip), `maxLayers`, coordinates within
/// `maxCoordinateMargin` extents of the tile.
public struct VectorTile: Sendable {
    /// A property value (MVT's `Value` message).
    public enum Value: Hashable, Sendable, CustomStringConvertible {
        case string(String)
        case double(Double)
        case int(Int64)
        case uint(UInt64)
        case bool(Bool)

        /// The value as text (numbers as Swift prints them).
        public var description: String {
            switch self {
            case .string(let s): s
            case .double(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
            case .int(let i): String(i)
            case .uint(let u): String(u)
            case .bool(let b): String(b)
            }
        }

        /// The value as a number, when it is one (a numeric string too: some tools write ranks as text).
        public var number: Double? {
            switch self {
            case .double(let d): d
            case .int(let i): Double(i)
            case .uint(let u): Double(u)
            case .bool(let b): b ? 1 : 0
            case .string(let s): Double(s)
            }
        }
    }

    /// A point in tile coordinates.
    public struct Point: Hashable, Sendable {
        public var x: Int32
        public var y: Int32
        public init(x: Int32, y: Int32) { self.x = x; self.y = y }
    }

    /// What a feature's geometry is, grouped as the spec reads it.
    public enum Geometry: Hashable, Sendable {
        /// One or more points.
        case points([Point])
        /// One or more lines, each of two or more points.
        case lines([[Point]])
        /// One or more polygons, each an exterior ring then its holes; rings are closed
        /// implicitly (the first point is not repeated). Exterior rings have a positive area by the
        /// spec's formula (clockwise on a y-down screen), holes a negative one.
        case polygons([[[Point]]])
    }

    /// A feature: its id (when the tile gives one), properties and geometry.
    public struct Feature: Sendable {
        public var id: UInt64?
        public var properties: [String: Value]
        public var geometry: Geometry
    }

    /// A named layer of features sharing one coordinate extent.
    public struct Layer: Sendable {
        public var name: String
        public var version: Int
        /// Tile coordinates across the tile (4096 by default).
        public var extent: Int
        public var features: [Feature]
    }

    /// The layers in the order the tile gives them.
    public var layers: [Layer]

    /// The most bytes one tile may hold, decompressed.
    public static let maxBytes = 16 << 20
    /// The most layers one tile may hold.
    public static let maxLayers = 1000
    /// The most features one tile may hold, over all its layers (a dense city tile at zoom 14
    /// holds about 10 000).
    public static let maxFeatures = 200_000
    /// How far past its tile a coordinate may lie, in extents (real tiles buffer a few percent).
    public static let maxCoordinateMargin = 8

    /// Decodes a tile's bytes; gzip-compressed bytes (as MBTiles and most servers store them)
    /// are inflated first.
    public init(data: [UInt8]) throws(TileError) {
        var bytes = data
        if bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B {
            do { bytes = try Gzip.decompress(bytes, limit: Self.maxBytes) } catch {
                throw TileError(.decode, "vector tile: \(error.description)")
            }
        }
        guard bytes.count <= Self.maxBytes else {
            throw TileError(.decode, "vector tile: \(bytes.count) bytes, over the \(Self.maxBytes)-byte limit")
        }
        layers = try bytes.withUnsafeBytes { raw in Result { () throws(TileError) in try Self.decodeLayers(raw) } }.get()
    }

    private static func decodeLayers(_ raw: UnsafeRawBufferPointer) throws(TileError) -> [Layer] {
            var r = ProtoReader(raw, start: 0, end: raw.count)
            var layers: [Layer] = []
            var features = 0
            while !r.isAtEnd {
                let (field, wire) = try r.key()
                if field == 3 && wire == 2 {
                    let range = try r.lengthDelimited()
                    guard layers.count < Self.maxLayers else {
                        throw TileError(.decode, "vector tile: more than \(Self.maxLayers) layers")
                    }
                    let layer = try Self.layer(raw, range, budget: maxFeatures - features)
                    features += layer.features.count
                    layers.append(layer)
                } else {
                    try r.skip(wire)
                }
            }
            return layers
    }

    private static func layer(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>, budget: Int) throws(TileError) -> Layer {
        var r = ProtoReader(raw, start: range.lowerBound, end: range.upperBound)
        var name: String?
        var version = 1
        var extent = 4096
        var keys: [String] = []
        var values: [Value] = []
        var featureRanges: [Range<Int>] = []
        while !r.isAtEnd {
            let at = r.offset
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 2): name = try r.string()
            case (2, 2):
                guard featureRanges.count < budget else {
                    throw TileError(.decode, "vector tile: byte \(at): more than \(maxFeatures) features in the tile")
                }
                featureRanges.append(try r.lengthDelimited())
            case (3, 2): keys.append(try r.string())
            case (4, 2): values.append(try value(raw, try r.lengthDelimited()))
            case (5, 0):
                let e = try r.varint()
                guard e >= 1, e <= 1 << 20 else { throw TileError(.decode, "vector tile: byte \(at): layer extent \(e) (1…2^20)") }
                extent = Int(e)
            case (15, 0): version = Int(truncatingIfNeeded: min(try r.varint(), 1000))
            default: try r.skip(wire)
            }
        }
        guard let name else { throw TileError(.decode, "vector tile: byte \(range.lowerBound): a layer without a name") }
        var features: [Feature] = []
        features.reserveCapacity(featureRanges.count)
        for fr in featureRanges {
            if let f = try feature(raw, fr, keys: keys, values: values, extent: extent, layer: name) { features.append(f) }
        }
        return Layer(name: name, version: version, extent: extent, features: features)
    }

    private static func value(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) throws(TileError) -> Value {
        var r = ProtoReader(raw, start: range.lowerBound, end: range.upperBound)
        var v: Value = .string("")
        while !r.isAtEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 2): v = .string(try r.string())
            case (2, 5): v = .double(Double(Float(bitPattern: try r.fixed32())))
            case (3, 1): v = .double(Double(bitPattern: try r.fixed64()))
            case (4, 0): v = .int(Int64(bitPattern: try r.varint()))
            case (5, 0): v = .uint(try r.varint())
            case (6, 0):
                let u = try r.varint()
                v = .int(Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1))))
            case (7, 0): v = .bool(try r.varint() != 0)
            default: try r.skip(wire)
            }
        }
        return v
    }

    /// A feature, or nil for one with no geometry (the spec allows it; there is nothing to draw).
    private static func feature(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>, keys: [String], values: [Value],
                                extent: Int, layer: String) throws(TileError) -> Feature? {
        var r = ProtoReader(raw, start: range.lowerBound, end: range.upperBound)
        var id: UInt64?
        var tags: [UInt32] = []
        var type = 0
        var geometry: [UInt32] = []
        while !r.isAtEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 0): id = try r.varint()
            case (2, 2): try r.packed(into: &tags)
            case (2, 0): tags.append(UInt32(truncatingIfNeeded: try r.varint()))
            case (3, 0): type = Int(truncatingIfNeeded: min(try r.varint(), 4))
            case (4, 2): try r.packed(into: &geometry)
            case (4, 0): geometry.append(UInt32(truncatingIfNeeded: try r.varint()))
            default: try r.skip(wire)
            }
        }
        func fail(_ why: String) -> TileError {
            TileError(.decode, "vector tile: layer \"\(layer)\", feature at byte \(range.lowerBound): \(why)")
        }
        guard tags.count % 2 == 0 else { throw fail("an odd number of tags (\(tags.count))") }
        var properties: [String: Value] = [:]
        properties.reserveCapacity(tags.count / 2)
        for i in stride(from: 0, to: tags.count, by: 2) {
            let k = Int(tags[i]), v = Int(tags[i + 1])
            guard k < keys.count, v < values.count else {
                throw fail("tag \(k)=\(v) names a key or value past the layer's \(keys.count) keys and \(values.count) values")
            }
            properties[keys[k]] = values[v]
        }
        guard type >= 1, type <= 3, !geometry.isEmpty else { return nil }
        let geo = try decodeGeometry(geometry, type: type, extent: extent, fail: fail)
        return Feature(id: id, properties: properties, geometry: geo)
    }

    /// Runs the geometry commands (MoveTo 1, LineTo 2, ClosePath 7; zigzag parameters, one cursor
    /// for the whole feature) and groups the result as the type says.
    static func decodeGeometry(_ g: [UInt32], type: Int, extent: Int, fail: (String) -> TileError) throws(TileError) -> Geometry {
        let lo = -Int64(maxCoordinateMargin) * Int64(extent), hi = Int64(maxCoordinateMargin + 1) * Int64(extent)
        var x: Int64 = 0, y: Int64 = 0
        var i = 0
        var parts: [[Point]] = []
        var points: [Point] = []
        var current: [Point] = []
        while i < g.count {
            let command = g[i] & 7, count = Int(g[i] >> 3)
            i += 1
            switch command {
            case 1, 2:
                guard count >= 1, count <= (g.count - i) / 2 else {
                    throw fail("command \(command == 1 ? "MoveTo" : "LineTo") × \(count) with \((g.count - i) / 2) points left")
                }
                if command == 2, type == 1 { throw fail("LineTo in a point feature") }
                if command == 2, current.isEmpty { throw fail("LineTo before any MoveTo") }
                for _ in 0..<count {
                    let dx = Int64(Int32(bitPattern: (g[i] >> 1) ^ (0 &- (g[i] & 1))))
                    let dy = Int64(Int32(bitPattern: (g[i + 1] >> 1) ^ (0 &- (g[i + 1] & 1))))
                    i += 2
                    x += dx; y += dy
                    guard x >= lo, x <= hi, y >= lo, y <= hi else {
                        throw fail("point (\(x), \(y)) lies more than \(maxCoordinateMargin) extents (\(extent)) outside the tile")
                    }
                    let p = Point(x: Int32(x), y: Int32(y))
                    if type == 1 {
                        points.append(p)
                    } else if command == 1 {
                        // A new line or ring (a ring left open is taken as closed, as renderers do).
                        if !current.isEmpty { parts.append(current) }
                        current = [p]
                    } else {
                        current.append(p)
                    }
                }
            case 7:
                guard count == 1 else { throw fail("ClosePath × \(count)") }
                guard type == 3, !current.isEmpty else { throw fail("ClosePath outside a polygon ring") }
                parts.append(current)
                current = []
            default:
                throw fail("unknown geometry command \(command)")
            }
        }
        if !current.isEmpty { parts.append(current) }
        switch type {
        case 1:
            return .points(points)
        case 2:
            return .lines(parts.filter { $0.count >= 2 })
        default:
            // Group rings: a ring with the first ring's sign of area starts a polygon (version 2
            // says positive is exterior; following the first ring also reads tiles wound the
            // other way round); the others are its holes. Rings with no area are left out.
            var polygons: [[[Point]]] = []
            var exteriorSign = 0
            for ring in parts {
                var ring = ring
                if ring.count >= 2, ring.first == ring.last { ring.removeLast() }
                guard ring.count >= 3 else { continue }
                let a = signedArea(ring)
                guard a != 0 else { continue }
                let sign = a > 0 ? 1 : -1
                if exteriorSign == 0 { exteriorSign = sign }
                if sign == exteriorSign || polygons.isEmpty {
                    polygons.append([ring])
                } else {
                    polygons[polygons.count - 1].append(ring)
                }
            }
            if exteriorSign < 0 {
                // Wound the other way round: turn every ring so exteriors are positive.
                polygons = polygons.map { $0.map { Array($0.reversed()) } }
            }
            return .polygons(polygons)
        }
    }

    /// Twice the ring's signed area by the spec's surveyor's formula (positive: clockwise on a
    /// y-down screen).
    static func signedArea(_ ring: [Point]) -> Int64 {
        var s: Int64 = 0
        var j = ring.count - 1
        for i in 0..<ring.count {
            s += Int64(ring[j].x) * Int64(ring[i].y) - Int64(ring[i].x) * Int64(ring[j].y)
            j = i
        }
        return s
    }

    /// A layer by name.
    public func layer(named name: String) -> Layer? { layers.first { $0.name == name } }
}

extension VectorTile.Layer {
    /// A point of this layer in tile `id` as normalised Web Mercator (x east, y south, 0…1 for one
    /// world), shifted by `wrap` world widths.
    public func mapPoint(_ p: VectorTile.Point, tile id: TileID, wrap: Int = 0) -> MapPoint {
        let n = Double(1 << id.z)
        let e = Double(extent)
        return MapPoint(x: (Double(id.x) + Double(p.x) / e) / n + Double(wrap), y: (Double(id.y) + Double(p.y) / e) / n)
    }
}

/// A bounds-checked protobuf wire-format reader; every read throws `TileError` naming the byte.
struct ProtoReader {
    let raw: UnsafeRawBufferPointer
    var offset: Int
    let end: Int

    init(_ raw: UnsafeRawBufferPointer, start: Int, end: Int) {
        self.raw = raw; self.offset = start; self.end = end
    }

    var isAtEnd: Bool { offset >= end }

    private func fail(_ at: Int, _ why: String) -> TileError { TileError(.decode, "vector tile: byte \(at): \(why)") }

    mutating func varint() throws(TileError) -> UInt64 {
        let start = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end else { throw fail(start, "a varint runs past its message") }
            let b = raw[offset]
            offset += 1
            if shift == 63, b > 1 { throw fail(start, "a varint longer than 64 bits") }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func key() throws(TileError) -> (field: UInt64, wire: UInt64) {
        let at = offset
        let k = try varint()
        guard k >> 3 > 0 else { throw fail(at, "field number 0") }
        return (k >> 3, k & 7)
    }

    mutating func lengthDelimited() throws(TileError) -> Range<Int> {
        let at = offset
        let n = try varint()
        guard n <= UInt64(end - offset) else { throw fail(at, "a field of \(n) bytes with \(end - offset) left in its message") }
        defer { offset += Int(n) }
        return offset ..< offset + Int(n)
    }

    mutating func string() throws(TileError) -> String {
        let r = try lengthDelimited()
        return String(decoding: UnsafeRawBufferPointer(rebasing: raw[r]), as: UTF8.self)
    }

    mutating func fixed32() throws(TileError) -> UInt32 { UInt32(truncatingIfNeeded: try littleEndian(4, "a 4-byte field")) }

    mutating func fixed64() throws(TileError) -> UInt64 { try littleEndian(8, "an 8-byte field") }

    /// A little-endian integer of `count` (≤ 8) bytes.
    private mutating func littleEndian(_ count: Int, _ what: String) throws(TileError) -> UInt64 {
        guard end - offset >= count else { throw fail(offset, "\(what) with \(end - offset) left") }
        var v: UInt64 = 0
        for i in 0..<count { v |= UInt64(raw[offset + i]) << (8 * UInt64(i)) }
        offset += count
        return v
    }

    /// A packed repeated uint32 field, appended.
    mutating func packed(into out: inout [UInt32]) throws(TileError) {
        let r = try lengthDelimited()
        var sub = ProtoReader(raw, start: r.lowerBound, end: r.upperBound)
        out.reserveCapacity(out.count + r.count / 2)
        while !sub.isAtEnd { out.append(UInt32(truncatingIfNeeded: try sub.varint())) }
    }

    mutating func skip(_ wire: UInt64) throws(TileError) {
        let at = offset
        switch wire {
        case 0: _ = try varint()
        case 1: _ = try fixed64()
        case 2: _ = try lengthDelimited()
        case 5: _ = try fixed32()
        default: throw fail(at, "wire type \(wire) (groups are not used by vector tiles)")
        }
    }
}
