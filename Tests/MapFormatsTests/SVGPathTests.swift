import Foundation
import MapFormats
import Testing

/// SVG path data (SVG 1.1 §8.3) against hand-derived values; the Maki table parses whole.
/// (`MapSnapshotTests.MakiSymbolTests` compares the filled icons with librsvg's renders.)
@Suite struct SVGPathTests {
    typealias P = SVGPath.Point
    func p(_ x: Double, _ y: Double) -> P { P(x: x, y: y) }

    /// Lines, relative commands, implicit linetos after a moveto, H and V, close returning to
    /// the subpath's start (so the next relative command starts there).
    @Test func linesAndRelativeCommands() throws {
        #expect(try SVGPath("M1 2L3 4H5V6Z").elements == [.move(p(1, 2)), .line(p(3, 4)), .line(p(5, 4)), .line(p(5, 6)), .close])
        #expect(try SVGPath("m1 1 2 2 l1 0").elements == [.move(p(1, 1)), .line(p(3, 3)), .line(p(4, 3))])
        #expect(try SVGPath("M 10,10 h-5 v 5 z l 1 1").elements
                == [.move(p(10, 10)), .line(p(5, 10)), .line(p(5, 15)), .close, .line(p(11, 11))])
        // Numbers run together as the grammar allows: ".5.5" is two numbers, "-1-1" too.
        #expect(try SVGPath("M.5.5-1-1").elements == [.move(p(0.5, 0.5)), .line(p(-1, -1))])
        #expect(try SVGPath("M1e1 2E-1").elements == [.move(p(10, 0.2))])
        #expect(try SVGPath("").elements.isEmpty)
    }

    /// Q becomes the cubic with controls two thirds of the way to the quadratic's control; T and
    /// S reflect the previous control point through the current point, and take the current
    /// point itself when the previous command was not a curve of their kind.
    @Test func curvesAndReflections() throws {
        let q = try SVGPath("M0 0Q3 3 6 0T12 0").elements
        #expect(q == [.move(p(0, 0)), .cubic(control1: p(2, 2), control2: p(4, 2), to: p(6, 0)),
                      // T: control (9, -3), the reflection of (3, 3) through (6, 0).
                      .cubic(control1: p(8, -2), control2: p(10, -2), to: p(12, 0))])
        let s = try SVGPath("M0 0C1 2 3 4 5 5S9 8 10 10").elements
        #expect(s[2] == .cubic(control1: p(7, 6), control2: p(9, 8), to: p(10, 10)))
        let bare = try SVGPath("M0 0L1 1S2 2 3 3").elements
        #expect(bare[2] == .cubic(control1: p(1, 1), control2: p(2, 2), to: p(3, 3)))
        let rel = try SVGPath("M1 1c1 0 2 0 2 1s1 1 2 1").elements
        #expect(rel[2] == .cubic(control1: p(3, 3), control2: p(4, 3), to: p(5, 3)))
    }

    /// The point of a cubic at t.
    func at(_ a: P, _ c1: P, _ c2: P, _ b: P, _ t: Double) -> P {
        let u = 1 - t
        return p(u * u * u * a.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * b.x,
                 u * u * u * a.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * b.y)
    }

    /// Every cubic of an arc samples within `tolerance` of the ellipse centred at `c`.
    func onCircle(_ elements: [SVGPath.Element], centre c: P, radius r: Double, tolerance: Double) -> Bool {
        var cur = p(0, 0)
        for e in elements {
            switch e {
            case .move(let q): cur = q
            case .cubic(let c1, let c2, let b):
                for k in 0 ... 16 {
                    let q = at(cur, c1, c2, b, Double(k) / 16)
                    if abs(hypot(q.x - c.x, q.y - c.y) - r) > tolerance { return false }
                }
                cur = b
            default: return false
            }
        }
        return true
    }

    /// A semicircle from (0, 0) to (10, 0) of radius 5: with the sweep flag set it turns through
    /// increasing angles (y down: up the screen first, through (5, −5)), as two quarter cubics
    /// whose joint is the arc's top; without it, through (5, 5). The large-arc flag chooses
    /// between the two arcs of a chord shorter than the diameter: with radius 5 from (0, 0) to
    /// (5, 5) the small one is a quarter turn (one cubic), the large three quarters (three).
    /// Radii too small for the chord are scaled up (radius 1 → 5), a zero radius draws a line,
    /// and flags may run into the next number ("a5 5 0 1010 0").
    @Test func ellipticalArcs() throws {
        let up = try SVGPath("M0 0A5 5 0 0 1 10 0").elements
        #expect(up.count == 3)
        guard case .cubic(_, _, let mid) = up[1], case .cubic(_, _, let end) = up[2] else { Issue.record("not cubics"); return }
        #expect(abs(mid.x - 5) < 1e-12 && abs(mid.y + 5) < 1e-12 && end == p(10, 0))
        #expect(onCircle(up, centre: p(5, 0), radius: 5, tolerance: 5 * 3e-4))
        let down = try SVGPath("M0 0A5 5 0 0 0 10 0").elements
        guard case .cubic(_, _, let mid2) = down[1] else { Issue.record("not a cubic"); return }
        #expect(abs(mid2.x - 5) < 1e-12 && abs(mid2.y - 5) < 1e-12)
        // Chord (0,0)–(5,5), radius 5, sweeping through decreasing angles: round (5, 0) from
        // angle π to π/2 is the quarter turn, round (0, 5) from −π/2 to −2π the three quarters.
        let small = try SVGPath("M0 0A5 5 0 0 0 5 5").elements
        let large = try SVGPath("M0 0A5 5 0 1 0 5 5").elements
        #expect(small.count == 2 && large.count == 4)
        #expect(onCircle(small, centre: p(5, 0), radius: 5, tolerance: 1.5e-3))
        #expect(onCircle(large, centre: p(0, 5), radius: 5, tolerance: 1.5e-3))
        #expect(try SVGPath("M0 0A1 1 0 0 1 10 0").elements.count == 3)
        #expect(onCircle(try SVGPath("M0 0A1 1 0 0 1 10 0").elements, centre: p(5, 0), radius: 5, tolerance: 1.5e-3))
        #expect(try SVGPath("M0 0A0 5 0 0 1 10 0").elements == [.move(p(0, 0)), .line(p(10, 0))])
        #expect(try SVGPath("M0 0a5 5 0 1010 0").elements == down)
        // An ellipse turned 90°: radii 10 (along y) and 5 (along x) from (0, 0) to (0, 20): centre (0, 10).
        let turned = try SVGPath("M0 0A10 5 90 0 1 0 20").elements
        guard case .cubic(_, _, let side) = turned[1] else { Issue.record("not a cubic"); return }
        #expect(abs(abs(side.x) - 5) < 1e-9 && abs(side.y - 10) < 1e-9)
    }

    /// Bad data says where (byte offset) and why.
    @Test func errorsSayWhere() throws {
        func reason(_ d: String) -> String {
            do { _ = try SVGPath(d); return "no error" } catch { return error.description }
        }
        #expect(reason("L1 2") == "path data, byte 0: path data must start with a moveto (M or m)")
        #expect(reason("5 5") == "path data, byte 0: path data must start with a moveto (M or m)")
        #expect(reason("M1") == "path data, byte 2: expected a y coordinate, found the end")
        #expect(reason("M1 2 X3") == "path data, byte 5: unknown path command 'X'")
        #expect(reason("M1 2 A1 1 0 2 1 3 3") == "path data, byte 12: expected an arc flag (0 or 1)")
        #expect(reason("M1e999 0") == "path data, byte 1: an x coordinate '1e999' is not a finite number")
        #expect(reason("M1 2 L") == "path data, byte 6: expected an x coordinate, found the end")
        #expect(reason("M1 2Z 3 4") == "path data, byte 6: expected a path command")
        #expect(reason("M1 2 # 3") == "path data, byte 5: unexpected '#'")
        #expect(reason(String(repeating: "M1 1", count: SVGPath.maxLength / 4 + 1)).hasSuffix("-byte limit"))
        // Finite numbers whose arithmetic overflows: a reflection past the largest Double, and
        // the fuzzer's arc with radii near 1e92 (their squares' products overflow; it crashed
        // converting a NaN sweep to a segment count): a line, or an error, never NaN.
        #expect(reason("M1e308 0C0 0 -1e308 0 1e308 0S0 0 0 0") == "path data, byte 29: coordinates too large: the path leaves the finite numbers")
        let huge = try #require(try? SVGPath("M0 0A1.5e92 1e92 0 0 1 3e92 0")).elements
        #expect(huge.count >= 2 && huge.allSatisfy { e in
            switch e {
            case .move(let q), .line(let q): q.x.isFinite && q.y.isFinite
            case .cubic(let a, let b, let q): [a.x, a.y, b.x, b.y, q.x, q.y].allSatisfy(\.isFinite)
            case .close: true
            }
        })
        switch huge.last {
        case .line(let q)?, .cubic(_, _, let q)?: #expect(q == p(3e92, 0))
        default: Issue.record("the arc does not end on its endpoint")
        }
    }

    /// Every embedded Maki icon parses, starts with a moveto and stays inside its 15-unit box
    /// (control points included, two units of slack: the heart's reach 1.5 out); names are unique, include the common
    /// ones, and a near miss gets a suggestion.
    @Test func makiTableParses() throws {
        let names = Maki.names
        #expect(names.count == 214 && Set(names).count == names.count)
        for n in ["airport", "bus", "cafe", "hospital", "rail-metro", "bank-JP", "star", "circle"] { #expect(Maki.contains(n), "\(n)") }
        for name in names {
            let path = try #require(Maki.path(name), "\(name) does not parse")
            guard case .move = path.elements.first else { Issue.record("\(name) does not start with a move"); continue }
            let b = try #require(path.controlBounds)
            #expect(b.minX >= -2 && b.minY >= -2 && b.maxX <= 17 && b.maxY <= 17, "\(name): \(b)")
        }
        #expect(Maki.path("no-such-icon") == nil)
        #expect(Maki.suggestion(for: "Cafe") == "cafe")
        #expect(Maki.suggestion(for: "hospitl") == "hospital")
        #expect(Maki.suggestion(for: "qqqqqqqq") == nil)
    }
}
