import Foundation
import GeoKit
import MapCamera
import MapImage
import MapScene
import Testing
@testable import MapSnapshot

/// A dot with a glyph is drawn as flat shapes (so that runs of them are stamped, as pins are)
/// where a plain dot is two ground discs: its ring and disc must look the same. Both dots'
/// points land on pixel corners (the centre of an even-sized view, and 40 px either side), so
/// neither is moved by snapping; outside the glyph's ink (radius 4.5 px and beyond) every pixel
/// of the glyph dot matches the plain dot's at the same offset within 12 levels (4 at ratio 1,
/// 9 at ratio 2 when written; a fringe of one logical px at ratio 2 instead of one device
/// pixel differs by more).
@Suite struct GlyphDotTests {
    @Test func aGlyphDotsRingAndEdgeAreAPlainDots() throws {
        let snapshotter = try MapSnapshotter()
        for ratio in [1.0, 1.5, 2] {
            for scale in [1.0, 1.5] {
                let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 10, size: ScreenSize(width: 120, height: 60), pixelRatio: ratio)
                let d = 40 * 360 / (512 * 1024.0)
                let color = Color(rgb: 0x2DA44E)
                var snap = Snapshot(camera: cam, overlays: [
                    .marker(try Marker(position: LatLng(lat: 0, lon: -d), color: color, scale: scale)),
                    .marker(try Marker(position: LatLng(lat: 0, lon: d), color: color, scale: scale, glyph: "7")),
                ], basemapStyle: nil, background: Color(rgb: 0x404040), attribution: false)
                snap.compass = false
                let image = try snapshotter.render(snap)
                // Centres in device px: (20, 30) and (100, 30) logical.
                var worst = 0, compared = 0, inked = 0
                let reach = Int((10 * scale * ratio).rounded(.up))
                for dy in -reach ..< reach {
                    for dx in -reach ..< reach {
                        let r = hypot(Double(dx) + 0.5, Double(dy) + 0.5) / ratio
                        let ax = Int(20 * ratio) + dx, bx = Int(100 * ratio) + dx, y = Int(30 * ratio) + dy
                        guard let a = image.pixel(x: ax, y: y), let b = image.pixel(x: bx, y: y) else { continue }
                        if r < 3 * scale, Int(b.r) + Int(b.g) + Int(b.b) < 150 { inked += 1 }
                        guard r >= 4.5 * scale else { continue }
                        worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                        compared += 1
                    }
                }
                #expect(compared > 100)
                #expect(worst <= 12, "ratio \(ratio) scale \(scale): a pixel of the ring or edge differs by \(worst)")
                // The glyph is drawn (near-black on green: WCAG picks the dark text).
                #expect(inked > 0, "ratio \(ratio) scale \(scale): no glyph ink")
            }
        }
    }
}
