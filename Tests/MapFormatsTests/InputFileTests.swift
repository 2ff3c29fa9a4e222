import Foundation
import MapTestSupport
import Testing
@testable import MapFormats

/// Inputs as Unix tools read them: files, pipes (the shell's `<(…)`), devices, with limits.
@Suite struct InputFileTests {
    /// Writes `bytes` into a new FIFO from another thread (the reader's open waits for it). The
    /// writer blocks SIGPIPE, so a reader that stops early makes its writes fail with EPIPE
    /// instead of killing the test process.
    func fifo(_ name: String, writing bytes: [UInt8], in dir: ScratchDirectory) throws -> String {
        let path = dir.path(name)
        #expect(mkfifo(path, 0o600) == 0)
        let writer = Thread {
            var block = sigset_t()
            sigemptyset(&block)
            sigaddset(&block, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &block, nil)
            let fd = open(path, O_WRONLY)
            guard fd >= 0 else { return }
            var done = 0
            while done < bytes.count {
                let n = bytes[done...].withUnsafeBytes { write(fd, $0.baseAddress, min($0.count, 4096)) }
                if n <= 0 { break }
                done += n
            }
            close(fd)
        }
        writer.start()
        return path
    }

    @Test func aPipeIsReadToItsEndInPiecesAsAFileIs() throws {
        let dir = try ScratchDirectory("input-file")
        let text = (0 ..< 5000).map { "46.\($0),14.\($0)\n" }.joined()  // ~70 KB: several pipe buffers
        let path = try fifo("track.csv", writing: Array(text.utf8), in: dir)
        let track = try TrackReader.read(contentsOf: URL(fileURLWithPath: path))
        #expect(track.pointCount == 5000)
        let file = dir.path("track2.csv")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try InputFile.read(file, limit: 1 << 20) == Array(text.utf8))
    }

    @Test func limitsHoldForFilesAndStreams() throws {
        let dir = try ScratchDirectory("input-file-limits")
        let file = dir.path("big.csv")
        try String(repeating: "1,2\n", count: 1000).write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: InputFile.Failure(kind: .tooLarge(bytes: 4000, limit: 3999),
                                          reason: "file is 4000 bytes, more than the limit of 3999")) {
            try InputFile.read(file, limit: 3999)
        }
        // A stream cannot say its size: refused once it has gone past the limit.
        let path = try fifo("stream", writing: [UInt8](repeating: 0x31, count: 5001), in: dir)
        #expect(throws: InputFile.Failure(kind: .tooLarge(bytes: nil, limit: 5000), reason: "more than the limit of 5000 bytes")) {
            try InputFile.read(path, limit: 5000)
        }
        // An endless device with a reader that rejects its first bytes: stops at once.
        let zeros = try InputFile.read("/dev/zero", limit: 1 << 30, rejects: { _ in true })
        #expect(zeros.count <= 1 << 16 && zeros.allSatisfy { $0 == 0 })
        #expect(throws: FormatError.self) { try TrackReader.read(contentsOf: URL(fileURLWithPath: "/dev/zero")) }
        do {
            _ = try TrackReader.read(contentsOf: URL(fileURLWithPath: "/dev/zero"))
        } catch {
            #expect(error.message == "binary data, not a text track file")
        }
    }

    @Test func whatCannotBeReadIsSaidInWords() throws {
        let dir = try ScratchDirectory("input-file-errors")
        #expect(throws: InputFile.Failure(kind: .unreadable, reason: "no such file")) { try InputFile.read(dir.path("none"), limit: 10) }
        #expect(throws: InputFile.Failure(kind: .unreadable, reason: "is a directory")) { try InputFile.read(dir.url.path, limit: 10) }
        #expect(InputFile.displayName("-") == "standard input")
    }
}
