import CEGL

/// The offscreen framebuffer: multisampled colour + depth/stencil renderbuffers, resolved by a
/// blit into a single-sample colour renderbuffer that is read back; without multisampling the
/// drawn colour buffer is read back directly (no blit).
final class OffscreenTarget {
    let width: Int
    let height: Int
    let samples: Int
    private var msaaFBO: GLuint = 0
    private var resolveFBO: GLuint = 0
    private var renderbuffers: [GLuint] = [0, 0, 0]

    /// `samples` must be one the device offers (`GL_MAX_SAMPLES` at most; the renderer clamps it).
    init(width: Int, height: Int, samples: Int) throws {
        self.width = width; self.height = height
        self.samples = samples
        glGenRenderbuffers(3, &renderbuffers)
        glGenFramebuffers(1, &msaaFBO)
        glGenFramebuffers(1, &resolveFBO)
        let w = GLsizei(width), h = GLsizei(height), s = GLsizei(samples)
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffers[0])
        glRenderbufferStorageMultisample(GLenum(GL_RENDERBUFFER), s, GLenum(GL_RGBA8), w, h)
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffers[1])
        glRenderbufferStorageMultisample(GLenum(GL_RENDERBUFFER), s, GLenum(GL_DEPTH24_STENCIL8), w, h)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), msaaFBO)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), renderbuffers[0])
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER), renderbuffers[1])
        var status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw RenderError(.framebuffer("multisampled framebuffer incomplete (0x\(String(status, radix: 16)))"))
        }
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffers[2])
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), w, h)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), resolveFBO)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), renderbuffers[2])
        status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw RenderError(.framebuffer("resolve framebuffer incomplete (0x\(String(status, radix: 16)))"))
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), msaaFBO)
    }

    deinit {
        glDeleteFramebuffers(1, &msaaFBO)
        glDeleteFramebuffers(1, &resolveFBO)
        glDeleteRenderbuffers(3, &renderbuffers)
    }

    /// Binds the multisampled framebuffer for drawing.
    func bind() {
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), msaaFBO)
        glViewport(0, 0, GLsizei(width), GLsizei(height))
    }

    /// Resolves the samples and reads the pixels back top-down with straight alpha.
    func readPixels() -> [UInt8] {
        let w = GLsizei(width), h = GLsizei(height)
        resolve(x: 0, y: 0, w: w, h: h)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        let rowBytes = width * 4, rows = height
        // Read straight into the result, then flip rows in place and undo the premultiplication
        // only where alpha is below 255 (nowhere, over a basemap): no zero-filled buffers, no
        // second copy.
        let out = [UInt8](unsafeUninitializedCapacity: rowBytes * rows) { buffer, count in
            guard let base = buffer.baseAddress else { count = 0; return }
            glReadPixels(0, 0, w, h, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), base)
            count = rowBytes * rows
            Self.flipRows(base, rowBytes: rowBytes, rows: rows)
            Self.unpremultiply(UnsafeMutableRawPointer(base), pixels: width * rows)
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), msaaFBO)
        return out
    }

    /// Resolves and reads back only the rectangle `rect` (device pixels, top-left origin) into
    /// `pixels` (the whole frame, top-down, straight alpha), leaving the rest as it is.
    func readPixels(_ rect: PixelRect, into pixels: inout [UInt8]) {
        let x = GLint(rect.x), y = GLint(height - rect.y - rect.height), w = GLsizei(rect.width), h = GLsizei(rect.height)
        resolve(x: x, y: y, w: w, h: h)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        let rowBytes = rect.width * 4
        var scratch = [UInt8](repeating: 0, count: rowBytes * rect.height)
        scratch.withUnsafeMutableBytes { buf in
            glReadPixels(x, y, w, h, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), buf.baseAddress)
            if let base = buf.baseAddress { Self.unpremultiply(base, pixels: rect.width * rect.height) }
        }
        let frameRow = width * 4
        pixels.withUnsafeMutableBytes { dst in
            scratch.withUnsafeBytes { src in
                guard let d = dst.baseAddress, let s = src.baseAddress else { return }
                for row in 0 ..< rect.height {
                    // GL row `row` of the rectangle is its row `height − 1 − row` from the top.
                    let top = rect.y + rect.height - 1 - row
                    (d + top * frameRow + rect.x * 4).copyMemory(from: s + row * rowBytes, byteCount: rowBytes)
                }
            }
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), msaaFBO)
    }

    /// Copies rectangle `r` (from the top left) of the frame drawn so far (resolved) into the same
    /// place in `texture`, a texture of the frame's size, leaving it bound on the active unit and
    /// the drawing framebuffer bound again. A scissor test is turned off for the copy (a
    /// resolving blit honours it) and back on after.
    func copyColor(into texture: GLuint, rect r: PixelRect) {
        let scissored = glIsEnabled(GLenum(GL_SCISSOR_TEST)) == GLboolean(GL_TRUE)
        if scissored { glDisable(GLenum(GL_SCISSOR_TEST)) }
        let y = GLint(height - r.y - r.height)
        resolve(x: GLint(r.x), y: y, w: GLsizei(r.width), h: GLsizei(r.height))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glCopyTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(r.x), y, GLint(r.x), y, GLsizei(r.width), GLsizei(r.height))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), msaaFBO)
        if scissored { glEnable(GLenum(GL_SCISSOR_TEST)) }
    }

    /// Makes the rectangle readable: resolved into the single-sample buffer, or (no
    /// multisampling) the drawn buffer itself bound for reading.
    private func resolve(x: GLint, y: GLint, w: GLsizei, h: GLsizei) {
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), msaaFBO)
        guard samples > 0 else { return }
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), resolveFBO)
        glBlitFramebuffer(x, y, x + w, y + h, x, y, x + w, y + h, GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), resolveFBO)
    }

    /// Swaps row `y` with row `rows - 1 - y` (GL rows are bottom-up).
    static func flipRows(_ base: UnsafeMutablePointer<UInt8>, rowBytes: Int, rows: Int) {
        guard rows > 1 else { return }
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        defer { scratch.deallocate() }
        for y in 0 ..< rows / 2 {
            let top = base + y * rowBytes, bottom = base + (rows - 1 - y) * rowBytes
            scratch.update(from: top, count: rowBytes)
            top.update(from: bottom, count: rowBytes)
            bottom.update(from: scratch, count: rowBytes)
        }
    }

    /// Turns `pixels` premultiplied RGBA8 pixels into straight alpha in place (rounded to
    /// nearest, clamped to 255; alpha 0 gives transparent black). Opaque pixels are skipped by
    /// testing four alpha bytes at once.
    static func unpremultiply(_ base: UnsafeMutableRawPointer, pixels: Int) {
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var i = 0
        while i + 4 <= pixels {
            let p = bytes + i * 4
            if p[3] & p[7] & p[11] & p[15] == 255 { i += 4; continue }
            for k in 0 ..< 4 { unpremultiplyPixel(p + k * 4) }
            i += 4
        }
        while i < pixels {
            unpremultiplyPixel(bytes + i * 4)
            i += 1
        }
    }

    @inline(__always)
    static func unpremultiplyPixel(_ p: UnsafeMutablePointer<UInt8>) {
        let a = UInt32(p[3])
        if a == 255 { return }
        if a == 0 { p[0] = 0; p[1] = 0; p[2] = 0; return }
        p[0] = UInt8(min(255, (UInt32(p[0]) * 255 + a / 2) / a))
        p[1] = UInt8(min(255, (UInt32(p[1]) * 255 + a / 2) / a))
        p[2] = UInt8(min(255, (UInt32(p[2]) * 255 + a / 2) / a))
    }
}

/// A rectangle of device pixels, top-left origin.
struct PixelRect: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    var area: Int { width * height }

    func intersects(_ o: PixelRect) -> Bool {
        x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height
    }

    /// The overlap (empty, at x and y of 0, where there is none).
    func intersection(_ o: PixelRect) -> PixelRect {
        let x0 = max(x, o.x), y0 = max(y, o.y), x1 = min(x + width, o.x + o.width), y1 = min(y + height, o.y + o.height)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : PixelRect(x: 0, y: 0, width: 0, height: 0)
    }

    func union(_ o: PixelRect) -> PixelRect {
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return PixelRect(x: x0, y: y0, width: max(x + width, o.x + o.width) - x0, height: max(y + height, o.y + o.height) - y0)
    }
}
