import Foundation
import GeoKit
import Hummingbird
import HummingbirdTesting
import MapImage
import MapServer
import MapTestSupport
import MapTiles
import Testing

/// Every endpoint through the router, without sockets.
@Suite struct RouterTests {
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await TestServer.app().test(.router) { client in
            try await client.execute(uri: uri, method: .get, headers: headers)
        }
    }

    func post(_ uri: String, _ body: String) async throws -> TestResponse {
        try await TestServer.app().test(.router) { client in
            try await client.execute(uri: uri, method: .post, body: ByteBuffer(string: body))
        }
    }

    func image(_ r: TestResponse) throws -> Bitmap { try Bitmap(imageData: r.body.bytes) }

    /// `{"error": …, "parameter": …}` of a refused request.
    func error(_ r: TestResponse) throws -> (error: String, parameter: String?) {
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.body.bytes)) as? [String: String], "not JSON: \(r.body.text)")
        return (try #require(o["error"]), o["parameter"])
    }

    @Test func googleMarkersAndPathLandWhereWebMercatorPutsThem() async throws {
        // Paris, with Brussels and London on a red path; Google zoom 5, 600×400.
        let c = (48.8566, 2.3522)
        let uri = "/static?center=48.8566,2.3522&zoom=5&size=600x400&key=IGNORED&maptype=roadmap&sensor=false"
            + "&markers=color:0x00ffff%7C48.8566,2.3522&markers=%7Ccolor:0xff00ff%7C%7C51.5074,-0.1278"
            + "&path=color:0xff0000ff%7Cweight:6%7C48.8566,2.3522%7C50.85,4.35%7C51.5074,-0.1278"
        let r = try await get(uri)
        #expect(r.status == .ok)
        #expect(r.headers[.contentType] == "image/png")
        let img = try image(r)
        #expect(img.width == 600 && img.height == 400)
        // Pin heads 26 px above their tips (the white dot at 20 px is skipped).
        for (p, rgb) in [((48.8566, 2.3522), UInt32(0x00FFFF)), ((51.5074, -0.1278), 0xFF00FF)] {
            let q = imagePixel(p, center: c, googleZoom: 5, w: 600, h: 400)
            #expect(distance(img.pixel(x: Int(q.x), y: Int(q.y) - 26), rgb) < 40, "pin at \(p) not at \(q)")
        }
        // The path's middle between Paris and Brussels (a straight Mercator segment).
        let a = imagePixel((48.8566, 2.3522), center: c, googleZoom: 5, w: 600, h: 400)
        let b = imagePixel((50.85, 4.35), center: c, googleZoom: 5, w: 600, h: 400)
        #expect(distance(img.pixel(x: Int((a.x + b.x) / 2), y: Int((a.y + b.y) / 2)), 0xFF0000) < 30)
        // A point well off the path is not red.
        #expect(distance(img.pixel(x: Int((a.x + b.x) / 2) + 30, y: Int((a.y + b.y) / 2) + 30), 0xFF0000) > 60)
    }

    @Test func encodedPathsTakeTheRestOfTheValueBarsIncluded() async throws {
        // Two points whose encoding contains '|' (ASCII 124): latitude step 0 → '?', longitude steps that encode to '|'.
        let pts = [LatLng(lat: 10, lon: 10), LatLng(lat: 10.00059, lon: 10.3)]
        let enc = try PolylineCodec.encode(pts)
        // The first small latitude step whose encoding holds a '|'.
        var step = 0.0, withBar = ""
        for k in 1 ... 5000 {
            step = Double(k) / 1e5
            withBar = try PolylineCodec.encode([LatLng(lat: 0, lon: 0), LatLng(lat: step, lon: 0)])
            if withBar.contains("|") { break }
        }
        #expect(withBar.contains("|"), "\(withBar)")
        let q = try GoogleStatic.parse(query: QueryString.parse("size=100x100&path=color:red%7Cenc:\(withBar.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"),
                                       limits: RequestLimits())
        let route = try #require(q.scene.overlays?.first)
        #expect(route.coordinates?.count == 2)
        #expect(abs((route.coordinates?[1][0] ?? 0) - step) < 1e-9)
        let r = try await get("/static?size=300x200&path=weight:4%7Ccolor:0x0000ffff%7Cenc:\(enc.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
        #expect(r.status == .ok)
        #expect(extent(of: 0x0000FF, in: try image(r), tolerance: 40) != nil)
    }

    @Test func fittedViewsKeepPinsAndLineWidthsInsideThePadding() async throws {
        // No center/zoom: the view fits two pins and a path; pin heads (33 px above the tips) stay inside.
        let r = try await get("/static?size=400x300&markers=color:0xff00ff%7C40,-100%7C45,-80&path=color:0x00ffffff%7Cweight:10%7C40,-100%7C45,-80")
        #expect(r.status == .ok)
        let img = try image(r)
        let pins = try #require(extent(of: 0xFF00FF, in: img))
        let line = try #require(extent(of: 0x00FFFF, in: img))
        for box in [pins, line] {
            #expect(box.minX >= 10 && box.minY >= 10 && box.maxX <= 389 && box.maxY <= 289, "\(box) is not inside the 12-px padding")
        }
        // Fitted tightly: the drawing spans the padded width or height.
        let spanX = max(pins.maxX, line.maxX) - min(pins.minX, line.minX), spanY = max(pins.maxY, line.maxY) - min(pins.minY, line.minY)
        #expect(spanX >= 330 || spanY >= 230, "loose fit: \(spanX)×\(spanY)")
    }

    @Test func mapboxPathPinsAndAutoFitDrawEverythingInside() async throws {
        let poly = try PolylineCodec.encode([LatLng(lat: 37.77, lon: -122.47), LatLng(lat: 37.80, lon: -122.40), LatLng(lat: 37.75, lon: -122.38)])
        let o = "pin-s-a+ff00ff(-122.47,37.77),pin-l+00ffff(-122.38,37.75),path-8+0000ff-1(\(poly.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!))"
        let r = try await get("/styles/v1/mapbox/streets-v12/static/\(o)/auto/500x300?access_token=pk.x&padding=30")
        #expect(r.status == .ok, "\(r.body.text)")
        let img = try image(r)
        #expect(img.width == 500)
        for rgb: UInt32 in [0xFF00FF, 0x00FFFF, 0x0000FF] {
            let box = try #require(extent(of: rgb, in: img, tolerance: 40), "colour \(String(rgb, radix: 16)) missing")
            #expect(box.minX >= 27 && box.minY >= 27 && box.maxX <= 472 && box.maxY <= 272, "\(box) outside the 30-px padding")
        }
        // @2x doubles the pixels; an explicit camera is lon,lat,zoom,bearing,pitch.
        let hi = try await get("/styles/v1/u/dark-v11/static/pin-s(-122.4,37.8)/-122.4,37.8,12,30,20/200x100@2x")
        #expect(hi.status == .ok)
        let hb = try image(hi)
        #expect(hb.width == 400 && hb.height == 200)
    }

    @Test func mapboxCameraAtAZoomPutsThePinWhereMercatorDoes() async throws {
        // Mapbox's zoom counts 512-px tiles: zoom z = Google zoom z + 1. The large pin's head
        // is centred 1.25 × 21 px above its tip, the white dot in it 3.75 px round: probe 7 px above.
        let r = try await get("/styles/v1/u/s/static/pin-l+ff00ff(2.5,48.5)/2.3522,48.8566,6/600x400")
        #expect(r.status == .ok)
        let q = imagePixel((48.5, 2.5), center: (48.8566, 2.3522), googleZoom: 7, w: 600, h: 400)
        #expect(distance(try image(r).pixel(x: Int(q.x), y: Int(q.y) - 33), 0xFF00FF) < 40)
    }

    /// The coloured head of a pin `k` times the normal size is a disc 15·k px across, its top
    /// 28.5·k px above the tip (the 30-px pin: a 7.5-px body round a centre 21 px up).
    func expectPinHead(_ img: Bitmap, _ rgb: UInt32, tip: (x: Double, y: Double), scale k: Double,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        guard let box = extent(of: rgb, in: img, tolerance: 40) else {
            Issue.record("no pin in \(String(rgb, radix: 16))", sourceLocation: sourceLocation)
            return
        }
        // Pixels within the tolerance are the ones (almost) wholly inside: the width comes out
        // about a pixel under the disc's.
        let width = Double(box.maxX - box.minX + 1)
        #expect(abs(width - 15 * k) <= 1.5, "head \(width) px wide, expected \(15 * k)", sourceLocation: sourceLocation)
        #expect(abs(Double(box.minY) - (tip.y - 28.5 * k)) <= 1.5, "head's top at \(box.minY), tip at \(tip.y)",
                sourceLocation: sourceLocation)
        #expect(abs(Double(box.minX + box.maxX) / 2 - tip.x) <= 1, sourceLocation: sourceLocation)
    }

    /// The pixels within 60 levels of `rgb` inside the head of a pin `k` times the normal size
    /// (the body's disc, 7.5·k px round a centre 21·k px above the tip, less a pixel): their
    /// bounding box, and how many lie within 3 px of the centre.
    func glyphInHead(_ img: Bitmap, _ rgb: UInt32, tip: (x: Double, y: Double), scale k: Double)
        -> (box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?, nearCentre: Int) {
        let cx = tip.x, cy = tip.y - 21 * k, r = 7.5 * k - 1
        var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
        var near = 0
        for y in Int(cy - r) ... Int(cy + r) + 1 {
            for x in Int(cx - r) ... Int(cx + r) + 1 {
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                guard dx * dx + dy * dy <= r * r, distance(img.pixel(x: x, y: y), rgb) <= 60 else { continue }
                box = box.map { (min($0.minX, x), min($0.minY, y), max($0.maxX, x), max($0.maxY, y)) } ?? (x, y, x, y)
                if dx * dx + dy * dy <= 9 { near += 1 }
            }
        }
        return (box, near)
    }

    /// Google's `label:` and Mapbox's `pin-l-7` draw the character in the pin's head, centred,
    /// white on a dark pin and near-black on a light one (WCAG contrast), instead of its white
    /// dot. DejaVu Sans capitals and figures stand 0.729 em high: 8.0 px at the 11-px size.
    @Test func pinGlyphsSitInTheHead() async throws {
        let g = try await get("/static?center=0,-25&zoom=4&size=400x300&markers=color:0x000080%7Clabel:H%7C10,-30"
                              + "&markers=size:small%7Ccolor:0x000080%7Clabel:Q%7C-10,-30")
        #expect(g.status == .ok)
        let gi = try image(g)
        let tipH = imagePixel((10, -30), center: (0, -25), googleZoom: 4, w: 400, h: 300)
        let white = glyphInHead(gi, 0xFFFFFF, tip: tipH, scale: 1)
        let box = try #require(white.box, "no white glyph in the head")
        #expect(abs(Double(box.maxY - box.minY + 1) - 8.0) <= 1.5, "glyph \(box)")
        #expect(abs(Double(box.minY + box.maxY + 1) / 2 - (tipH.y - 21)) <= 1.0, "glyph \(box), head centre \(tipH.y - 21)")
        #expect(abs(Double(box.minX + box.maxX + 1) / 2 - tipH.x) <= 1.2, "glyph \(box), head centre \(tipH.x)")
        // The white dot (3 px round: about 28 pixels) is gone; the H's crossbar crosses the centre.
        #expect(white.nearCentre < 18, "\(white.nearCentre) white pixels round the centre")
        // A small marker (a dot) shows no character, as Google's: nothing dark or white beside it.
        let tipQ = imagePixel((-10, -30), center: (0, -25), googleZoom: 4, w: 400, h: 300)
        for dx in 9 ... 30 {
            let p = gi.pixel(x: Int(tipQ.x) + dx, y: Int(tipQ.y))
            #expect(distance(p, 0x1F2328) > 60 && distance(p, 0x000080) > 60, "text beside the small marker at +\(dx)")
        }
        // Mapbox: a light pin's number in near-black.
        let m = try await get("/styles/v1/u/s/static/pin-l-7+ffd33d(-30,10)/-25,0,3/400x300")
        #expect(m.status == .ok)
        let dark = glyphInHead(try image(m), 0x1F2328, tip: tipH, scale: 1.25)
        let mbox = try #require(dark.box, "no dark glyph in the head")
        // At 1.25 × 11 px: 10.0 px high.
        #expect(abs(Double(mbox.maxY - mbox.minY + 1) - 10.0) <= 1.5, "glyph \(mbox)")
        #expect(abs(Double(mbox.minY + mbox.maxY + 1) / 2 - (tipH.y - 21 * 1.25)) <= 1.0, "glyph \(mbox)")
        // A Maki icon name draws the icon: the bus's ink spans 11 × 13 of its 15 units, centred in
        // them; in a large pin's 16.25-px box about 11.9 × 14.1 px, white on navy.
        let b = try await get("/styles/v1/u/s/static/pin-l-bus+000080(-30,10)/-25,0,3/400x300")
        #expect(b.status == .ok)
        let bus = glyphInHead(try image(b), 0xFFFFFF, tip: tipH, scale: 1.25)
        let bbox = try #require(bus.box, "no white bus in the head")
        #expect(abs(Double(bbox.maxX - bbox.minX + 1) - 11.9) <= 1.5 && abs(Double(bbox.maxY - bbox.minY + 1) - 14.1) <= 1.5, "bus \(bbox)")
        #expect(abs(Double(bbox.minX + bbox.maxX + 1) / 2 - tipH.x) <= 1.0, "bus \(bbox), axis \(tipH.x)")
        #expect(abs(Double(bbox.minY + bbox.maxY + 1) / 2 - (tipH.y - 21 * 1.25)) <= 1.0, "bus \(bbox)")
        let unknown = try await get("/styles/v1/u/s/static/pin-l-buss+000080(-30,10)/-25,0,3/400x300")
        #expect(unknown.status == .badRequest && unknown.body.text.contains("did you mean 'bus'"))
    }

    /// A posted scene's clustered geojson: five points within a few pixels at zoom 3 are one
    /// 28-px disc (24 px of colour inside a 2-px white ring) at their Mercator centroid, its
    /// count in near-black (WCAG contrast on magenta); the lone point far away is a pin.
    @Test func postedClustersDrawOneDiscWithItsCount() async throws {
        let pts = [(10.0, 10.0), (10.05, 10.0), (10.0, 10.05), (9.95, 10.0), (10.0, 9.95)]
        let features = pts.map { #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[\#($0.1),\#($0.0)]}}"# }
            + [##"{"type":"Feature","properties":{"marker-color":"#00ff00"},"geometry":{"type":"Point","coordinates":[-20,-10]}}"##]
        let body = ##"{"size":[400,300],"camera":{"center":[0,0],"zoom":2},"overlays":[{"type":"geojson","cluster":true,"clusterColor":"#ff00ff","data":{"type":"FeatureCollection","features":["##
            + features.joined(separator: ",") + "]}}]}"
        let r = try await post("/static", body)
        #expect(r.status == .ok, "\(r.body.text)")
        let img = try image(r)
        // Ours is zoom 2 on 512-px tiles: Google's zoom 3.
        let c = imagePixel((10, 10), center: (0, 0), googleZoom: 3, w: 400, h: 300)
        let found = extent(of: 0xFF00FF, in: img, tolerance: 40)
        let box = try #require(found, "no disc")
        #expect(abs(Double(box.maxX - box.minX + 1) - 24) <= 1.5 && abs(Double(box.maxY - box.minY + 1) - 24) <= 1.5, "disc \(box)")
        #expect(abs(Double(box.minX + box.maxX + 1) / 2 - c.x) <= 1 && abs(Double(box.minY + box.maxY + 1) / 2 - c.y) <= 1, "disc \(box) at \(c)")
        // The count: dark ink in the disc's middle.
        var ink = 0
        for y in Int(c.y) - 6 ... Int(c.y) + 6 { for x in Int(c.x) - 6 ... Int(c.x) + 6 where distance(img.pixel(x: x, y: y), 0x1F2328) < 60 { ink += 1 } }
        #expect(ink >= 8, "\(ink) dark pixels in the disc")
        // The lone point is a pin (its head 21 px above the tip).
        let q = imagePixel((-10, -20), center: (0, 0), googleZoom: 3, w: 400, h: 300)
        #expect(distance(img.pixel(x: Int(q.x), y: Int(q.y) - 26), 0x00FF00) < 40)
    }

    @Test func pinSizesFollowMapboxAndGoogle() async throws {
        // Mapbox: pin-s and pin-l, and a geojson Point's marker-size, on an ocean view.
        let gj = ##"{"type":"FeatureCollection","features":["##
            + ##"{"type":"Feature","properties":{"marker-size":"small","marker-color":"#00ffff"},"geometry":{"type":"Point","coordinates":[-30,-10]}},"##
            + ##"{"type":"Feature","properties":{"marker-size":"large","marker-color":"#ffff00"},"geometry":{"type":"Point","coordinates":[-20,-10]}}]}"##
        let overlays = "pin-s+ff00ff(-30,10),pin-l+00ff00(-20,10),geojson(\(gj.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!))"
        let r = try await get("/styles/v1/u/s/static/\(overlays)/-25,0,3/400x300")
        #expect(r.status == .ok, "\(r.body.text)")
        let img = try image(r)
        func tip(_ lat: Double, _ lon: Double) -> (x: Double, y: Double) {
            imagePixel((lat, lon), center: (0, -25), googleZoom: 4, w: 400, h: 300)
        }
        expectPinHead(img, 0xFF00FF, tip: tip(10, -30), scale: 0.7)
        expectPinHead(img, 0x00FF00, tip: tip(10, -20), scale: 1.25)
        expectPinHead(img, 0x00FFFF, tip: tip(-10, -30), scale: 0.7)
        expectPinHead(img, 0xFFFF00, tip: tip(-10, -20), scale: 1.25)
        // Google: a mid pin is 0.75 of the normal one.
        let g = try await get("/static?center=0,-25&zoom=4&size=400x300&markers=size:mid%7Ccolor:0xff00ff%7C10,-30"
                              + "&markers=color:0x00ff00%7C10,-20")
        #expect(g.status == .ok)
        let gi = try image(g)
        expectPinHead(gi, 0xFF00FF, tip: tip(10, -30), scale: 0.75)
        expectPinHead(gi, 0x00FF00, tip: tip(10, -20), scale: 1)
        // A size simplestyle does not name is refused with the feature and property.
        let bad = #"{"type":"Feature","properties":{"marker-size":"huge"},"geometry":{"type":"Point","coordinates":[0,0]}}"#
        let b = try await get("/styles/v1/u/s/static/geojson(\(bad.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!))/0,0,3/100x100")
        #expect(b.status == .badRequest)
        #expect(try error(b).error.contains("marker-size"))
    }

    @Test func png8AndGIFAnswerInTheirFormats() async throws {
        let q = "center=20,10&zoom=3&size=300x200&markers=color:red%7C20,10&path=weight:5%7Ccolor:0x0000ff%7C15,0%7C25,20"
        let full = try await get("/maps/api/staticmap?" + q + "&format=png32")
        let p8 = try await get("/maps/api/staticmap?" + q + "&format=png8")
        #expect(full.status == .ok && p8.status == .ok)
        #expect(p8.headers[.contentType] == "image/png")
        let bytes = p8.body.bytes
        #expect(bytes.count > 26 && bytes[25] == 3, "IHDR colour type \(bytes.count > 25 ? bytes[25] : 0), not a palette")
        #expect(bytes.count < full.body.bytes.count)
        // The same map in at most 256 colours: every pixel within a few levels on average.
        let a = try image(full), b = try image(p8)
        var sum = 0
        for y in 0 ..< 200 {
            for x in 0 ..< 300 {
                let u = a.pixel(x: x, y: y)!, v = b.pixel(x: x, y: y)!
                sum += abs(Int(u.r) - Int(v.r)) + abs(Int(u.g) - Int(v.g)) + abs(Int(u.b) - Int(v.b))
            }
        }
        #expect(Double(sum) / (3 * 300 * 200) < 1, "mean difference \(Double(sum) / (3 * 300 * 200))")
        // GIF89a, 300 × 200 (the logical screen, little-endian), as Google's format=gif; posted too.
        for r in [try await get("/maps/api/staticmap?" + q + "&format=gif"),
                  try await post("/static?format=gif", ##"{"size":[300,200],"camera":{"center":[0,0],"zoom":2}}"##)] {
            #expect(r.status == .ok)
            #expect(r.headers[.contentType] == "image/gif")
            let g = r.body.bytes
            #expect(g.count > 10 && Array(g[0 ..< 6]) == Array("GIF89a".utf8) && g[6] == 44 && g[7] == 1 && g[8] == 200 && g[9] == 0)
        }
        let bad = try await get("/static?" + q + "&format=bmp")
        #expect(bad.status == .badRequest)
        #expect(try error(bad).error.contains("png8, png32, gif"))
    }

    @Test func postedScenesRenderAndMayNameNoFileOrURL() async throws {
        let ok = try await post("/static?format=jpg", ##"{"size":[200,100],"camera":{"center":[0,0],"zoom":2},"overlays":[{"type":"circle","position":[0,0],"radius":30,"radiusUnit":"px","fill":"#00ff00"}]}"##)
        #expect(ok.status == .ok)
        #expect(ok.headers[.contentType] == "image/jpeg")
        let img = try image(ok)
        #expect(distance(img.pixel(x: 100, y: 50), 0x00FF00) < 40)
        for (body, parameter) in [
            (#"{"overlays":[{"type":"route","file":"/etc/passwd"}]}"#, "overlays[0].file"),
            (#"{"overlays":[{"type":"marker","position":[0,0],"icon":"/etc/hosts"}]}"#, "overlays[0].icon"),
            (#"{"tiles":[{"source":"http://example.com/{z}/{x}/{y}.png"}],"camera":{"center":[0,0],"zoom":1}}"#, "tiles"),
        ] {
            let r = try await post("/static", body)
            #expect(r.status == .badRequest)
            #expect(try error(r).parameter == parameter, "\(r.body.text)")
        }
        let broken = try await post("/static", "{\"size\": [10,")
        #expect(broken.status == .badRequest)
        #expect(try error(broken).parameter == "body")
        let huge = try await post("/static", "{\"x\":\"" + String(repeating: "a", count: 1_100_000) + "\"}")
        #expect(huge.status == .contentTooLarge)
    }

    /// Two translucent filled paths without an outline that share an edge (Google's grammar, as
    /// a client sends them) meet without a seam: every pixel across the edge mixes the two
    /// colours over the sea under them, where drawn one by one the second covered the first's
    /// antialiased edge pixel over what it had blended: 9.7 levels off the mixing line.
    @Test func googleFilledPathsSharingAnEdgeMeetWithoutASeam() async throws {
        let square = { (lon0: String, lon1: String, fill: String) in
            "path=color:0x00000000%7Cweight:0%7Cfillcolor:\(fill)%7C-0.004,\(lon0)%7C-0.004,\(lon1)%7C0.004,\(lon1)%7C0.004,\(lon0)%7C-0.004,\(lon0)"
        }
        // Google's zoom 12 is 2^12 256-px tiles: the shared edge (lon 0.00048) at x = 101.4, 0.1 px left of
        // pixel 101's centre (the first square's fringe takes 0.4 of it, the second covers it).
        let r = try await get("/maps/api/staticmap?size=200x100&center=0,0&zoom=12&" + square("-0.008", "0.00048", "0xE41A1C99")
            + "&" + square("0.00048", "0.008", "0x377EB899"))
        #expect(r.status == .ok, "\(r.body.text)")
        let img = try image(r)
        let sea = try #require(img.pixel(x: 5, y: 5))
        func over(_ rgb: [Double]) -> [Double] { zip(rgb, [sea.r, sea.g, sea.b]).map { 0.6 * $0 + 0.4 * Double($1) } }
        let pixels = try (42 ..< 58).flatMap { y in
            try (85 ..< 115).map { x in
                let p = try #require(img.pixel(x: x, y: y))
                return [Double(p.r), Double(p.g), Double(p.b)]
            }
        }
        let worst = farthestFromMixingLine(over([0xE4, 0x1A, 0x1C]), over([0x37, 0x7E, 0xB8]), pixels: pixels)
        #expect(worst <= 2, "farthest pixel from the two colours' mixing line: \(worst) levels")
    }

    /// Inline GeoJSON in a posted scene draws in its simplestyle colours; the server reads no
    /// file, and a bad property is refused naming the overlay's data.
    @Test func postedGeoJSONDrawsInItsColours() async throws {
        let ok = try await post("/static", ##"""
            {"size": [200, 100], "camera": {"center": [0, 0], "zoom": 3}, "basemap": "none", "attribution": false,
             "overlays": [{"type": "geojson", "data": {"type": "FeatureCollection", "features": [
               {"type": "Feature", "properties": {"fill": "#ff0000", "fill-opacity": 1, "stroke-width": 0},
                "geometry": {"type": "Polygon", "coordinates": [[[-5, -5], [5, -5], [5, 5], [-5, 5], [-5, -5]]]}},
               {"type": "Feature", "properties": {"stroke": "#0000ff", "stroke-width": 6},
                "geometry": {"type": "LineString", "coordinates": [[6, -10], [6, 10]]}}]}}]}
            """##)
        #expect(ok.status == .ok, "\(ok.body.text)")
        let img = try image(ok)
        // Zoom 3, 512-px world at zoom 0: 4096 px around the world, 11.38 px a degree of longitude.
        #expect(distance(img.pixel(x: 100, y: 50), 0xFF0000) < 10)
        #expect(distance(img.pixel(x: 100 + Int((6 * 4096 / 360.0).rounded()), y: 50), 0x0000FF) < 10)
        #expect(distance(img.pixel(x: 160, y: 50), 0xFF0000) > 100 && distance(img.pixel(x: 160, y: 50), 0x0000FF) > 100)
        for (body, parameter) in [
            (#"{"overlays":[{"type":"geojson","file":"/etc/passwd"}]}"#, "overlays[0].file"),
            (#"{"overlays":[{"type":"geojson"}]}"#, "overlays[0].data"),
            (#"{"overlays":[{"type":"geojson","data":{"type":"Point","coordinates":[0,0],"properties":{}},"color":"nope"}]}"#, "overlays[0].color"),
            (#"{"overlays":[{"type":"geojson","data":{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"marker-color":"plaid"}}}]}"#, "overlays[0].data"),
        ] {
            let r = try await post("/static", body)
            #expect(r.status == .badRequest, "\(body)")
            #expect(try error(r).parameter == parameter, "\(r.body.text)")
        }
        let r = try await post("/static", #"{"overlays":[{"type":"geojson","data":{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"marker-color":"plaid"}}}]}"#)
        #expect(try error(r).error.contains("marker-color"), "\(r.body.text)")
    }

    @Test func badParametersAreRefusedNamingTheParameter() async throws {
        let cases: [(String, HTTPResponse.Status, String?)] = [
            ("/static?center=nan,1&zoom=3&size=10x10", .badRequest, "center"),
            ("/static?center=1,2&zoom=3&size=99999x10", .badRequest, "size"),
            ("/static?center=1,2&zoom=3&size=100x100&scale=3", .badRequest, "scale"),
            ("/static?center=1,2&zoom=3&size=2048x2048&scale=4", .badRequest, "scale"),
            ("/static?center=1,2&zoom=300&size=100x100", .badRequest, "zoom"),
            ("/static?center=1,2&zoom=3", .badRequest, "size"),
            ("/static?size=100x100", .badRequest, "center"),
            ("/static?center=Berlin&zoom=3&size=100x100", .badRequest, "center"),
            ("/static?center=1,2&zoom=3&size=100x100&markers=icon:http://x/y.png%7C1,2", .badRequest, "markers"),
            ("/static?center=1,2&zoom=3&size=100x100&path=enc:%7F%7F%7F", .badRequest, "path"),
            ("/static?center=1,2&zoom=3&size=100x100&path=1,2", .badRequest, "path"),
            ("/static?center=1,2&zoom=3&size=100x100&format=tiff", .badRequest, "format"),
            ("/static?center=%FF%FE,1&zoom=3&size=10x10", .badRequest, "center"),
            ("/static?center=%4&zoom=3&size=10x10", .badRequest, "center"),
            ("/static?center=1,2&zoom=3&size=100x100&bogus=1", .badRequest, "bogus"),
            ("/static?center=1,2&zoom=3&size=100x100&circle=1,2,-5m", .badRequest, "circle"),
            ("/styles/v1/u/s/static/url-http%3A%2F%2Fx(1,2)/auto/100x100", .badRequest, "overlays"),
            ("/styles/v1/u/s/static/pin-s(1,2/auto/100x100", .badRequest, "overlays"),
            ("/styles/v1/u/s/static/1,2,3/99999x1", .badRequest, "size"),
            ("/styles/v1/u/s/static/1,2/100x100", .badRequest, "camera"),
            ("/tiles/3/8/0.png", .notFound, "x/y"),
            ("/tiles/a/b/c.png", .badRequest, "z/x/y"),
            ("/tiles/30/0/0.png", .notFound, "z"),
            ("/data/nope/0/0/0.png", .notFound, "name"),
            ("/data/mb/0/0/0.jpg", .notFound, "ext"),
            ("/data/mb/5/0/0.png", .notFound, "z/x/y"),
            ("/nowhere", .notFound, "path"),
        ]
        for (uri, status, parameter) in cases {
            let r = try await get(uri)
            #expect(r.status == status, "\(uri): \(r.status) \(r.body.text)")
            let e = try error(r)
            #expect(e.parameter == parameter, "\(uri): \(e)")
            #expect(!e.error.isEmpty)
        }
        // 100,000 markers: refused by count, quickly.
        let many = (0 ..< 100_000).map { _ in "1,2" }.joined(separator: "%7C")
        let r = try await get("/static?size=100x100&markers=" + many)
        #expect(r.status == .badRequest || r.status == .uriTooLong)
    }

    @Test func tilesAreTheBasemapWithTheConfiguredScenes() async throws {
        let t = try await get("/tiles/1/0/0.png")
        #expect(t.status == .ok)
        let img = try image(t)
        #expect(img.width == 256 && img.height == 256)
        // The scene's magenta circle of 40 px sits on 0,0: the bottom-right corner of tile 1/0/0.
        #expect(distance(img.pixel(x: 250, y: 250), 0xFF00FF) < 30)
        #expect(distance(img.pixel(x: 128, y: 128), 0xFF00FF) > 60)
        let hi = try await get("/tiles/1/1/1@2x.png")
        let hb = try image(hi)
        #expect(hb.width == 512)
        #expect(distance(hb.pixel(x: 4, y: 4), 0xFF00FF) < 30)
        let j = try await get("/tiles.json")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(j.body.bytes)) as? [String: Any])
        #expect(o["tilejson"] as? String == "3.0.0")
        #expect((o["tiles"] as? [String])?.first?.hasSuffix("/tiles/{z}/{x}/{y}.png") == true)
    }

    @Test func archivesAreServedAsStoredAndNothingElse() async throws {
        for name in ["mb", "pm"] {
            for (id, data) in TestServer.stored {
                let r = try await get("/data/\(name)/\(id.z)/\(id.x)/\(id.y).png")
                #expect(r.status == .ok)
                #expect(r.body.bytes == data, "\(name) \(id)")
                #expect(r.headers[.contentType] == "image/png")
            }
            let missing = try await get("/data/\(name)/2/0/0.png")
            #expect(missing.status == .notFound)
        }
        for uri in ["/data/../../etc/passwd", "/data/mb/../../../etc/passwd", "/data/%2e%2e/0/0/0.png", "/data/mb/0/0/..%2f..%2fetc%2fpasswd",
                    "/leaflet/..%2f..%2fetc%2fpasswd", "/tiles/../../etc/passwd"] {
            let r = try await get(uri)
            #expect(r.status.code >= 400 && r.status.code < 500, "\(uri): \(r.status)")
            #expect(!r.body.text.contains("root:"), "\(uri)")
        }
    }

    @Test func etagsAnswerNotModifiedAndHeadersSayHowToCache() async throws {
        let uri = "/static?center=10,10&zoom=4&size=120x90"
        let a = try await get(uri)
        let etag = try #require(a.headers[.eTag])
        #expect(a.headers[.cacheControl]?.contains("max-age=") == true)
        let b = try await get(uri, headers: [.ifNoneMatch: etag])
        #expect(b.status == .notModified)
        #expect(b.body.readableBytes == 0)
        // The same request spelt differently (order, ignored keys) is the same image.
        let c = try await get("/static?size=120x90&key=abc&zoom=4&center=10,10", headers: [.ifNoneMatch: etag])
        #expect(c.status == .notModified)
    }

    @Test func healthAndPrometheusMetrics() async throws {
        _ = try await get("/static?center=0,0&zoom=1&size=64x64")
        _ = try await get("/tiles/9/0/99999.png")
        let h = try await get("/healthz")
        #expect(h.status == .ok && h.body.text.contains("\"ok\""))
        let m = try await get("/metrics").body.text
        for needle in ["mapwright_requests_total{", "route=\"static\"", "status=\"200\"", "status=\"404\"",
                       "mapwright_request_duration_seconds_bucket{", "mapwright_queue_depth", "mapwright_renders_total",
                       "mapwright_cache_hits_total", "mapwright_image_cache_entries"] {
            #expect(m.contains(needle), "metrics lack \(needle)")
        }
        // The image just rendered is in a cache (this process's servers share the registry).
        let cached = m.split(separator: "\n").first { $0.hasPrefix("mapwright_image_cache_bytes ") }
        #expect((cached?.split(separator: " ").last.flatMap { Double($0) } ?? 0) > 100, "\(cached ?? "no cache size")")
    }

    @Test func aNarrowImageGetsAShortAttributionThatFits() async throws {
        // 300 px is too narrow for Natural Earth's whole sentence: the short credit is drawn in the
        // bottom-right corner and the left of the bottom rows is the map, as without attribution.
        let with = try image(try await get("/static?size=300x150&center=48,2&zoom=5"))
        let without = try image(try await get("/static?size=300x150&center=48,2&zoom=5&attribution=false"))
        var leftDiffers = 0, rightDiffers = 0
        for y in 138 ..< 150 {
            for x in 0 ..< 300 where with.pixel(x: x, y: y) != without.pixel(x: x, y: y) {
                if x < 120 { leftDiffers += 1 } else { rightDiffers += 1 }
            }
        }
        #expect(leftDiffers == 0, "the attribution reaches the left edge")
        #expect(rightDiffers > 100, "no attribution drawn")
    }

    /// HEAD is GET without the body, for every endpoint (RFC 9110 §9.3.2).
    @Test func headAnswersAsGetWithoutABody() async throws {
        for uri in ["/tiles/0/0/0.png", "/static?center=10,10&zoom=2&size=80x60", "/tiles.json", "/healthz", "/data/mb/0/0/0.png"] {
            let g = try await get(uri)
            let h = try await TestServer.app().test(.router) { client in try await client.execute(uri: uri, method: .head) }
            #expect(h.status == g.status && h.status == .ok, "\(uri): \(h.status)")
            #expect(h.headers[.contentType] == g.headers[.contentType], "\(uri)")
            #expect(h.headers[.eTag] == g.headers[.eTag], "\(uri)")
            #expect(h.body.readableBytes == 0, "\(uri)")
        }
        let missing = try await TestServer.app().test(.router) { client in try await client.execute(uri: "/tiles/9/0/99999.png", method: .head) }
        #expect(missing.status == .notFound)
    }

    /// Browsers on other origins (MapLibre GL JS fetches tiles and TileJSON) get
    /// `Access-Control-Allow-Origin: *` on answers and refusals alike, and preflights are answered.
    @Test func crossOriginRequestsAreAllowed() async throws {
        let origin: HTTPFields = [.origin: "https://maps.example.org"]
        for uri in ["/tiles/0/0/0.png", "/tiles.json", "/tiles/9/0/99999.png", "/static?size=10x10"] {
            let r = try await get(uri, headers: origin)
            #expect(r.headers[.accessControlAllowOrigin] == "*", "\(uri): \(r.status)")
            #expect(r.headers[.accessControlExposeHeaders]?.contains("ETag") == true, "\(uri)")
        }
        let plain = try await get("/tiles/0/0/0.png")
        #expect(plain.headers[.accessControlAllowOrigin] == nil, "no Origin, no CORS headers")
        let pre = try await TestServer.app().test(.router) { client in
            try await client.execute(uri: "/static", method: .options,
                                     headers: [.origin: "https://maps.example.org", .accessControlRequestMethod: "POST",
                                               .accessControlRequestHeaders: "content-type"])
        }
        #expect(pre.status == .noContent)
        #expect(pre.headers[.accessControlAllowOrigin] == "*")
        #expect(pre.headers[.accessControlAllowMethods]?.contains("POST") == true)
        #expect(pre.headers[.accessControlAllowHeaders]?.contains("content-type") == true)
    }

    @Test func corsIsConfigurable() async throws {
        for (value, expected) in [("none", nil), ("https://maps.example.org", "https://maps.example.org")] as [(String, String?)] {
            var c = ServerConfig()
            c.workers = 1
            c.cors = value
            let server = try MapServer(config: c)
            defer { server.shutdown() }
            let r = try await Application(router: server.router()).test(.router) { client in
                try await client.execute(uri: "/tiles.json", method: .get, headers: [.origin: "https://other.example.org"])
            }
            #expect(r.headers[.accessControlAllowOrigin] == expected, "\(value)")
        }
        for bad in ["https://a.org, https://b.org", "a.org", "https://a.org\r\nX: y", ""] {
            var c = ServerConfig()
            c.cors = bad
            #expect(throws: ServerConfigError.self, "\(bad)") { try c.validate() }
        }
    }

    @Test func theSlippyPageUsesLeafletOrItsOwnViewer() async throws {
        let r = try await get("/")
        #expect(r.status == .ok)
        #expect(r.body.text.contains("/tiles/{z}/{x}/{y}") || r.body.text.contains("'/tiles/'"))
        if FileManager.default.fileExists(atPath: "/usr/share/javascript/leaflet/leaflet.js") {
            let js = try await get("/leaflet/leaflet.js")
            #expect(js.status == .ok && js.body.readableBytes > 10_000)
        }
    }
}

/// `--tiles`: a raster basemap under the tiles and static images.
@Suite struct RasterBasemapTests {
    @Test func tilesAndStaticImagesDrawTheRasterBasemap() async throws {
        // An MBTiles archive of solid 256-px tiles at zoom 1, each its own colour.
        let path = TestServer.scratch.appendingPathComponent("raster-\(UUID().uuidString).mbtiles").path
        let w = try MBTilesWriter(path: path)
        var colours: [TileID: RGBA8] = [:]
        for x in 0 ..< 2 {
            for y in 0 ..< 2 {
                let id = try TileID(z: 1, x: x, y: y)
                let c = RGBA8(r: UInt8(60 + 120 * x), g: UInt8(60 + 120 * y), b: 90, a: 255)
                colours[id] = c
                try w.add(id, data: try Bitmap(width: 256, height: 256, fill: c).pngData())
            }
        }
        try w.setMetadata("format", "png")
        try w.setMetadata("minzoom", "1")
        try w.setMetadata("maxzoom", "1")
        try w.setMetadata("attribution", "Test raster")
        try w.finish()
        var c = ServerConfig()
        c.workers = 1
        c.tiles = [path]
        let server = try MapServer(config: c)
        defer { server.shutdown() }
        let app = Application(router: server.router())
        let want = colours
        try await app.test(.router) { client in
            // Tile 1/1/0 of our pyramid is the archive's tile 1/1/0, pixel for pixel.
            let t = try await client.execute(uri: "/tiles/1/1/0.png", method: .get)
            #expect(t.status == .ok)
            let img = try Bitmap(imageData: t.body.bytes)
            let tileColour = want[try TileID(z: 1, x: 1, y: 0)]!
            for (x, y) in [(5, 5), (128, 128), (250, 250)] { #expect(img.pixel(x: x, y: y) == tileColour, "\(x),\(y)") }
            // A static image across the four tiles: each quarter in its tile's colour.
            let s = try await client.execute(uri: "/static?center=0,0&zoom=1&size=200x200&attribution=false", method: .get)
            let si = try Bitmap(imageData: s.body.bytes)
            for (x, y, id) in [(50, 50, try TileID(z: 1, x: 0, y: 0)), (150, 50, try TileID(z: 1, x: 1, y: 0)),
                               (50, 150, try TileID(z: 1, x: 0, y: 1)), (150, 150, try TileID(z: 1, x: 1, y: 1))] {
                #expect(distance(si.pixel(x: x, y: y), UInt32(want[id]!.r) << 16 | UInt32(want[id]!.g) << 8 | 90) <= 2, "\(id)")
            }
            let j = try await client.execute(uri: "/tiles.json", method: .get)
            #expect(j.body.text.contains("Test raster"))
        }
    }

    /// A vector archive behind the server: static maps draw GDAL's lake in the light style, and in
    /// the dark one when a Mapbox style id says dark, from the same layers.
    @Test func vectorTilesFollowEachRequestsStyle() async throws {
        let archive = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../MapTilesTests/Fixtures/vector/vector-fixture.mbtiles").standardized.path
        var c = ServerConfig()
        c.workers = 1
        c.tiles = [archive]
        let server = try MapServer(config: c)
        defer { server.shutdown() }
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            // The lake's north part (46.016, 7.006) is the centre of each image.
            let light = try await client.execute(uri: "/static?center=46.016,7.006&zoom=13&size=100x100&attribution=false", method: .get)
            #expect(light.status == .ok)
            #expect(try Bitmap(imageData: light.body.bytes).pixel(x: 50, y: 50) == RGBA8(r: 0xAA, g: 0xD3, b: 0xDF, a: 255))
            let dark = try await client.execute(uri: "/styles/v1/me/dark-v11/static/7.006,46.016,13/100x100?attribution=false", method: .get)
            #expect(dark.status == .ok, "\(dark.body.text)")
            #expect(try Bitmap(imageData: dark.body.bytes).pixel(x: 50, y: 50) == RGBA8(r: 0x0F, g: 0x1B, b: 0x2D, a: 255))
            // Past the archive's tiles the ground is the request's style's (the dark style's
            // background #454A53, not the light one's #F2EFE9).
            let darkAway = try await client.execute(uri: "/styles/v1/me/dark-v11/static/-40,-30,13/100x100?attribution=false", method: .get)
            #expect(try Bitmap(imageData: darkAway.body.bytes).pixel(x: 50, y: 50) == RGBA8(r: 0x45, g: 0x4A, b: 0x53, a: 255))
            // A POST's vectorStyle recolours the water over the base it names.
            let body = #"{"camera":{"center":[46.016,7.006],"zoom":13},"size":[100,100],"attribution":false,"# +
                ##""vectorStyle":{"base":"dark","colors":{"water":"#FF0000"}}}"##
            let posted = try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: body))
            #expect(posted.status == .ok, "\(posted.body.text)")
            #expect(try Bitmap(imageData: posted.body.bytes).pixel(x: 50, y: 50) == RGBA8(r: 255, g: 0, b: 0, a: 255))
            let badKind = try await client.execute(uri: "/static", method: .post,
                                                   body: ByteBuffer(string: #"{"camera":{"center":[46,7],"zoom":13},"size":[100,100],"vectorStyle":{"colors":{"lava":"red"}}}"#))
            #expect(badKind.status == .badRequest && badKind.body.text.contains("vectorStyle.colors.lava"), "\(badKind.body.text)")
            // Google's language: the place's name:de where it has one, else its own name.
            func image(_ extra: String) async throws -> Bitmap {
                let r = try await client.execute(uri: "/maps/api/staticmap?center=46.04,7.025&zoom=14&size=300x100&attribution=false\(extra)",
                                                 method: .get)
                #expect(r.status == .ok, "\(r.body.text)")
                return try Bitmap(imageData: r.body.bytes)
            }
            let local = try await image(""), german = try await image("&language=de"), french = try await image("&language=fr")
            let differs = local.pixels != german.pixels, same = local.pixels == french.pixels
            #expect(differs, "Prüfstadt is drawn instead of Testville")
            #expect(same, "no name:fr: the local name")
            let bad = try await client.execute(uri: "/maps/api/staticmap?center=46.04,7.04&zoom=14&size=300x100&language=e%20n", method: .get)
            #expect(bad.status == .badRequest && bad.body.text.contains("language"), "\(bad.body.text)")
        }
        // A dark server's /tiles: the ground away from the archive's tiles is the dark background.
        c.style = "dark"
        let darkServer = try MapServer(config: c)
        defer { darkServer.shutdown() }
        try await Application(router: darkServer.router()).test(.router) { client in
            let t = try await client.execute(uri: "/tiles/13/0/0.png", method: .get)
            #expect(t.status == .ok)
            #expect(try Bitmap(imageData: t.body.bytes).pixel(x: 128, y: 128) == RGBA8(r: 0x45, g: 0x4A, b: 0x53, a: 255))
        }
    }
}
