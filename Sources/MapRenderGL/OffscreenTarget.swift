import CEGL

/// The offscreen framebuffer: multisampled colour + depth/stencil renderbuffers, resolved by a
/// blit into a single-sample colour renderbuffer that is read back.
final class OffscreenTarget {
    let width: Int
    let height: Int
    let samples: Int
    private var msaaFBO: GLuint = 0
    private var resolveFBO: GLuint = 0
    private var renderbuffers: [GLuint] = [0, 0, 0]

    init(width: Int, height: Int, samples wanted: Int) throws {
        self.width = width; self.height = height
        var maxSamples: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_SAMPLES), &maxSamples)
        samples = max(0, min(wanted, Int(maxSamples)))
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
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), msaaFBO)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), resolveFBO)
        glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), resolveFBO)
        var raw = [UInt8](repeating: 0, count: width * height * 4)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        raw.withUnsafeMutableBytes { glReadPixels(0, 0, w, h, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress) }
        // GL rows are bottom-up: flip, and undo the premultiplication.
        var out = [UInt8](repeating: 0, count: raw.count)
        let rowBytes = width * 4
        raw.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0 ..< height {
                    let s = (height - 1 - y) * rowBytes, d = y * rowBytes
                    var i = 0
                    while i < rowBytes {
                        let a = src[s + i + 3]
                        if a == 255 {
                            dst[d + i] = src[s + i]; dst[d + i + 1] = src[s + i + 1]; dst[d + i + 2] = src[s + i + 2]
                        } else if a > 0 {
                            let a32 = UInt32(a)
                            dst[d + i] = UInt8(min(255, (UInt32(src[s + i]) * 255 + a32 / 2) / a32))
                            dst[d + i + 1] = UInt8(min(255, (UInt32(src[s + i + 1]) * 255 + a32 / 2) / a32))
                            dst[d + i + 2] = UInt8(min(255, (UInt32(src[s + i + 2]) * 255 + a32 / 2) / a32))
                        }
                        dst[d + i + 3] = a
                        i += 4
                    }
                }
            }
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), msaaFBO)
        return out
    }
}
