import Foundation
import GeoKit
import MapCamera
import MapFormats
import MapScene

extension SceneLoader {
    /// Columns, arcs and extrusions of a scene document. Their fit points include, for each
    /// raised point, the ground point it hides (`raised(_:height:tilt:)`), so a fitted pitched
    /// camera keeps the tops in view.
    func overlay3D(_ s: SceneDocument.OverlaySpec, z: Int?, at: (String) -> String, tilt: (Double, Double) = (0, 0))
        throws -> (overlays: [Overlay], fitPoints: [LatLng])
    {
        switch s.type {
        case "column":
            let p = try position(s.position, at("position"))
            let height = try positive(s.height, at("height"), allowZero: true)
            let radius = try positive(s.radius ?? 20, at("radius"))
            let base = try positive(s.base ?? 0, at("base"), allowZero: true)
            let c = try color(s.color, at("color")) ?? Color(rgb: 0x2DA44E)
            let sides = s.sides ?? 24
            guard (3...64).contains(sides) else { throw SceneLoadError(at("sides"), "\(sides) is not in 3…64") }
            let column = try wrap(at("")) { () throws(SceneError) in
                try Column(position: p, height: height, radius: radius, base: base, color: c, sides: sides, zIndex: z)
            }
            return ([.column(column)], [p] + Self.raised(p, height: height, tilt: tilt))
        case "arc":
            let from = try position(s.from, at("from"))
            let to = try position(s.to, at("to"))
            let apex = try s.height.map { try positive($0, at("height"), allowZero: true) }
            let width = try positive(s.width ?? 3, at("width"))
            let c0 = try color(s.color, at("color")) ?? Color(rgb: 0x1F6FEB)
            let c1 = try color(s.toColor, at("toColor"))
            let arc = try wrap(at("")) { () throws(SceneError) in
                try Arc(from: from, to: to, apex: apex, width: width, fromColor: c0, toColor: c1, zIndex: z)
            }
            // The fit sees the ground path (heights are not fitted).
            let samples = arc.samples(count: 16)
            return (
                [.arc(arc)],
                samples.map(\.position) + samples.flatMap { Self.raised($0.position, height: $0.height, tilt: tilt) }
            )
        default:
            return try extrusions(s, z: z, at: at, tilt: tilt)
        }
    }

    /// Extrusions from `rings` or a GeoJSON `file`; heights from `heightProperty`/`baseProperty`
    /// of each feature, else `height`/`base`.
    private func extrusions(_ s: SceneDocument.OverlaySpec, z: Int?, at: (String) -> String, tilt: (Double, Double))
        throws
        -> (overlays: [Overlay], fitPoints: [LatLng])
    {
        let c = try color(s.color, at("color")) ?? Color(rgb: 0x8C959F)
        let defaultHeight = try s.height.map { try positive($0, at("height"), allowZero: true) }
        let defaultBase = try positive(s.base ?? 0, at("base"), allowZero: true)
        // Each polygon with the properties of its feature.
        var polygons: [(rings: [[LatLng]], properties: [String: JSONValue], feature: Int)] = []
        if s.rings != nil || s.file == nil {
            polygons = try polygonRings(s, at: at).map { ($0, [:], 0) }
        } else if let file = s.file {
            polygons = try readTrack(file, at("file")).polygons.map { ($0.rings, $0.properties, $0.feature) }
            guard !polygons.isEmpty else { throw SceneLoadError(at("file"), "'\(file)' has no polygon rings") }
        }
        var overlays: [Overlay] = []
        var fit: [LatLng] = []
        for poly in polygons {
            let place = s.file != nil ? "\(at("file")) feature \(poly.feature)" : at("")
            let height = try value(poly.properties, s.heightProperty, "heightProperty", place) ?? defaultHeight
            guard let height else {
                throw SceneLoadError(
                    s.heightProperty == nil ? at("height") : place,
                    "an extrusion needs a height (give height or heightProperty)")
            }
            let base = try value(poly.properties, s.baseProperty, "baseProperty", place) ?? defaultBase
            let e = try wrap(place) { () throws(SceneError) in
                try Extrusion(
                    exterior: poly.rings[0], holes: Array(poly.rings.dropFirst()), height: height,
                    base: min(base, height), color: c, zIndex: z)
            }
            overlays.append(.extrusion(e))
            let ring = Self.fitSample(poly.rings[0])
            fit += ring + ring.flatMap { Self.raised($0, height: height, tilt: tilt) }
        }
        return (overlays, fit)
    }

    /// A numeric feature property (a number or a numeric string), nil when the property is not
    /// asked for or the feature lacks it.
    private func value(_ props: [String: JSONValue], _ name: String?, _ key: String, _ place: String) throws -> Double?
    {
        guard let name, let v = props[name] else { return nil }
        let number: Double?
        switch v {
        case .number(let x): number = x
        case .string(let t): number = Double(t.trimmingCharacters(in: .whitespaces))
        case .null: return nil
        default: number = nil
        }
        guard let number, number.isFinite, number >= 0 else {
            throw SceneLoadError(place, "property '\(name)' (\(key)) is not a non-negative number")
        }
        return number
    }

    /// The ground point a point `height` metres above `p` lines up with, seen by a camera at
    /// `tilt` (bearing, pitch in degrees) looking at it along the view's axis: `height · tan(pitch)`
    /// metres from `p` towards the bearing (the top of the screen); rays to the upper half of the
    /// view are steeper, which `keepingTopsInView` corrects. Empty at pitch 0 or for a bad tilt.
    static func raised(_ p: LatLng, height: Double, tilt: (Double, Double)) -> [LatLng] {
        let (bearing, pitch) = tilt
        guard height > 0, bearing.isFinite, pitch.isFinite, pitch > 0 else { return [] }
        let d = height * tan(min(pitch, 85) * .pi / 180)
        guard d.isFinite, d < 10_000_000 else { return [] }
        let q = p.destination(bearing: bearing, distance: d)
        return q.isValid ? [q] : []
    }

    /// A fitted pitched camera zoomed out (about its centre) until the tops of columns, extrusions
    /// and arcs project inside the viewport less `padding`: a few steps of
    /// `zoom −= log2(largest offset from the centre / room)`, since screen offsets scale about as 2^zoom.
    static func keepingTopsInView(_ camera: Camera, _ overlays: [Overlay], padding: Double) -> Camera {
        guard camera.pitch > 0 else { return camera }
        var raised: [(LatLng, Double)] = []
        for o in overlays {
            switch o {
            case .column(let c): raised.append((c.position, c.height))
            case .arc(let a): raised += a.samples(count: 32).map { ($0.position, $0.height) }
            case .extrusion(let e):
                let pts = e.exterior.points
                let step = max(1, pts.count / 256)
                for k in stride(from: 0, to: pts.count, by: step) { raised.append((pts[k].latLng, e.height)) }
            default: break
            }
        }
        guard !raised.isEmpty else { return camera }
        var c = camera
        let room = (max(1, c.size.width / 2 - padding), max(1, c.size.height / 2 - padding))
        for _ in 0..<8 {
            let center = c.centerPoint
            var need = 1.0
            for (p, h) in raised {
                guard let s = c.project(p, height: h) else {
                    need = max(need, 2)
                    continue
                }
                need = max(need, abs(s.x - center.x) / room.0, abs(s.y - center.y) / room.1)
            }
            guard need > 1.001, need.isFinite else { break }
            c.zoom = max(0, c.zoom - log2(need))
            if c.zoom == 0 { break }
        }
        return c
    }

}
