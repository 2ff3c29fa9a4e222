import Foundation
import MapTestSupport
import Testing
@testable import MapImage

/// A stuck encoder must not hang the caller: stand-in `ffmpeg` scripts that never read, or
/// read everything and never exit, are stopped within the stall timeout and leave no file.
@Suite struct VideoWriterTests {
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory("mapwright-video") }

    /// An executable shell script standing in for ffmpeg.
    func fakeFFmpeg(_ body: String) throws -> String {
        let path = try scratch.write("ffmpeg", "#!/bin/sh\n\(body)\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    func seconds(_ f: () throws -> Void) rethrows -> Double {
        let t0 = DispatchTime.now().uptimeNanoseconds
        try f()
        return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
    }

    /// The processes whose command line is exactly `line`.
    func running(_ line: String) -> Bool {
        let procs = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return procs.contains { pid in
            guard pid.allSatisfy(\.isNumber),
                  let raw = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: raw, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
                .trimmingCharacters(in: .whitespaces) == line
        }
    }

    /// Runs `step` (which fails), then checks the error says `message`, came after the 0.5 s
    /// timeout and within `limit` s, the stand-in (`sleep N`) is gone and no file is left.
    func expectStopped(_ message: String, sleeping line: String, within limit: Double, _ step: () throws -> Void) {
        var error = ""
        let took = seconds {
            do { try step() } catch let e { error = "\(e)" }
        }
        #expect(error.contains(message), "\(error)")
        #expect(took >= 0.5 && took < limit, "took \(took) s")
        #expect(!running(line), "the stand-in ffmpeg is still running")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) == ["ffmpeg"])
    }

    @Test func anFFmpegThatReadsNothingIsStopped() throws {
        // It ignores SIGTERM too (an ignored signal stays ignored across exec): SIGKILL ends it.
        let ffmpeg = try fakeFFmpeg("trap '' TERM\nexec sleep 7431")
        let writer = try VideoWriter(path: scratch.path("v.mp4"), container: .mp4, width: 200, height: 200, fps: 10,
                                     stallTimeout: 0.5, ffmpeg: ffmpeg)
        // 160 000 bytes a frame: more than a pipe holds, so the first frame already waits.
        let frame = try Bitmap(width: 200, height: 200, fill: RGBA8(r: 10, g: 20, b: 30))
        // 0.5 s of waiting, then up to 2 s for SIGTERM before SIGKILL.
        expectStopped("ffmpeg read nothing for 0.5 s and was stopped", sleeping: "sleep 7431", within: 6) {
            try writer.write(frame)
        }
    }

    @Test func anFFmpegThatNeverFinishesIsStopped() throws {
        let ffmpeg = try fakeFFmpeg("cat > /dev/null\nexec sleep 7432")
        let writer = try VideoWriter(path: scratch.path("v.webm"), container: .webm, width: 64, height: 48, fps: 10,
                                     stallTimeout: 0.5, ffmpeg: ffmpeg)
        let frame = try Bitmap(width: 64, height: 48, fill: RGBA8(r: 10, g: 20, b: 30))
        for _ in 0 ..< 20 { try writer.write(frame) }
        expectStopped("ffmpeg had not finished 0.5 s after the last frame and was stopped", sleeping: "sleep 7432", within: 4) {
            try writer.finish()
        }
    }

    @Test func anFFmpegThatExitsEarlySaysWhat() throws {
        let ffmpeg = try fakeFFmpeg("echo 'Unknown encoder libx264' >&2\nexit 1")
        let writer = try VideoWriter(path: scratch.path("v.mp4"), container: .mp4, width: 200, height: 200, fps: 10,
                                     stallTimeout: 5, ffmpeg: ffmpeg)
        let frame = try Bitmap(width: 200, height: 200)
        var message = ""
        do {
            for _ in 0 ..< 10 { try writer.write(frame) }
            try writer.finish()
        } catch { message = "\(error)" }
        #expect(message.contains("Unknown encoder libx264"), "\(message)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["ffmpeg"])
    }

    @Test func timeoutsOutsideTheLimitsAreRefused() throws {
        for t in [0, -1, .nan, .infinity, VideoWriter.maxStallTimeout + 1] {
            #expect(throws: MapImageError.self) {
                try VideoWriter(path: scratch.path("v.mp4"), container: .mp4, width: 8, height: 8, fps: 10,
                                stallTimeout: t, ffmpeg: "/bin/true")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }
}
