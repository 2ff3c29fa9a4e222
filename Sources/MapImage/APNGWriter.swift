import Foundation

/// Writes an animated PNG (APNG, the W3C PNG specification's animation chunks) frame by frame,
/// with our own chunk writer: `acTL` (frame count and plays), then per frame an `fcTL` (size,
/// delay, no dispose, source blend) and its image data (`IDAT` for the first frame, `fdAT` after),
/// numbered by one sequence counter. Every frame is a whole image. The file appears at `path`
/// only when `finish()` succeeds.
public final class APNGWriter: FrameSink {
    /// The destination.
    public let path: String
    /// Frame size in pixels.
    public let width: Int, height: Int
    /// The number of frames the file declares; exactly this many must be written.
    public let frameCount: Int
    private let delay: (num: UInt16, den: UInt16)
    private let plays: UInt32
    private let encoder: PNGFrameEncoder
    private let file: PendingFile
    private var frames: DeclaredFrames
    private var sequence: UInt32 = 0
    private var rgb: Bool?

    /// Opens `path` for `frameCount` frames of `width`×`height` at `fps` frames per second;
    /// `loops` plays it forever (else once).
    public init(path: String, width: Int, height: Int, frameCount: Int, fps: Double, loops: Bool = true,
                options: PNGOptions = .fast) throws(MapImageError) {
        guard frameCount >= 1, frameCount <= Int(Int32.max) else {
            throw .encoding(path, "an APNG needs at least one frame")
        }
        guard fps.isFinite, fps > 0 else { throw .encoding(path, "frame rate \(fps) is not positive") }
        self.path = path; self.width = width; self.height = height; self.frameCount = frameCount
        self.plays = loops ? 0 : 1
        frames = DeclaredFrames(path: path, width: width, height: height, count: frameCount)
        encoder = PNGFrameEncoder(options: options)
        delay = Self.delayFraction(fps: fps)
        file = try PendingFile(path: path)
    }

    /// The frame delay `1/fps` as `num/den` seconds with 16-bit terms (exact for whole fps).
    static func delayFraction(fps: Double) -> (num: UInt16, den: UInt16) {
        if fps == fps.rounded(), fps <= 65535 { return (1, UInt16(fps)) }
        let den = 10_000.0
        let num = max(1, min(65535, (den / fps).rounded()))
        return (UInt16(num), UInt16(den))
    }

    public func write(_ frame: Bitmap) throws(MapImageError) {
        try frames.check(frame)
        let written = frames.written
        // All frames share the header's colour type: RGB when the first frame is opaque.
        let opaque = frame.isOpaque
        if rgb == nil {
            rgb = opaque
            encoder.options.dropOpaqueAlpha = opaque
        }
        if rgb == true, !opaque {
            throw .encoding(path, "frame \(written) has transparent pixels but the first frame was opaque")
        }
        let png = try encoder.encode(frame, opaque: opaque)
        let (ihdr, data) = try Self.split(png, path: path)
        var out: [UInt8] = []
        if written == 0 {
            out += [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            out += Self.chunk("IHDR", ihdr)
            out += Self.chunk("acTL", Self.be32(UInt32(frameCount)) + Self.be32(plays))
        }
        var fctl = Self.be32(sequence) + Self.be32(UInt32(width)) + Self.be32(UInt32(height))
        fctl += Self.be32(0) + Self.be32(0)
        fctl += Self.be16(delay.num) + Self.be16(delay.den) + [0, 0]  // dispose none, blend source
        out += Self.chunk("fcTL", fctl)
        sequence += 1
        if written == 0 {
            out += Self.chunk("IDAT", data)
        } else {
            out += Self.chunk("fdAT", Self.be32(sequence) + data)
            sequence += 1
        }
        do { try file.write(out) } catch { abort(); throw error }
        frames.wrote()
    }

    public func finish() throws(MapImageError) {
        guard !frames.closed else { return }
        do { try frames.checkComplete() } catch { abort(); throw error }
        do { try file.write(Self.chunk("IEND", [])) } catch { abort(); throw error }
        frames.closed = true
        try file.commit()
    }

    public func abort() {
        frames.closed = true
        file.discard()
    }

    /// The IHDR payload and the concatenated IDAT payloads of a PNG.
    static func split(_ png: [UInt8], path: String) throws(MapImageError) -> (ihdr: [UInt8], data: [UInt8]) {
        var i = 8
        var ihdr: [UInt8] = []
        var data: [UInt8] = []
        while i + 8 <= png.count {
            let len = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
            let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
            guard i + 12 + len <= png.count else { throw .encoding(path, "internal PNG chunk overruns") }
            let body = png[(i + 8)..<(i + 8 + len)]
            if type == "IHDR" { ihdr = Array(body) }
            if type == "IDAT" { data += body }
            i += 12 + len
        }
        guard ihdr.count == 13, !data.isEmpty else { throw .encoding(path, "internal PNG has no image data") }
        return (ihdr, data)
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let t = Array(type.utf8)
        return be32(UInt32(body.count)) + t + body + be32(CRC32.checksum(t + body))
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
}

/// CRC-32 as PNG chunks use it (ISO 3309 / ITU-T V.42, polynomial 0xEDB88320, reflected).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}

/// Writes each frame as `000000.png`, `000001.png`, … into a directory (created if missing).
/// On `abort()` the frames written by this run are removed again (and the directory, when this
/// writer created it). `finish()` removes the frames an earlier, longer run left after this
/// run's last one (the unbroken run of numbered frames that follows it), so the directory holds
/// one animation: a tool reading `%06d.png` would otherwise play the old tail after the new frames.
public final class PNGSequenceWriter: FrameSink {
    /// The directory.
    public let directory: String
    private let encoder: PNGFrameEncoder
    private var written: [String] = []
    private let createdDirectory: Bool
    /// How many frames of an earlier run `finish()` removed.
    public private(set) var removedStaleFrames = 0

    /// Prepares `directory` (its parent must exist).
    public init(directory: String, options: PNGOptions = .fast) throws(MapImageError) {
        self.directory = directory
        encoder = PNGFrameEncoder(options: options)
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDir) {
            guard isDir.boolValue else { throw .fileWrite(directory, "exists and is not a directory") }
            createdDirectory = false
        } else {
            do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false) } catch {
                throw .fileWrite(directory, "cannot create the directory (does its parent exist?)")
            }
            createdDirectory = true
            InterruptCleanup.add(directory)
        }
    }

    /// The file name of frame `n`.
    public static func name(ofFrame n: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, 6 - s.count)) + s + ".png"
    }

    public func write(_ frame: Bitmap) throws(MapImageError) {
        let p = (directory as NSString).appendingPathComponent(Self.name(ofFrame: written.count))
        let png = try encoder.encode(frame)
        // Registered before it lands, so an interruption just after the rename removes it too.
        InterruptCleanup.add(p)
        do { try AtomicFile.write(png, to: p) } catch {
            InterruptCleanup.remove(p)
            throw error
        }
        written.append(p)
    }

    public func finish() throws(MapImageError) {
        for p in written { InterruptCleanup.remove(p) }
        InterruptCleanup.remove(directory)
        // Only regular files named as frames, numbered on from this run's last without a gap.
        var n = written.count
        while true {
            let p = (directory as NSString).appendingPathComponent(Self.name(ofFrame: n))
            var st = stat()
            guard lstat(p, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { break }
            guard unlink(p) == 0 else {
                throw .fileWrite(p, "a frame of an earlier run follows this run's last and cannot be removed (\(String(cString: strerror(errno))))")
            }
            removedStaleFrames += 1
            n += 1
        }
    }

    public func abort() {
        for p in written { unlink(p); InterruptCleanup.remove(p) }
        written.removeAll()
        if createdDirectory { rmdir(directory) }
        InterruptCleanup.remove(directory)
    }
}
