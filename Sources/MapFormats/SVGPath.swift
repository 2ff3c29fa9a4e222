import Foundation

/// SVG path data (the `d` attribute, SVG 1.1 §8.3 / SVG 2 §9.3) read into absolute moves, lines,
/// cubic Béziers and closes: what Cairo, Quartz or any 2D canvas can fill directly.
///
/// Every command is understood, absolute and relative: `M L H V` become moves and lines, `Q T`
/// cubics with the same curve (degree elevation), `S T` reflect the previous control point as
/// the specification says, and elliptical arcs `A` are converted to centre form (SVG 1.1,
/// implementation notes F.6.5–F.6.6, radii scaled up when too small) and drawn as one cubic per
/// quarter turn or less (control points at 4/3·tan(δ/4) along the tangents; the largest error
/// for a quarter circle is 0.027 % of the radius). Numbers may run together as the grammar
/// allows (`.5.5`, `1-2`, arc flags `011`). Every point of the result is finite: numbers whose
/// arithmetic overflows are an error.
public struct SVGPath: Sendable, Equatable {
    public struct Point: Sendable, Equatable {
        public var x: Double, y: Double
        public init(x: Double, y: Double) { self.x = x; self.y = y }
    }

    public enum Element: Sendable, Equatable {
        case move(Point)
        case line(Point)
        case cubic(control1: Point, control2: Point, to: Point)
        case close

        var isFinite: Bool {
            switch self {
            case .move(let p), .line(let p): p.x.isFinite && p.y.isFinite
            case .cubic(let a, let b, let p): [a.x, a.y, b.x, b.y, p.x, p.y].allSatisfy(\.isFinite)
            case .close: true
            }
        }
    }

    /// The elements, absolute, in the path's own units.
    public var elements: [Element]

    /// The most bytes of path data `init` reads.
    public static let maxLength = 1 << 20

    /// Reads path data; throws `SVGPathError` naming the byte offset and what was wrong.
    public init(_ data: String) throws(SVGPathError) {
        var reader = Reader(bytes: Array(data.utf8))
        guard reader.bytes.count <= Self.maxLength else {
            throw SVGPathError(offset: 0, reason: "path data is \(reader.bytes.count) bytes, over the \(Self.maxLength)-byte limit")
        }
        elements = try reader.read()
    }

    /// The box round every point and control point (nil for an empty path): it holds the
    /// filled shape, since a cubic lies inside its control points' hull.
    public var controlBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var b: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
        func add(_ p: Point) {
            guard let c = b else { b = (p.x, p.y, p.x, p.y); return }
            b = (min(c.minX, p.x), min(c.minY, p.y), max(c.maxX, p.x), max(c.maxY, p.y))
        }
        for e in elements {
            switch e {
            case .move(let p), .line(let p): add(p)
            case .cubic(let c1, let c2, let p): add(c1); add(c2); add(p)
            case .close: break
            }
        }
        return b
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0
        var out: [Element] = []
        var current = Point(x: 0, y: 0), start = Point(x: 0, y: 0)
        /// The last cubic's second control point (for S) or the last quadratic's control point (for T).
        var lastCubicControl: Point?, lastQuadControl: Point?

        init(bytes: [UInt8]) { self.bytes = bytes }

        func fail(_ why: String, at offset: Int? = nil) -> SVGPathError { SVGPathError(offset: offset ?? i, reason: why) }

        mutating func skipSeparators(comma: Bool) {
            var sawComma = false
            while i < bytes.count {
                let c = bytes[i]
                if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C { i += 1 }
                else if comma && !sawComma && c == UInt8(ascii: ",") { sawComma = true; i += 1 }
                else { break }
            }
        }

        /// Whether a number (or flag) starts here, after separators.
        mutating func numberAhead() -> Bool {
            skipSeparators(comma: false)
            guard i < bytes.count else { return false }
            let c = bytes[i]
            return (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
        }

        mutating func number(_ what: String) throws(SVGPathError) -> Double {
            skipSeparators(comma: true)
            let begin = i
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            var digits = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1; digits += 1 }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1; digits += 1 }
            }
            guard digits > 0 else {
                throw fail(i < bytes.count ? "expected \(what), found '\(Character(UnicodeScalar(bytes[i])))'" : "expected \(what), found the end", at: begin)
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                var j = i + 1
                if j < bytes.count, bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+") { j += 1 }
                var expDigits = 0
                while j < bytes.count, bytes[j] >= 0x30, bytes[j] <= 0x39 { j += 1; expDigits += 1 }
                if expDigits > 0 { i = j }
            }
            let text = String(decoding: bytes[begin ..< i], as: UTF8.self)
            guard let v = Double(text), v.isFinite else { throw fail("\(what) '\(text.prefix(24))' is not a finite number", at: begin) }
            return v
        }

        mutating func flag() throws(SVGPathError) -> Bool {
            skipSeparators(comma: true)
            guard i < bytes.count, bytes[i] == UInt8(ascii: "0") || bytes[i] == UInt8(ascii: "1") else {
                throw fail("expected an arc flag (0 or 1)")
            }
            i += 1
            return bytes[i - 1] == UInt8(ascii: "1")
        }

        mutating func point(relative: Bool) throws(SVGPathError) -> Point {
            let x = try number("an x coordinate"), y = try number("a y coordinate")
            return relative ? Point(x: current.x + x, y: current.y + y) : Point(x: x, y: y)
        }

        mutating func read() throws(SVGPathError) -> [Element] {
            skipSeparators(comma: false)
            var command: UInt8?
            var first = true
            while true {
                skipSeparators(comma: false)
                guard i < bytes.count else { break }
                let c = bytes[i]
                let isLetter = (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z")
                if isLetter {
                    guard "MmZzLlHhVvCcSsQqTtAa".utf8.contains(c) else { throw fail("unknown path command '\(Character(UnicodeScalar(c)))'") }
                    command = c
                    i += 1
                } else if command == nil || command == UInt8(ascii: "Z") || command == UInt8(ascii: "z") {
                    throw fail(first ? "path data must start with a moveto (M or m)" : "expected a path command")
                }
                guard var cmd = command else { break }
                if first && cmd != UInt8(ascii: "M") && cmd != UInt8(ascii: "m") {
                    throw fail("path data must start with a moveto (M or m)", at: i - 1)
                }
                first = false
                let commandStart = max(i - 1, 0), countBefore = out.count
                let relative = cmd >= UInt8(ascii: "a")
                switch cmd | 0x20 {
                case UInt8(ascii: "m"):
                    let p = try point(relative: relative)
                    out.append(.move(p)); current = p; start = p
                    // Further pairs after a moveto are implicit linetos.
                    cmd = relative ? UInt8(ascii: "l") : UInt8(ascii: "L")
                    command = cmd
                    lastCubicControl = nil; lastQuadControl = nil
                case UInt8(ascii: "z"):
                    out.append(.close); current = start
                    lastCubicControl = nil; lastQuadControl = nil
                    continue
                case UInt8(ascii: "l"):
                    let p = try point(relative: relative)
                    line(to: p)
                case UInt8(ascii: "h"):
                    let x = try number("an x coordinate")
                    line(to: Point(x: relative ? current.x + x : x, y: current.y))
                case UInt8(ascii: "v"):
                    let y = try number("a y coordinate")
                    line(to: Point(x: current.x, y: relative ? current.y + y : y))
                case UInt8(ascii: "c"):
                    let c1 = try point(relative: relative), c2 = try point(relative: relative), p = try point(relative: relative)
                    cubic(c1, c2, p)
                case UInt8(ascii: "s"):
                    let c1 = lastCubicControl.map { Point(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                    let c2 = try point(relative: relative), p = try point(relative: relative)
                    cubic(c1, c2, p)
                case UInt8(ascii: "q"):
                    let q = try point(relative: relative), p = try point(relative: relative)
                    quad(q, p)
                case UInt8(ascii: "t"):
                    let q = lastQuadControl.map { Point(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                    let p = try point(relative: relative)
                    quad(q, p)
                case UInt8(ascii: "a"):
                    let rx = try number("an arc's x radius"), ry = try number("an arc's y radius")
                    let rotation = try number("an arc's rotation")
                    let large = try flag(), sweep = try flag()
                    let p = try point(relative: relative)
                    arc(rx: rx, ry: ry, degrees: rotation, large: large, sweep: sweep, to: p)
                default:
                    throw fail("unknown path command")
                }
                // Finite numbers can still overflow (a reflection, an arc's radii squared).
                guard out[countBefore...].allSatisfy(\.isFinite), current.x.isFinite, current.y.isFinite else {
                    throw fail("coordinates too large: the path leaves the finite numbers", at: commandStart)
                }
                // A command's arguments may repeat; a letter or the end stops them.
                skipSeparators(comma: true)
                if i < bytes.count, !numberAhead() {
                    let n = bytes[i]
                    let isCommand = (n | 0x20) >= UInt8(ascii: "a") && (n | 0x20) <= UInt8(ascii: "z")
                    if !isCommand { throw fail("unexpected '\(Character(UnicodeScalar(n)))'") }
                }
            }
            return out
        }

        mutating func line(to p: Point) {
            out.append(.line(p)); current = p
            lastCubicControl = nil; lastQuadControl = nil
        }

        mutating func cubic(_ c1: Point, _ c2: Point, _ p: Point) {
            out.append(.cubic(control1: c1, control2: c2, to: p)); current = p
            lastCubicControl = c2; lastQuadControl = nil
        }

        /// A quadratic from the current point as the cubic with the same curve.
        mutating func quad(_ q: Point, _ p: Point) {
            let c1 = Point(x: current.x + 2 / 3 * (q.x - current.x), y: current.y + 2 / 3 * (q.y - current.y))
            let c2 = Point(x: p.x + 2 / 3 * (q.x - p.x), y: p.y + 2 / 3 * (q.y - p.y))
            out.append(.cubic(control1: c1, control2: c2, to: p)); current = p
            lastCubicControl = nil; lastQuadControl = q
        }

        /// An elliptical arc from the current point to `p` (SVG 1.1 F.6.5: endpoint to centre
        /// parameterisation; F.6.6: out-of-range radii).
        mutating func arc(rx: Double, ry: Double, degrees: Double, large: Bool, sweep: Bool, to p: Point) {
            let p1 = current
            if p1 == p { lastCubicControl = nil; lastQuadControl = nil; return }
            var rx = abs(rx), ry = abs(ry)
            guard rx > 0, ry > 0 else { line(to: p); return }
            let phi = degrees.truncatingRemainder(dividingBy: 360) * .pi / 180
            let cosPhi = cos(phi), sinPhi = sin(phi)
            let dx = (p1.x - p.x) / 2, dy = (p1.y - p.y) / 2
            let x1 = cosPhi * dx + sinPhi * dy, y1 = -sinPhi * dx + cosPhi * dy
            let lambda = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
            if lambda > 1 { let s = lambda.squareRoot(); rx *= s; ry *= s }
            let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
            let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
            var coef = den > 0 ? max(num / den, 0).squareRoot() : 0
            if large == sweep { coef = -coef }
            let cxp = coef * rx * y1 / ry, cyp = -coef * ry * x1 / rx
            let cx = cosPhi * cxp - sinPhi * cyp + (p1.x + p.x) / 2
            let cy = sinPhi * cxp + cosPhi * cyp + (p1.y + p.y) / 2
            func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
                atan2(ux * vy - uy * vx, ux * vx + uy * vy)
            }
            let ux = (x1 - cxp) / rx, uy = (y1 - cyp) / ry
            let vx = (-x1 - cxp) / rx, vy = (-y1 - cyp) / ry
            let theta1 = angle(1, 0, ux, uy)
            var delta = angle(ux, uy, vx, vy)
            if !sweep && delta > 0 { delta -= 2 * .pi }
            if sweep && delta < 0 { delta += 2 * .pi }
            // Radii so large that their squares overflow give no centre: a straight line then.
            guard delta.isFinite, cx.isFinite, cy.isFinite, rx.isFinite, ry.isFinite else { line(to: p); return }
            let n = min(4, max(1, Int((abs(delta) / (.pi / 2) - 1e-9).rounded(.up))))
            let step = delta / Double(n)
            let k = 4.0 / 3.0 * tan(step / 4)
            func map(_ x: Double, _ y: Double) -> Point {
                Point(x: cx + rx * cosPhi * x - ry * sinPhi * y, y: cy + rx * sinPhi * x + ry * cosPhi * y)
            }
            var a = theta1
            for s in 0 ..< n {
                let b = a + step
                let c1 = map(cos(a) - k * sin(a), sin(a) + k * cos(a))
                let c2 = map(cos(b) + k * sin(b), sin(b) - k * cos(b))
                // The last segment ends exactly on the given endpoint.
                let end = s == n - 1 ? p : map(cos(b), sin(b))
                out.append(.cubic(control1: c1, control2: c2, to: end))
                a = b
            }
            current = p
            lastCubicControl = nil; lastQuadControl = nil
        }
    }
}

/// Bad SVG path data: where (byte offset into the data) and why.
public struct SVGPathError: Error, Sendable, Equatable, CustomStringConvertible {
    public let offset: Int
    public let reason: String
    public var description: String { "path data, byte \(offset): \(reason)" }
}
