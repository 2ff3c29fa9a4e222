import Foundation
import GeoKit
import MapCamera
import MapRender
import MapRenderGL
import MapScene
import Testing

/// Partial redraws (only the rectangle of the commands that changed since the last frame) give
/// exactly the pixels of a full redraw, and redraw little when little moves.
@Suite(.serialized) struct PartialRedrawTests {
    static let center = LatLng(lat: 47.37, lon: 8.54)

    /// A still scene (polygon, translucent route, dashed route, dot and pin markers) plus a pulse
    /// and a moving marker that change with `t`.
    static let still: Scene = {
        var s = Scene(background: Color(rgb: 0xF2EFE9))
        s.add(.polygon(try! Polygon(exterior: [LatLng(lat: 47.36, lon: 8.52), LatLng(lat: 47.38, lon: 8.53), LatLng(lat: 47.365, lon: 8.56)],
                                   fill: Color(rgb: 0x2DA44E, alpha: 0x60), stroke: Color(rgb: 0x116329), strokeWidth: 2)))
        let route = (0..<400).map { i in LatLng(lat: 47.355 + 0.00008 * Double(i), lon: 8.51 + 0.00015 * Double(i) + 0.002 * sin(Double(i) / 9)) }
        s.add(.polyline(try! Polyline(coordinates: route, style: LineStyle(width: .pixels(6), color: Color(rgb: 0x1F6FEB, alpha: 0xA0)))))
        s.add(.polyline(dashed(0)))
        s.add(.marker(try! Marker(position: LatLng(lat: 47.372, lon: 8.545), style: .pin)))
        return s
    }()

    static func scene(at t: Double) throws -> Scene {
        var s = still
        s.overlays[2] = .polyline(dashed(t < 0.75 ? 0 : t))  // the dashes march from frame 8 on
        // Moving parts.
        let scale = 0.8 + 0.4 * (t / 0.8 - (t / 0.8).rounded(.down))
        s.add(.circle(try Circle(center: center, radius: .meters(300 * scale), fill: Color(rgb: 0xFF3B30, alpha: UInt8(40 + 100 * scale)),
                                 stroke: nil)))
        s.add(.marker(try Marker(position: LatLng(lat: 47.365 + 0.001 * t, lon: 8.53), style: .arrow, rotation: 40 * t)))
        return s
    }

    static let dashedPath = try! GeoPath(coordinates: (0..<400).map { i in
        LatLng(lat: 47.359 + 0.00008 * Double(i), lon: 8.51 + 0.00015 * Double(i) + 0.002 * sin(Double(i) / 9))
    })

    /// A dashed line whose dashes march with t (its mesh stays; only the dash offset changes).
    static func dashed(_ t: Double) -> Polyline {
        Polyline(path: dashedPath, style: LineStyle(width: .pixels(3), color: Color(rgb: 0x8250DF), dash: [6, 4], dashOffset: 3 * t))
    }

    /// Frames whose command lists differ in length (a marker added in the middle, then one
    /// taken away) are compared as ordered multisets of commands rather than pairwise: still
    /// the pixels of a full redraw, and only part of the frame redrawn.
    @Test func insertedAndRemovedCommands() throws {
        let partial = try MapRenderer(samples: 0)
        let full = try MapRenderer(samples: 0)
        full.partialRedraw = false
        let cam = Camera(center: Self.center, zoom: 13.5, size: ScreenSize(width: 400, height: 300))
        var a = Self.still
        for k in 0 ..< 5 {
            a.add(.marker(try Marker(position: LatLng(lat: 47.36 + 0.003 * Double(k), lon: 8.52 + 0.005 * Double(k)), style: .pin)))
        }
        var b = a
        b.overlays.insert(.marker(try Marker(position: LatLng(lat: 47.375, lon: 8.55), style: .dot)), at: 5)
        var c = b
        c.overlays.remove(at: 7)
        for (n, scene) in [a, b, c, a].enumerated() {
            let x = try partial.render(scene: scene, camera: cam)
            let y = try full.render(scene: scene, camera: cam)
            let same = x.pixels == y.pixels  // (not inside #expect, which would print both frames)
            #expect(same, "frame \(n) differs from the full redraw")
            if n > 0 { #expect(partial.lastRedrawFraction > 0 && partial.lastRedrawFraction < 0.5, "frame \(n): \(partial.lastRedrawFraction)") }
        }
    }

    @Test(arguments: [0, 4]) func partialFramesEqualFullFrames(samples: Int) throws {
        let partial = try MapRenderer(samples: samples)
        let full = try MapRenderer(samples: samples)
        full.partialRedraw = false
        let cam = Camera(center: Self.center, zoom: 13.5, bearing: 20, size: ScreenSize(width: 400, height: 300))
        var fractions: [Double] = []
        for n in 0..<12 {
            let t = Double(n) / 10
            let a = try partial.render(scene: try Self.scene(at: t), camera: cam)
            fractions.append(partial.lastRedrawFraction)
            let b = try full.render(scene: try Self.scene(at: t), camera: cam)
            #expect(full.lastRedrawFraction == 1)
            #expect(a.pixels == b.pixels, "frame \(n) differs from the full redraw (\(a.pixels.indices.filter { a.pixels[$0] != b.pixels[$0] }.count) bytes)")
        }
        #expect(fractions[0] == 1)
        // Frames 1…7: only the pulse and the arrow moved; from 8 on the dashes across the view march too.
        #expect(fractions[1...7].allSatisfy { $0 > 0 && $0 <= 0.6 }, "\(fractions)")
        #expect(fractions[8...].allSatisfy { $0 == 1 }, "\(fractions)")
        // The same scene again: nothing to redraw.
        _ = try partial.render(scene: try Self.scene(at: 1.1), camera: cam)
        #expect(partial.lastRedrawFraction == 0)
        // A moved camera redraws everything.
        var moved = cam
        moved.center = LatLng(lat: 47.371, lon: 8.54)
        let c = try partial.render(scene: try Self.scene(at: 1.1), camera: moved)
        #expect(partial.lastRedrawFraction == 1)
        let d = try full.render(scene: try Self.scene(at: 1.1), camera: moved)
        #expect(c.pixels == d.pixels, "moved camera")
    }
}
