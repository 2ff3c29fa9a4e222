import Foundation
import MapImage
import MapTestSupport
import Testing

/// Interrupted part-way (Ctrl-C, SIGTERM, a closed terminal), the long-running commands leave
/// nothing behind: no temporary APNG, no frames of the run (nor the directory it created), no
/// half-written tile archive. The process still ends by the signal, as a shell expects.
@Suite(.serialized) struct InterruptCLITests {
    /// Starts `mapwright arguments` in `dir`, waits until `started` holds of the directory's
    /// entries (the writer is under way), sends `signal`, and returns how the process ended
    /// and the entries left.
    func interrupt(_ arguments: [String], in dir: ScratchDirectory, signal: Int32,
                   startedWhen started: ([String]) -> Bool) throws -> (reason: Process.TerminationReason, status: Int32, left: [String]) {
        let process = Process()
        process.executableURL = mapwrightExecutable()
        process.arguments = arguments
        process.currentDirectoryURL = dir.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        var seen = false
        while Date() < deadline, process.isRunning {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: dir.url.path)) ?? []
            if started(entries) { seen = true; break }
            usleep(20_000)
        }
        #expect(seen, "\(arguments): the writer never started (or finished first)")
        // Past the writer's start, the signal lands while frames or tiles are being written.
        usleep(300_000)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
        return (process.terminationReason, process.terminationStatus, left)
    }

    static let animate = ["animate", "--basemap", "none", "--size", "320x240", "--center", "37.76,-122.42", "--zoom", "14",
                          "--pulse", "37.76,-122.42,40px", "--duration", "600", "--fps", "30"]

    @Test func anAPNGInterruptedLeavesNoTemporaryFile() throws {
        let dir = try ScratchDirectory("mapwright-int-apng")
        let r = try interrupt(Self.animate + ["-o", "a.apng"], in: dir, signal: SIGINT) { $0.contains { $0.hasPrefix(".a.apng.") } }
        #expect(r.reason == .uncaughtSignal && r.status == SIGINT, "ended \(r.reason) \(r.status)")
        #expect(r.left.isEmpty, "left \(r.left)")
    }

    @Test func aGIFInterruptedLeavesNoTemporaryFile() throws {
        let dir = try ScratchDirectory("mapwright-int-gif")
        let r = try interrupt(Self.animate.map { $0 == "30" ? "25" : $0 } + ["-o", "a.gif"], in: dir, signal: SIGTERM) {
            $0.contains { $0.hasPrefix(".a.gif.") }
        }
        #expect(r.reason == .uncaughtSignal && r.status == SIGTERM, "ended \(r.reason) \(r.status)")
        #expect(r.left.isEmpty, "left \(r.left)")
    }

    @Test func framesInterruptedAreRemovedWithTheirDirectory() throws {
        let dir = try ScratchDirectory("mapwright-int-frames")
        let r = try interrupt(Self.animate + ["-o", "frames/"], in: dir, signal: SIGTERM) { _ in
            FileManager.default.fileExists(atPath: dir.path("frames/" + PNGSequenceWriter.name(ofFrame: 5)))
        }
        #expect(r.reason == .uncaughtSignal && r.status == SIGTERM, "ended \(r.reason) \(r.status)")
        #expect(r.left.isEmpty, "left \(r.left)")
    }

    @Test func aTileDirectoryInterruptedLosesTheRunsTilesAndTheDirectoriesItMade() throws {
        let dir = try ScratchDirectory("mapwright-int-tiledir")
        let r = try interrupt(["tiles", "render", "-o", "pyr/", "--bounds", "20,-130,50,-60", "--zooms", "0-12"],
                              in: dir, signal: SIGINT) { _ in FileManager.default.fileExists(atPath: dir.path("pyr/4")) }
        #expect(r.reason == .uncaughtSignal && r.status == SIGINT, "ended \(r.reason) \(r.status)")
        #expect(r.left.isEmpty, "left \(r.left)")
    }

    @Test func aTileArchiveInterruptedLeavesNoPartialFile() throws {
        let dir = try ScratchDirectory("mapwright-int-tiles")
        let r = try interrupt(["tiles", "render", "-o", "t.mbtiles", "--bounds", "20,-130,50,-60", "--zooms", "0-12"],
                              in: dir, signal: SIGHUP) { $0.contains { $0.hasPrefix("t.mbtiles.partial-") } }
        #expect(r.reason == .uncaughtSignal && r.status == SIGHUP, "ended \(r.reason) \(r.status)")
        #expect(r.left.isEmpty, "left \(r.left)")
    }
}
