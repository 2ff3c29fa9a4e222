/// An image of at most 256 colours: a palette and one palette index per pixel, rows top-down.
public struct PalettedImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Straight-alpha colours, at most 256.
    public let palette: [RGBA8]
    /// `width × height` indices into `palette`.
    public let indices: [UInt8]

    /// The image the palette and indices stand for.
    public func bitmap() throws(MapImageError) -> Bitmap {
        var px = [UInt8](repeating: 0, count: width * height * 4)
        for (i, k) in indices.enumerated() {
            let c = palette[Int(k)]
            px[4 * i] = c.r; px[4 * i + 1] = c.g; px[4 * i + 2] = c.b; px[4 * i + 3] = c.a
        }
        return try Bitmap(width: width, height: height, pixels: px)
    }
}

/// A box of colours for the quantiser: weight, and per channel the weighted sum and sum of
/// squares.
struct ColourMoments {
    var w = 0.0, s = (0.0, 0.0, 0.0, 0.0), q = (0.0, 0.0, 0.0, 0.0)
    mutating func add(_ k: UInt32, _ weight: Double) {
        let r = Double(k & 0xFF), g = Double(k >> 8 & 0xFF), b = Double(k >> 16 & 0xFF), a = Double(k >> 24)
        w += weight
        s.0 += weight * r; s.1 += weight * g; s.2 += weight * b; s.3 += weight * a
        q.0 += weight * r * r; q.1 += weight * g * g; q.2 += weight * b * b; q.3 += weight * a * a
    }
    static func + (x: ColourMoments, y: ColourMoments) -> ColourMoments {
        ColourMoments(w: x.w + y.w, s: (x.s.0 + y.s.0, x.s.1 + y.s.1, x.s.2 + y.s.2, x.s.3 + y.s.3),
                q: (x.q.0 + y.q.0, x.q.1 + y.q.1, x.q.2 + y.q.2, x.q.3 + y.q.3))
    }
    static func - (x: ColourMoments, y: ColourMoments) -> ColourMoments {
        ColourMoments(w: x.w - y.w, s: (x.s.0 - y.s.0, x.s.1 - y.s.1, x.s.2 - y.s.2, x.s.3 - y.s.3),
                q: (x.q.0 - y.q.0, x.q.1 - y.q.1, x.q.2 - y.q.2, x.q.3 - y.q.3))
    }
    /// Squared error per channel.
    var errors: [Double] {
        guard w > 0 else { return [0, 0, 0, 0] }
        return [q.0 - s.0 * s.0 / w, q.1 - s.1 * s.1 / w, q.2 - s.2 * s.2 / w, q.3 - s.3 * s.3 / w]
    }
    var error: Double { errors.reduce(0, +) }
}

/// Distinct colours (RGBA as a little-endian word) with a count and a palette index each: an
/// open-addressing hash table, much quicker than a `Dictionary` for the hundreds of thousands
/// of lookups one image takes.
struct ColourTable {
    private(set) var keys: [UInt32]
    /// 0 marks an empty slot.
    private(set) var counts: [Int32]
    var index: [UInt8]
    private var mask: Int
    private(set) var count = 0

    init() {
        keys = [UInt32](repeating: 0, count: 8192); counts = [Int32](repeating: 0, count: 8192)
        index = [UInt8](repeating: 0, count: 8192); mask = 8191
    }

    private func slot(_ key: UInt32) -> Int {
        var i = Int((key &* 0x9E37_79B1) >> 7) & mask
        while counts[i] != 0 && keys[i] != key { i = (i + 1) & mask }
        return i
    }

    mutating func add(_ key: UInt32, _ n: Int32) {
        let i = slot(key)
        if counts[i] == 0 {
            keys[i] = key
            count += 1
            counts[i] = n
            if count * 2 > mask { grow() }
        } else {
            counts[i] += n
        }
    }

    /// The slot holding `key` (which must be in the table).
    func find(_ key: UInt32) -> Int { slot(key) }

    private mutating func grow() {
        let old = (keys, counts)
        let size = (mask + 1) * 4
        keys = [UInt32](repeating: 0, count: size); counts = [Int32](repeating: 0, count: size)
        index = [UInt8](repeating: 0, count: size); mask = size - 1; count = 0
        for i in old.0.indices where old.1[i] != 0 { add(old.0[i], old.1[i]) }
    }

    /// The occupied slots.
    var slots: [Int] { counts.indices.filter { counts[$0] != 0 } }
}

extension Bitmap {
    /// The bitmap reduced to at most `maxColors` (2…256) colours, for palette PNGs and GIFs. An
    /// image of that many distinct colours or fewer keeps them exactly. Otherwise the distinct
    /// colours, weighted by how many pixels have each, are split into boxes by variance
    /// (Heckbert's median cut, 1982, splitting the box with the largest squared error, along
    /// its channel of largest variance, where the two halves' summed squared error is least, as
    /// Wu's 1991 quantiser chooses its cuts); each box's colour is its weighted mean. Fully
    /// transparent pixels keep an exact entry of their own. No dithering: maps are flat colours
    /// with antialiased edges, which dithering would speckle.
    ///
    /// `alphaCutoff`: for formats with one transparent colour (GIF), pixels whose alpha is
    /// below it become fully transparent and the rest fully opaque before quantising; nil keeps
    /// alpha as a fourth channel (PNG palettes carry alpha per entry).
    public func paletted(maxColors: Int = 256, alphaCutoff: UInt8? = nil) -> PalettedImage {
        let limit = max(2, min(256, maxColors))
        let n = width * height
        // Pixels as little-endian words (R | G << 8 | B << 16 | A << 24), fully transparent
        // ones all alike (0); distinct colours counted run by run (maps run long stretches of
        // one colour).
        let cut = alphaCutoff.map(UInt32.init)
        @inline(__always) func key(_ raw: UnsafeRawBufferPointer, _ i: Int) -> UInt32 {
            let w = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
            var a = w >> 24
            if let cut { a = a < cut ? 0 : 255 }
            return a == 0 ? 0 : (w & 0x00FF_FFFF) | a << 24
        }
        var table = ColourTable()
        pixels.withUnsafeBytes { raw in
            var last: UInt32 = 0, run: Int32 = 0
            for i in 0 ..< n {
                let k = key(raw, i)
                if k == last && run > 0 { run += 1; continue }
                if run > 0 { table.add(last, run) }
                last = k; run = 1
            }
            if run > 0 { table.add(last, run) }
        }
        func rgba(_ k: UInt32) -> RGBA8 {
            RGBA8(r: UInt8(k & 0xFF), g: UInt8(k >> 8 & 0xFF), b: UInt8(k >> 16 & 0xFF), a: UInt8(k >> 24))
        }
        let slots = table.slots.sorted { table.keys[$0] < table.keys[$1] }
        var palette: [RGBA8] = []
        if slots.count <= limit {
            for (i, s) in slots.enumerated() { table.index[s] = UInt8(i); palette.append(rgba(table.keys[s])) }
        } else {
            // Fully transparent pixels keep an entry of their own (the first): areas with
            // nothing drawn stay exactly transparent, and a GIF has its transparent index.
            let clear = slots.first.map { table.keys[$0] == 0 } ?? false
            if clear { table.index[slots[0]] = 0; palette.append(.clear) }
            var items = slots.dropFirst(clear ? 1 : 0).map { (key: table.keys[$0], w: Double(table.counts[$0]), slot: $0) }
            let boxes = Self.medianCut(&items, boxes: limit - (clear ? 1 : 0))
            for (b, range) in boxes.enumerated() {
                var sum = (0.0, 0.0, 0.0, 0.0), weight = 0.0
                for it in items[range] {
                    let c = rgba(it.key)
                    sum.0 += it.w * Double(c.r); sum.1 += it.w * Double(c.g); sum.2 += it.w * Double(c.b); sum.3 += it.w * Double(c.a)
                    weight += it.w
                    table.index[it.slot] = UInt8(b + (clear ? 1 : 0))
                }
                func mean(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v / weight).rounded()))) }
                palette.append(RGBA8(r: mean(sum.0), g: mean(sum.1), b: mean(sum.2), a: mean(sum.3)))
            }
        }
        var indices = [UInt8](repeating: 0, count: n)
        pixels.withUnsafeBytes { raw in
            indices.withUnsafeMutableBufferPointer { out in
                var lastKey = key(raw, 0), lastIndex = table.index[table.find(lastKey)]
                for i in 0 ..< n {
                    let k = key(raw, i)
                    if k != lastKey { lastKey = k; lastIndex = table.index[table.find(k)] }
                    out[i] = lastIndex
                }
            }
        }
        return PalettedImage(width: width, height: height, palette: palette, indices: indices)
    }

    /// Splits `items` (reordered in place) into at most `boxes` ranges by variance, as
    /// `paletted` describes. Each split tallies its box by the 256 values of the chosen channel,
    /// so it costs one pass over the box and a scan of 256 cuts.
    static func medianCut(_ items: inout [(key: UInt32, w: Double, slot: Int)], boxes target: Int) -> [Range<Int>] {
        var whole = ColourMoments()
        for it in items { whole.add(it.key, it.w) }
        var boxes: [(range: Range<Int>, m: ColourMoments, error: Double)] = [(0 ..< items.count, whole, whole.error)]
        while boxes.count < target {
            var bi = -1
            for i in boxes.indices where boxes[i].range.count > 1 && boxes[i].error > 0 && (bi < 0 || boxes[i].error > boxes[bi].error) { bi = i }
            guard bi >= 0 else { break }
            let (r, m, _) = boxes[bi]
            let e = m.errors
            let axis = (0 ..< 4).max { e[$0] < e[$1] }!
            let shift = UInt32(8 * axis)
            // The box tallied by the axis's value, then the cut after value t (t < v go left)
            // whose halves have the least summed error.
            var tally = [ColourMoments](repeating: ColourMoments(), count: 256)
            for it in items[r] { tally[Int(it.key >> shift & 0xFF)].add(it.key, it.w) }
            var left = ColourMoments(), best = (t: -1, error: Double.infinity, left: ColourMoments())
            for t in 0 ..< 255 {
                left = left + tally[t]
                guard left.w > 0, left.w < m.w else { continue }
                let err = left.error + (m - left).error
                if err < best.error { best = (t, err, left) }
            }
            guard best.t >= 0 else { break }
            // Partition the range: values up to t first.
            var lo = r.lowerBound, hi = r.upperBound - 1
            while lo <= hi {
                if Int(items[lo].key >> shift & 0xFF) <= best.t { lo += 1 } else { items.swapAt(lo, hi); hi -= 1 }
            }
            let right = m - best.left
            boxes[bi] = (r.lowerBound ..< lo, best.left, best.left.error)
            boxes.append((lo ..< r.upperBound, right, right.error))
        }
        return boxes.map(\.range)
    }
}
