import GeoKit

/// Decodes one tile of the basemap pyramid.
///
/// Tile layout: varint polygonCount; per polygon: varint kind, varint ringCount, per ring
/// varint pointCount and pointCount × (zigzag varint dx, zigzag varint dy); then varint
/// lineCount; per line: varint kind, varint pointCount, points as above. Coordinates are
/// integers on the level's grid (2^gridBits per world side); the deltas run on from the
/// tile's north-west corner through every ring and line of the tile.
enum TileDecoder {
    static func decode(
        _ raw: UnsafeRawBufferPointer, range: Range<Int>, level: EmbeddedBasemap.Level, x: Int, y: Int,
        shiftX: Double, into out: inout BasemapFeatures
    ) throws(BasemapError) {
        var r = ByteReader(raw, offset: range.lowerBound, end: range.upperBound)
        let shift = level.gridBits - level.tileZoom
        let size = Int64(1) << shift
        let minX = Int64(x) << shift, minY = Int64(y) << shift
        let maxX = minX + size, maxY = minY + size
        let scale = 1 / Double(Int64(1) << level.gridBits)
        var cx = minX, cy = minY
        var qx: [Int64] = [], qy: [Int64] = []

        func readPoints() throws(BasemapError) -> Int {
            let at = r.offset
            let n = Int(try r.varint())
            guard n <= (r.end - r.offset) / 2 else { throw .malformed(offset: at, "\(n) points in a short tile") }
            qx.removeAll(keepingCapacity: true)
            qy.removeAll(keepingCapacity: true)
            for _ in 0..<n {
                cx += Int64(try r.svarint())
                cy += Int64(try r.svarint())
                qx.append(cx)
                qy.append(cy)
            }
            return n
        }
        func mapPoint(_ i: Int) -> MapPoint {
            MapPoint(x: Double(qx[i]) * scale + shiftX, y: Double(qy[i]) * scale)
        }
        /// True when the edge i→j runs along the tile's border (a cut, not a real shore).
        func onBorder(_ i: Int, _ j: Int) -> Bool {
            (qx[i] == qx[j] && (qx[i] == minX || qx[i] == maxX)) || (qy[i] == qy[j] && (qy[i] == minY || qy[i] == maxY))
        }

        let polygonCount = Int(try r.varint())
        for _ in 0..<polygonCount {
            let at = r.offset
            guard let kind = BasemapPolygon.Kind(rawValue: UInt8(truncatingIfNeeded: try r.varint())) else {
                throw .malformed(offset: at, "unknown polygon kind")
            }
            let ringCount = Int(try r.varint())
            guard ringCount >= 1, ringCount <= r.end - r.offset else {
                throw .malformed(offset: at, "\(ringCount) rings")
            }
            var rings: [[MapPoint]] = []
            rings.reserveCapacity(ringCount)
            for _ in 0..<ringCount {
                let n = try readPoints()
                guard n >= 3 else { throw .malformed(offset: r.offset, "ring of \(n) points") }
                rings.append((0..<n).map(mapPoint))
                appendOutline(kind: kind == .land ? .coastline : .lakeShore, count: n)
            }
            out.polygons.append(BasemapPolygon(kind: kind, rings: rings))
        }

        /// Splits a closed ring into the runs of edges that are not on the tile border.
        func appendOutline(kind: BasemapLine.Kind, count n: Int) {
            guard let cut = (0..<n).first(where: { onBorder($0, ($0 + 1) % n) }) else {
                out.lines.append(BasemapLine(kind: kind, points: (0..<n).map(mapPoint) + [mapPoint(0)]))
                return
            }
            var run: [MapPoint] = []
            for k in 1...n {
                let i = (cut + k) % n, j = (cut + k + 1) % n
                if onBorder(i, j) {
                    if run.count >= 1 {
                        run.append(mapPoint(i))
                        out.lines.append(BasemapLine(kind: kind, points: run))
                    }
                    run = []
                } else {
                    run.append(mapPoint(i))
                }
            }
        }

        let lineCount = Int(try r.varint())
        for _ in 0..<lineCount {
            let at = r.offset
            guard let kind = BasemapLine.Kind(rawValue: UInt8(truncatingIfNeeded: try r.varint())) else {
                throw .malformed(offset: at, "unknown line kind")
            }
            let n = try readPoints()
            guard n >= 2 else { throw .malformed(offset: at, "line of \(n) points") }
            out.lines.append(BasemapLine(kind: kind, points: (0..<n).map(mapPoint)))
        }
        guard r.isAtEnd else { throw .malformed(offset: r.offset, "\(r.end - r.offset) stray bytes after the tile") }
    }
}
