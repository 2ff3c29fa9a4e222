import Foundation
import GeoKit
import MapFormats
import MapImage
import MapScene
import MapTestSupport
import Testing
@testable import MapSnapshot

/// Scene documents → snapshots: units, defaults, file reading and located errors.
@Suite struct SceneLoaderTests: SceneFixture {
    @Test func radiusUnitsAndDefaults() throws {
        let s = try loader.snapshot(from: doc("""
            {"camera": {"center": [10, 20], "zoom": 5},
             "overlays": [{"type": "circle", "position": [10, 20], "radius": 2.5, "radiusUnit": "km"},
                          {"type": "circle", "position": [10, 20], "radius": 30, "radiusUnit": "px"},
                          {"type": "circle", "position": [10, 20], "radius": 700}]}
            """))
        let radii = s.overlays.compactMap { o -> Length? in if case .circle(let c) = o { c.radius } else { nil } }
        #expect(radii == [.meters(2500), .pixels(30), .meters(700)])
        // Defaults: 1024x768, scale 1, light embedded basemap, attribution on, no extras.
        #expect(s.camera.size.width == 1024 && s.camera.size.height == 768 && s.camera.pixelRatio == 1)
        #expect(s.basemapStyle?.name == "light" && s.attribution && !s.scaleBar && !s.compass)
    }

    /// The fitted camera holds the rim of a metric circle: at bearing 0 the fitted zoom is the
    /// one that fits the circle's north/south extent (GeoKit direct) into the padded height,
    /// the padding grown by half the 2-px outline and 1 px of antialiasing on each side.
    @Test func fitsAMetricCircle() throws {
        let s = try loader.snapshot(from: doc("""
            {"size": [400, 400], "camera": {"padding": 0},
             "overlays": [{"type": "circle", "position": [0, 0], "radius": 100, "radiusUnit": "km"}]}
            """))
        let n = MapPoint(Geodesic.wgs84.direct(from: LatLng(lat: 0, lon: 0), azimuth: 0, distance: 100_000).point)
        let e = MapPoint(Geodesic.wgs84.direct(from: LatLng(lat: 0, lon: 0), azimuth: 90, distance: 100_000).point)
        // Square viewport: the larger of the two spans decides (Mercator is conformal; at the
        // equator the metric circle is slightly wider east-west than north-south in Mercator).
        let span = max(2 * (0.5 - n.y), 2 * (e.x - 0.5))
        expectNear(s.camera.zoom, log2(396 / (span * 512)), tolerance: 1e-3, "zoom that fits the rim")
    }

    /// Markers naming one icon file share one image (read once; the renderer then draws them in
    /// one batch); another file, or the same file in a later load, is another image.
    @Test func iconFilesAreReadOncePerLoad() throws {
        let scratch = try ScratchDirectory("icons"), dir = scratch.url
        // A 2x1 RGBA PNG (red, then clear), written by Pillow.
        let png = try #require(Data(base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8Dwn4GBgQEADPwB//0td20AAAAASUVORK5CYII="))
        try png.write(to: dir.appendingPathComponent("a.png"))
        try png.write(to: dir.appendingPathComponent("b.png"))
        let text = """
            {"camera": {"center": [5, 5], "zoom": 3}, "overlays": [
              {"type": "marker", "position": [1, 1], "icon": "a.png"},
              {"type": "marker", "position": [2, 2], "icon": "a.png"},
              {"type": "marker", "position": [3, 3], "icon": "b.png"}]}
            """
        let loader = SceneLoader(baseDirectory: dir)
        func images(_ s: Snapshot) -> [SpriteImage] {
            s.overlays.compactMap { o -> SpriteImage? in
                if case .marker(let m) = o, case .image(let img, _) = m.style { img } else { nil }
            }
        }
        let first = images(try loader.snapshot(from: doc(text)))
        #expect(first.count == 3)
        #expect(first[0] === first[1])
        #expect(first[0] !== first[2])
        #expect(first[0].width == 2 && first[0].height == 1)
        let again = images(try loader.snapshot(from: doc(text)))
        #expect(again[0] !== first[0])
    }

    @Test func polygonFileRingsBecomeHoles() throws {
        let scratch = try ScratchDirectory("sl"), dir = scratch.url
        let geo = """
            {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry":
              {"type": "MultiPolygon", "coordinates": [
                [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[2, 2], [4, 2], [4, 4], [2, 4], [2, 2]]],
                [[[20, 0], [30, 0], [30, 10], [20, 0]]]]}}]}
            """
        try geo.write(to: dir.appendingPathComponent("p.geojson"), atomically: true, encoding: .utf8)
        let s = try SceneLoader(baseDirectory: dir).snapshot(from: doc("""
            {"camera": {"center": [5, 5], "zoom": 3}, "overlays": [{"type": "polygon", "file": "p.geojson"}]}
            """))
        let polys = s.overlays.compactMap { o -> Polygon? in if case .polygon(let p) = o { p } else { nil } }
        #expect(polys.count == 2)
        #expect(polys.first?.holes.count == 1)
        #expect(polys.last?.holes.count == 0)
    }

    /// Inline GeoJSON: each feature becomes the overlay its geometry draws, styled by its
    /// simplestyle properties, the overlay's own keys as the defaults.
    @Test func inlineGeoJSONFeaturesBecomeOverlays() throws {
        let s = try loader.snapshot(from: doc("""
            {"camera": {"center": [5, 5], "zoom": 3}, "overlays": [{"type": "geojson", "width": 5, "data":
              {"type": "FeatureCollection", "features": [
                {"type": "Feature", "properties": {"stroke": "#ff0000"}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [10, 10]]}},
                {"type": "Feature", "properties": {"fill": "#0000ff", "fill-opacity": 0.25}, "geometry":
                  {"type": "Polygon", "coordinates": [[[0, 0], [4, 0], [4, 4], [0, 0]]]}},
                {"type": "Feature", "properties": {"title": "Here"}, "geometry": {"type": "Point", "coordinates": [2, 3]}}]}}]}
            """))
        // Polygons first, then lines, then pins (each drawn above the last).
        #expect(s.overlays.count == 3)
        guard case .polyline(let r) = s.overlays[1] else { Issue.record("\(s.overlays[1]) is not a route"); return }
        #expect(r.style.color == Color(rgb: 0xFF0000) && r.style.width == .pixels(5))
        #expect(r.path.count == 2)
        guard case .polygon(let p) = s.overlays[0] else { Issue.record("\(s.overlays[0]) is not a polygon"); return }
        #expect(p.fill.b == 255 && p.fill.r == 0 && abs(Int(p.fill.a) - 64) <= 1, "\(p.fill)")
        guard case .marker(let m) = s.overlays[2] else { Issue.record("\(s.overlays[2]) is not a marker"); return }
        #expect(m.position == LatLng(lat: 3, lon: 2))
    }

    /// A GeoJSON file of many alike opaque polygons (building footprints) is one MultiPolygon, in
    /// the file's order; fewer than 64, or translucent ones, stay Polygons.
    @Test func manyAlikeGeoJSONPolygonsBecomeOneOverlay() throws {
        func collection(_ n: Int, opacity: Double, copies: Int = 1) -> String {
            let features = (0 ..< n * copies).map { k in
                let i = k % n
                let x = Double(i % 20) * 0.01, y = Double(i / 20) * 0.01
                return """
                    {"type": "Feature", "properties": {"fill": "#8a6d3b", "fill-opacity": \(opacity), "stroke-width": 0},
                     "geometry": {"type": "Polygon", "coordinates": [[[\(x), \(y)], [\(x + 0.005), \(y)], [\(x + 0.005), \(y + 0.005)], [\(x), \(y)]]]}}
                    """
            }
            return #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ",") + "]}"
        }
        func overlays(_ n: Int, opacity: Double = 1, copies: Int = 1) throws -> [Overlay] {
            try loader.snapshot(from: doc(#"{"camera": {"center": [0.05, 0.05], "zoom": 10}, "overlays": [{"type": "geojson", "data": "#
                                          + collection(n, opacity: opacity, copies: copies) + "}]}")).overlays
        }
        let many = try overlays(100)
        #expect(many.count == 1)
        guard case .multiPolygon(let m) = many.first else { Issue.record("\(many)"); return }
        #expect(m.polygons.polygons.count == 100 && m.fill == Color(rgb: 0x8A6D3B) && m.stroke == nil)
        // The file's order: the 21st feature is the first of the second row (its southern edge,
        // the largest map y, at 0.01°).
        let second = try #require(m.polygons.polygons[20].exterior.bounds)
        #expect(abs(second.maxY - MapPoint(LatLng(lat: 0.01, lon: 0)).y) < 1e-12 && abs(second.minX - 0.5) < 1e-12)
        #expect(try overlays(63).allSatisfy { if case .polygon = $0 { true } else { false } })
        // Translucent ones apart from each other too; the same squares twice over (each on top
        // of its copy) are not.
        let glass = try overlays(100, opacity: 0.5)
        #expect(glass.count == 1)
        if case .multiPolygon(let g) = glass.first { #expect(g.fill.a == 128 && g.polygons.polygons.count == 100) } else { Issue.record("\(glass)") }
        // (The 101st feature lies on the first: a second set from there, drawn over the first.)
        let twice = try overlays(100, opacity: 0.5, copies: 2)
        #expect(twice.count == 2 && twice.allSatisfy { if case .multiPolygon(let m) = $0 { m.polygons.polygons.count == 100 } else { false } })
    }

    /// A marker's `size` is its scale; a geojson Point's `marker-size` names one (simplestyle).
    @Test func markerSizes() throws {
        let s = try loader.snapshot(from: doc("""
            {"camera": {"center": [0, 0], "zoom": 3},
             "overlays": [{"type": "marker", "position": [1, 2], "style": "pin", "size": 1.5},
                          {"type": "marker", "position": [1, 2]},
                          {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
                            {"type": "Feature", "properties": {"marker-size": "small"}, "geometry": {"type": "Point", "coordinates": [2, 1]}},
                            {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [2, 1]}}]}},
                          {"type": "geojson", "size": 2, "data": {"type": "Point", "coordinates": [2, 1]}}]}
            """))
        let scales = s.overlays.compactMap { o -> Double? in if case .marker(let m) = o { m.scale } else { nil } }
        #expect(scales == [1.5, 1, 0.7, 1, 2])
        let g = try loader.snapshot(from: doc(#"{"camera": {"center": [0, 0], "zoom": 3}, "overlays": [{"type": "marker", "position": [1, 2], "glyph": "B"}]}"#))
        guard case .marker(let m) = g.overlays.first else { Issue.record("no marker"); return }
        #expect(m.glyph == "B")
    }

    /// `cluster` gathers a geojson overlay's Points into one `MarkerCluster`; its lines stay lines.
    @Test func geojsonPointsCluster() throws {
        let s = try loader.snapshot(from: doc("""
            {"camera": {"center": [0, 0], "zoom": 3},
             "overlays": [{"type": "geojson", "cluster": true, "clusterRadius": 30, "clusterMaxZoom": 12, "clusterColor": "#ff00ff",
                           "data": {"type": "FeatureCollection", "features": [
                             {"type": "Feature", "properties": {"title": "a"}, "geometry": {"type": "Point", "coordinates": [2, 1]}},
                             {"type": "Feature", "properties": {}, "geometry": {"type": "MultiPoint", "coordinates": [[2.1, 1], [3, 1]]}},
                             {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}]}}]}
            """))
        #expect(s.overlays.count == 2)
        guard case .polyline = s.overlays.first, case .cluster(let c) = s.overlays.last else {
            Issue.record("expected a route and a cluster: \(s.overlays)")
            return
        }
        #expect(c.markers.count == 3 && c.markers[0].label == "a")
        #expect(c.radius == 30 && c.maxZoom == 12 && c.color == Color(rgb: 0xFF00FF))
    }

    @Test(arguments: [
        (#"{"overlays": [{"type": "geojson", "clusterRadius": 20, "data": {"type": "Point", "coordinates": [1, 2]}}]}"#,
         "overlays[0].cluster: clusterRadius, clusterMaxZoom and clusterColor need \"cluster\": true"),
        (#"{"overlays": [{"type": "geojson", "cluster": true, "clusterRadius": 0, "data": {"type": "Point", "coordinates": [1, 2]}}]}"#,
         "overlays[0] radius: 0.0 is not in (0, 512] px"),
        (#"{"overlays": [{"type": "geojson", "cluster": true, "clusterMaxZoom": 30, "data": {"type": "Point", "coordinates": [1, 2]}}]}"#,
         "overlays[0] maxZoom: 30 is not in 0…24"),
        (#"{"overlays": [{"type": "blob"}]}"#, "overlays[0].type"),
        (#"{"overlays": [{"type": "circle", "position": [1, 2], "radius": 5, "radiusUnit": "ly"}]}"#, "overlays[0].radiusUnit"),
        (#"{"overlays": [{"type": "route", "coordinates": [[1, 2]], "color": "blurple"}]}"#, "overlays[0].color"),
        (#"{"overlays": [{"type": "route"}]}"#, "exactly one of file, coordinates or polyline"),
        (#"{"overlays": [{"type": "route", "coordinates": [[91, 2], [0, 0]]}]}"#, "overlays[0].coordinates[0]"),
        (#"{"overlays": [{"type": "marker", "position": [1]}]}"#, "expected [lat, lon]"),
        (#"{"overlays": [{"type": "marker", "position": [1, 2], "size": 12}]}"#, "overlays[0].size: 12 is not a marker size: a factor in 0.1…8"),
        (#"{"overlays": [{"type": "marker", "position": [1, 2], "size": 0}]}"#, "overlays[0].size: 0 is not a marker size"),
        (#"{"overlays": [{"type": "marker", "position": [1, 2], "glyph": "abc"}]}"#, "overlays[0] glyph: 'abc' is not one or two characters"),
        (#"{"camera": {"center": [1, 2]}}"#, "give both center and zoom"),
        (#"{"camera": {"center": [1, 2], "zoom": 3, "pitch": 90}}"#, "camera.pitch"),
        (#"{"size": [100, 100], "scale": 0.5, "camera": {"center": [1, 2], "zoom": 3}}"#, "scale"),
        (#"{"basemap": "osm", "camera": {"center": [1, 2], "zoom": 3}}"#, "unknown basemap"),
        (#"{"overlays": [{"type": "geojson"}]}"#, "overlays[0]: a geojson overlay needs exactly one of file or data"),
        (#"{"overlays": [{"type": "geojson", "data": {"type": "Point", "coordinates": [1]}}]}"#, "overlays[0].data:"),
        (#"{"overlays": [{"type": "geojson", "data": {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"marker-color": "nope"}}}]}"#,
         "overlays[0].data: feature 0: property 'marker-color'"),
    ])
    func errorsSayWhere(json: String, expected: String) throws {
        #expect {
            try loader.snapshot(from: doc(json))
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    /// A label or marker label too long or too wide to draw is refused, naming the overlay, not
    /// left out of the image without a word.
    @Test func labelsTooLongOrTooWideAreRefusedWithTheirOverlay() throws {
        func message(_ overlays: String, scale: Int = 1) -> String {
            do {
                _ = try loader.snapshot(from: doc(#"{"scale": \#(scale), "camera": {"center": [0, 0], "zoom": 3}, "overlays": [\#(overlays)]}"#))
                return ""
            } catch { return "\(error)" }
        }
        func label(_ text: String, size: Int = 20) -> String { #"{"type": "label", "position": [1, 2], "size": \#(size), "text": "\#(text)"}"# }
        #expect(message(label(String(repeating: "a", count: 1001))).contains("overlays[0] text: 1001 characters is over the limit of 1000"))
        // DejaVu Sans's W is 2025/2048 em: 150 of them at 20 px are 2966 px (and the halo, 2 px
        // each side): drawn at scale 1, 5933 device px at scale 2; 300 are too wide at scale 1.
        let w150 = label(String(repeating: "W", count: 150)), w300 = label(String(repeating: "W", count: 300))
        #expect(message(w150) == "")
        let two = message(w150, scale: 2), one = message(w300)
        for m in [two, one] {
            #expect(m.contains("overlays[0].text: 'WWWWWWWWWWWWWWWWWWWWWWWW…' at 20 px is ") && m.contains("over the 4096 px a side"), "\(m)")
            let width = m.split(separator: " ").first { $0.contains("×") }.flatMap { Int($0.split(separator: "×")[0]) } ?? 0
            #expect((5933 ... 5950).contains(width), "\(m)")
        }
        #expect(two.contains("at scale 2") && !one.contains("at scale"))
        // A marker's label (14 px: 300 M, 1768/2048 em each, are 3626 px; 360 are 4351).
        let pin = #"{"type": "marker", "position": [1, 2], "label": "\#(String(repeating: "M", count: 300))"}"#
        #expect(message(pin) == "")
        let wide = #"{"type": "marker", "position": [1, 2], "label": "\#(String(repeating: "M", count: 360))"}"#
        #expect(message(pin + ", " + wide).contains("overlays[1].label: 'MMMMMMMMMMMMMMMMMMMMMMMM…' at 14 px is 435"))
        // White space only: a label needs text; a marker's blank label is no label.
        #expect(message(label("   ")).contains("overlays[0].text: a label needs text"))
        #expect(message(#"{"type": "marker", "position": [1, 2], "label": "  "}"#) == "")
    }

    /// Every overlay type `Documentation/scene.schema.json` allows is one the loader knows.
    @Test func theSchemasOverlayTypesAreKnown() throws {
        let url = repositoryRoot.appendingPathComponent("Documentation/scene.schema.json")
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let overlay = (schema["$defs"] as? [String: Any])?["overlay"] as? [String: Any]
        let types = try #require(((overlay?["properties"] as? [String: Any])?["type"] as? [String: Any])?["enum"] as? [String])
        #expect(types.count >= 10)
        for t in types + ["blob"] {
            var message = ""
            do { _ = try loader.snapshot(from: doc(#"{"camera": {"center": [0, 0], "zoom": 1}, "overlays": [{"type": "\#(t)"}]}"#)) } catch { message = "\(error)" }
            #expect(message.contains("unknown overlay type") == (t == "blob"), "\(t): \(message)")
        }
    }

    /// A typo is an error with the closest known key, not silently ignored.
    @Test(arguments: [
        (#"{"overlays": [{"type": "route", "colour": "ff0000"}]}"#, "t.json: overlays[0].colour: unknown key (did you mean 'color'?)"),
        (#"{"camera": {"centre": [1, 2]}}"#, "t.json: camera.centre: unknown key (did you mean 'center'?)"),
        (#"{"sise": [10, 10]}"#, "t.json: sise: unknown key (did you mean 'size'?)"),
        (#"{"overlays": [{"type": "route", "points": [[1, 2], [3, 4]]}]}"#,
         "t.json: overlays[0].points: unknown key (this format calls it 'coordinates')"),
        (#"{"overlays": [{"type": "marker", "center": [1, 2]}]}"#, "t.json: overlays[0].center: unknown key (this format calls it 'position')"),
        (#"{"overlays": [{"type": "route", "casing": {"color": "fff", "widht": 2}}]}"#,
         "t.json: overlays[0].casing.widht: unknown key (did you mean 'width'?)"),
    ])
    func unknownKeysAreErrors(json: String, expected: String) {
        #expect {
            try doc(json)
        } throws: { error in
            "\(error)" == expected
        }
    }

    @Test func decodingErrorsNameTheJSONPath() {
        #expect {
            try doc(#"{"overlays": [{"type": "circle", "radius": "big"}]}"#)
        } throws: { error in
            "\(error)" == "t.json: overlays[0].radius: expected a number"
        }
    }
}

/// A fitted view keeps markers' labels inside its padding, not only their pins: the label's
/// dark text pixels (looked for in the render, over no basemap) stop at the padded edge and
/// reach close to it (the fit is not merely zoomed out).
@Suite struct FittedLabelTests: SceneFixture {
    /// The x range of the label text's dark pixels (the pins are red, the halo white).
    func textColumns(_ image: Bitmap) -> ClosedRange<Int>? {
        var lo = Int.max, hi = Int.min
        for y in 0 ..< image.height {
            for x in 0 ..< image.width {
                guard let p = image.pixel(x: x, y: y), p.a > 200, Int(p.r) + Int(p.g) + Int(p.b) < 200 else { continue }
                lo = min(lo, x); hi = max(hi, x)
            }
        }
        return lo <= hi ? lo ... hi : nil
    }

    @Test func aLabelBesideTheRightmostMarkerStaysInsideThePadding() throws {
        let snapshotter = try MapSnapshotter()
        for (style, bearing) in [("dot", 0.0), ("pin", 0.0), ("pin", 30.0)] {
            let s = try loader.snapshot(from: doc("""
                {"size": [600, 400], "basemap": "none", "attribution": false, "camera": {"padding": 24, "bearing": \(bearing)},
                 "overlays": [{"type": "marker", "position": [48.853, 2.349], "label": "Cathedral", "style": "\(style)"},
                              {"type": "marker", "position": [48.858, 2.294], "style": "\(style)"},
                              {"type": "marker", "position": [48.86, 2.33], "style": "\(style)"}]}
                """))
            let cols = try #require(textColumns(try snapshotter.render(s)), "\(style) \(bearing): no label drawn")
            #expect(cols.upperBound <= 600 - 24, "\(style) \(bearing): the label reaches x = \(cols.upperBound)")
            #expect(cols.upperBound >= 600 - 24 - 16, "\(style) \(bearing): the label ends at x = \(cols.upperBound), far inside")
        }
    }

    /// A label the placement puts on its marker's left (a pin stands just right of the marker,
    /// 0.0005° = about 5 px at the fitted zoom, where the label would start) is fitted on that
    /// side: inside the left padding, not cut by the image's edge (the fit used to leave room on
    /// the right only: the label's first 40 px were cut off).
    @Test func aLabelPlacedOnTheLeftStaysInsideThePadding() throws {
        let snapshotter = try MapSnapshotter()
        for style in ["dot", "pin"] {
            let s = try loader.snapshot(from: doc("""
                {"size": [600, 400], "basemap": "none", "attribution": false, "camera": {"padding": 24},
                 "overlays": [{"type": "marker", "position": [48.853, 2.294], "label": "Tour Eiffel", "style": "\(style)"},
                              {"type": "marker", "position": [48.853, 2.2945], "style": "\(style)"},
                              {"type": "marker", "position": [48.86, 2.35], "style": "\(style)"}]}
                """))
            let image = try snapshotter.render(s)
            let cols = try #require(textColumns(image), "\(style): no label drawn")
            let marker = try #require(s.camera.project(LatLng(lat: 48.853, lon: 2.294)))
            #expect(Double(cols.upperBound) < marker.x, "\(style): the label is not on the left (ends at x = \(cols.upperBound), marker at \(marker.x))")
            #expect(cols.lowerBound >= 24, "\(style): the label starts at x = \(cols.lowerBound)")
            #expect(cols.lowerBound <= 24 + 16, "\(style): the label starts at x = \(cols.lowerBound), far inside")
        }
    }

    /// `labelOverlap` reaches the snapshot; without it crowded labels are left out. Three pins on
    /// a row at zoom 10: the labelled one's label, from 12 px right of its point, would run over
    /// the head (±9 px) of the pin 3.6 px right of it (0.0025°), and, on its left, ending 12 px
    /// before its point, over the head of the pin 6.4 px left of it (0.0045°).
    @Test func labelOverlapIsReadFromTheSceneFile() throws {
        let snapshotter = try MapSnapshotter()
        var dark: [Int] = []
        for overlap in [false, true] {
            let s = try loader.snapshot(from: doc("""
                {"size": [300, 100], "basemap": "none", "attribution": false, "labelOverlap": \(overlap),
                 "camera": {"center": [0, 0], "zoom": 10},
                 "overlays": [{"type": "marker", "position": [0, -0.05], "label": "First", "style": "pin"},
                              {"type": "marker", "position": [0, -0.0475], "style": "pin"},
                              {"type": "marker", "position": [0, -0.0545], "style": "pin"}]}
                """))
            #expect(s.labelsMayOverlap == overlap)
            let image = try snapshotter.render(s)
            var n = 0
            for y in 0 ..< image.height {
                for x in 0 ..< image.width {
                    // Grey text pixels, antialiased ones included (the pins are red and white).
                    guard let p = image.pixel(x: x, y: y), p.a > 200 else { continue }
                    let c = [Int(p.r), Int(p.g), Int(p.b)]
                    if c.max()! - c.min()! < 30, c.reduce(0, +) < 500 { n += 1 }
                }
            }
            dark.append(n)
        }
        #expect(dark[0] == 0 && dark[1] > 40, "dark text pixels: \(dark)")
    }

    /// A label too large to draw (over the text limit, or its bitmap over `SpriteImage.maxSide`)
    /// is refused, not fitted; one that can be drawn moves the view.
    @Test func aLabelTooLargeToDrawIsRefusedNotFitted() throws {
        func camera(_ label: String?) throws -> (Double, Double, Double) {
            let labelJSON = label.map { ", \"label\": \"\($0)\"" } ?? ""
            let s = try loader.snapshot(from: doc("""
                {"size": [400, 300], "basemap": "none",
                 "overlays": [{"type": "marker", "position": [0, 0]\(labelJSON)}, {"type": "marker", "position": [0.001, 0.001]}]}
                """))
            return (s.camera.center.lat, s.camera.center.lon, s.camera.zoom)
        }
        let plain = try camera(nil)
        #expect { try camera(String(repeating: "x", count: 5000)) } throws: { "\($0)".contains("overlays[0] label: 5000 characters") }
        // 301 lines (the last one empty) of 14 px text, 16.8 px apart: 5057 px and the halo high.
        #expect { try camera(String(repeating: "y\\n", count: 300)) } throws: { "\($0)".contains(#"overlays[0].label: 'y\ny\ny"#) && "\($0)".contains("×506") }
        // A label that can be drawn moves the view.
        #expect(try camera(String(repeating: "z", count: 40)) != plain)
    }

    /// A label longer than the image is cut rather than zooming the markers into a corner: the
    /// markers keep at least a quarter of the width.
    @Test func aLabelLongerThanTheImageIsCut() throws {
        let long = String(repeating: "Notre-Dame de Paris ", count: 4)
        let s = try loader.snapshot(from: doc("""
            {"size": [400, 300], "basemap": "none", "attribution": false,
             "overlays": [{"type": "marker", "position": [48.853, 2.349], "label": "\(long)"},
                          {"type": "marker", "position": [48.86, 2.33]}]}
            """))
        let a = try #require(s.camera.project(LatLng(lat: 48.853, lon: 2.349)))
        let b = try #require(s.camera.project(LatLng(lat: 48.86, lon: 2.33)))
        #expect(a.x - b.x >= 400 / 4 - 40, "the markers are \(a.x - b.x) px apart")
        #expect(a.x <= 400 - 24 && b.x >= 24)
    }
}

/// Polygon overlays of a scene file (and so of a posted scene and the static-map URL grammars)
/// are grouped as a GeoJSON file's polygons are (`Overlay.mergingAlikeRuns`).
@Suite struct ScenePolygonGroupingTests: SceneFixture {
    /// Two translucent polygons without outline that share an edge are drawn in one layer:
    /// every pixel across the edge mixes the two colours over the white ground (on the line
    /// between them), where drawn one by one the second's antialiased edge blended again over
    /// the first: a seam off that line by 10.7 levels (measured before the grouping).
    @Test func translucentNeighboursMeetWithoutASeam() throws {
        // The shared edge at lon 0.0003: 1.75 px right of the centre at zoom 12 (x = 101.75).
        let s = try loader.snapshot(from: doc("""
            {"size": [200, 100], "basemap": "none", "attribution": false, "camera": {"center": [0, 0], "zoom": 12},
             "overlays": [{"type": "polygon", "rings": [[[-0.004, -0.008], [-0.004, 0.0003], [0.004, 0.0003], [0.004, -0.008]]], "fill": "#e41a1c99"},
                          {"type": "polygon", "rings": [[[-0.004, 0.0003], [-0.004, 0.008], [0.004, 0.008], [0.004, 0.0003]]], "fill": "#377eb899"}]}
            """))
        let layers = s.overlays.compactMap { o -> Int? in if case .multiPolygon(let m) = o { m.layer } else { nil } }
        #expect(s.overlays.count == 2 && layers.count == 2 && Set(layers).count == 1, "\(s.overlays.count) overlays, layers \(layers)")
        let image = try MapSnapshotter().render(s)
        func over(_ rgb: [Double]) -> [Double] { rgb.map { 0.6 * $0 + 0.4 * 255 } }
        let pixels = try (30 ..< 70).flatMap { y in
            try (90 ..< 112).map { x in
                let p = try #require(image.pixel(x: x, y: y))
                return [Double(p.r), Double(p.g), Double(p.b)]
            }
        }
        let worst = farthestFromMixingLine(over([0xE4, 0x1A, 0x1C]), over([0x37, 0x7E, 0xB8]), pixels: pixels)
        #expect(worst <= 2, "farthest pixel from the two colours' mixing line: \(worst) levels")
    }
}
