/// A bounds-checked little-endian cursor over the basemap bytes; every read throws
/// `BasemapError.malformed` with the offset instead of trapping.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset: Int
    let end: Int

    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.offset = offset
        self.end = min(end ?? bytes.count, bytes.count)
    }

    var isAtEnd: Bool { offset >= end }

    mutating func u8() throws(BasemapError) -> UInt8 {
        guard offset < end else { throw .malformed(offset: offset, "unexpected end of data") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() throws(BasemapError) -> UInt16 {
        let a = UInt16(try u8()), b = UInt16(try u8())
        return a | b << 8
    }

    mutating func u32() throws(BasemapError) -> UInt32 {
        let a = UInt32(try u16()), b = UInt32(try u16())
        return a | b << 16
    }

    mutating func i32() throws(BasemapError) -> Int32 { Int32(bitPattern: try u32()) }

    /// An unsigned LEB128 varint of at most 5 bytes (32 bits).
    mutating func varint() throws(BasemapError) -> UInt32 {
        var result: UInt32 = 0
        var shift: UInt32 = 0
        while true {
            let start = offset
            let byte = try u8()
            if shift == 28 && byte > 0x0F { throw .malformed(offset: start, "varint longer than 32 bits") }
            result |= UInt32(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// A zigzag-encoded signed varint.
    mutating func svarint() throws(BasemapError) -> Int32 {
        let v = try varint()
        return Int32(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    mutating func bytes(_ count: Int) throws(BasemapError) -> UnsafeRawBufferPointer {
        guard count >= 0, count <= end - offset else {
            throw .malformed(offset: offset, "\(count) bytes requested, \(end - offset) left")
        }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }
}
