import Foundation
import MapImage
import Testing

@Suite struct AtomicFileTests {
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "mapimage-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("writePNG then read back: same pixels, no temporary file left")
    func writeAndRead() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bitmap = try randomBitmap(width: 31, height: 17, seed: 5)
        let path = dir + "/out.png"
        try bitmap.writePNG(to: path)
        #expect(try Bitmap(contentsOfPNGFile: path) == bitmap)
        // Overwriting replaces the file whole.
        let other = try randomBitmap(width: 3, height: 3, seed: 6)
        try other.writePNG(to: path)
        #expect(try Bitmap(contentsOfPNGFile: path) == other)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.png"])
    }

    /// `-o /dev/stdout` used to rename a temporary file over /dev/stdout, leaving a regular file
    /// where the device link was (as root). A FIFO (as /dev/stdout is when piped) is written in
    /// place and stays a FIFO; a symbolic link keeps pointing at its file, which is replaced.
    @Test("a pipe is written in place, a symbolic link is kept")
    func pipesAndLinks() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bitmap = try randomBitmap(width: 9, height: 7, seed: 3)
        let fifo = dir + "/pipe.png"
        #expect(mkfifo(fifo, 0o600) == 0)
        final class Box: @unchecked Sendable { var data = Data() }
        let received = Box()
        let reader = Thread {
            if let h = FileHandle(forReadingAtPath: fifo) { received.data = h.readDataToEndOfFile() }
        }
        reader.start()
        try bitmap.writePNG(to: fifo)
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(try Bitmap(pngData: [UInt8](received.data)) == bitmap)
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO, "still a FIFO")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["pipe.png"], "no temporary file left")

        let real = dir + "/real.png", link = dir + "/link.png"
        try Data("old".utf8).write(to: URL(fileURLWithPath: real))
        #expect(symlink("real.png", link) == 0)
        try bitmap.writePNG(to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.png")
        #expect(try Bitmap(contentsOfPNGFile: real) == bitmap)
    }

    @Test("a missing directory: an error naming the path, and no file anywhere")
    func missingDirectory() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/no/such/dir/out.png"
        let error = #expect(throws: MapImageError.self) {
            try randomBitmap(width: 2, height: 2, seed: 1).writePNG(to: path)
        }
        #expect(error?.kind == .fileWrite)
        #expect(error?.path == path)
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("No such file or directory") == true, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test("a parent that is a file, or a destination that is a directory: errors, nothing written")
    func notADirectory() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AtomicFile.write([1, 2, 3], to: dir + "/plain")
        for path in [dir + "/plain/out.png", dir, dir + "/"] {
            let error = #expect(throws: MapImageError.self, "\(path)") { try AtomicFile.write([4, 5], to: path) }
            #expect(error?.kind == .fileWrite, "\(path)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["plain"])
        #expect(try AtomicFile.read(dir + "/plain") == [1, 2, 3], "the old file is untouched")
    }

    @Test("reading a missing file or a non-PNG file names the path")
    func readErrors() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = #expect(throws: MapImageError.self) { try Bitmap(contentsOfPNGFile: dir + "/none.png") }
        #expect(missing?.kind == .fileRead)
        #expect(missing?.path == dir + "/none.png")
        try AtomicFile.write(Array("text".utf8), to: dir + "/text.png")
        let invalid = #expect(throws: MapImageError.self) { try Bitmap(contentsOfPNGFile: dir + "/text.png") }
        #expect(invalid?.kind == .invalidPNG)
        #expect(invalid?.description.hasPrefix(dir + "/text.png: invalid PNG") == true)
    }
}
