import Foundation
import GeoKit
import MapScene

/// Any overlay with animated style values: opacity, colour, width, radius scale, position, and
/// for routes the drawn part (progress) and marching dashes. Unset properties keep the
/// overlay's own values; a property that does not apply to the overlay's kind is ignored.
public struct AnimatedOverlay: AnimatedLayer {
    /// The overlay as it is without animation.
    public var base: Overlay
    /// Multiplies every colour's alpha (0…1).
    public var opacity: Animation<Double>?
    /// The main colour: a line's, a fill's, a marker's, a label's text, a solid's.
    public var color: Animation<Color>?
    /// Line width (in the line's own unit), or the rim / outline width in pixels.
    public var width: Animation<Double>?
    /// Multiplies a circle's radius.
    public var radiusScale: Animation<Double>?
    /// Moves a circle, marker, label, sprite or column.
    public var position: Animation<LatLng>?
    /// For routes: the fraction of the length drawn from the start (0…1), with the route measured.
    public var progress: (route: RoutePath, fraction: Animation<Double>)?
    /// For routes: logical pixels per second the dashes march forwards.
    public var dashSpeed: Double

    /// Wraps an overlay; set the animated properties afterwards.
    public init(_ base: Overlay) {
        self.base = base
        dashSpeed = 0
    }

    public func overlays(at t: Double) -> [Overlay] {
        let o = opacity.map { min(max($0.value(at: t), 0), 1) }
        let c = color?.value(at: t)
        let w = width.map { max($0.value(at: t), 0) }
        let p = position?.value(at: t)
        func fade(_ color: Color) -> Color { o.map { color.withOpacity($0) } ?? color }
        // A line's colour, casing, width (in its unit) and marching dashes; an area's fill, outline and its width.
        func animate(_ style: inout LineStyle) {
            if let c { style.color = c }
            style.color = fade(style.color)
            style.casingColor = style.casingColor.map(fade)
            if let w {
                style.width = switch style.width {
                case .pixels: .pixels(w)
                case .meters: .meters(w)
                }
            }
            if dashSpeed != 0, dashSpeed.isFinite, t.isFinite { style.dashOffset += dashSpeed * t }
        }
        func animate(fill: inout Color, stroke: inout Color?, width: inout Double) {
            if let c { fill = c }
            fill = fade(fill)
            stroke = stroke.map(fade)
            if let w { width = w }
        }
        switch base {
        case .polyline(var line):
            animate(&line.style)
            if let progress {
                let f = min(max(progress.fraction.value(at: t), 0), 1)
                return progress.route.pieces(from: 0, to: f * progress.route.length, style: line.style,
                                             zIndex: line.zIndex).map { .polyline($0) }
            }
            return [.polyline(line)]
        case .polygon(var poly):
            animate(fill: &poly.fill, stroke: &poly.stroke, width: &poly.strokeWidth)
            return [.polygon(poly)]
        case .multiPolyline(var set):
            animate(&set.style)
            return [.multiPolyline(set)]
        case .multiPolygon(var set):
            animate(fill: &set.fill, stroke: &set.stroke, width: &set.strokeWidth)
            return [.multiPolygon(set)]
        case .circle(var circle):
            if let c { circle.fill = c }
            circle.fill = fade(circle.fill)
            circle.stroke = circle.stroke.map(fade)
            if let w { circle.strokeWidth = w }
            if let s = radiusScale?.value(at: t) {
                let k = s.isFinite ? max(s, 0) : 1
                circle.radius = switch circle.radius {
                case .meters(let m): .meters(min(m * k, Circle.maxRadiusMeters))
                case .pixels(let px): .pixels(min(px * k, 10_000))
                }
            }
            if let p, p.isValid { circle.center = p }
            return [.circle(circle)]
        case .marker(var marker):
            if let c { marker.color = c }
            if let o { marker.opacity *= o }
            if let p, p.isValid { marker.position = p }
            return [.marker(marker)]
        case .cluster(var cluster):
            // Only the discs' colour animates (the hierarchy is built once).
            if let c { cluster.color = c }
            cluster.color = fade(cluster.color)
            return [.cluster(cluster)]
        case .label(var label):
            if let c { label.color = c }
            label.color = fade(label.color)
            label.haloColor = label.haloColor.map(fade)
            if let p, p.isValid { label.position = p }
            return [.label(label)]
        case .sprite(var sprite):
            if let p, p.isValid { sprite.position = p }
            return [.sprite(sprite)]
        case .column(var column):
            if let c { column.color = c }
            column.color = fade(column.color)
            if let p, p.isValid { column.position = p }
            return [.column(column)]
        case .extrusion(var extrusion):
            if let c { extrusion.color = c }
            extrusion.color = fade(extrusion.color)
            return [.extrusion(extrusion)]
        case .arc(var arc):
            if let c { arc.fromColor = c; arc.toColor = c }
            arc.fromColor = fade(arc.fromColor)
            arc.toColor = fade(arc.toColor)
            if let w { arc.width = w }
            return [.arc(arc)]
        case .image(var image):
            if let o { image.opacity *= o }
            return [.image(image)]
        }
    }
}
