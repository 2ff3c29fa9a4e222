import Foundation
import MapScene

/// Something on the map that changes with time: asked for its overlays at time `t` seconds.
/// Implementations are pure functions of `t` (no clock inside), so an export's frame N at F fps
/// is exactly the still scene at `t = N / F`, and a live window runs the same layers on its own clock.
public protocol AnimatedLayer: Sendable {
    /// The overlays to draw at time `t` seconds.
    func overlays(at t: Double) -> [Overlay]
}

/// A scene with moving parts: the still scene plus animated layers.
public struct AnimatedScene: Sendable {
    /// Everything that does not move (basemap layers, still overlays, the background).
    public var scene: Scene
    /// The moving parts, drawn among the still overlays by their z-index (ties after them).
    public var layers: [any AnimatedLayer]

    /// Creates an animated scene.
    public init(scene: Scene = Scene(), layers: [any AnimatedLayer] = []) {
        self.scene = scene
        self.layers = layers
    }

    /// Adds a moving part.
    public mutating func add(_ layer: any AnimatedLayer) { layers.append(layer) }

    /// The still scene at time `t` seconds.
    public func frame(at t: Double) -> Scene {
        var s = scene
        for layer in layers { s.overlays += layer.overlays(at: t) }
        return s
    }
}

/// Frame times of an export: frame N at `fps` frames per second is drawn at exactly `N / fps` s.
public struct FrameClock: Hashable, Sendable {
    /// Frames per second, 0 < fps ≤ `maxFPS`.
    public let fps: Double
    /// The number of frames.
    public let frameCount: Int

    /// The largest frame rate accepted: 120.
    public static let maxFPS = 120.0
    /// The longest animation accepted: 10 minutes.
    public static let maxDuration = 600.0
    /// The most frames one export may have.
    public static let maxFrames = 20_000

    /// Frames covering `duration` seconds (the last frame is the one before `duration`); throws
    /// `MotionError` for an fps outside (0, 120], a duration outside (0, 600] s, or over 20 000 frames.
    public init(duration: Double, fps: Double) throws(MotionError) {
        guard fps.isFinite, fps > 0, fps <= Self.maxFPS else {
            throw MotionError(parameter: "fps", reason: "\(FrameClock.format(fps)) is not in (0, 120] frames per second")
        }
        guard duration.isFinite, duration > 0 else {
            throw MotionError(parameter: "duration", reason: "\(FrameClock.format(duration)) is not a positive number of seconds")
        }
        guard duration <= Self.maxDuration else {
            throw MotionError(parameter: "duration", reason: "\(FrameClock.format(duration)) s is over the limit of 600 s (10 minutes)")
        }
        let n = max(1, Int((duration * fps - 1e-9).rounded(.up)))
        guard n <= Self.maxFrames else {
            throw MotionError(parameter: "frames", reason: "\(n) frames is over the limit of \(Self.maxFrames)")
        }
        self.fps = fps
        frameCount = n
    }

    /// The time of frame `n`, seconds: `n / fps`.
    public func time(ofFrame n: Int) -> Double { Double(n) / fps }

    static func format(_ v: Double) -> String {
        v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
