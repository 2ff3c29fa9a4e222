/// Drives camera animations from an injected clock, one frame at a time: call `frame()` from
/// the display link (or a test loop); each call reads the clock, moves the camera and calls
/// `onFrame`, so overlays and the compass follow every frame.
///
/// Starting an animation while one runs interrupts it: the new one starts from where the
/// camera is at that moment. `stop()` leaves the camera where it is. Not thread-safe: use it
/// from one thread (the UI's).
public final class CameraAnimator {
    /// The camera as of the last frame (or the last jump/stop).
    public private(set) var camera: Camera
    /// Called with the new camera on every frame that moves it.
    public var onFrame: ((Camera) -> Void)?
    /// The running transition, if any.
    public private(set) var transition: CameraTransition?
    private var startTime = 0.0
    private let clock: () -> Double

    /// Creates an animator at `camera`; `clock` returns the current time in seconds.
    public init(camera: Camera, clock: @escaping () -> Double) {
        self.camera = camera
        self.clock = clock
    }

    /// True while a transition runs.
    public var isAnimating: Bool { transition != nil }

    /// Eases to `target` over `duration` seconds (interrupting any running animation).
    public func ease(to target: Camera, duration: Double, easing: EasingCurve = .ease) {
        start(CameraTransition.ease(from: currentCamera(), to: target, duration: duration, easing: easing))
    }

    /// Flies to `target` along the van Wijk & Nuij path (interrupting any running animation).
    public func fly(
        to target: Camera, duration: Double? = nil, rho: Double = 1.42, speed: Double = 1.2,
        easing: EasingCurve = .ease
    ) {
        start(
            CameraTransition.fly(
                from: currentCamera(), to: target, duration: duration, rho: rho,
                speed: speed, easing: easing))
    }

    /// Runs a prepared transition from now (interrupting any running animation).
    public func start(_ t: CameraTransition) {
        transition = t
        startTime = clock()
    }

    /// Jumps to a camera, stopping any animation.
    public func jump(to target: Camera) {
        transition = nil
        camera = target
        onFrame?(camera)
    }

    /// Stops the running animation where it is now.
    public func stop() {
        guard transition != nil else { return }
        camera = currentCamera()
        transition = nil
    }

    /// Advances to the clock's current time; returns true while an animation still runs.
    @discardableResult
    public func frame() -> Bool {
        guard let t = transition else { return false }
        let elapsed = clock() - startTime
        camera = t.camera(at: elapsed)
        if t.isFinished(at: elapsed) { transition = nil }
        onFrame?(camera)
        return transition != nil
    }

    private func currentCamera() -> Camera {
        guard let t = transition else { return camera }
        return t.camera(at: clock() - startTime)
    }
}
