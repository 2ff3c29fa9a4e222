import Foundation
import GeoKit
import MapFormats
import MapScene

extension SceneLoader {
    /// Columns, arcs and extrusions of a scene document.
    func overlay3D(_ s: SceneDocument.OverlaySpec, z: Int?, at: (String) -> String) throws
        -> (overlays: [Overlay], fitPoints: [LatLng])
    {
        switch s.type {
        case "column":
            let p = try position(s.position, at("position"))
            let height = try positive(s.height, at("height"), allowZero: true)
            let radius = try positive(s.radius ?? 20, at("radius"))
            let base = try positive(s.base ?? 0, at("base"), allowZero: true)
            let c = try color(s.color, at("color")) ?? Color(rgb: 0x2DA44E)
            let column = try wrap(at("")) { () throws(SceneError) in
                try Column(position: p, height: height, radius: radius, base: base, color: c, zIndex: z)
            }
            return ([.column(column)], [p])
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
            return ([.arc(arc)], arc.samples(count: 16).map(\.position))
        default:
            return try extrusions(s, z: z, at: at)
        }
    }

    /// Extrusions from `rings` or a GeoJSON `file`; heights from `heightProperty`/`baseProperty`
    /// of each feature, else `height`/`base`.
    private func extrusions(_ s: SceneDocument.OverlaySpec, z: Int?, at: (String) -> String) throws
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
            let track = try readTrack(file, at("file"))
            var lastFeature = -1
            for part in track.parts where part.kind == .ring && part.points.count >= 3 {
                let ring = part.points.map(\.coordinate)
                if part.feature == lastFeature, let outer = polygons.last?.rings.first,
                    Self.ringContains(outer, ring[0])
                {
                    polygons[polygons.count - 1].rings.append(ring)
                } else {
                    polygons.append(([ring], part.properties, part.feature))
                }
                lastFeature = part.feature
            }
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
            fit += Self.fitSample(poly.rings[0])
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

    private static func ringContains(_ ring: [LatLng], _ p: LatLng) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.lat > p.lat) != (b.lat > p.lat),
                p.lon < (b.lon - a.lon) * (p.lat - a.lat) / (b.lat - a.lat) + a.lon
            {
                inside.toggle()
            }
            j = i
        }
        return inside
    }
}
