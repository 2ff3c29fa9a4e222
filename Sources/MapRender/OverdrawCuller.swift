import Foundation
import GeoKit

/// Drops the segments of a heavily self-overlapping line that cannot change the image.
///
/// A stroke is blended once per sample (stencil), so a segment whose whole footprint lies in pixels
/// already fully covered by earlier segments of the same line adds nothing. The culler walks the
/// segments in order over a grid of 1×1 device-pixel cells: a segment is kept when the capsule of
/// radius `touchRadius` around it (the widest half width times the reach of joins and caps: 2 for
/// miter tips, √2 for square caps, 1 for round and bevel) touches a cell not yet full; then every cell whose four corners lie inside the
/// segment's own quad is marked full. A join lies inside both neighbours' touch capsules, so it is
/// drawn only between kept segments. The result is the same image (but for rare edge samples
/// where cut pieces meet); a 100k-point random scribble over 1024×768 fills ~20× less. View-dependent: used for flat views (pitch 0) when the
/// line's ink would cover the viewport many times over.
///
/// When culling stays exact, the full cells at the end are final and every pixel among them
/// comes out in the line's own colour whichever kept segment covers it: the planner paints them
/// as rectangles (`fullRectangles`) and strokes only the kept segments that still reach a cell
/// that is not full (`reachesEmptyCell`), the line's edge.
///
/// Exact culling keeps every segment that reaches a pixel not yet *fully* covered, so a line
/// retracing itself thousands of times within a pixel (a tight spiral, a GPS logger left on a
/// table) keeps nearly all of them: their antialiased rims are never full. The work is bounded:
/// once the kept segments' ink passes `exactInk` (or their number `exactCount`) the culler turns coarse and keeps
/// a segment only when its core (the widest half width − ½ px around it) reaches a pixel centre
/// that no kept segment's ink (half width + ½ px) reached: slivers under a pixel wide, such as
/// each next turn of a tight spiral, are dropped. The image differs only along the edges of
/// ink drawn over many times.
struct OverdrawCuller {
    /// Cell size in device pixels.
    static let cell = 1.0
    /// Kept ink (device px², over all pieces of a line) before culling turns coarse: 12
    /// viewports' worth, and at least 8 megapixels. A 100k-point random scribble over 1024×768
    /// keeps about 5 viewports' worth in 54,000 segments.
    var exactInk: Double { max(12 * Double(cols * rows), 8_000_000) }
    /// Kept segments before culling turns coarse.
    static let exactCount = 150_000

    /// Segments kept so far, and their screen ends (kept only until the switch to coarse).
    private var keptCount = 0
    private var keptInk = 0.0
    private var keptSegments: [(Double, Double, Double, Double)] = []
    /// Coarse mode: the pixels whose centre some kept segment's ink reaches (nil while exact).
    private var reached: [Bool]?

    let cols: Int
    let rows: Int
    /// The full cells, one bit each, `words` 64-bit words per row.
    private var full: [UInt64]
    private let words: Int
    /// 8×8-cell blocks: how many of their cells are full, and whether all are, so that pieces
    /// crossing covered ground are rejected a block at a time.
    private let blockCols: Int
    private var blockCount: [UInt8]
    private var blockFull: [Bool]

    /// A grid over a viewport of `width` × `height` device pixels.
    init(width: Int, height: Int) {
        cols = max(1, Int((Double(width) / Self.cell).rounded(.up)))
        rows = max(1, Int((Double(height) / Self.cell).rounded(.up)))
        words = (cols + 63) >> 6
        full = [UInt64](repeating: 0, count: words * rows)
        blockCols = (cols + 7) / 8
        let blockRows = (rows + 7) / 8
        blockCount = [UInt8](repeating: 0, count: blockCols * blockRows)
        blockFull = [Bool](repeating: false, count: blockCols * blockRows)
        // Cells past the grid's right and bottom edges count as full, so edge blocks can fill.
        for row in 0 ..< blockRows * 8 {
            for col in 0 ..< blockCols * 8 where row >= rows || col >= cols { bump(row, col) }
        }
    }

    private mutating func bump(_ row: Int, _ col: Int) {
        let b = (row >> 3) * blockCols + (col >> 3)
        blockCount[b] &+= 1
        if blockCount[b] == 64 { blockFull[b] = true }
    }

    /// Per segment of `screen` (device pixels, no consecutive duplicates): draw it or not.
    /// `touchRadius` must hold everything drawn for a segment (the widest half width, casing
    /// included, times the reach of its joins and caps) and `coverRadius` is the narrowest half width drawn, both in device pixels.
    /// `inkRadius` is the widest half width drawn (device pixels), used once culling is coarse.
    mutating func keepMask(_ screen: [(Double, Double)], touchRadius: Double, coverRadius: Double,
                           inkRadius: Double) -> [Bool] {
        let n = screen.count
        guard n >= 2 else { return [] }
        var keep = [Bool](repeating: true, count: n - 1)
        let c = Self.cell
        for i in 0 ..< n - 1 {
            let (ax, ay) = screen[i], (bx, by) = screen[i + 1]
            if reached == nil && (keptInk > exactInk || keptCount >= Self.exactCount) {
                // Turn coarse: the ink of every segment kept so far counts as reached.
                reached = [Bool](repeating: false, count: cols * rows)
                for (sx, sy, ex, ey) in keptSegments { _ = coarse(sx, sy, ex, ey, radius: inkRadius + 0.5, mark: true) }
                keptSegments = []
            }
            if reached != nil {
                // Kept when its ink, less a pixel all round, reaches a pixel centre no kept ink reached:
                // slivers under a pixel wide (a spiral's next turn) are not worth a segment.
                keep[i] = coarse(ax, ay, bx, by, radius: max(0.5, inkRadius - 0.5), mark: false)
                if keep[i] {
                    keptCount += 1
                    _ = coarse(ax, ay, bx, by, radius: inkRadius + 0.5, mark: true)
                }
                continue
            }
            let r = touchRadius + 0.5
            let needed = reachesEmpty(ax, ay, bx, by, radius: r)
            let dx = bx - ax, dy = by - ay
            let len2 = dx * dx + dy * dy
            keep[i] = needed
            guard needed else { continue }
            keptCount += 1
            keptInk += (len2.squareRoot() + 2 * inkRadius) * 2 * inkRadius
            keptSegments.append((ax, ay, bx, by))
            // Mark the cells whose four corners lie within coverRadius of the segment's own quad
            // (no ends: joins and caps are not counted as cover). The quad is convex, so on each
            // horizontal line it is one interval, and a cell's corners are all inside when both
            // its columns lie in the intervals of its top and bottom edges (a row's bottom edge
            // is the next row's top). The rows are those the quad's bounding box reaches.
            guard len2 > 0 else { continue }
            let len = len2.squareRoot(), ux = dx / len, uy = dy / len
            let quadTop = min(ay, by) - coverRadius, quadBottom = max(ay, by) + coverRadius
            guard quadBottom >= 0, quadTop < Double(rows) * c else { continue }
            let firstRow = Int(max(quadTop / c, 0)), lastRow = Int(min(quadBottom / c, Double(rows - 1)))
            // 8 rows at a time, as `reachesEmpty` walks them: a band whose blocks under the quad
            // are all full has nothing left to fill.
            var band = firstRow
            while band <= lastRow {
                let bandEnd = min(lastRow, band | 7)
                defer { band = bandEnd + 1 }
                guard !bandIsFull(band ... bandEnd, ax, ay, bx, by, radius: coverRadius) else { continue }
                var top = Self.span(Double(band) * c, ax, ay, ux, uy, len: len, radius: coverRadius)
                for row in band ... bandEnd {
                    let bottom = Self.span(Double(row + 1) * c, ax, ay, ux, uy, len: len, radius: coverRadius)
                    defer { top = bottom }
                    guard let top, let bottom else { continue }
                    let lo = max(top.0, bottom.0), hi = min(top.1, bottom.1)
                    guard hi - lo >= c else { continue }
                    let first = max(0, Int((lo / c).rounded(.up))), last = min(cols - 1, Int((hi / c).rounded(.down)) - 1)
                    if first <= last { fill(row, first, last) }
                }
            }
        }
        return keep
    }

    /// Whether the capsule of radius `r` around the segment (device pixels) may touch a cell not
    /// yet full (conservatively: its bounding parallelogram, row by row).
    private func reachesEmpty(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, radius r: Double) -> Bool {
        let c = Self.cell
        let minSX = min(ax, bx) - r, maxSX = max(ax, bx) + r
        let minSY = min(ay, by) - r, maxSY = max(ay, by) + r
        if maxSX < 0 || maxSY < 0 || minSX > Double(cols) * c || minSY > Double(rows) * c { return false }
        // Fast path: every 8×8-cell block under the piece's bounding box is full.
        let bc = 8 * c
        let br0 = max(0, Int(minSY / bc)), br1 = min((rows - 1) >> 3, Int(maxSY / bc))
        let bc0 = max(0, Int(minSX / bc)), bc1 = min(blockCols - 1, Int(maxSX / bc))
        if br0 <= br1 && bc0 <= bc1 {
            var allFull = true
            outer: for br in br0 ... br1 {
                for bcol in bc0 ... bc1 where !blockFull[br * blockCols + bcol] { allFull = false; break outer }
            }
            if allFull { return false }
        }
        // (Int() truncates toward zero; negatives clamp to 0 either way, so it acts as floor here.)
        let row0 = max(0, Int(minSY / c)), row1 = min(rows - 1, Int(maxSY / c))
        guard row0 <= row1 else { return false }
        // A band of 8 rows at a time: where every block under the piece's cells in the band is
        // full, the band has no cell to find empty, and its rows are skipped (a long piece over
        // covered ground costs a block test per band rather than per row).
        var band = row0
        while band <= row1 {
            let last = min(row1, band | 7)
            defer { band = last + 1 }
            if bandIsFull(band ... last, ax, ay, bx, by, radius: r) { continue }
            for row in band ... last {
                guard let (col0, col1) = columns(rows: row ... row, ax, ay, bx, by, radius: r) else { continue }
                if anyEmpty(row, col0, col1) { return true }
            }
        }
        return false
    }

    /// Whether every 8×8 block under the cells of `rows` (within one band of 8) that the capsule
    /// of `radius` round the segment may touch is full; also when it touches none.
    private func bandIsFull(_ rows: ClosedRange<Int>, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                            radius r: Double) -> Bool {
        guard let (c0, c1) = columns(rows: rows, ax, ay, bx, by, radius: r) else { return true }
        let blockRow = (rows.lowerBound >> 3) * blockCols
        for bcol in (c0 >> 3) ... (c1 >> 3) where !blockFull[blockRow + bcol] { return false }
        return true
    }

    /// Whether culling stayed exact: then the full cells are final, and every pixel in them gets
    /// the line's full colour whichever kept segment draws it.
    var isExact: Bool { reached == nil }

    /// After every segment went through `keepMask` (exact): whether a kept segment still reaches a
    /// cell that did not end up full. One that does not only paints full cells, which
    /// `fullRectangles` can paint instead.
    func reachesEmptyCell(_ a: (Double, Double), _ b: (Double, Double), touchRadius: Double) -> Bool {
        reachesEmpty(a.0, a.1, b.0, b.1, radius: touchRadius + 0.5)
    }

    /// The full cells as disjoint rectangles (column, row, width, height in cells): runs of full
    /// cells in a row, merged with the same run of the rows below.
    func fullRectangles() -> [(col: Int, row: Int, width: Int, height: Int)] {
        var done: [(col: Int, row: Int, width: Int, height: Int)] = []
        // Rectangles still growing, by their run (first column, last column).
        var open: [Int: (col: Int, row: Int, width: Int, height: Int)] = [:]
        for row in 0 ... rows {
            var runs: [(Int, Int)] = []
            if row < rows {
                var col = 0
                while col < cols {
                    guard isFull(row, col) else { col += 1; continue }
                    let first = col
                    while col < cols && isFull(row, col) { col += 1 }
                    runs.append((first, col - 1))
                }
            }
            var next: [Int: (col: Int, row: Int, width: Int, height: Int)] = [:]
            for (first, last) in runs {
                let key = first * (cols + 1) + last
                if var r = open.removeValue(forKey: key) {
                    r.height += 1
                    next[key] = r
                } else {
                    next[key] = (first, row, last - first + 1, 1)
                }
            }
            done.append(contentsOf: open.values)
            open = next
        }
        return done.sorted { ($0.row, $0.col) < ($1.row, $1.col) }
    }

    private func isFull(_ row: Int, _ col: Int) -> Bool { (full[row * words + (col >> 6)] >> UInt64(col & 63)) & 1 != 0 }

    /// The x-interval where the horizontal line at `y` crosses the rectangle of half width
    /// `radius` around the segment from (ax, ay) along the unit direction (ux, uy) for `len`.
    private static func span(_ y: Double, _ ax: Double, _ ay: Double, _ ux: Double, _ uy: Double, len: Double,
                             radius: Double) -> (Double, Double)? {
        var lo = -Double.infinity, hi = Double.infinity
        // x with k·x + m in lower...upper.
        func clip(_ k: Double, _ m: Double, _ lower: Double, _ upper: Double) {
            if abs(k) < 1e-12 {
                if m < lower || m > upper { lo = .infinity; hi = -.infinity }
                return
            }
            let p = (lower - m) / k, q = (upper - m) / k
            lo = max(lo, min(p, q)); hi = min(hi, max(p, q))
        }
        let ry = y - ay
        clip(ux, -ax * ux + ry * uy, 0, len) // along the segment
        clip(uy, -ax * uy - ry * ux, -radius, radius) // across it
        return lo <= hi ? (lo, hi) : nil
    }

    /// Whether a cell of `row` in `col0 ... col1` is not full.
    private func anyEmpty(_ row: Int, _ col0: Int, _ col1: Int) -> Bool {
        let base = row * words, w0 = col0 >> 6, w1 = col1 >> 6
        for w in w0 ... w1 {
            var mask = ~UInt64(0)
            if w == w0 { mask &= ~UInt64(0) << UInt64(col0 & 63) }
            if w == w1 { mask &= ~UInt64(0) >> UInt64(63 - (col1 & 63)) }
            if full[base + w] & mask != mask { return true }
        }
        return false
    }

    /// Marks the cells of `row` in `col0 ... col1` full, counting the new ones in their blocks.
    private mutating func fill(_ row: Int, _ col0: Int, _ col1: Int) {
        let base = row * words, w0 = col0 >> 6, w1 = col1 >> 6
        let blockBase = (row >> 3) * blockCols
        for w in w0 ... w1 {
            var mask = ~UInt64(0)
            if w == w0 { mask &= ~UInt64(0) << UInt64(col0 & 63) }
            if w == w1 { mask &= ~UInt64(0) >> UInt64(63 - (col1 & 63)) }
            var fresh = mask & ~full[base + w]
            guard fresh != 0 else { continue }
            full[base + w] |= fresh
            // Eight cells a block: one byte of the word each.
            while fresh != 0 {
                let byte = fresh.trailingZeroBitCount >> 3
                let bitsInByte = (fresh >> UInt64(byte * 8)) & 0xFF
                let b = blockBase + w * 8 + byte
                blockCount[b] &+= UInt8(bitsInByte.nonzeroBitCount)
                if blockCount[b] == 64 { blockFull[b] = true }
                fresh &= ~(UInt64(0xFF) << UInt64(byte * 8))
            }
        }
    }

    /// Coarse test (and marking): whether the capsule of `radius` around the segment reaches a
    /// pixel centre not yet reached.
    private mutating func coarse(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                 radius r: Double, mark: Bool) -> Bool {
        let c = Self.cell
        let minSX = min(ax, bx) - r, maxSX = max(ax, bx) + r
        let minSY = min(ay, by) - r, maxSY = max(ay, by) + r
        let maxX = Double(cols) * c, maxY = Double(rows) * c
        guard maxSX >= 0, maxSY >= 0, minSX <= maxX, minSY <= maxY,
              minSX.isFinite, maxSX.isFinite, minSY.isFinite, maxSY.isFinite else { return false }
        let dx = bx - ax, dy = by - ay
        let len2 = dx * dx + dy * dy
        let r2 = r * r
        let row0 = max(0, Int(minSY / c)), row1 = min(rows - 1, Int(maxSY / c))
        guard row0 <= row1 else { return false }
        var found = false
        for row in row0 ... row1 {
            let py = (Double(row) + 0.5) * c
            guard let (col0, col1) = columns(rows: row ... row, ax, ay, bx, by, radius: r) else { continue }
            let base = row * cols
            for col in col0 ... col1 where !reached![base + col] {
                let px = (Double(col) + 0.5) * c
                var ex = px - ax, ey = py - ay
                if len2 > 0 {
                    let t = min(max((ex * dx + ey * dy) / len2, 0), 1)
                    ex -= t * dx; ey -= t * dy
                }
                guard ex * ex + ey * ey <= r2 else { continue }
                found = true
                if mark { reached![base + col] = true } else { return true }
            }
        }
        return found
    }

    /// The cells of `rows` that the bounding parallelogram of the capsule of `radius` around the
    /// segment may touch (conservative: a superset of the touched cells), or nil.
    /// (Int() truncates toward zero; negatives clamp to 0 either way, so it acts as floor here.)
    private func columns(rows: ClosedRange<Int>, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                         radius r: Double) -> (Int, Int)? {
        let c = Self.cell
        let dx = bx - ax, dy = by - ay
        let y0 = Double(rows.lowerBound) * c - r, y1 = Double(rows.upperBound + 1) * c + r
        var x0: Double, x1: Double
        if abs(dy) < 1e-9 {
            x0 = min(ax, bx); x1 = max(ax, bx)
        } else {
            let t0 = max(0, min(1, (y0 - ay) / dy)), t1 = max(0, min(1, (y1 - ay) / dy))
            x0 = min(ax + t0 * dx, ax + t1 * dx); x1 = max(ax + t0 * dx, ax + t1 * dx)
        }
        let col0 = max(0, Int((x0 - r) / c)), col1 = min(cols - 1, Int((x1 + r) / c))
        return col0 <= col1 ? (col0, col1) : nil
    }
}
