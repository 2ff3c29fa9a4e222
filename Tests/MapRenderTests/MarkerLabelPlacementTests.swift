import Foundation
import GeoKit
import MapCamera
import MapScene
import Testing
@testable import MapRender

/// Marker labels are placed greedily in drawing order: each on its marker's right, else on its
/// left, where its box overlaps no label placed before it and no marker (or cluster disc) but
/// its own; else it is left out (unless the scene lets labels overlap). Boxes hand-derived: a
/// dot covers ±8 px (6-px radius and 2-px ring), its label starts 12 px right of it (or ends
/// 12 px left of it), vertically centred; the stub's label is 10 px a character by 16.
@Suite struct MarkerLabelPlacementTests {
    final class Stub: LabelRasterizer, @unchecked Sendable {
        let lock = NSLock()
        var images: [String: SpriteImage] = [:]
        var rasterized: [String] = []
        func rasterize(_ label: Label, pixelRatio: Double) -> SpriteImage? {
            lock.withLock {
                rasterized.append(label.text)
                if let i = images[label.text] { return i }
                let w = 10 * label.text.count
                let i = SpriteImage(width: w, height: 16, pixels: [UInt8](repeating: 255, count: w * 16 * 4), pixelRatio: pixelRatio)
                images[label.text] = i
                return i
            }
        }
        func labelSize(_ label: Label, pixelRatio: Double) -> (width: Double, height: Double)? {
            (Double(10 * label.text.count), 16)
        }
        /// The labels drawn, in order.
        func drawn(_ plan: RenderPlan) -> [String] { placed(plan).map(\.text) }
        /// The labels drawn, in order, each with its quad's left edge relative to its marker.
        func placed(_ plan: RenderPlan) -> [(text: String, left: Double)] {
            lock.withLock {
                plan.commands.compactMap { c in
                    guard let text = images.first(where: { $0.value === c.texture })?.key else { return nil }
                    let v = c.mesh.vertices, s = VertexLayout.screen.stride
                    let xs = stride(from: 2, to: v.count, by: s).map { Double(v[$0]) }
                    return (text, xs.min() ?? .nan)
                }
            }
        }
    }

    static let camera = Camera(center: LatLng(lat: 10, lon: 20), zoom: 12, size: ScreenSize(width: 600, height: 400))

    func marker(_ x: Double, _ y: Double, _ label: String?, style: MarkerStyle = .dot) throws -> Overlay {
        let p = try #require(Self.camera.unproject(ScreenPoint(x: x, y: y)))
        return .marker(try Marker(position: p, style: style, label: label))
    }

    @Test func crowdedLabelsGoLeftOrAreLeftOut() throws {
        var s = Scene()
        // A at x 100: on its right (112…152) B's dot (142…158) is in the way, so it goes left
        // (48…88).
        s.add(try marker(100, 100, "AAAA"))
        // B at x 150: its right (162…202) is clear.
        s.add(try marker(150, 100, "BBBB"))
        // C at (300, 200): right. D 10 px below: its right (y 202…218) meets C's label (192…208);
        // its left (248…288) is clear.
        s.add(try marker(300, 200, "CCCC"))
        s.add(try marker(300, 210, "DDDD"))
        // G at (400, 300) between two unlabelled dots 40 px either side: its right (412…452)
        // meets the dot at 440 (432…448), its left (348…388) the dot at 360 (352…368): left out.
        s.add(try marker(360, 300, nil))
        s.add(try marker(440, 300, nil))
        s.add(try marker(400, 300, "GGGG"))
        let stub = Stub()
        let plan = RenderPlanner(labelRasterizer: stub).plan(s, camera: Self.camera)
        let placed = stub.placed(plan)
        #expect(placed.map(\.text) == ["AAAA", "BBBB", "CCCC", "DDDD"])
        #expect(placed.map(\.left) == [-52, 12, 12, -52])
        // Only the placed labels are rasterized; the rest are measured.
        #expect(Set(stub.rasterized) == ["AAAA", "BBBB", "CCCC", "DDDD"])

        s.labelsMayOverlap = true
        let all = stub.placed(RenderPlanner(labelRasterizer: stub).plan(s, camera: Self.camera))
        #expect(all.map(\.text) == ["AAAA", "BBBB", "CCCC", "DDDD", "GGGG"] && all.allSatisfy { $0.left == 12 })
    }

    /// A pin's box is its head and tip (±9 px, 30 px up); its label sits beside the head, 21 px
    /// above the point. Another marker's pin under the label hides the label, not the pin.
    @Test func pinsKeepLabelsOffThem() throws {
        var s = Scene()
        s.add(try marker(100, 100, "Long label here", style: .pin))   // right 112…262, left −62…88, y 71…87
        s.add(try marker(200, 110, nil, style: .pin))                  // head 191…209, y 80…110
        s.add(try marker(40, 110, nil, style: .pin))                   // head 31…49, y 80…110
        s.add(try marker(100, 200, "Clear", style: .pin))             // label 112…162, y 171…187
        s.add(try marker(200, 230, nil, style: .pin))                  // head y 200…230: below it
        let stub = Stub()
        let plan = RenderPlanner(labelRasterizer: stub).plan(s, camera: Self.camera)
        #expect(stub.drawn(plan) == ["Clear"])
        // All four pins are drawn either way.
        #expect(plan.commands.filter { $0.texture == nil }.count == RenderPlanner().plan(s, camera: Self.camera).commands.count)
    }

    /// A marker's label is drawn with its marker's opacity (animations fade markers); an
    /// invisible marker (opacity 0) has no label and keeps no label out: A's right (112…152)
    /// holds B's invisible dot at 140, so A's label stays on the right; C at half opacity has
    /// its label at alpha 128 (0.5 · 255 rounded).
    @Test func labelsTakeTheirMarkersOpacity() throws {
        func faded(_ x: Double, _ y: Double, _ label: String, _ opacity: Double) throws -> Overlay {
            guard case .marker(var m) = try marker(x, y, label) else { throw CancellationError() }
            m.opacity = opacity
            return .marker(m)
        }
        let s = Scene(overlays: [try marker(100, 100, "AAAA"), try faded(140, 100, "BBBB", 0), try faded(300, 200, "CCCC", 0.5)])
        let stub = Stub()
        let plan = RenderPlanner(labelRasterizer: stub).plan(s, camera: Self.camera)
        let placed = stub.placed(plan)
        #expect(placed.map(\.text) == ["AAAA", "CCCC"])
        #expect(placed.map(\.left) == [12, 12])
        let alphas = plan.commands.filter { c in stub.lock.withLock { stub.images.values.contains { $0 === c.texture } } }.map(\.color.a)
        #expect(alphas == [255, 128])
    }

    /// A placement made before the plan (`MarkerLabelPlacement`, as the snapshotter makes it to
    /// keep basemap labels clear) gives the same labels and boxes as the plan's own, and a plan
    /// given one for its camera uses it (here one made for another scene, to tell), while one
    /// made for another camera is ignored.
    @Test func aPlacementMadeBeforehandIsUsedForItsCamera() throws {
        var s = Scene()
        s.add(try marker(100, 100, "AAAA"))
        s.add(try marker(150, 100, "BBBB"))
        s.add(try marker(360, 300, nil))
        s.add(try marker(440, 300, nil))
        s.add(try marker(400, 300, "GGGG"))
        let stub = Stub()
        let own = stub.placed(RenderPlanner(labelRasterizer: stub).plan(s, camera: Self.camera))
        let placement = MarkerLabelPlacement(s, camera: Self.camera, measure: stub)
        #expect(own.map(\.text) == ["AAAA", "BBBB"])
        func r(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }
        #expect(placement.boxes.map { r($0.minX - 100) } == [-52, 62] && placement.boxes.map { r($0.maxX - $0.minX) } == [40, 40])
        let given = stub.placed(RenderPlanner(labelRasterizer: stub).plan(s, camera: Self.camera, placement: placement))
        #expect(given.map(\.text) == own.map(\.text) && given.map(\.left) == own.map(\.left))
        let other = MarkerLabelPlacement(Scene(overlays: [try marker(300, 200, "ZZZZ")]), camera: Self.camera, measure: stub)
        #expect(stub.drawn(RenderPlanner(labelRasterizer: stub).plan(s, camera: Self.camera, placement: other)) == ["ZZZZ"])
        var moved = Self.camera
        moved.zoom += 0.5
        let stale = MarkerLabelPlacement(Scene(overlays: [try marker(300, 200, "ZZZZ")]), camera: moved, measure: stub)
        #expect(stub.drawn(RenderPlanner(labelRasterizer: stub).plan(s, camera: Self.camera, placement: stale)) == ["AAAA", "BBBB"])
    }

    /// A cluster's disc keeps labels off it too: the disc sits where the cluster's level puts
    /// it; a dot 40 px left of it has a label (12 px right of the dot, 100 px long) that would
    /// run over the disc, so it goes on the dot's left; one 40 px below the dot is clear on its
    /// right.
    @Test func clusterDiscsKeepLabelsOffThem() throws {
        let members = try [(300.0, 200.0), (302, 201)].map { x, y in
            try Marker(position: #require(Self.camera.unproject(ScreenPoint(x: x, y: y))))
        }
        let cluster = try MarkerCluster(markers: members, radius: 60, maxZoom: 16)
        let nodes = cluster.level(atZoom: Self.camera.zoom)
        #expect(nodes.count == 1 && nodes[0].marker == nil)
        let disc = try #require(Self.camera.project(nodes[0].point))
        var s = Scene()
        s.add(.cluster(cluster))
        s.add(try marker(disc.x - 40, disc.y, "0123456789"))
        s.add(try marker(disc.x - 40, disc.y + 40, "abcdefghij"))
        let stub = Stub()
        // ("2" is the disc's count, drawn with the disc.)
        let placed = stub.placed(RenderPlanner(labelRasterizer: stub).plan(s, camera: Self.camera))
        #expect(placed.map(\.text) == ["2", "0123456789", "abcdefghij"])
        #expect(placed.dropFirst().map(\.left) == [-112, 12])
    }
}

/// Marker labels fade in and out over `Scene.labelFade` as the placement shows and hides them
/// (MapLibre's symbol fade), with opacities derived by hand from the plans' times.
@Suite struct LabelFadeTests {
    typealias Stub = MarkerLabelPlacementTests.Stub
    let placement = MarkerLabelPlacementTests()

    /// The labels drawn, in order, with their opacity (the quad's alpha) and left edge.
    func labels(_ plan: RenderPlan, _ stub: Stub) -> [(text: String, opacity: Double, left: Double)] {
        let left = stub.placed(plan)
        let alphas = plan.commands.filter { c in stub.lock.withLock { stub.images.values.contains { $0 === c.texture } } }
            .map { Double($0.color.a) / 255 }
        return zip(left, alphas).map { ($0.text, $1, $0.left) }
    }

    func scene(_ markers: [Overlay], fade: Double = 0.3) -> Scene {
        var s = Scene(overlays: markers)
        s.labelFade = fade
        return s
    }

    @Test func labelsFadeInAndOutOverTheDuration() throws {
        let stub = Stub()
        let planner = RenderPlanner(labelRasterizer: stub)
        let cam = MarkerLabelPlacementTests.camera
        let a = try placement.marker(100, 100, "AAAA"), b = try placement.marker(300, 100, "BBBB")
        // The first plan shows its placement at once.
        var drawn = labels(planner.plan(scene([a, b]), camera: cam, time: 10), stub)
        #expect(drawn.map(\.text) == ["AAAA", "BBBB"] && drawn.allSatisfy { $0.opacity == 1 })
        #expect(!planner.labelsFading)
        // 0.1 s later A's marker is gone and G stands where A stood: A's label fades out where it
        // was (1 − 0.1/0.3 = 0.667, drawn first, under the others) and keeps no label out: G's
        // goes on its right, over it, fading in (0.333). B's marker moved 20 px: its label
        // follows, still fully shown, drawn once. (Placed labels in placement order: G, B.)
        let g = try placement.marker(100, 100, "GGGG"), b2 = try placement.marker(320, 100, "BBBB")
        drawn = labels(planner.plan(scene([g, b2]), camera: cam, time: 10.1), stub)
        #expect(drawn.map(\.text) == ["AAAA", "GGGG", "BBBB"])
        #expect(abs(drawn[0].opacity - 2.0 / 3) < 0.6 / 255 && abs(drawn[1].opacity - 1.0 / 3) < 0.6 / 255)
        #expect(drawn[2].opacity == 1)
        #expect(drawn[0].left == 12 && drawn[1].left == 12)
        #expect(planner.labelsFading)
        // At 10.2: A 0.333, G 0.667.
        drawn = labels(planner.plan(scene([g, b2]), camera: cam, time: 10.2), stub)
        #expect(drawn.map(\.text) == ["AAAA", "GGGG", "BBBB"])
        #expect(abs(drawn[0].opacity - 1.0 / 3) < 0.6 / 255 && abs(drawn[1].opacity - 2.0 / 3) < 0.6 / 255)
        // At 10.35 A is gone and G fully shown; nothing fades any more.
        drawn = labels(planner.plan(scene([g, b2]), camera: cam, time: 10.35), stub)
        #expect(drawn.map(\.text) == ["GGGG", "BBBB"] && drawn.allSatisfy { $0.opacity == 1 })
        #expect(!planner.labelsFading)
    }

    /// A label the placement hides (two dots now stand on both its sides) fades out; a plan at
    /// an earlier time (a new animation) and one without a fade show their placement at once.
    @Test func hiddenLabelsFadeOutAndResetsShowAtOnce() throws {
        let stub = Stub()
        let planner = RenderPlanner(labelRasterizer: stub)
        let cam = MarkerLabelPlacementTests.camera
        let a = try placement.marker(100, 100, "AAAA")
        let blockers = [try placement.marker(60, 100, nil), try placement.marker(140, 100, nil)]
        _ = planner.plan(scene([a]), camera: cam, time: 0)
        var drawn = labels(planner.plan(scene(blockers + [a]), camera: cam, time: 0.15), stub)
        #expect(drawn.map(\.text) == ["AAAA"] && abs(drawn[0].opacity - 0.5) < 0.6 / 255)
        // Back in time: the placement as it is (A hidden, nothing fading).
        drawn = labels(planner.plan(scene(blockers + [a]), camera: cam, time: 0.1), stub)
        #expect(drawn.isEmpty && !planner.labelsFading)
        // A label shown again fades in from 0.
        drawn = labels(planner.plan(scene([a]), camera: cam, time: 0.25), stub)
        #expect(drawn.map(\.text) == ["AAAA"] && abs(drawn[0].opacity - 0.5) < 0.6 / 255)
        // Without a fade: shown at once, and the fades are forgotten.
        drawn = labels(planner.plan(scene(blockers + [a], fade: 0), camera: cam, time: 0.3), stub)
        #expect(drawn.isEmpty && !planner.labelsFading)
        drawn = labels(planner.plan(scene([a], fade: 0), camera: cam, time: 0.31), stub)
        #expect(drawn.map(\.text) == ["AAAA"] && drawn[0].opacity == 1)
    }
}
