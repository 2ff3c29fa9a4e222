import Foundation
import GeoKit
import Hummingbird
import HummingbirdTesting
import MapImage
import MapServer
import MapSnapshot
import Testing

/// The URL grammars parsed into scenes, parameter by parameter, and the renderer pool's refusals.
@Suite struct GrammarTests {
    func google(_ q: String) throws -> StaticRequest {
        try GoogleStatic.parse(query: QueryString.parse(Substring(q)), limits: RequestLimits())
    }

    /// Google's `style` rules: the one that hides labels (of every feature, or the
    /// administrative ones) leaves out the basemap's place names; others are ignored.
    @Test func googleStylesThatHideLabelsHideThePlaceNames() throws {
        let base = "center=10,20&zoom=4&size=30x20"
        for (style, hides) in [("feature:all%7Celement:labels%7Cvisibility:off", true),
                               ("element:labels.text%7Cvisibility:off", true),
                               ("feature:administrative.locality%7Celement:labels%7Cvisibility:off", true),
                               ("feature:poi%7Celement:labels%7Cvisibility:off", false),
                               ("feature:all%7Celement:labels%7Cvisibility:on", false),
                               ("feature:road%7Celement:geometry%7Ccolor:0xff0000", false),
                               ("feature:all%7Cvisibility:off", false)] {
            let d = try google(base + "&style=" + style).scene
            #expect(d.placeLabels == (hides ? false : nil), "\(style)")
        }
        // Among several rules, any one that hides them.
        #expect(try google(base + "&style=feature:road%7Ccolor:0x00ff00&style=element:labels%7Cvisibility:off").scene.placeLabels == false)
    }

    @Test func googleParametersBecomeTheScene() throws {
        let r = try google("center=10,20&zoom=4&size=300x200&scale=2&format=jpg-baseline&bearing=30&pitch=40&theme=dark"
            + "&circle=1,2,5km%7Ccolor:0x00ff00%7Cweight:3&circle=3,4,20px&visible=5,6%7C7,8&path=geodesic:true%7C1,2%7C3,4"
            + "&markers=size:tiny%7Ccolor:purple%7C1,1&language=de&region=fr&signature=x&&")
        let d = r.scene
        #expect(r.format == .jpeg)
        #expect(d.size == [300, 200] && d.scale == 2 && d.style == "dark")
        #expect(d.camera?.center == [10, 20] && d.camera?.zoom == 3)  // Google's zoom 4 = ours 3
        #expect(d.camera?.bearing == 30 && d.camera?.pitch == 40)
        #expect(d.camera?.visible == [[5, 6], [7, 8]])
        let o = try #require(d.overlays)
        #expect(o.count == 4)
        #expect(o[0].type == "circle" && o[0].radius == 5 && o[0].radiusUnit == "km" && o[0].stroke == "#00ff00" && o[0].strokeWidth == 3)
        #expect(o[1].radius == 20 && o[1].radiusUnit == "px")
        #expect(o[2].type == "route" && o[2].geodesic == true && o[2].width == 5)
        #expect(o[3].type == "marker" && o[3].style == "dot" && o[3].size == 0.7 && o[3].color == "#800080")
    }

    @Test func aFilledPathIsAPolygonAndColoursKeepTheirAlpha() throws {
        let r = try google("size=100x100&path=color:0x11223344%7Cfillcolor:0xAABBCC80%7Cweight:2%7C1,1%7C1,2%7C2,2")
        let p = try #require(r.scene.overlays?.first)
        #expect(p.type == "polygon" && p.rings?.first?.count == 3)
        #expect(p.stroke == "#11223344" && p.fill == "#aabbcc80" && p.strokeWidth == 2)
        // No centre/zoom: fitted, with Google-like padding.
        #expect(r.scene.camera?.center == nil && r.scene.camera?.padding == 12)
    }

    @Test func aCentreWithoutZoomFitsAroundIt() throws {
        let r = try google("size=100x100&center=1,2&markers=3,4")
        #expect(r.scene.camera?.center == nil && r.scene.camera?.visible == [[1, 2]])
        let alone = try google("size=100x100&center=1,2")
        #expect(alone.scene.camera?.center == [1, 2] && alone.scene.camera?.zoom == 0)
    }

    @Test func mapboxOverlaysCameraAndPadding() throws {
        let path = try PolylineCodec.encode([LatLng(lat: 1, lon: 2), LatLng(lat: 3, lon: 4)])
        let raw = "u/dark-v11/static/pin-l-12+abc(2,1),path-3+f00-0.5+00f-0.25(\(path.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)),"
            + "geojson(%7B%22type%22:%22FeatureCollection%22,%22features%22:[%7B%22type%22:%22Feature%22,%22properties%22:%7B%22stroke%22:%22%23ff0000%22,%22stroke-width%22:4%7D,"
            + "%22geometry%22:%7B%22type%22:%22LineString%22,%22coordinates%22:[[0,0],[1,1]]%7D%7D]%7D)/[-10,-5,10,5]/320x240@2x"
        let r = try MapboxStatic.parse(path: Substring(raw), query: [("padding", "5,10"), ("access_token", "pk")], limits: RequestLimits())
        let d = r.scene
        #expect(d.style == "dark" && d.size == [320, 240] && d.scale == 2)
        #expect(d.camera?.visible == [[-5, -10], [5, 10]] && d.camera?.padding == 10)
        let o = try #require(d.overlays)
        #expect(o.count == 3)
        #expect(o[0].type == "marker" && o[0].glyph == "12" && o[0].label == nil && o[0].color == "#aabbcc" && o[0].position == [1, 2])
        #expect(o[1].type == "polygon" && o[1].stroke == "#ff000080" && o[1].fill == "#0000ff40" && o[1].strokeWidth == 3)
        #expect(o[2].type == "route" && o[2].color == "#ff0000" && o[2].width == 4 && o[2].coordinates == [[0, 0], [1, 1]])
        // A Maki icon name is the pin's symbol; an unknown name is refused with a suggestion.
        let bus = try MapboxStatic.parse(path: "u/s/static/pin-s-bus+f00(2,1),pin-l-bank-JP(3,1)/auto/10x10", query: [], limits: RequestLimits())
        #expect(bus.scene.overlays?.map(\.symbol) == ["bus", "bank-JP"] && bus.scene.overlays?.map(\.glyph) == [nil, nil])
        do {
            _ = try MapboxStatic.parse(path: "u/s/static/pin-s-buss(2,1)/auto/10x10", query: [], limits: RequestLimits())
            Issue.record("an unknown icon was taken")
        } catch {
            #expect(error.description == "overlays: pin label: 'buss' is not a Maki icon (did you mean 'bus'?)" && error.status == .badRequest)
        }
        let cam = try MapboxStatic.parse(path: "u/s/static/-122.4,37.8,12.5,45,60/10x10", query: [], limits: RequestLimits())
        #expect(cam.scene.camera?.center == [37.8, -122.4] && cam.scene.camera?.zoom == 12.5)
        #expect(cam.scene.camera?.bearing == 45 && cam.scene.camera?.pitch == 60 && cam.scene.overlays == [])
    }

    @Test func equalRequestsSpeltDifferentlyShareACacheKey() throws {
        let a = try google("center=1,2&zoom=3&size=10x10&markers=color:red%7C1,2&key=A")
        let b = try google("key=B&markers=color:0xff0000%7C1,2&size=10x10&zoom=3&center=1,2")
        #expect(a.cacheKey == b.cacheKey)
        let c = try google("center=1,2&zoom=3&size=10x10&markers=color:red%7C1,2&format=jpg")
        #expect(a.cacheKey != c.cacheKey)
    }

    /// The queue's rules, driven through `submit`, which queues on the calling thread: the
    /// test does not depend on child tasks being scheduled (an `async let` version of it once
    /// waited over 30 s for its second child under the full suite's load).
    @Test func aFullQueueAndAPassedDeadlineAre503WithRetryAfter() throws {
        let pool = try RenderPool(workers: 1, queueLimit: 1) { try MapSnapshotter() }
        defer { pool.shutdown() }
        let far = DispatchTime.now().uptimeNanoseconds + 300_000_000_000
        final class Box: @unchecked Sendable { var first: Result<Int, Error>?; var second: Result<Int, Error>? }
        let box = Box()
        let gate = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        let firstDone = DispatchSemaphore(value: 0), secondDone = DispatchSemaphore(value: 0)
        // One job holds the renderer, one waits; a third is refused at once.
        try pool.submit(deadline: far, { _ in started.signal(); gate.wait(); return 1 }) { box.first = $0; firstDone.signal() }
        guard started.wait(timeout: .now() + 60) == .success else {
            Issue.record("the first job did not start in a minute")
            gate.signal()
            return
        }
        try pool.submit(deadline: DispatchTime.now().uptimeNanoseconds + 50_000_000, { _ in 2 }) { box.second = $0; secondDone.signal() }
        #expect(pool.depth == 1)
        do {
            try pool.submit(deadline: far, { _ in 3 }) { _ in Issue.record("a refused job was called back") }
            Issue.record("a full queue accepted a job")
        } catch let e as APIError {
            #expect(e.status == .serviceUnavailable && e.retryAfter == 1)
        }
        Thread.sleep(forTimeInterval: 0.1)  // past the second job's deadline
        gate.signal()
        #expect(firstDone.wait(timeout: .now() + 60) == .success && secondDone.wait(timeout: .now() + 60) == .success)
        #expect(try box.first?.get() == 1)
        do {
            _ = try box.second?.get()
            Issue.record("a job past its deadline was rendered")
        } catch let e as APIError {
            #expect(e.status == .serviceUnavailable && e.message.contains("deadline"))
        }
        #expect(pool.depth == 0)
    }

    /// `run`, the async form the server uses, gives the body's result and the queue's refusals.
    @Test func runReturnsTheResultOrAQueueRefusal() async throws {
        let pool = try RenderPool(workers: 1, queueLimit: 1) { try MapSnapshotter() }
        defer { pool.shutdown() }
        let far = DispatchTime.now().uptimeNanoseconds + 300_000_000_000
        #expect(try await pool.run(deadline: far) { s in s.deviceDescription.isEmpty ? 0 : 7 } == 7)
        do {
            _ = try await pool.run(deadline: 0) { _ in 1 }
            Issue.record("a job past its deadline was rendered")
        } catch let e as APIError {
            #expect(e.status == .serviceUnavailable && e.message.contains("deadline"))
        }
        struct Boom: Error {}
        await #expect(throws: Boom.self) { try await pool.run(deadline: far) { _ -> Int in throw Boom() } }
    }

    /// A broken escape names the parameter as every other error does: its bare name, in the
    /// JSON body's "parameter" and before the message.
    @Test func aBrokenEscapeNamesItsParameter() throws {
        for (query, parameter) in [("center=1,2&size=%zz", "size"), ("size=600x400&%4=1", "query key"), ("zoom=%2", "zoom")] {
            do {
                _ = try QueryString.parse(Substring(query))
                Issue.record("'\(query)' was accepted")
            } catch {
                #expect(error.status == .badRequest)
                #expect(error.parameter == parameter, "\(query): \(error.parameter ?? "nil")")
                #expect(error.description == "\(parameter): a broken %-escape")
                let body = try JSONSerialization.jsonObject(with: Data(error.body)) as? [String: String]
                #expect(body?["parameter"] == parameter)
            }
        }
        #expect(try QueryString.parse("a=%41%2b+b").first?.value == "A+ b")
    }
}
