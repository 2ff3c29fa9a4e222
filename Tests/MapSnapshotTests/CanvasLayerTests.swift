import Canvas2D
import Foundation
import GeoKit
import MapCamera
import MapSnapshot
import Testing

/// A 2D canvas layer: app code draws in screen space with the frame's camera; with dirty regions
/// only those are cleared and redrawn.
@Suite struct CanvasLayerTests {
    /// Draws a 10×10 px square centred on a position, and counts its draws.
    final class SquareLayer: CanvasLayer, @unchecked Sendable {
        var position: LatLng
        var draws = 0
        var dirty: [CanvasRect]? = nil
        init(_ p: LatLng) { position = p }
        func draw(in canvas: Canvas, camera: Camera, time: Double) {
            draws += 1
            guard let s = camera.project(position) else { return }
            canvas.fill(.rect(CanvasRect(x: s.x - 5, y: s.y - 5, width: 10, height: 10)), color: RGBAColor(r8: 0, g8: 0, b8: 255))
        }
        func dirtyRegions(camera: Camera, time: Double) -> [CanvasRect]? { dirty }
    }

    @Test func drawsAtTheProjectedPointAndRedrawsOnlyDirtyRegions() throws {
        let snapshotter = try MapSnapshotter()
        let cam = Camera(center: LatLng(lat: 10, lon: 20), zoom: 6, bearing: 30, size: ScreenSize(width: 200, height: 150))
        let p = LatLng(lat: 10.5, lon: 20.5)
        let layer = SquareLayer(p)
        var snap = Snapshot(camera: cam, basemapStyle: nil, attribution: false)
        snap.canvasLayers = [layer]
        let s = try #require(cam.project(p))
        let first = try snapshotter.render(snap)
        #expect(first.pixel(x: Int(s.x), y: Int(s.y))?.b == 255)
        #expect(first.pixel(x: Int(s.x) + 8, y: Int(s.y))?.a == 0)
        // Nothing dirty: not drawn again, the square stays.
        layer.dirty = []
        layer.position = LatLng(lat: 9.5, lon: 19.5)
        let second = try snapshotter.render(snap)
        #expect(layer.draws == 1)
        #expect(second.pixel(x: Int(s.x), y: Int(s.y))?.b == 255)
        // Dirty around the old square only: it is cleared; the new one (outside the region) is clipped away.
        layer.dirty = [CanvasRect(x: s.x - 6, y: s.y - 6, width: 12, height: 12)]
        let third = try snapshotter.render(snap)
        #expect(layer.draws == 2)
        #expect(third.pixel(x: Int(s.x), y: Int(s.y))?.a == 0)
        let moved = try #require(cam.project(layer.position))
        #expect(third.pixel(x: Int(moved.x), y: Int(moved.y))?.a == 0)
        // All dirty (nil): the new square appears.
        layer.dirty = nil
        let fourth = try snapshotter.render(snap)
        #expect(fourth.pixel(x: Int(moved.x), y: Int(moved.y))?.b == 255)
    }
}
