import Foundation
import GeoKit
import MapCamera
import MapScene
import MapSnapshot
import MapTiles

extension DemoGallery {
    /// Metropolitan populations in millions (UN World Urbanization Prospects 2018, rounded),
    /// in the order of `cities`.
    static let populations: [Double] = [9.0, 18.8, 37.4, 4.9, 21.7, 4.5, 5.8, 12.5]

    /// A pitched world: arcs rising from London to seven cities and columns whose height is the
    /// city's population (100 km per million), seen from the Atlantic with the sky above.
    static func worldArcs3D(scale: Double) throws -> Snapshot {
        var overlays: [Overlay] = []
        let london = cities[0].1
        let ends = [Color(rgb: 0xD1242F), Color(rgb: 0x8250DF), Color(rgb: 0xBF8700), Color(rgb: 0x1A7F37)]
        for (i, (_, city)) in cities.enumerated() where i > 0 {
            overlays.append(
                .arc(
                    try Arc(
                        from: london, to: city, width: 2.5, fromColor: Color(rgb: 0x0969DA),
                        toColor: ends[i % ends.count])))
        }
        for (i, (_, p)) in cities.enumerated() {
            overlays.append(
                .column(
                    try Column(
                        position: p, height: populations[i] * 100_000, radius: 90_000,
                        color: Color(rgb: 0xFB8F44))))
        }
        let camera = Camera(
            center: LatLng(lat: 25, lon: -20), zoom: 1.6, bearing: 10, pitch: 55,
            size: ScreenSize(width: 1024, height: 640), pixelRatio: scale)
        return Snapshot(camera: camera, overlays: overlays, basemapStyle: .light, compass: true)
    }

    /// A pitched city block plan with streets (synthetic buildings on a street grid in Zürich's centre, one with
    /// a courtyard), a route along the streets and columns marking three stops, seen at 60°.
    static func city3D(scale: Double) throws -> Snapshot {
        let center = LatLng(lat: 47.3726, lon: 8.5388)
        let ws = 512 * pow(2, 16.0)
        let c = MapPoint(center)
        func at(_ dx: Double, _ dy: Double) -> LatLng { MapPoint(x: c.x + dx / ws, y: c.y + dy / ws).latLng }
        func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> [LatLng] {
            [at(x, y), at(x + w, y), at(x + w, y + h), at(x, y + h)]
        }
        var overlays: [Overlay] = []
        // Streets between the blocks.
        let street = LineStyle(width: .pixels(7), color: .white, casingColor: Color(rgb: 0xD0D7DE), casingWidth: 1)
        for k in -4...3 {
            let v = Double(k) * 70 + 35
            overlays.append(.polyline(try Polyline(coordinates: [at(v, -300), at(v, 250)], style: street)))
            overlays.append(.polyline(try Polyline(coordinates: [at(-300, v), at(300, v)], style: street)))
        }
        let palette = [0xD0D7DE, 0xAFB8C1, 0xC8D1DA, 0xB6C2CF]
        // A 7 × 6 grid of blocks 70 px apart (streets 16 px), heights from a fixed hash.
        for gx in -3...3 {
            for gy in -3...2 {
                let x = Double(gx) * 70 - 27, y = Double(gy) * 70 - 27
                let hash = (gx * 7919 + gy * 104_729 + 1_000_003) % 97
                let height = 9 + Double(hash % 9) * 4 + (hash % 13 == 0 ? 45 : 0)
                let color = Color(rgb: UInt32(palette[(hash / 7) % palette.count]))
                if gx == 1 && gy == 0 {
                    overlays.append(
                        .extrusion(
                            try Extrusion(
                                exterior: box(x, y, 54, 54), holes: [box(x + 17, y + 17, 20, 20)],
                                height: 30, color: Color(rgb: 0xC69026))))
                } else if (gx + gy) % 3 == 0 {
                    overlays.append(
                        .extrusion(try Extrusion(exterior: box(x, y, 24, 54), height: height, color: color)))
                    overlays.append(
                        .extrusion(try Extrusion(exterior: box(x + 30, y, 24, 54), height: height * 0.6, color: color)))
                } else {
                    overlays.append(
                        .extrusion(try Extrusion(exterior: box(x, y, 54, 54), height: height, color: color)))
                }
            }
        }
        let route = [at(-245, 175), at(105, 175), at(105, -105), at(245, -105)]
        overlays.append(
            .polyline(
                try Polyline(
                    coordinates: route,
                    style: LineStyle(
                        width: .pixels(6), color: Color(rgb: 0x0969DA),
                        casingColor: .white, casingWidth: 1.5), zIndex: 350)))
        for (i, p) in [at(-245, 175), at(105, 175), at(245, -105)].enumerated() {
            overlays.append(
                .column(try Column(position: p, height: 40 + Double(i) * 25, radius: 6, color: Color(rgb: 0xCF222E))))
        }
        overlays.append(
            .marker(try Marker(position: at(245, -105), style: .pin, color: Color(rgb: 0xCF222E), label: "Finish")))
        let camera = Camera(
            center: center, zoom: 16.6, bearing: 30, pitch: 60,
            size: ScreenSize(width: 1024, height: 768), pixelRatio: scale)
        return Snapshot(camera: camera, overlays: overlays, basemapStyle: .light, scaleBar: false, compass: true)
    }
}
