import Foundation
import GeoKit

/// Tessellation of `MultiPolygon` and `MultiPolyline` sets off the frame's thread, for a live
/// view (`RenderPlanner.backgroundMeshing`). A set whose mesh for the frame's zoom bucket is not
/// built yet is drawn with the mesh it had at another bucket (widths and colours are the
/// frame's; only the simplification differs, by a fraction of a pixel), or not at all when it
/// has none; its mesh is built on one background thread, newest request first, and `onReady` is
/// called when meshes have been built, so the view draws again. Requests no plan has repeated
/// for a few frames (a zoom that went past) are dropped unbuilt. One-shot renders leave it off:
/// they draw every set exactly, at once.
public final class BackgroundMeshing: @unchecked Sendable {
    struct Job {
        let key: MeshKey
        let retain: [AnyObject]
        let make: @Sendable () -> (Mesh, MapPoint)
    }

    struct Built {
        let key: MeshKey
        let mesh: Mesh
        let origin: MapPoint
        let retain: [AnyObject]
    }

    /// Called on the background thread after meshes were built (the caller draws a frame).
    public let onReady: @Sendable () -> Void

    private let lock = NSCondition()
    private var jobs: [Job] = []
    /// Each requested key, with the plan that last asked for it.
    private var wanted: [MeshKey: Int] = [:]
    private var built: [Built] = []
    private var generation = 0
    private var building = false
    private var threadRunning = false
    /// Plans after which a request that was not repeated is dropped.
    static let patience = 3
    /// Seconds an idle thread waits for work before it ends (the next request starts another).
    static let idleSeconds = 2.0

    public init(onReady: @escaping @Sendable () -> Void) {
        self.onReady = onReady
    }

    /// Whether nothing is waiting to be built or being built (what was built may still wait for
    /// the next plan).
    public var isIdle: Bool { lock.withLock { jobs.isEmpty && !building } }

    /// While true, queued requests wait (for tests that look at what is drawn before a mesh
    /// is built).
    var held: Bool {
        get { lock.withLock { _held } }
        set {
            lock.withLock {
                _held = newValue
                lock.broadcast()
            }
        }
    }
    private var _held = false

    /// Asks for `key`'s mesh (again); the first request queues `make`.
    func request(_ key: MeshKey, retain: [AnyObject], make: @escaping @Sendable () -> (Mesh, MapPoint)) {
        let start: Bool = lock.withLock {
            let first = wanted[key] == nil
            wanted[key] = generation
            guard first else { return false }
            jobs.append(Job(key: key, retain: retain, make: make))
            lock.signal()
            guard !threadRunning else { return false }
            threadRunning = true
            return true
        }
        guard start else { return }
        // One thread, niced so that the frames it would compete with for the cores come first
        // (the meshes then arrive a little later); it ends when idle a while.
        let t = Thread { [self] in
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)  // (Linux: this thread)
            work()
        }
        t.name = "mapwright-meshing"
        t.start()
    }

    /// The meshes built since the last call, for the planner's cache; `generation` is the plan
    /// that takes them.
    func take(generation g: Int) -> [Built] {
        lock.withLock {
            generation = g
            for b in built { wanted[b.key] = nil }
            defer { built = [] }
            return built
        }
    }

    private func work() {
        while true {
            let job: Job? = lock.withLock {
                while true {
                    while !_held, let j = jobs.popLast() {
                        if let w = wanted[j.key], generation - w <= Self.patience {
                            building = true
                            return j
                        }
                        wanted[j.key] = nil
                    }
                    building = false
                    if !lock.wait(until: Date(timeIntervalSinceNow: Self.idleSeconds)), jobs.isEmpty {
                        threadRunning = false
                        return nil
                    }
                }
            }
            guard let job else { return }
            let (mesh, origin) = job.make()
            lock.withLock {
                built.append(Built(key: job.key, mesh: mesh, origin: origin, retain: job.retain))
            }
            onReady()
        }
    }
}
