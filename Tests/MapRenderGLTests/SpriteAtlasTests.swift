import Foundation
import GeoKit
import MapCamera
@testable import MapRender
@testable import MapRenderGL
import MapScene
import MapTestSupport
import Testing

/// Runs of labels drawn from one texture (`SpriteAtlas`): the packing, and that the pixels are
/// those of drawing each label with its own texture (`MapRenderer.instancing` off), also when the
/// frame's images do not all fit the atlas.
@Suite(.serialized) struct SpriteAtlasTests {
    /// Gives each label text an image of its own: `width` × `height` px (at the ratio), a frame
    /// and a diagonal pattern whose phase comes from the text, so that any texel taken from the
    /// wrong place or the wrong image shows.
    final class PatternLabels: LabelRasterizer, @unchecked Sendable {
        let width: Int, height: Int
        var images: [String: SpriteImage] = [:]
        let lock = NSLock()
        init(width: Int, height: Int) { self.width = width; self.height = height }
        func rasterize(_ label: Label, pixelRatio: Double) -> SpriteImage? {
            lock.withLock {
                let key = "\(label.text) \(pixelRatio)"
                if let hit = images[key] { return hit }
                let w = Int((Double(width) * pixelRatio).rounded()), h = Int((Double(height) * pixelRatio).rounded())
                let phase = label.text.unicodeScalars.reduce(0) { $0 &* 31 &+ Int($1.value) } & 0xFF
                var px: [UInt8] = []
                for y in 0 ..< h {
                    for x in 0 ..< w {
                        let edge = x == 0 || y == 0 || x == w - 1 || y == h - 1
                        let a: UInt8 = edge ? 255 : UInt8((x + 2 * y + phase) % 7 * 36)
                        let v = UInt8((Int(a) * ((phase + x * 5) & 0xFF)) / 255)
                        px += [v, UInt8(Int(a) * y / max(h - 1, 1)), a / 2, a]
                    }
                }
                let image = SpriteImage(width: w, height: h, pixels: px, pixelRatio: pixelRatio)
                images[key] = image
                return image
            }
        }
        func rasterizeSymbol(_ name: String, size: Double, color: Color, pixelRatio: Double) -> SpriteImage? { nil }
    }

    static func scene(labels n: Int, tint: Bool) throws -> Scene {
        var s = Scene(background: Color(rgb: 0xF2EFE9))
        s.labelsMayOverlap = true
        var rng = SplitMix64(seed: 5)
        for i in 0 ..< n {
            let p = LatLng(lat: 47.36 + 0.02 * Double.random(in: 0 ..< 1, using: &rng), lon: 8.52 + 0.04 * Double.random(in: 0 ..< 1, using: &rng))
            var label = try Label(position: p, text: "L\(i)", anchor: (Double.random(in: 0 ..< 1, using: &rng), Double.random(in: 0 ..< 1, using: &rng)))
            if tint, i % 3 == 0 { label.opacity = 0.5 }
            s.add(.label(label))
        }
        return s
    }

    /// A renderer that draws runs from the atlas and one that draws each sprite with its own
    /// texture (`instancing` off), neither redrawing only what changed.
    static func renderers(_ labels: PatternLabels) throws -> (atlas: MapRenderer, single: MapRenderer) {
        let atlas = try MapRenderer(labelRasterizer: labels)
        let single = try MapRenderer(labelRasterizer: labels)
        single.instancing = false
        atlas.partialRedraw = false
        single.partialRedraw = false
        return (atlas, single)
    }

    static func differences(_ a: Frame, _ b: Frame) -> Int { zip(a.pixels, b.pixels).filter { $0 != $1 }.count }

    /// 120 overlapping labels of their own images at ratios 1, 1.5 and 2, flat and pitched and
    /// turned (sprites stay upright), some translucent: byte for byte what drawing each with its
    /// own texture gives, and something drawn.
    @Test(arguments: [1.0, 1.5, 2.0]) func sameAsOneByOne(ratio: Double) throws {
        let stub = PatternLabels(width: 40, height: 14)
        let (atlas, single) = try Self.renderers(stub)
        let scene = try Self.scene(labels: 120, tint: true)
        for (pitch, bearing) in [(0.0, 0.0), (50.0, 25.0)] {
            let cam = Camera(center: LatLng(lat: 47.37, lon: 8.54), zoom: 13, bearing: bearing, pitch: pitch,
                             size: ScreenSize(width: 400, height: 300), pixelRatio: ratio)
            let a = try atlas.render(scene: scene, camera: cam)
            let b = try single.render(scene: scene, camera: cam)
            #expect(Self.differences(a, b) == 0, "ratio \(ratio), pitch \(pitch)")
            // The labels in view came from the atlas; none without it.
            #expect(atlas.lastTimings.atlasSprites >= 60, "\(atlas.lastTimings.atlasSprites) from the atlas")
            #expect(single.lastTimings.atlasSprites == 0)
            let background = stride(from: 0, to: b.pixels.count, by: 4).filter {
                b.pixels[$0] == 0xF2 && b.pixels[$0 + 1] == 0xEF && b.pixels[$0 + 2] == 0xE9
            }.count
            #expect(background < b.pixels.count / 4 * 9 / 10, "the labels cover a good share of the view")
        }
    }

    /// 300 images of 200 × 100 px cannot all fit the 1024-texel atlas (about 45 do): the atlas is
    /// emptied for the frame, the images that fit come from it and the rest from textures of
    /// their own, and the pixels are still those drawn one by one, frame after frame.
    @Test func overflowFallsBack() throws {
        let stub = PatternLabels(width: 200, height: 100)
        let (atlas, single) = try Self.renderers(stub)
        let scene = try Self.scene(labels: 300, tint: false)
        let cam = Camera(center: LatLng(lat: 47.37, lon: 8.54), zoom: 13, size: ScreenSize(width: 400, height: 300))
        for _ in 0 ..< 2 {
            let a = try atlas.render(scene: scene, camera: cam)
            let b = try single.render(scene: scene, camera: cam)
            #expect(Self.differences(a, b) == 0)
            // Some from the atlas (each frame fills it afresh: a run needs 16 placed in a row).
            #expect(atlas.lastTimings.atlasSprites >= SpriteAtlas.minSprites)
            #expect(atlas.lastTimings.atlasSprites < 100)
        }
    }

    /// Shelves: rectangles within the square, apart by the padding, and none when full.
    @Test func packing() {
        var p = ShelfPacker(side: 64, padding: 1)
        var rects: [(Int, Int, Int, Int)] = []
        var rng = SplitMix64(seed: 9)
        for _ in 0 ..< 500 {
            let w = 1 + Int(Double.random(in: 0 ..< 1, using: &rng) * 20), h = 1 + Int(Double.random(in: 0 ..< 1, using: &rng) * 12)
            guard let at = p.place(width: w, height: h) else { break }
            rects.append((at.x, at.y, w, h))
        }
        #expect(rects.count > 10)
        for (i, a) in rects.enumerated() {
            #expect(a.0 >= 0 && a.1 >= 0 && a.0 + a.2 <= 64 && a.1 + a.3 <= 64)
            for b in rects[..<i] {
                // Apart by at least the padding on one axis.
                let apart = a.0 + a.2 + 1 <= b.0 || b.0 + b.2 + 1 <= a.0 || a.1 + a.3 + 1 <= b.1 || b.1 + b.3 + 1 <= a.1
                #expect(apart, "\(a) meets \(b)")
            }
        }
        #expect(p.place(width: 64, height: 1) == nil)  // wider than the side with its padding
        p.reset()
        #expect(p.place(width: 63, height: 63) != nil)
        #expect(p.place(width: 1, height: 1) == nil)
    }
}
