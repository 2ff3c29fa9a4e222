import Foundation

/// A dedicated OS thread that runs every GL call: an EGL context is current on one thread,
/// and Swift concurrency may resume a task on any thread, so the renderer funnels its work here.
final class GLThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [GLJob] = []
    private var stopped = false
    /// Weak: the running thread's block holds this object, and Foundation keeps a `Thread` (and
    /// its block) alive only while it runs, so a strong reference here would be a cycle that
    /// leaks both once the thread has ended.
    private weak var thread: Thread?
    /// Whether the loop has returned (the last job, context teardown included, is done), and
    /// the condition its waiters wait on.
    private var done = false
    private let doneCondition = NSCondition()

    init(name: String) {
        let t = Thread { [self] in self.loop() }
        t.name = name
        t.stackSize = 8 << 20
        thread = t
        t.start()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty && stopped {
                condition.unlock()
                doneCondition.lock()
                done = true
                doneCondition.broadcast()
                doneCondition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.run()
        }
    }

    /// Runs `body` on the GL thread and waits for it.
    func sync<T>(_ body: () throws -> T) throws -> T {
        if let t = thread, Thread.current === t { return try body() }
        return try withoutActuallyEscaping(body) { escaping in
            let box = ResultBox<T>()
            let job = GLJob { box.result = Result { try escaping() } }
            condition.lock()
            guard !stopped else { condition.unlock(); throw RenderError(.threadStopped) }
            jobs.append(job)
            condition.signal()
            condition.unlock()
            job.done.wait()
            guard let r = box.result else { throw RenderError(.threadStopped) }
            return try r.get()
        }
    }

    /// Runs `body` (if given) as the last job, then ends the thread. Every caller (but the GL
    /// thread itself) waits until the thread has finished, so after `stop` returns no GL work of
    /// this thread is in flight; a `body` given after the thread has ended is not run.
    /// With `limit`, waits at most that many seconds and says whether the thread finished.
    @discardableResult
    func stop(after body: (() -> Void)? = nil, waitingAtMost limit: Double? = nil) -> Bool {
        condition.lock()
        if let body, !stopped { jobs.append(GLJob(body)) }
        stopped = true
        condition.signal()
        condition.unlock()
        if let t = thread, Thread.current === t { return false }
        let deadline = limit.map { Date(timeIntervalSinceNow: $0) }
        doneCondition.lock()
        defer { doneCondition.unlock() }
        while !done {
            if let deadline {
                if !doneCondition.wait(until: deadline) { return done }
            } else {
                doneCondition.wait()
            }
        }
        return true
    }
}

private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

/// A unit of work for the GL thread; the closure is released before the waiter is woken, so a
/// caller's non-escaping closure never outlives its `sync` call.
private final class GLJob: @unchecked Sendable {
    private var work: (() -> Void)?
    let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping () -> Void) { self.work = work }

    func run() {
        work?()
        work = nil
        done.signal()
    }
}
