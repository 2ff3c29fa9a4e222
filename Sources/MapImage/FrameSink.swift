import Foundation

/// Where the frames of an animation go: an APNG file, a directory of numbered PNGs, or a video
/// through ffmpeg. Frames are written in order; `finish()` makes the output appear whole, and
/// `abort()` (or a failure) leaves nothing behind.
public protocol FrameSink: AnyObject {
    /// Writes the next frame (all frames have the size the sink was made for).
    func write(_ frame: Bitmap) throws(MapImageError)
    /// Completes the output (renames it into place).
    func finish() throws(MapImageError)
    /// Removes everything written so far; safe to call more than once and after `finish` fails.
    func abort()
}

/// The bookkeeping of a sink that declares its frames up front (APNG, GIF): each frame the
/// declared size, no more than the declared count, and exactly that many by `finish()`.
struct DeclaredFrames {
    let path: String
    let width: Int, height: Int, count: Int
    /// Frames written so far.
    private(set) var written = 0
    /// Set once the output is finished or aborted: no frame may follow.
    var closed = false

    init(path: String, width: Int, height: Int, count: Int) {
        self.path = path; self.width = width; self.height = height; self.count = count
    }

    /// Throws unless `frame` may be written next.
    func check(_ frame: Bitmap) throws(MapImageError) {
        guard !closed else { throw .encoding(path, "frame written after finish") }
        guard frame.width == width, frame.height == height else {
            throw .encoding(path, "frame \(written) is \(frame.width)x\(frame.height), expected \(width)x\(height)")
        }
        guard written < count else { throw .encoding(path, "more than the \(count) frames declared") }
    }

    /// Counts a frame written.
    mutating func wrote() { written += 1 }

    /// Throws unless every declared frame was written.
    func checkComplete() throws(MapImageError) {
        guard written == count else { throw .encoding(path, "\(written) frames written, \(count) declared") }
    }
}

/// A file written piece by piece into a temporary file beside its destination, renamed into
/// place by `commit()`; `discard()` removes it. Readers never see a partial file at `path`.
final class PendingFile {
    let path: String
    let temporaryPath: String
    private var handle: FileHandle?

    init(path: String, temporarySuffix: String = ".tmp") throws(MapImageError) {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw .fileWrite(path, "the directory \(dir) does not exist")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw .fileWrite(path, "is a directory")
        }
        self.path = path
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        temporaryPath = (dir as NSString).appendingPathComponent(".\(url.lastPathComponent).\(suffix)\(temporarySuffix)")
        InterruptCleanup.add(temporaryPath)
        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil),
              let h = FileHandle(forWritingAtPath: temporaryPath) else {
            unlink(temporaryPath)
            InterruptCleanup.remove(temporaryPath)
            throw .fileWrite(path, "cannot create a temporary file in \(dir)")
        }
        handle = h
    }

    func write(_ bytes: [UInt8]) throws(MapImageError) {
        guard let handle else { throw .fileWrite(path, "already closed") }
        do { try handle.write(contentsOf: Data(bytes)) } catch {
            throw .fileWrite(path, "write failed: \(error.localizedDescription)")
        }
    }

    /// Closes the temporary file without renaming it (for files another program writes).
    func close() {
        try? handle?.close()
        handle = nil
    }

    func commit() throws(MapImageError) {
        close()
        guard rename(temporaryPath, path) == 0 else {
            let why = String(cString: strerror(errno))
            discard()
            throw .fileWrite(path, "rename into place failed: \(why)")
        }
        InterruptCleanup.remove(temporaryPath)
    }

    func discard() {
        close()
        unlink(temporaryPath)
        InterruptCleanup.remove(temporaryPath)
    }
}

extension MapImageError {
    static func encoding(_ path: String, _ why: String) -> MapImageError {
        MapImageError(kind: .encodingFailed, path: path, description: "'\(path)': \(why)")
    }
}
