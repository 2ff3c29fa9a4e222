import Foundation
import MapCamera
import MapRender
import MapScene

/// The labels a fitted view keeps inside its padding: the markers' labels, where the renderer
/// places them (on the marker's right or left, or left out: `MarkerLabelPlacement`), and text
/// labels off their points.
struct FittedLabels {
    /// The overlays, for the marker labels' placement; nil when no marker has a label.
    private var markers: Scene?
    /// Text labels (`Overlay.label`).
    private var texts: [Label] = []

    init() {}

    init(overlays: [Overlay], mayOverlap: Bool) {
        if overlays.contains(where: \.hasMarkerLabel) {
            var scene = Scene(overlays: overlays)
            scene.labelsMayOverlap = mayOverlap
            markers = scene
        }
        texts = overlays.compactMap { if case .label(let l) = $0 { l } else { nil } }
    }

    var isEmpty: Bool { markers == nil && texts.isEmpty }

    /// How far (logical px) the labels reach past the camera's viewport less `padding` on each
    /// side (negative: that much room left). Marker labels are placed and sized by `measure` as
    /// the renderer will at the camera's pixel ratio. A text label's box is first bounded from its
    /// character count (no glyph is wider than 1.2 em here); only one that may cross the padding
    /// is measured (a label too large to draw has no size: it is not drawn, so not fitted).
    func overflow(camera: Camera, padding: Double, measure: CairoLabelRasterizer) -> EdgeInsets {
        var over = EdgeInsets(top: -.infinity, left: -.infinity, bottom: -.infinity, right: -.infinity)
        let w = camera.size.width, h = camera.size.height
        func reach(_ b: (minX: Double, minY: Double, maxX: Double, maxY: Double)) {
            over.left = max(over.left, padding - b.minX)
            over.top = max(over.top, padding - b.minY)
            over.right = max(over.right, b.maxX - (w - padding))
            over.bottom = max(over.bottom, b.maxY - (h - padding))
        }
        if let markers {
            for b in MarkerLabelPlacement(markers, camera: camera, measure: measure).boxes { reach(b) }
        }
        for l in texts {
            guard let s = camera.project(l.position), s.x.isFinite, s.y.isFinite else { continue }
            let lines = l.text.split(separator: "\n", omittingEmptySubsequences: false)
            let halo = l.haloColor == nil ? 0 : max(0, l.haloWidth)
            var b = l.box(atX: s.x, y: s.y, width: Double(lines.map(\.count).max() ?? 0) * l.size * 1.2 + 2 * halo + 2,
                          height: Double(lines.count) * l.size * 1.2 + 2 * halo + 2)
            if b.minX < padding || b.minY < padding || b.maxX > w - padding || b.maxY > h - padding {
                guard let m = measure.labelSize(l, pixelRatio: camera.pixelRatio) else { continue }
                b = l.box(atX: s.x, y: s.y, width: m.width, height: m.height)
            }
            reach(b)
        }
        return over
    }
}
