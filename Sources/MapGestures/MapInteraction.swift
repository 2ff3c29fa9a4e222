import Foundation
import GeoKit
import MapCamera

/// Turns input events into camera changes the way MapLibre GL and MapKit users expect: mouse
/// drag, wheel and trackpad zoom about the cursor, right- or Ctrl-drag to rotate and pitch,
/// double-click zoom, Shift-drag box zoom, keyboard steps, and touch pan / pinch / rotate /
/// pitch with MapLibre's thresholds; inertia on release and a bearing snap to north.
///
/// No clock inside: every event carries its time, and `step(to:)` advances eases and inertia to
/// a time, so tests drive it at exactly 60 Hz. Any new input interrupts a running ease.
/// Constants and their sources: `shared/reference/interaction.md` (MapLibre GL JS `src/ui/`).
public final class MapInteraction {
    /// The camera as of the last event or step.
    public internal(set) var camera: Camera
    /// A released bearing within this many degrees of north eases to north (MapLibre: 7°).
    public var snapToNorth = 7.0

    /// Click tolerance before a press becomes a drag, px.
    public static let clickTolerance = 3.0
    /// Mouse rotation, degrees of bearing per px moved horizontally.
    public static let rotatePerPixel = 0.8
    /// Mouse and two-finger pitch, degrees per px moved vertically (up pitches).
    public static let pitchPerPixel = -0.5
    /// A mouse wheel notch as browsers report it (px).
    public static let wheelDelta = 4.000244140625
    /// Pinch zoom starts after this many zoom levels of spread.
    public static let pinchZoomThreshold = 0.1
    /// Rotation starts after the fingers' arc reaches this many px (25 px of circumference).
    public static let rotationArc = 25.0

    var ease: CameraEase?
    var easeIsWheel = false
    var now = 0.0
    var mouse: MouseState?
    var lastClick: (t: Double, point: ScreenPoint)?
    var samples: [Sample] = []
    var touches: [Int: ScreenPoint] = [:]
    var touchGesture = TouchGesture()
    /// Clicks and single taps (a press and release within the click tolerance) not yet taken.
    var clicks: [ScreenPoint] = []

    /// Takes the clicks and single taps since the last call, in order: the points a window
    /// picks at. The second click of a double-click zooms and is not reported.
    public func takeClicks() -> [ScreenPoint] {
        defer { clicks.removeAll() }
        return clicks
    }

    /// Whether the mouse is held in a drag (pan, rotate or box) right now.
    public var isDragging: Bool { mouse?.dragging == true }

    /// A camera change recorded for inertia.
    struct Sample {
        var t: Double
        var dt: Double
        var pan = ScreenPoint(x: 0, y: 0)
        var zoom = 0.0
        var bearing = 0.0
        var pitch = 0.0
        var around: ScreenPoint?
    }

    /// Starts with a camera.
    public init(camera: Camera) {
        self.camera = camera
    }

    /// Whether anything is moving or held (a drag, touches down, an ease or inertia running):
    /// a window draws frames while this is true and sleeps otherwise.
    public var isActive: Bool { ease != nil || mouse?.dragging == true || !touches.isEmpty }

    /// Replaces the camera (a programmatic jump); stops any ease.
    public func setCamera(_ c: Camera) {
        camera = c
        ease = nil
    }

    /// Eases the camera to new values over `duration` seconds from the time of the last event.
    public func ease(to target: Camera, duration: Double, easing: EasingCurve = .ease) {
        var e = CameraEase(base: camera, start: now, duration: max(0, duration), easing: easing)
        e.zoomDelta = target.zoom - camera.zoom
        e.bearing = target.bearing
        e.pitch = target.pitch
        if let from = camera.project(camera.center), let to = camera.project(target.center) {
            e.pan = ScreenPoint(x: from.x - to.x, y: from.y - to.y)
        }
        ease = e
        easeIsWheel = false
    }

    /// Advances eases and inertia to time `t` and returns the camera to draw.
    @discardableResult
    public func step(to t: Double) -> Camera {
        guard t.isFinite else { return camera }
        now = max(now, t)
        if let e = ease {
            camera = e.camera(at: now)
            if now >= e.end {
                ease = nil
                easeIsWheel = false
            }
        }
        return camera
    }

    /// Applies one event at its time.
    public func handle(_ event: TimedEvent) {
        guard event.t.isFinite else { return }
        step(to: event.t)
        switch event.event {
        case .pointerDown(let x, let y, let button, let mods): pointerDown(ScreenPoint(x: x, y: y), button, mods)
        case .pointerMove(let x, let y, _): pointerMove(ScreenPoint(x: x, y: y))
        case .pointerUp(let x, let y, _, _): pointerUp(ScreenPoint(x: x, y: y))
        case .wheel(let x, let y, let dy, _): wheel(ScreenPoint(x: x, y: y), dy)
        case .touch(let phase, let id, let x, let y): touch(phase, id, ScreenPoint(x: x, y: y))
        case .key(let name, let mods): keyPress(name, mods)
        }
    }

    /// Stops a running ease where it is (new input takes over); `handle` has already stepped it
    /// to the event's time, so the camera is where the ease had got to.
    func interrupt() {
        ease = nil
        easeIsWheel = false
    }

    /// Records a change for inertia.
    func record(pan: ScreenPoint = ScreenPoint(x: 0, y: 0), zoom: Double = 0, bearing: Double = 0, pitch: Double = 0,
                around: ScreenPoint? = nil) {
        // Changes at one instant are one sample: each finger of a pinch arrives as its own event
        // with the same time (a browser's touchmove carries them all), and the inertia reads
        // samples over time, so a second change at dt = 0 must add to the first, not be dropped.
        if let last = samples.last, last.t == now {
            samples[samples.count - 1].pan = ScreenPoint(x: last.pan.x + pan.x, y: last.pan.y + pan.y)
            samples[samples.count - 1].zoom += zoom
            samples[samples.count - 1].bearing += bearing
            samples[samples.count - 1].pitch += pitch
            if let around { samples[samples.count - 1].around = around }
        } else {
            let dt = samples.last.map { now - $0.t } ?? 0
            samples.append(Sample(t: now, dt: dt, pan: pan, zoom: zoom, bearing: bearing, pitch: pitch, around: around))
        }
        // Keep 160 ms (MapLibre's buffer).
        samples.removeAll { now - $0.t > 0.16 }
    }

    /// At the end of a gesture: inertia from the last 60 ms, merged into one ease, and the snap
    /// to north when the bearing ends within `snapToNorth` degrees of it.
    func release() {
        let recent = samples.filter { now - $0.t <= Inertia.window && $0.dt > 0 }
        samples.removeAll()
        var e = CameraEase(base: camera, start: now, duration: 0, easing: Inertia.easing)
        let seconds = recent.reduce(0) { $0 + $1.dt }
        if seconds > 0 {
            let pan = recent.reduce(ScreenPoint(x: 0, y: 0)) { ScreenPoint(x: $0.x + $1.pan.x, y: $0.y + $1.pan.y) }
            let length = (pan.x * pan.x + pan.y * pan.y).squareRoot()
            if length > 0 {
                let c = Inertia.coast(amount: length, seconds: seconds, deceleration: Inertia.pan.deceleration,
                                      maxSpeed: Inertia.pan.maxSpeed)
                e.pan = ScreenPoint(x: pan.x / length * c.distance, y: pan.y / length * c.distance)
                e.duration = max(e.duration, c.duration)
            }
            let zoom = recent.reduce(0) { $0 + $1.zoom }
            if zoom != 0 {
                let c = Inertia.coast(amount: zoom, seconds: seconds, deceleration: Inertia.zoom.deceleration,
                                      maxSpeed: Inertia.zoom.maxSpeed)
                e.zoomDelta = c.distance
                e.around = recent.last?.around
                e.duration = max(e.duration, c.duration)
            }
            let bearing = recent.reduce(0) { $0 + $1.bearing }
            if bearing != 0 {
                let c = Inertia.coast(amount: bearing, seconds: seconds, deceleration: Inertia.bearing.deceleration,
                                      maxSpeed: Inertia.bearing.maxSpeed)
                e.bearing = camera.bearing + min(max(c.distance, -179), 179)
                e.around = e.around ?? recent.last?.around
                e.duration = max(e.duration, c.duration)
            }
            let pitch = recent.reduce(0) { $0 + $1.pitch }
            if pitch != 0 {
                let c = Inertia.coast(amount: pitch, seconds: seconds, deceleration: Inertia.pitch.deceleration,
                                      maxSpeed: Inertia.pitch.maxSpeed)
                e.pitch = camera.pitch + c.distance
                e.duration = max(e.duration, c.duration)
            }
        }
        let finalBearing = Camera.normalizedBearing(e.bearing ?? camera.bearing)
        if abs(finalBearing) < snapToNorth, finalBearing != 0 {
            e.bearing = camera.bearing - Camera.normalizedBearing(camera.bearing)
            if e.duration == 0 { e.duration = 0.3; e.easing = .ease }
        }
        if e.duration > 0 {
            ease = e
            easeIsWheel = false
        }
    }
}
