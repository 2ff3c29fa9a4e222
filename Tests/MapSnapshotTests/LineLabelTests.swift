import Canvas2D
import Foundation
import GeoKit
import MapCamera
import MapImage
import MapScene
@testable import MapSnapshot
import MapTiles
import Testing

/// Names along roads and rivers: laid out against hand-derived geometry (a straight line, a
/// circle's arc, a corner), drawn in turned strips that reproduce the upright label, and drawn
/// along GDAL's fixture road where its GeoJSON coordinates put it.
@Suite struct LineLabelTests {
    /// A made-up label 40 px wide and 14 high, four characters of 10 px.
    let edges = [0.0, 10, 20, 30, 40]

    @Test func aLeftwardLineIsReadLeftToRight() throws {
        // Drawn from x 300 to 100: the name is read back along it, first character on the left.
        let along = LineLabels.Along([ScreenPoint(x: 300, y: 100), ScreenPoint(x: 100, y: 100)])
        let laid = try #require(LineLabels.lay(edges: edges, width: 40, height: 14, at: 100, along: along, view: (400, 200)))
        // On a straight line the four characters are one strip, the whole image, centred.
        #expect(laid.anchor == ScreenPoint(x: 200, y: 100))
        #expect(laid.pieces == [LabelPiece(x0: 0, x1: 40, dx: 0, dy: 0, angle: 0)])
        // Each character's box: 10 × 14 px about its centre, a pixel of padding.
        #expect(laid.boxes[0] == (179, 92, 191, 108))
        // Too near the line's end, or off the view: not laid.
        #expect(LineLabels.lay(edges: edges, width: 40, height: 14, at: 15, along: along, view: (400, 200)) == nil)
        #expect(LineLabels.lay(edges: edges, width: 40, height: 14, at: 100, along: along, view: (400, 105)) == nil)
        // Clear of boxes already taken: the last character's box is x 209…221; a box ending at
        // x 208 leaves it, one reaching x 210 stops it (the layout gives up there).
        let beside = LabelBoxes([(150, 80, 178, 120), (222, 80, 260, 120)])
        #expect(LineLabels.lay(edges: edges, width: 40, height: 14, at: 100, along: along, view: (400, 200),
                               clearOf: beside)?.boxes.count == 4)
        for box in [(150.0, 80.0, 180.0, 120.0), (210, 106, 215, 130), (195, 0, 196, 93)] {
            #expect(LineLabels.lay(edges: edges, width: 40, height: 14, at: 100, along: along, view: (400, 200),
                                   clearOf: LabelBoxes([box])) == nil, "\(box)")
        }
    }

    @Test func alongAnArcEachCharacterFollowsTheTangent() throws {
        // The top of a circle of radius 200 about (200, 300), left to right in 1° steps.
        let r = 200.0
        let points = stride(from: 200.0, through: 340, by: 1).map { d in
            ScreenPoint(x: 200 + r * cos(d * .pi / 180), y: 300 + r * sin(d * .pi / 180))
        }
        let along = LineLabels.Along(points)
        let laid = try #require(LineLabels.lay(edges: edges, width: 40, height: 14, at: along.length / 2, along: along,
                                               view: (400, 400)))
        #expect(abs(laid.anchor.x - 200) < 1e-6 && abs(laid.anchor.y - 100) < 1e-6)
        #expect(laid.pieces.count == 4, "2.9° from one character to the next: four strips")
        for p in laid.pieces {
            // On the circle (the 1° chords sag 0.008 px), turned to the tangent there: a
            // character whose middle lies `a` px along the arc from the top is turned a / r rad.
            let x = laid.anchor.x + p.dx, y = laid.anchor.y + p.dy
            #expect(abs(hypot(x - 200, y - 300) - r) < 0.02)
            let a = (p.x0 + p.x1) / 2 - 20
            #expect(abs(p.angle - a / r * 180 / .pi) < 0.05, "\(p.angle)")
        }
        // A circle of radius 20 turns 28.6° from one 10-px character to the next: too much.
        let tight = LineLabels.Along(stride(from: 180.0, through: 360, by: 2).map { d in
            ScreenPoint(x: 200 + 20 * cos(d * .pi / 180), y: 300 + 20 * sin(d * .pi / 180))
        })
        #expect(LineLabels.lay(edges: edges, width: 40, height: 14, at: tight.length / 2, along: tight, view: (400, 400)) == nil)
        // A right-angled corner under the name: not laid; 60 px on, on the straight, it is.
        let corner = LineLabels.Along([ScreenPoint(x: 100, y: 100), ScreenPoint(x: 200, y: 100), ScreenPoint(x: 200, y: 200)])
        #expect(LineLabels.lay(edges: edges, width: 40, height: 14, at: 100, along: corner, view: (400, 400)) == nil)
        let down = try #require(LineLabels.lay(edges: edges, width: 40, height: 14, at: 160, along: corner, view: (400, 400)))
        #expect(down.pieces.allSatisfy { abs($0.angle - 90) < 1e-9 })
    }

    /// A view of 200 × 100 px centred on 0,0 at zoom 3, with one label.
    func render(_ label: Label) throws -> Bitmap {
        let camera = Camera(center: LatLng(lat: 0, lon: 0), zoom: 3, size: ScreenSize(width: 200, height: 100))
        let snap = Snapshot(camera: camera, overlays: [.label(label)], basemapStyle: nil, background: .white, attribution: false)
        return try MapSnapshotter().render(snap)
    }

    @Test func stripsReproduceTheUprightLabelAndTurnIt() throws {
        let upright = try Label(position: LatLng(lat: 0, lon: 0), text: "Fig 47", size: 16)
        let rasterizer = CairoLabelRasterizer()
        let w = try #require(rasterizer.labelSize(upright, pixelRatio: 1)).width
        let edges = try #require(rasterizer.characterEdges(upright))
        #expect(edges.count == 7 && edges.first == 0 && edges.last == w)
        #expect(zip(edges, edges.dropFirst()).allSatisfy { $0 < $1 })
        // The whole image as one strip, unturned, centred on the position (not snapped to the
        // pixel grid as an upright label is: within the blur of a half-pixel shift of it).
        var whole = upright
        whole.pieces = [LabelPiece(x0: 0, x1: w, dx: 0, dy: 0, angle: 0)]
        let one = try render(whole), plain = try render(upright)
        #expect(try maxDifference(one, plain) < 160)
        #expect(try maxDifference(one, render(try Label(position: LatLng(lat: 0, lon: 0), text: " ", size: 16))) > 100)
        // Each character a strip at its own place, unturned: the same image.
        var cut = upright
        cut.pieces = zip(edges, edges.dropFirst()).map { LabelPiece(x0: $0, x1: $1, dx: ($0 + $1) / 2 - w / 2, dy: 0, angle: 0) }
        let cutDifference = try maxDifference(render(cut), one)
        #expect(cutDifference <= 2, "\(cutDifference)")
        // The whole image turned half a turn about the position: the same image rotated 180°
        // about the view's centre (100, 50).
        var turned = whole
        turned.pieces = [LabelPiece(x0: 0, x1: w, dx: 0, dy: 0, angle: 180)]
        let t = try render(turned)
        var worst = 0
        for y in 0 ..< 100 {
            for x in 0 ..< 200 {
                let a = t.pixel(x: x, y: y)!, b = one.pixel(x: 199 - x, y: 99 - y)!
                let dr = abs(Int(a.r) - Int(b.r)), dg = abs(Int(a.g) - Int(b.g)), db = abs(Int(a.b) - Int(b.b))
                worst = max(worst, dr, dg, db)
            }
        }
        #expect(worst <= 2, "\(worst)")
        #expect(try maxDifference(t, one) > 100, "the text was turned")
    }

    func maxDifference(_ a: Bitmap, _ b: Bitmap) throws -> Int {
        var worst = 0
        for (p, q) in zip(a.pixels, b.pixels) { worst = max(worst, abs(Int(p) - Int(q))) }
        return worst
    }

    @Test func placeNamesAndOtherBoxesComeFirst() throws {
        let camera = Camera(center: LatLng(lat: 0, lon: 0), zoom: 16, size: ScreenSize(width: 600, height: 200))
        let west = try #require(camera.unproject(ScreenPoint(x: 20, y: 100))), east = try #require(camera.unproject(ScreenPoint(x: 580, y: 100)))
        let line = VectorTileContent.NamedLine(name: "Long Street", names: [:], kind: .minorRoad,
                                               points: [MapPoint(west), MapPoint(east)],
                                               square: MapRect(origin: MapPoint(x: 0, y: 0), width: 1, height: 1))
        var boxes = LabelBoxes()
        let placed = LineLabels.place([line], camera: camera, style: .light, labels: CairoLabelRasterizer(), boxes: &boxes)
        // 560 px of street: two names, 280 px apart, centred on 160 and 440 px.
        #expect(placed.count == 2)
        let xs = placed.compactMap { camera.project($0.label.position)?.x }.sorted()
        #expect(xs.count == 2 && abs(xs[0] - 160) < 0.5 && abs(xs[1] - 440) < 0.5, "\(xs)")
        #expect(!boxes.isEmpty)
        // Panned, zoomed a little, turned and tilted, the names stay where they were on the map
        // (the same positions, so their fades carry on).
        let moved = Camera(center: try #require(camera.unproject(ScreenPoint(x: 330, y: 110))), zoom: 16.2, bearing: 8, pitch: 20,
                           size: ScreenSize(width: 600, height: 200))
        var fresh = LabelBoxes()
        let again = LineLabels.place([line], camera: moved, style: .light, labels: CairoLabelRasterizer(), boxes: &fresh)
        #expect(again.count == 2)
        #expect(Set(again.map { "\($0.key.lat),\($0.key.lon)" }) == Set(placed.map { "\($0.key.lat),\($0.key.lon)" }))
        // A box over the street's west half (a place name) leaves the east name only.
        var taken = LabelBoxes([(0, 0, 300, 200)])
        let east1 = LineLabels.place([line], camera: camera, style: .light, labels: CairoLabelRasterizer(), boxes: &taken)
        #expect(east1.count == 1 && abs((camera.project(east1[0].label.position)?.x ?? 0) - 440) < 0.5)
        // A street from 300 px west of the view to 150 px into it: its ideal centre (225 px
        // along, x −75) is off the view, so the name slides to the nearest candidate that fits
        // (candidates 75 px apart at 37.5, 112.5, … 412.5 px along, x −262.5 … 112.5: the name,
        // under 70 px wide, fits first at x 37.5).
        var sliding = line
        sliding.points = [MapPoint(try #require(camera.unproject(ScreenPoint(x: -300, y: 100)))),
                          MapPoint(try #require(camera.unproject(ScreenPoint(x: 150, y: 100))))]
        var free = LabelBoxes()
        let slid = LineLabels.place([sliding], camera: camera, style: .light, labels: CairoLabelRasterizer(), boxes: &free)
        let nameWidth = try #require(CairoLabelRasterizer().labelSize(try Label(position: LatLng(lat: 0, lon: 0), text: "Long Street",
                                                                                size: 10.5, haloWidth: 1.5), pixelRatio: 1)).width
        #expect(nameWidth < 70 && nameWidth > 40)
        #expect(slid.count == 1 && abs((camera.project(slid[0].label.position)?.x ?? 0) - 37.5) < 0.5,
                "\(slid.map { camera.project($0.label.position) })")
        // Below the zoom a minor road is named at (15), none.
        var none = LabelBoxes()
        let far = Camera(center: LatLng(lat: 0, lon: 0), zoom: 14.9, size: ScreenSize(width: 600, height: 200))
        #expect(LineLabels.place([line], camera: far, style: .light, labels: CairoLabelRasterizer(), boxes: &none).isEmpty)
        // From 15 on (MapLibre's Protomaps and OSM Bright styles), named: 280 px of street, one name.
        var fifteen = LabelBoxes()
        let at15 = Camera(center: LatLng(lat: 0, lon: 0), zoom: 15, size: ScreenSize(width: 600, height: 200))
        #expect(LineLabels.place([line], camera: at15, style: .light, labels: CairoLabelRasterizer(), boxes: &fifteen).count == 1)
        // A square elsewhere (a neighbouring tile's buffer holds the line): not this tile's to name.
        var other = line
        other.square = MapRect(origin: MapPoint(x: 0.6, y: 0.6), width: 0.1, height: 0.1)
        #expect(LineLabels.place([other], camera: camera, style: .light, labels: CairoLabelRasterizer(), boxes: &none).isEmpty)
    }

    @Test func piecesOfAStreetJoinEndToEnd() {
        func line(_ name: String, _ xs: [Double]) -> VectorTileContent.NamedLine {
            VectorTileContent.NamedLine(name: name, names: [:], kind: .minorRoad, points: xs.map { MapPoint(x: $0, y: 0.5) },
                                        square: MapRect(origin: MapPoint(x: 0, y: 0), width: 1, height: 1))
        }
        // Three ways of one street, one drawn the other way round, and another street.
        let joined = VectorTileContent.joined([line("A", [0.1, 0.2]), line("B", [0.2, 0.3]), line("A", [0.3, 0.2]),
                                               line("A", [0.3, 0.4])])
        let a = joined.filter { $0.name == "A" }
        #expect(a.count == 1)
        let xs = a.first?.points.map(\.x) ?? []
        #expect(xs == [0.1, 0.2, 0.3, 0.4] || xs == [0.4, 0.3, 0.2, 0.1], "\(xs)")
        #expect(joined.filter { $0.name == "B" }.count == 1)
        // Where the street forks, the chain carries on straight; the branch stays apart.
        let branch = VectorTileContent.NamedLine(name: "A", names: [:], kind: .minorRoad,
                                                 points: [MapPoint(x: 0.2, y: 0.5), MapPoint(x: 0.15, y: 0.45)],
                                                 square: MapRect(origin: MapPoint(x: 0, y: 0), width: 1, height: 1))
        let fork = VectorTileContent.joined([line("A", [0.1, 0.2]), branch, line("A", [0.2, 0.3])])
        #expect(fork.count == 2)
        let long = fork.max { $0.points.count < $1.points.count }?.points.map(\.x) ?? []
        #expect(long == [0.1, 0.2, 0.3] || long == [0.3, 0.2, 0.1], "\(long)")
    }

    @Test func theSchemasNamedLines() {
        func value(_ s: String) -> VectorTile.Value { .string(s) }
        // Protomaps v4 roads, Shortbread's street labels, OpenMapTiles' names, a river.
        let v4 = VectorTileSchema.lineLabel(layer: "roads", properties: ["kind": value("major_road"), "name": value("Via Roma"),
                                                                       "name:en": value("Rome Street")])
        #expect(v4?.name == "Via Roma" && v4?.kind == .majorRoad && v4?.names["en"] == "Rome Street")
        // Named in the language asked for (a regional code falls back), else locally.
        if let v4 {
            let line = VectorTileContent.NamedLine(name: v4.name, names: v4.names, kind: v4.kind, points: [],
                                                   square: MapRect(origin: MapPoint(x: 0, y: 0), width: 1, height: 1))
            #expect(line.named(in: "en-GB").name == "Rome Street" && line.named(in: "fr").name == "Via Roma")
        }
        #expect(VectorTileSchema.lineLabel(layer: "street_labels", properties: ["kind": value("residential"), "name": value("Elm St")])?.kind
            == .minorRoad)
        #expect(VectorTileSchema.lineLabel(layer: "transportation_name", properties: ["class": value("motorway"), "name": value("A1")])?.kind
            == .motorway)
        #expect(VectorTileSchema.lineLabel(layer: "waterway", properties: ["class": value("river"), "name": value("Arno")])?.kind == .river)
        // Unnamed roads, railways and borders are not named.
        #expect(VectorTileSchema.lineLabel(layer: "roads", properties: ["kind": value("minor_road")]) == nil)
        #expect(VectorTileSchema.lineLabel(layer: "roads", properties: ["kind": value("rail"), "name": value("Line 1")]) == nil)
        #expect(VectorTileSchema.lineLabel(layer: "boundaries", properties: ["admin_level": .uint(2), "name": value("X")]) == nil)
    }

    @Test func theFixtureRoadIsNamedAlongItsLine() throws {
        let archive = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../MapTilesTests/Fixtures/vector/vector-fixture.mbtiles").standardized.path
        func render(zoom: Double, labels: Bool = true, style: VectorTileStyle = .light) throws -> (Bitmap, Camera) {
            let layer = TileLayer(source: try MBTilesSource(path: archive))
            layer.vectorStyle = style
            let camera = Camera(center: LatLng(lat: 46.03, lon: 7.01), zoom: zoom, size: ScreenSize(width: 600, height: 300))
            var snap = Snapshot(camera: camera, basemapStyle: nil, background: .white, attribution: false)
            snap.tileLayers = [layer]
            snap.tileWait = 10
            snap.placeLabels = labels
            return (try MapSnapshotter().render(snap), camera)
        }
        // "Lake Road" (primary) runs 6.99,46.03 → 7.01,46.03 → 7.028,46.031 in the GeoJSON.
        let (image, camera) = try render(zoom: 15)
        let road = try [(46.03, 6.99), (46.03, 7.01), (46.031, 7.028)].map { try #require(camera.project(LatLng(lat: $0.0, lon: $0.1))) }
        func distance(_ x: Double, _ y: Double) -> Double {
            zip(road, road.dropFirst()).map { a, b in
                let dx = b.x - a.x, dy = b.y - a.y
                let t = max(0, min(1, ((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy)))
                return hypot(x - a.x - t * dx, y - a.y - t * dy)
            }.min()!
        }
        func textPixels(_ image: Bitmap) -> [(Int, Int)] {
            var out: [(Int, Int)] = []
            for y in 0 ..< 300 {
                for x in 0 ..< 600 {
                    let p = image.pixel(x: x, y: y)!
                    if max(p.r, p.g, p.b) < 110 { out.append((x, y)) }
                }
            }
            return out
        }
        let text = textPixels(image)
        #expect(text.count > 100, "the name's letters: \(text.count) dark pixels")
        // Every letter within the text's half height (and a pixel) of the road's centre line,
        // on both the straight part and the slope east of 7.01.
        let farthest = text.map { distance(Double($0.0) + 0.5, Double($0.1) + 0.5) }.max() ?? 99
        #expect(farthest <= 8, "\(farthest) px from the road")
        #expect(text.contains { Double($0.0) < road[1].x - 20 } && text.contains { Double($0.0) > road[1].x + 20 })
        // Without labels, or below zoom 13.5, no name.
        #expect(textPixels(try render(zoom: 15, labels: false).0).isEmpty)
        #expect(textPixels(try render(zoom: 13).0).isEmpty)
        // A style that hides primary roads (alpha 0) hides their names.
        var hidden = VectorTileStyle.light
        hidden.colors[.majorRoad] = BasemapColor(r: 0, g: 0, b: 0, a: 0)
        #expect(textPixels(try render(zoom: 15, style: hidden).0).isEmpty)
    }
}
