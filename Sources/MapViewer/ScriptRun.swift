import Foundation
import MapGestures
import MapSnapshot

/// Scripted runs stepped at a fixed rate: frame k is drawn at t = k / rate after every event with
/// t ≤ k / rate has been applied; the run ends at the frame of the last event.
public enum ScriptRun {
    /// The frame rate of scripted runs.
    public static let rate = 60.0

    /// The index of the last frame of a script (the frame at which its last event is applied).
    public static func lastFrame(of events: [ScriptEvent]) -> Int {
        guard let t = events.last?.t else { return 0 }
        return Int((t * rate - 1e-9).rounded(.up))
    }

    /// Steps `session` through `events`; `body` gets each frame's index, time and snapshot.
    public static func run(_ session: ViewSession, events: [ScriptEvent],
                           body: (_ frame: Int, _ t: Double, _ snapshot: Snapshot) throws -> Void) throws {
        var next = 0
        for k in 0...lastFrame(of: events) {
            let t = Double(k) / rate
            while next < events.count, events[next].t <= t + 1e-9 {
                if let input = events[next].input { session.handle(TimedEvent(t: events[next].t, event: input)) }
                next += 1
            }
            session.pollFollowedFiles()
            try body(k, t, session.frame(at: t))
        }
    }
}
