import Canvas2D
import Foundation
import MapScene
import MapTestSupport
import MapTiles
import GeoKit
import MapCamera
import MapFormats
import MapImage
@testable import MapSnapshot
import Testing

/// A callout stands on the copy of the world nearest the centre unless its longitude is to be
/// taken as given; either way its pointer's tip is drawn at the projected point.
@Suite struct CalloutPlacementTests {
    @Test func unwrappedLongitudesPickTheirCopyOfTheWorld() throws {
        // Zoom 0, 1024 px wide: a 512 px world, so 150° E shows twice: at x = 512 + 150/360·512
        // ≈ 725 (the copy nearest the centre) and one world west, at ≈ 213 (−210°).
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 0, size: ScreenSize(width: 1024, height: 400))
        let near = try #require(cam.project(LatLng(lat: 20, lon: 150)))
        let west = try #require(cam.project(MapPoint(LatLng(lat: 20, lon: -210))))
        #expect(abs(near.x - (512 + 150.0 / 360 * 512)) < 1e-9 && abs(west.x - (near.x - 512)) < 1e-9)
        let snapshotter = try MapSnapshotter()
        func boxAlpha(_ image: Bitmap, above tip: ScreenPoint) -> UInt8 {
            image.pixel(x: Int(tip.x.rounded()), y: Int(tip.y.rounded()) - 20)?.a ?? 0
        }
        for (lon, unwrapped) in [(150.0, false), (-210.0, false), (-210.0, true)] {
            var snap = Snapshot(camera: cam, basemapStyle: nil, attribution: false)
            snap.callouts = [Callout(position: LatLng(lat: 20, lon: lon), lines: ["Guam-ish"], unwrappedLongitude: unwrapped)]
            let tip = try #require(snap.callouts[0].screenPoint(in: cam))
            #expect(abs(tip.x - (unwrapped ? west.x : near.x)) < 1e-9, "lon \(lon), unwrapped \(unwrapped)")
            let image = try snapshotter.render(snap)
            // The white box stands 20 px above the tip on the copy it belongs to, and nowhere else.
            #expect(boxAlpha(image, above: unwrapped ? west : near) > 200)
            #expect(boxAlpha(image, above: unwrapped ? near : west) == 0)
        }
    }
}

/// Basemap place labels keep clear of the overlays' markers and labels in every copy of the
/// world those are drawn in, not only the copy nearest the centre.
@Suite struct ReservedLabelBoxTests {
    @Test func markersReserveTheirBoxInEveryCopyShown() throws {
        // Zoom 0, 1024 px: 150° E shows at x ≈ 725 and one world west at ≈ 213 (and east, past
        // the right edge at ≈ 1237, and further copies either way: drawn, but no box of theirs
        // reaches the view, where every basemap label lies, so none is kept).
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 0, size: ScreenSize(width: 1024, height: 400))
        let marker = try Marker(position: LatLng(lat: 20, lon: 150), label: "Far")
        var label = try Label(position: LatLng(lat: 20, lon: 150), text: "Here")
        let labels = CairoLabelRasterizer()
        func centres(_ o: Overlay) -> [Double] {
            BasemapLayers.reserved(Scene(overlays: [o]), camera: cam, labels: labels).boxes.map { ($0.0 + $0.2) / 2 }.sorted()
        }
        let near = 512 + 150.0 / 360 * 512
        let l = centres(.label(label))
        // The copies at x ≈ 213 and 725.
        #expect(l.count == 2)
        for (i, x) in l.enumerated() { expectNear(x, near + 512 * Double(i - 1), tolerance: 1e-6) }
        // The marker (a dot: 16 px across with its ring, 3 px round it) keeps a 22 px box in
        // both; its label the box the planner
        // will place it in, on its right (a dot's label starts 6 + 2 + 4 px right of its point),
        // where the label is at least partly in view: the copies at x ≈ 213 and 725.
        func split(_ boxes: [LabelBox]) -> (bodies: [Double], labels: [LabelBox]) {
            (boxes.filter { abs($0.2 - $0.0 - 22) < 1e-9 }.map { ($0.0 + $0.2) / 2 }.sorted(),
             boxes.filter { abs($0.2 - $0.0 - 22) >= 1e-9 }.sorted { $0.0 < $1.0 })
        }
        let (bodies, labelBoxes) = split(BasemapLayers.reserved(Scene(overlays: [.marker(marker)]), camera: cam, labels: labels).boxes)
        #expect(bodies.count == 2)
        for (i, x) in bodies.enumerated() { expectNear(x, near + 512 * Double(i - 1), tolerance: 1e-6) }
        #expect(labelBoxes.count == 2 && labelBoxes.allSatisfy { $0.2 - $0.0 > 20 })
        for (i, b) in labelBoxes.enumerated() { expectNear(b.0, near - 512 * Double(1 - i) + 12, tolerance: 1e-6) }
        // A pin 10° (about 14 px) east of it takes the right side: the label goes on the left and
        // only that side is kept (it ends 12 px left of the point); with labels that may
        // overlap, on the right all the same.
        let blocker = Overlay.marker(try Marker(position: LatLng(lat: 20, lon: 160)))
        let left = split(BasemapLayers.reserved(Scene(overlays: [.marker(marker), blocker]), camera: cam, labels: labels).boxes).labels
        #expect(left.count == 2)
        for (i, b) in left.enumerated() { expectNear(b.2, near - 512 * Double(1 - i) - 12, tolerance: 1e-6) }
        var overlapping = Scene(overlays: [.marker(marker), blocker])
        overlapping.labelsMayOverlap = true
        let right = split(BasemapLayers.reserved(overlapping, camera: cam, labels: labels).boxes).labels
        #expect(right.count == 2)
        for (i, b) in right.enumerated() { expectNear(b.0, near - 512 * Double(1 - i) + 12, tolerance: 1e-6) }
        // A label drawn only where its coordinates put it reserves only there.
        label.worldCopies = false
        #expect(centres(.label(label)).count == 1)
        expectNear(centres(.label(label))[0], near, tolerance: 1e-6)
    }

    @Test func boxesThatCannotReachTheViewAreLeftOut() throws {
        // A pin's box runs from 12 px left of its point to 12 px right, 36 px above to 12 px
        // below. Boxes that only touch an edge overlap nothing inside (edges that touch do not
        // overlap), so a marker 12 px or more past the left or right edge, 36 px or more below
        // the bottom or 12 px or more above the top reserves nothing; one a hundredth of a pixel
        // nearer does.
        let cam = Camera(center: LatLng(lat: 52.52, lon: 13.4), zoom: 13, size: ScreenSize(width: 600, height: 400))
        let labels = CairoLabelRasterizer()
        func boxes(at x: Double, _ y: Double) throws -> [LabelBox] {
            let p = try #require(cam.unproject(ScreenPoint(x: x, y: y)))
            return BasemapLayers.reserved(Scene(overlays: [.marker(try Marker(position: p, style: .pin))]), camera: cam, labels: labels).boxes
        }
        for (x, y) in [(-12.01, 200.0), (612.01, 200), (300, -12.01), (300, 436.01), (-12.01, -12.01), (-3000, 200), (300, 9000)] {
            #expect(try boxes(at: x, y).isEmpty, "marker at (\(x), \(y))")
        }
        for (x, y) in [(-11.99, 200.0), (611.99, 200), (300, -11.99), (300, 435.99), (-11.99, -11.99), (300, 200)] {
            let b = try boxes(at: x, y)
            try #require(b.count == 1, "marker at (\(x), \(y))")
            expectNear(b[0].0, x - 12, tolerance: 1e-6)
            expectNear(b[0].1, y - 36, tolerance: 1e-6)
        }
    }

    @Test func eachMarkerKeepsItsOwnShapeClear() throws {
        // At the view's centre (300, 200): a dot (12 px with a 2 px ring) 8 + 3 px each way; an
        // arrow (24 px, any rotation) 12 + 3; a 40 × 20 px icon anchored at its bottom centre
        // from 23 px left to 23 right, 23 above and 3 below; a pin at size 2 twice the pin's box;
        // a cluster's lone marker as itself.
        let centre = LatLng(lat: 52.52, lon: 13.4)
        let cam = Camera(center: centre, zoom: 13, size: ScreenSize(width: 600, height: 400))
        let labels = CairoLabelRasterizer()
        let icon = try #require(SpriteImage(width: 40, height: 20, pixels: [UInt8](repeating: 255, count: 40 * 20 * 4)))
        let cases: [(MarkerStyle, Double, LabelBox)] = [
            (.dot, 1, (289, 189, 311, 211)),
            (.arrow, 1, (285, 185, 315, 215)),
            (.image(icon, anchor: (0.5, 1)), 1, (277, 177, 323, 203)),
            (.pin, 2, (276, 128, 324, 224)),
        ]
        for (style, scale, want) in cases {
            let m = try Marker(position: centre, style: style, scale: scale)
            let single = BasemapLayers.reserved(Scene(overlays: [.marker(m)]), camera: cam, labels: labels).boxes
            let lone = BasemapLayers.reserved(Scene(overlays: [.cluster(try MarkerCluster(markers: [m]))]), camera: cam, labels: labels).boxes
            for boxes in [single, lone] {
                try #require(boxes.count == 1, "\(style)")
                for (got, expected) in [(boxes[0].0, want.0), (boxes[0].1, want.1), (boxes[0].2, want.2), (boxes[0].3, want.3)] {
                    expectNear(got, expected, tolerance: 1e-6)
                }
            }
        }
    }
}

/// The embedded basemap's place names are drawn over routes (as MapKit draws overlays under the
/// map's labels), and under markers and overlays given a z-index of 350 or more.
@Suite struct BasemapLabelLevelTests {
    @Test func aRouteThroughAPlaceNamePassesUnderIt() throws {
        let sf = LatLng(lat: 37.7749, lon: -122.4194)
        let cam = Camera(center: sf, zoom: 11, size: ScreenSize(width: 600, height: 400))
        let snapshotter = try MapSnapshotter()
        func render(_ overlays: [Overlay]) throws -> Bitmap {
            try snapshotter.render(Snapshot(camera: cam, overlays: overlays, basemapStyle: .light, attribution: false))
        }
        func dark(_ p: RGBA8) -> Bool { Int(p.r) + Int(p.g) + Int(p.b) < 300 }
        // The name's ink (and its dot), found on the bare map: dark pixels near the city (Natural
        // Earth puts its point about 20 px from this one).
        let bare = try render([])
        let city = try #require(cam.project(sf))
        var ink: [(Int, Int)] = []
        for y in Int(city.y) - 40 ... Int(city.y) + 40 {
            for x in Int(city.x) - 30 ..< 600 where dark(bare.pixel(x: x, y: y)!) { ink.append((x, y)) }
        }
        try #require(ink.count > 100, "no 'San Francisco' label near \(city)")
        let x0 = ink.map(\.0).min()!, x1 = ink.map(\.0).max()!
        let c = ScreenPoint(x: city.x, y: Double(ink.map(\.1).min()! + ink.map(\.1).max()!) / 2)
        // A 16 px pure blue route along the label's middle, across the view.
        func route(z: Int?) throws -> Overlay {
            let west = try #require(cam.unproject(ScreenPoint(x: 0, y: c.y))), east = try #require(cam.unproject(ScreenPoint(x: 600, y: c.y)))
            return .polyline(try Polyline(coordinates: [west, east], style: LineStyle(width: .pixels(16), color: Color(rgb: 0x0000FF)), zIndex: z))
        }
        func inkOnTheRoute(_ image: Bitmap) -> Int {
            var n = 0
            for y in Int(c.y) - 4 ... Int(c.y) + 4 { for x in x0 ... x1 where dark(image.pixel(x: x, y: y)!) && image.pixel(x: x, y: y)!.b < 200 { n += 1 } }
            return n
        }
        let under = try render([try route(z: nil)])
        let bareInk = inkOnTheRoute(bare)
        #expect(bareInk > 40)
        // Drawn over the route: the text's pixels, with the halo between them and the blue
        // (a few more count as dark where the halo thins between the letters).
        let ink2 = inkOnTheRoute(under)
        #expect(ink2 >= bareInk && ink2 <= bareInk * 12 / 10, "\(ink2) dark pixels, \(bareInk) on the bare map")
        #expect(under.pixel(x: x0 - 40, y: Int(c.y)) == RGBA8(r: 0, g: 0, b: 255))
        // A route at z 350 covers the name, as before.
        #expect(inkOnTheRoute(try render([try route(z: 350)])) == 0)
    }
}

/// `placeLabels = false` (scene `"placeLabels": false`, `--no-place-labels`) draws the basemap
/// without its place names and dots, and the rest of it as before.
@Suite struct PlaceLabelToggleTests {
    @Test func withoutPlaceLabelsOnlyTheNamesAndDotsGo() throws {
        let cam = Camera(center: LatLng(lat: 46.3, lon: 6.5), zoom: 8, size: ScreenSize(width: 600, height: 400))
        let snapshotter = try MapSnapshotter()
        var snap = Snapshot(camera: cam, basemapStyle: .light, attribution: false)
        let with = try snapshotter.render(snap)
        snap.placeLabels = false
        let without = try snapshotter.render(snap)
        func dark(_ p: RGBA8) -> Bool { Int(p.r) + Int(p.g) + Int(p.b) < 300 }
        var inkWith = 0, inkWithout = 0, changed = 0
        for y in 0 ..< 400 {
            for x in 0 ..< 600 {
                let a = with.pixel(x: x, y: y)!, b = without.pixel(x: x, y: y)!
                if dark(a) { inkWith += 1 }
                if dark(b) { inkWithout += 1 }
                if a != b { changed += 1 }
            }
        }
        // Geneva, Lausanne, Bern… drawn in dark ink with the names; none without (the basemap's
        // borders and coasts are lighter); only the pixels the names and dots covered change.
        #expect(inkWith > 100 && inkWithout == 0, "\(inkWith) and \(inkWithout) dark pixels")
        #expect(changed > inkWith && changed < 600 * 400 / 10, "\(changed) pixels changed")
        // The scene file's key.
        let loader = SceneLoader(baseDirectory: URL(fileURLWithPath: NSTemporaryDirectory()))
        let doc = try SceneDocument.decode(Data(#"{"placeLabels": false, "camera": {"center": [46.3, 6.5], "zoom": 8}}"#.utf8), file: "t.json")
        #expect(try loader.snapshot(from: doc).placeLabels == false)
    }
}

/// The basemap's place names fade out when a marker comes to take their place and back in when
/// it leaves, over `labelFade` seconds, as marker labels do (and MapLibre's symbols).
@Suite struct BasemapLabelFadeTests {
    @Test func aPlaceNameFadesOutUnderAMarkerAndBackIn() throws {
        let cam = Camera(center: LatLng(lat: 46.3, lon: 6.5), zoom: 8, size: ScreenSize(width: 600, height: 400))
        func snap(_ overlays: [Overlay], fade: Double, time: Double) -> Snapshot {
            var s = Snapshot(camera: cam, overlays: overlays, basemapStyle: .light, attribution: false)
            s.labelFade = fade
            s.time = time
            return s
        }
        func dark(_ p: RGBA8) -> Bool { Int(p.r) + Int(p.g) + Int(p.b) < 300 }
        // Geneva's name on the bare map: its dark pixels near the city.
        let bare = try MapSnapshotter().render(snap([], fade: 0, time: 0))
        let city = try #require(cam.project(LatLng(lat: 46.2, lon: 6.15)))
        var ink: [(Int, Int)] = []
        for y in Int(city.y) - 30 ... Int(city.y) + 30 {
            for x in Int(city.x) - 20 ... Int(city.x) + 80 where dark(bare.pixel(x: x, y: y)!) { ink.append((x, y)) }
        }
        try #require(ink.count > 30, "no 'Geneva' near \(city)")
        let x0 = ink.map(\.0).min()!, x1 = ink.map(\.0).max()!, y0 = ink.map(\.1).min()!, y1 = ink.map(\.1).max()!
        // A pin standing just past the name's end: its box takes the name's right end, so the name
        // is not placed while it is there; it draws nothing left of x1 − 14.
        let at = try #require(cam.unproject(ScreenPoint(x: Double(x1) + 6, y: Double(y0 + y1) / 2 + 10)))
        let pin = Overlay.marker(try Marker(position: at, style: .pin))
        let hidden = try MapSnapshotter().render(snap([pin], fade: 0, time: 0))
        // How much of the name shows: 0 as on the map with the pin and no fade, 1 as on the bare map.
        func shown(_ image: Bitmap) -> Double {
            var num = 0.0, den = 0.0
            for y in y0 - 2 ... y1 + 2 {
                for x in x0 - 2 ... x1 - 16 {
                    let a = image.pixel(x: x, y: y)!, b = hidden.pixel(x: x, y: y)!, f = bare.pixel(x: x, y: y)!
                    num += Double(abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b)))
                    den += Double(abs(Int(f.r) - Int(b.r)) + abs(Int(f.g) - Int(b.g)) + abs(Int(f.b) - Int(b.b)))
                }
            }
            return num / den
        }
        let snapshotter = try MapSnapshotter()
        // (time, pin there, how much shows: 1 at once on the first render; then 0.1 s of a 0.3 s
        // fade is a third of the way.)
        let steps: [(Double, Bool, Double)] = [(0, false, 1), (0.1, true, 2.0 / 3), (0.2, true, 1.0 / 3), (0.3, true, 0),
                                               (0.35, false, 1.0 / 6), (0.45, false, 0.5), (0.65, false, 1)]
        for (t, there, expected) in steps {
            let image = try snapshotter.render(snap(there ? [pin] : [], fade: 0.3, time: t))
            #expect(abs(shown(image) - expected) < 0.03, "at \(t) s: \(shown(image)), expected \(expected)")
            #expect(snapshotter.labelsFading == (expected > 0 && expected < 1), "at \(t) s")
        }
    }
}

/// Natural Earth's credit: the whole sentence where it takes at most half the image's width,
/// "Made with Natural Earth" where it would take more.
@Suite struct AttributionWidthTests {
    @Test func aSmallMapGetsTheShortCredit() throws {
        let snapshotter = try MapSnapshotter()
        let full = try EmbeddedBasemap.shared().attribution
        let fullWidth = Double(try MapSprites.attribution(full).bitmap.width)
        let shortWidth = Double(try MapSprites.attribution("Made with Natural Earth").bitmap.width)
        #expect(shortWidth < fullWidth / 2)
        // Open Pacific: the ocean's colour everywhere but in the credit's box, bottom right.
        for width in [fullWidth * 2 + 2, fullWidth * 2 - 2, fullWidth - 10] {
            let cam = Camera(center: LatLng(lat: -30, lon: -140), zoom: 5, size: ScreenSize(width: width.rounded(), height: 200))
            let image = try snapshotter.render(Snapshot(camera: cam, basemapStyle: .light))
            let ocean = try #require(image.pixel(x: 5, y: image.height - 3))
            let left = (0 ..< image.width).first { image.pixel(x: $0, y: image.height - 3) != ocean } ?? image.width
            let drawn = Double(image.width - left)
            let expected = width > fullWidth * 2 ? fullWidth : shortWidth
            #expect(abs(drawn - expected) <= 1, "\(width) px wide: the credit is \(drawn) px, expected \(expected)")
        }
    }
}

/// A callout near the edge of the view turns so that its box stays in view.
@Suite struct CalloutFitTests {
    @Test func aCalloutInTheTopLeftCornerStandsBelowAndRightOfItsPoint() throws {
        let cam = Camera(center: LatLng(lat: 46, lon: 14), zoom: 8, size: ScreenSize(width: 600, height: 400))
        let snapshotter = try MapSnapshotter()
        // (A point closer than 13 px to a side still has the pointer's end of the box past it.)
        for (x, y) in [(20.0, 20.0), (300.0, 200.0), (580.0, 385.0)] {
            let at = try #require(cam.unproject(ScreenPoint(x: x, y: y)))
            var snap = Snapshot(camera: cam, basemapStyle: nil, attribution: false)
            snap.compass = false
            snap.callouts = [Callout(position: at, lines: ["A long enough callout"])]
            let image = try snapshotter.render(snap)
            // Every pixel of the box lies in the view: the box's ink touches no edge, and it lies
            // on the side of the point away from the nearer edges.
            var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
            for py in 0 ..< image.height { for px in 0 ..< image.width where (image.pixel(x: px, y: py)?.a ?? 0) > 0 {
                minX = min(minX, px); maxX = max(maxX, px); minY = min(minY, py); maxY = max(maxY, py)
            } }
            #expect(minX > 0 && minY > 0 && maxX < 599 && maxY < 399, "(\(x), \(y)): \(minX)…\(maxX), \(minY)…\(maxY)")
            switch (x, y) {
            case (20, 20): #expect(minY >= 17 && minX >= 5, "below and right: \(minX), \(minY)")
            case (580, 385): #expect(maxY <= 388 && maxX <= 595, "above and left: \(maxX), \(maxY)")
            default: #expect(maxY <= 203 && abs(Double(minX + maxX) / 2 - 300) <= 1, "above, centred: \(minX)…\(maxX), \(maxY)")
            }
        }
    }
}
