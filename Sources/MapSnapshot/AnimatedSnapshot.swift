import Foundation
import MapCamera
import MapMotion
import MapScene

/// A snapshot with moving parts: the still snapshot, animated layers (pulses, replays, overlays
/// with animated styles) and optionally a camera that follows a replay. `frame(at:)` is the
/// still snapshot at time `t`, so frame N of an export at F fps is `frame(at: N / F)`.
public struct AnimatedSnapshot: Sendable {
    /// Everything that does not move, and the camera when nothing follows.
    public var still: Snapshot
    /// The moving parts, drawn among the still overlays by z-index.
    public var layers: [any AnimatedLayer]
    /// A camera that follows a replay's head, or nil for the still camera.
    public var follow: FollowCamera?
    /// The animation's length in seconds.
    public var duration: Double
    /// Frames per second the scene asks for, if any.
    public var fps: Double?
    /// Whether an APNG should play forever.
    public var loop: Bool
    /// Seconds a marker label takes to fade in or out as the placement shows or hides it from
    /// frame to frame (`Snapshot.labelFade` of the frames an animation or a window draws; the
    /// snapshots of `frame(at:)` leave it 0, as stills).
    public var labelFade = AnimatedSnapshot.defaultLabelFade

    /// MapLibre's `fadeDuration`: 0.3 s.
    public static let defaultLabelFade = 0.3

    /// Creates an animated snapshot.
    public init(still: Snapshot, layers: [any AnimatedLayer] = [], follow: FollowCamera? = nil, duration: Double = 3.2,
                fps: Double? = nil, loop: Bool = true) {
        self.still = still; self.layers = layers; self.follow = follow
        self.duration = duration; self.fps = fps; self.loop = loop
    }

    /// Whether anything changes with time (custom GL layers are taken to animate).
    public var isAnimated: Bool { !layers.isEmpty || follow != nil || !still.glLayers.isEmpty }

    /// The snapshot at time `t` seconds.
    public func frame(at t: Double) -> Snapshot {
        var s = still
        s.time = t
        for layer in layers { s.overlays += layer.overlays(at: t) }
        if let follow { s.camera = follow.camera(at: t) }
        return s
    }
}
