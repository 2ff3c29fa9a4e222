import Foundation
import MapCamera
import MapRender
import MapRenderGL
import MapScene

/// Comparisons shared by `ConvexFillTests` and `WedgeFillTests`: the same polygons as one
/// `MultiPolygon` (drawn with coverage from its own triangles) and as `Polygon`s (with fringes),
/// in `AntialiasingQualityTests`' view.
enum FillComparison {
    static let fill = Color(rgb: 0x0969DA)
    static let background = Color(rgb: 0xF6F8FA)

    /// The polygons as one set, and as its parts.
    static func scenes(_ rings: [PolygonRings]) -> (set: Scene, parts: Scene) {
        let set = PolygonSet(rings)
        let multi = MultiPolygon(polygons: set, fill: fill)
        var a = Scene(background: background), b = Scene(background: background)
        a.add(.multiPolygon(multi))
        for i in set.polygons.indices { b.add(.polygon(multi.part(i))) }
        return (a, b)
    }

    /// Both scenes drawn at pitch 0 with shader coverage: how many pixels differ by more than 8
    /// levels, the largest difference, and how many pixels each touches.
    static func againstParts(_ rings: [PolygonRings], bearing: Double, ratio: Double, name: String) throws
        -> (differ: Int, worst: Int, covered: (set: Int, parts: Int)) {
        let (set, parts) = scenes(rings)
        var camera = ReferenceImageTests.camera(ratio: ratio)
        camera.bearing = bearing
        let renderer = try MapRenderer(samples: 0)
        let a = try renderer.render(scene: set, camera: camera), b = try renderer.render(scene: parts, camera: camera)
        var differ = 0, worst = 0, covered = (0, 0)
        for y in 0 ..< a.height {
            for x in 0 ..< a.width {
                let p = a.pixel(x: x, y: y)!, q = b.pixel(x: x, y: y)!
                let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
                worst = max(worst, d)
                if d > 8 { differ += 1 }
                if p.r != 0xF6 { covered.0 += 1 }
                if q.r != 0xF6 { covered.1 += 1 }
            }
        }
        print("\(name) vs fringes, bearing \(bearing) @\(ratio)x: \(differ) pixels differ by > 8 (worst \(worst)); covered \(covered.0) vs \(covered.1)")
        return (differ, worst, covered)
    }

    /// Mean edge errors against 16× supersampling of the set (shader coverage, and aliased) and
    /// of its parts with fringes.
    static func edgeErrors(_ rings: [PolygonRings], bearing: Double, pitch: Double, ratio: Double, name: String) throws
        -> (edges: Int, set: Double, aliased: Double, fringes: Double) {
        let (set, parts) = scenes(rings)
        let camera = { (r: Double) -> Camera in
            var c = ReferenceImageTests.camera(ratio: r)
            c.bearing = bearing
            c.pitch = pitch
            return c
        }
        let e = try AntialiasingQualityTests.edgeErrors(set, ratio: ratio, name: "\(name), bearing \(bearing) pitch \(pitch)", camera: camera)
        let ref = try AntialiasingQualityTests.supersampled(parts, ratio: ratio, camera: camera)
        let fringes = AntialiasingQualityTests.meanEdgeError(try MapRenderer(samples: 0).render(scene: parts, camera: camera(ratio)), ref)
        print("  the same as Polygons with fringes: \(String(format: "%.2f", fringes))")
        return (e.edges, e.shader, e.aliased, fringes)
    }
}
