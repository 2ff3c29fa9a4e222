import CEGL

/// A headless EGL display + OpenGL ES 3 context with no surface (rendering goes to a framebuffer
/// object). Tries the EGL device platform first (`EGL_EXT_platform_device`: a real GPU where there
/// is one, Mesa's software device otherwise), then Mesa's surfaceless platform. It never calls
/// `eglGetDisplay(EGL_DEFAULT_DISPLAY)`, which would try to reach an X11 server.
final class HeadlessEGL {
    let display: EGLDisplay
    let context: EGLContext
    /// Which platform was used, for diagnostics ("device", "surfaceless").
    let platform: String

    /// Creates the context and makes it current on the calling thread.
    init() throws {
        var failures: [String] = []
        for (platform, display) in HeadlessEGL.candidateDisplays(&failures) {
            var major: EGLint = 0, minor: EGLint = 0
            guard try GLLifetime.initialize(display, { eglInitialize(display, &major, &minor) == EGL_TRUE }) else {
                failures.append("\(platform): eglInitialize failed (0x\(String(eglGetError(), radix: 16)))")
                continue
            }
            do {
                let ctx = try HeadlessEGL.makeContext(display)
                self.display = display
                self.context = ctx
                self.platform = platform
                return
            } catch {
                // The display stays initialised (another renderer may share it); GLLifetime
                // terminates it before the process exits.
                failures.append("\(platform): \(error)")
            }
        }
        throw RenderError(.noDisplay(failures.isEmpty ? "no EGL platform available" : failures.joined(separator: "; ")))
    }

    deinit {
        eglMakeCurrent(display, nil, nil, nil)
        eglDestroyContext(display, context)
        // The thread's own EGL state goes with its context. The display is process-wide
        // (eglGetPlatformDisplay returns the same one to every renderer), so it is terminated
        // only by GLLifetime.shutdownAll, before the process exits.
        eglReleaseThread()
    }

    private static func candidateDisplays(_ failures: inout [String]) -> [(String, EGLDisplay)] {
        var out: [(String, EGLDisplay)] = []
        let clientExts = eglQueryString(nil, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? ""
        if clientExts.contains("EGL_EXT_platform_device"), clientExts.contains("EGL_EXT_device_enumeration")
            || clientExts.contains("EGL_EXT_device_base"),
            let raw = eglGetProcAddress("eglQueryDevicesEXT") {
            let query = unsafeBitCast(raw, to: PFNEGLQUERYDEVICESEXTPROC.self)
            var devices = [EGLDeviceEXT?](repeating: nil, count: 16)
            var count: EGLint = 0
            if query(16, &devices, &count) == EGL_TRUE {
                for k in 0 ..< Int(count) {
                    guard let dev = devices[k] else { continue }
                    if let d = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), dev, nil) {
                        out.append(("device \(k)", d))
                    }
                }
            } else {
                failures.append("eglQueryDevicesEXT failed")
            }
        }
        if clientExts.contains("EGL_MESA_platform_surfaceless"),
           let d = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil) {
            out.append(("surfaceless", d))
        }
        if out.isEmpty {
            failures.append("client extensions: \(clientExts.isEmpty ? "none (is libEGL's Mesa vendor missing?)" : clientExts)")
        }
        return out
    }

    private static func makeContext(_ display: EGLDisplay) throws -> EGLContext {
        let exts = eglQueryString(display, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? ""
        guard exts.contains("EGL_KHR_surfaceless_context") else {
            throw RenderError(.noContext("display lacks EGL_KHR_surfaceless_context"))
        }
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else {
            throw RenderError(.noContext("eglBindAPI(OpenGL ES) failed"))
        }
        let attribs: [EGLint] = [
            EGLint(EGL_SURFACE_TYPE), 0,
            EGLint(EGL_RENDERABLE_TYPE), EGLint(EGL_OPENGL_ES3_BIT),
            EGLint(EGL_RED_SIZE), 8, EGLint(EGL_GREEN_SIZE), 8, EGLint(EGL_BLUE_SIZE), 8, EGLint(EGL_ALPHA_SIZE), 8,
            EGLint(EGL_NONE),
        ]
        var config: EGLConfig? = nil
        var n: EGLint = 0
        guard eglChooseConfig(display, attribs, &config, 1, &n) == EGL_TRUE, n > 0, let cfg = config else {
            throw RenderError(.noConfig("eglChooseConfig found no ES3 config"))
        }
        let ctxAttribs: [EGLint] = [EGLint(EGL_CONTEXT_MAJOR_VERSION), 3, EGLint(EGL_CONTEXT_MINOR_VERSION), 0, EGLint(EGL_NONE)]
        guard let ctx = eglCreateContext(display, cfg, nil, ctxAttribs) else {
            throw RenderError(.noContext("eglCreateContext failed (0x\(String(eglGetError(), radix: 16)))"))
        }
        guard eglMakeCurrent(display, nil, nil, ctx) == EGL_TRUE else {
            eglDestroyContext(display, ctx)
            throw RenderError(.noContext("eglMakeCurrent failed (0x\(String(eglGetError(), radix: 16)))"))
        }
        return ctx
    }
}
