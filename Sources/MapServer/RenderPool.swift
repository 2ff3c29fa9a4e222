import Foundation
import MapSnapshot

/// Warm renderers: one thread per worker, each with its own `MapSnapshotter` (GL context,
/// compiled programs, basemap and label caches), fed from one bounded queue. A full queue is
/// refused at once (the server answers 503 with `Retry-After`); a job that waited past its
/// deadline is dropped unrendered.
public final class RenderPool: @unchecked Sendable {
    /// A queued request: called on a renderer thread with its snapshotter (nil when the thread has none).
    private typealias Job = (MapSnapshotter?) -> Void

    private let cond = NSCondition()
    private var queue: [Job] = []
    private var head = 0
    private var stopping = false
    private let exited = DispatchGroup()
    /// The most jobs waiting (not counting those being rendered).
    public let queueLimit: Int
    /// The renderer threads.
    public let workers: Int
    /// The GL device, as the first worker reported it.
    public private(set) var deviceDescription = ""
    /// Called with the queue depth whenever it changes.
    public var onDepthChange: (@Sendable (Int) -> Void)?

    /// Starts `workers` threads and waits until each has its renderer; throws the first start-up error.
    public init(workers: Int, queueLimit: Int, makeSnapshotter: @escaping @Sendable () throws -> MapSnapshotter) throws {
        self.workers = max(1, workers)
        self.queueLimit = max(1, queueLimit)
        let ready = DispatchGroup()
        final class StartError: @unchecked Sendable { var error: Error?; var device = ""; let lock = NSLock() }
        let start = StartError()
        for i in 0 ..< self.workers {
            ready.enter()
            exited.enter()
            let t = Thread { [self] in
                var snapshotter: MapSnapshotter?
                do {
                    let s = try makeSnapshotter()
                    s.renderer.partialRedraw = false
                    snapshotter = s
                    start.lock.withLock { if start.device.isEmpty { start.device = s.deviceDescription } }
                } catch {
                    start.lock.withLock { start.error = start.error ?? error }
                }
                ready.leave()
                self.loop(snapshotter)
                // Tear the GL context down on its own thread before the thread ends.
                snapshotter = nil
                self.exited.leave()
            }
            t.name = "mapwright-render-\(i)"
            t.stackSize = 8 << 20
            t.start()
        }
        ready.wait()
        if let e = start.error {
            shutdown()
            throw e
        }
        deviceDescription = start.device
    }

    private func loop(_ snapshotter: MapSnapshotter?) {
        while true {
            cond.lock()
            while head == queue.count && !stopping { cond.wait() }
            if head == queue.count && stopping {
                cond.unlock()
                return
            }
            let job = queue[head]
            head += 1
            if head > 64, head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            let depth = queue.count - head
            cond.unlock()
            onDepthChange?(depth)
            job(snapshotter)
        }
    }

    /// Jobs waiting now.
    public var depth: Int { cond.withLock { queue.count - head } }

    /// Runs `body` on a renderer thread. Throws `APIError` 503 when the queue is full or the
    /// deadline passed before a renderer was free.
    public func run<T: Sendable>(deadline: UInt64, _ body: @escaping @Sendable (MapSnapshotter) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (cont: CheckedContinuation<T, Error>) in
            do {
                try submit(deadline: deadline, body) { cont.resume(with: $0) }
            } catch {
                cont.resume(throwing: error)
            }
        }
    }

    /// Queues `body` for a renderer thread and returns at once, without waiting for a task to
    /// be scheduled: `done` is called on the renderer thread with `body`'s result, or with
    /// `APIError` 503 when the deadline passed before a renderer was free or the pool stopped.
    /// Throws `APIError` 503 at once, and never calls `done`, when the queue is full or the
    /// pool is stopping.
    public func submit<T>(deadline: UInt64, _ body: @escaping (MapSnapshotter) throws -> T, done: @escaping (Result<T, Error>) -> Void) throws {
        let job: Job = { snapshotter in
            guard let snapshotter else {
                done(.failure(APIError(.serviceUnavailable, "the renderer is shutting down", retryAfter: 1)))
                return
            }
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                done(.failure(APIError(.serviceUnavailable, "the request waited past its deadline for a renderer", retryAfter: 1)))
                return
            }
            done(Result { try body(snapshotter) })
        }
        cond.lock()
        guard !stopping else {
            cond.unlock()
            throw APIError(.serviceUnavailable, "the server is shutting down", retryAfter: 1)
        }
        guard queue.count - head < queueLimit else {
            cond.unlock()
            throw APIError(.serviceUnavailable, "all \(workers) renderers are busy and \(queueLimit) requests are waiting", retryAfter: 1)
        }
        queue.append(job)
        let depth = queue.count - head
        cond.signal()
        cond.unlock()
        onDepthChange?(depth)
    }

    /// Finishes the queued jobs, then stops the threads and tears their GL contexts down.
    public func shutdown() {
        cond.lock()
        stopping = true
        cond.broadcast()
        cond.unlock()
        exited.wait()
    }
}

/// Rendered images by normalised request, least recently used dropped first, bounded by their
/// total size in bytes (not by count: a tile is 20 KB, a static image can be megabytes).
final class ImageCache: @unchecked Sendable {
    struct Item: Sendable {
        let body: [UInt8]
        let etag: String
        let contentType: String
    }

    private let lock = NSLock()
    private var entries: [String: (item: Item, tick: UInt64)] = [:]
    private var tick: UInt64 = 0
    private var bytes = 0
    let capacityBytes: Int

    init(capacityBytes: Int) { self.capacityBytes = max(1 << 20, capacityBytes) }

    subscript(key: String) -> Item? {
        lock.withLock {
            guard let e = entries[key] else { return nil }
            tick += 1
            entries[key] = (e.item, tick)
            return e.item
        }
    }

    /// What an entry is charged: its body, its key and a fixed 64 bytes for the rest.
    static func cost(_ item: Item, key: String) -> Int { item.body.count + key.utf8.count + 64 }

    /// Keeps `item` (unless it alone costs more than an eighth of the capacity); past the
    /// capacity, the least recently used entries are dropped down to 7/8 of it. Returns the
    /// cache's size after the insert.
    @discardableResult
    func insert(_ item: Item, for key: String) -> (bytes: Int, count: Int) {
        let cost = Self.cost(item, key: key)
        return lock.withLock {
            guard cost <= capacityBytes / 8 else { return (bytes, entries.count) }
            tick += 1
            if let old = entries[key] { bytes -= Self.cost(old.item, key: key) }
            entries[key] = (item, tick)
            bytes += cost
            if bytes > capacityBytes {
                // Drop the oldest entries down to 7/8 of the capacity at once (amortised O(log n) per insert).
                for (k, e) in entries.sorted(by: { $0.value.tick < $1.value.tick }) {
                    guard bytes > capacityBytes - capacityBytes / 8 else { break }
                    entries[k] = nil
                    bytes -= Self.cost(e.item, key: k)
                }
            }
            return (bytes, entries.count)
        }
    }

    var count: Int { lock.withLock { entries.count } }
    /// The entries' total cost in bytes (see `cost`).
    var size: Int { lock.withLock { bytes } }
}
