import GeoKit
import MapCamera
import MapScene
import Testing
@testable import MapViewer

/// A picked building of a file of footprints (one `MultiPolygon`) glows alone, not the whole set.
@Suite struct MultiShapeHighlightTests {
    @Test func thePickedPartGlowsAlone() throws {
        let camera = Camera(center: LatLng(lat: 46, lon: 7), zoom: 14, size: ScreenSize(width: 400, height: 400))
        let rings = try (0 ..< 3).map { i in
            PolygonRings(exterior: try GeoPath(coordinates: [LatLng(lat: 46 + Double(i) * 0.001, lon: 7), LatLng(lat: 46 + Double(i) * 0.001, lon: 7.001),
                                                             LatLng(lat: 46.0005 + Double(i) * 0.001, lon: 7.001)]))
        }
        let set = MultiPolygon(polygons: PolygonSet(rings), fill: Color(rgb: 0x8A6D3B), zIndex: 120)
        let glow = ViewSession.highlight(.multiPolygon(set), part: 2, camera: camera)
        #expect(glow.count == 1)
        guard case .polygon(let p) = glow.first else { Issue.record("\(glow)"); return }
        #expect(p.exterior === rings[2].exterior && p.fill == .transparent && p.stroke != nil && p.zIndex == 121)
        // Without a part (or with one out of range): the set's outline, every part.
        guard case .multiPolygon(let all) = ViewSession.highlight(.multiPolygon(set), part: 7, camera: camera).first else {
            Issue.record("no set highlight"); return
        }
        #expect(all.polygons === set.polygons)
        // A line of a set likewise.
        let lines = MultiPolyline(paths: PathSet(rings.map(\.exterior)), style: LineStyle(width: .pixels(3)))
        guard case .polyline(let l) = ViewSession.highlight(.multiPolyline(lines), part: 1, camera: camera).first else {
            Issue.record("no line highlight"); return
        }
        #expect(l.path === rings[1].exterior && l.style.width == .pixels(11))
    }

    @Test func aLoggedPickNamesThePart() {
        var pick = Pick(kind: .polygon, overlay: 0, position: LatLng(lat: 48.8593, lon: 2.36523), screenDistance: 0)
        #expect(!ViewerReport.pick(pick).jsonLine.contains("part"))
        pick.part = 4150
        #expect(ViewerReport.pick(pick).jsonLine == #"{"pick": {"kind": "polygon", "overlay": 0, "part": 4150, "lat": 48.8593, "lon": 2.36523}}"#)
    }
}
