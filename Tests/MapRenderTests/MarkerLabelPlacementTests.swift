import Foundation
import GeoKit
import MapCamera
import MapScene
import Testing
@testable import MapRender

/// Marker labels are placed greedily in drawing order: one whose box overlaps a label placed
/// before it, or a marker other than its own, is left out (unless the scene lets labels
/// overlap). Boxes hand-derived: a dot covers ±8 px (6-px radius and 2-px ring), its label
/// starts 12 px right of it, vertically centred; the stub's label is 10 px a character by 16.
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
        func drawn(_ plan: RenderPlan) -> [String] {
            lock.withLock { plan.commands.compactMap { c in images.first { $0.value === c.texture }?.key } }
        }
    }

    static let camera = Camera(center: LatLng(lat: 10, lon: 20), zoom: 12, size: ScreenSize(width: 600, height: 400))

    func marker(_ x: Double, _ y: Double, _ label: String?, style: MarkerStyle = .dot) throws -> Overlay {
        let p = try #require(Self.camera.unproject(ScreenPoint(x: x, y: y)))
        return .marker(try Marker(position: p, style: style, label: label))
    }

    @Test func crowdedLabelsAreLeftOut() throws {
        var s = Scene()
        // A at x 100: its label spans 112…152 and meets B's dot (142…158): left out.
        s.add(try marker(100, 100, "AAAA"))
        // B at x 150: its label spans 162…202, clear.
        s.add(try marker(150, 100, "BBBB"))
        // C at (300, 200): placed. D 10 px below: its label's box (y 202…218) meets C's (192…208).
        s.add(try marker(300, 200, "CCCC"))
        s.add(try marker(300, 210, "DDDD"))
        // E 17 px below C: its box (209…225) clears C's and D's dot (202…218) is not in its x range.
        s.add(try marker(300, 217, "EEEE"))
        // F at (130, 140), between A and B but 40 px lower: its label (142…162, y 132…148) is clear.
        s.add(try marker(130, 140, "FF"))
        let stub = Stub()
        let plan = RenderPlanner(labelRasterizer: stub).plan(s, camera: Self.camera)
        #expect(stub.drawn(plan) == ["BBBB", "CCCC", "EEEE", "FF"])
        // Only the placed labels are rasterized; the rest are measured.
        #expect(Set(stub.rasterized) == ["BBBB", "CCCC", "EEEE", "FF"])

        s.labelsMayOverlap = true
        #expect(stub.drawn(RenderPlanner(labelRasterizer: stub).plan(s, camera: Self.camera))
                == ["AAAA", "BBBB", "CCCC", "DDDD", "EEEE", "FF"])
    }

    /// A pin's box is its head and tip (±9 px, 30 px up); its label sits beside the head, 21 px
    /// above the point. Another marker's pin under the label hides the label, not the pin.
    @Test func pinsKeepLabelsOffThem() throws {
        var s = Scene()
        s.add(try marker(100, 100, "Long label here", style: .pin))   // label 112…262, y 71…87
        s.add(try marker(200, 110, nil, style: .pin))                  // head 191…209, y 80…110
        s.add(try marker(100, 200, "Clear", style: .pin))             // label 112…162, y 171…187
        s.add(try marker(200, 230, nil, style: .pin))                  // head y 200…230: below it
        let stub = Stub()
        let plan = RenderPlanner(labelRasterizer: stub).plan(s, camera: Self.camera)
        #expect(stub.drawn(plan) == ["Clear"])
        // All four pins are drawn either way.
        #expect(plan.commands.filter { $0.texture == nil }.count == RenderPlanner().plan(s, camera: Self.camera).commands.count)
    }

    /// A cluster's disc keeps labels off it too: the disc sits where the cluster's level puts
    /// it; a dot 40 px left of it has a label (12 px right of the dot, 100 px long) that runs
    /// over the disc, and is left out; one 40 px below it is clear.
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
        #expect(stub.drawn(RenderPlanner(labelRasterizer: stub).plan(s, camera: Self.camera)) == ["2", "abcdefghij"])
    }
}
