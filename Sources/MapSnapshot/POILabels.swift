import Foundation
import GeoKit
import MapCamera
import MapScene
import MapTiles

/// Points of interest of vector tiles for one view: each a Maki icon in its category's colour
/// with its name beside it (right, else left), placed by importance where neither meets a
/// place name, a marker's label, a street name or another POI; a POI whose name does not fit
/// is left out, icon and all.
enum POILabels {
    /// The icon's box side and the name's size, logical px.
    static let iconSize = 14.0, textSize = 10.5
    /// Px between the icon's centre and its name.
    static let gap = 9.0

    /// Places `pois` of the tiers in `tiers` for `camera`, landmarks first, then by the tiles'
    /// rank and name; `boxes` grows by each placed icon and name.
    static func place(_ pois: [VectorPOI], tiers: ClosedRange<Int>, camera: Camera, style: VectorTileStyle,
                      labels: CairoLabelRasterizer, boxes: inout LabelBoxes) -> [PlaceLabel] {
        let zoom = camera.zoom
        let w = camera.size.width, h = camera.size.height
        let halo = Color(style.labels.labelHalo)
        var shown: [(poi: VectorPOI, at: ScreenPoint)] = []
        let projector = camera.projector
        for poi in pois where tiers.contains(poi.tier) && zoom >= poi.minZoom {
            guard let s = projector.project(poi.point), s.x >= 0, s.y >= 0, s.x <= w, s.y <= h else { continue }
            shown.append((poi, s))
        }
        shown.sort { a, b in
            (a.poi.tier, a.poi.rank, a.poi.name, a.at.x, a.at.y) < (b.poi.tier, b.poi.rank, b.poi.name, b.at.x, b.at.y)
        }
        var out: [PlaceLabel] = []
        let half = iconSize / 2 + 1
        for (poi, s) in shown {
            let colour = Color(style.poiColors[poi.category] ?? style.labels.labelText)
            // (In the world copy its point is in: `latLng` does not wrap the longitude.)
            let position = poi.point.latLng
            if poi.icon.isEmpty {
                // A water name alone, centred on its point.
                guard var label = try? Label(position: position, text: poi.name,
                                             size: poi.tier == 0 ? 13 : 11.5, color: colour, haloColor: halo,
                                             haloWidth: style.labels.labelHaloWidth * 0.75),
                      let size = labels.labelSize(label, pixelRatio: camera.pixelRatio) else { continue }
                // An area's name only where the area is wide enough for it on screen.
                if let e = poi.extent, e.width * camera.worldSize < size.width + 8 || e.height * camera.worldSize < 2 * size.height {
                    continue
                }
                let box: LabelBox = (s.x - size.width / 2, s.y - size.height / 2, s.x + size.width / 2, s.y + size.height / 2)
                guard inView(box, w, h), !boxes.meets(box) else { continue }
                boxes.append(box)
                label.worldCopies = false
                out.append(PlaceLabel(dot: nil, label: label))
                continue
            }
            let iconBox: LabelBox = (s.x - half, s.y - half, s.x + half, s.y + half)
            guard inView(iconBox, w, h), !boxes.meets(iconBox) else { continue }
            guard var label = try? Label(position: position, text: poi.name, size: textSize, color: colour, haloColor: halo,
                                         haloWidth: style.labels.labelHaloWidth * 0.75, anchor: (0, 0.5), offset: (gap, 0)),
                  let size = labels.labelSize(label, pixelRatio: camera.pixelRatio),
                  let image = labels.rasterizeSymbol(poi.icon, size: iconSize, color: colour, pixelRatio: camera.pixelRatio)
            else { continue }
            // The name on the icon's right, else its left.
            let right: LabelBox = (s.x + gap - 1, s.y - size.height / 2, s.x + gap + size.width + 1, s.y + size.height / 2)
            let left: LabelBox = (s.x - gap - size.width - 1, s.y - size.height / 2, s.x - gap + 1, s.y + size.height / 2)
            let textBox: LabelBox
            if inView(right, w, h), !boxes.meets(right) {
                textBox = right
            } else if inView(left, w, h), !boxes.meets(left) {
                textBox = left
                label.anchor = (1, 0.5)
                label.offset = (-gap, 0)
            } else {
                continue
            }
            boxes += [iconBox, textBox]
            label.worldCopies = false
            var icon = Sprite(position: position, image: image)
            icon.worldCopies = false
            out.append(PlaceLabel(dot: nil, label: label, icon: icon))
        }
        return out
    }

    static func inView(_ b: LabelBox, _ w: Double, _ h: Double) -> Bool { b.0 >= 0 && b.1 >= 0 && b.2 <= w && b.3 <= h }
}
