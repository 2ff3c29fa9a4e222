/// Why the GL renderer could not start or draw.
public struct RenderError: Error, CustomStringConvertible, Equatable {
    enum Base: Equatable {
        case noDisplay(String)
        case noConfig(String)
        case noContext(String)
        case shader(String)
        case framebuffer(String)
        case size(String)
        case threadStopped
    }

    let base: Base

    init(_ base: Base) { self.base = base }

    /// The Debian packages that provide headless EGL with Mesa.
    public static let packages = "libegl1 libegl-mesa0 libgl1-mesa-dri libgles2"

    public var description: String {
        switch base {
        case .noDisplay(let why):
            return "no EGL display (\(why)); install the EGL/Mesa runtime: apt-get install \(Self.packages)"
        case .noConfig(let why):
            return "no EGL config with OpenGL ES 3 (\(why)); install: apt-get install \(Self.packages)"
        case .noContext(let why):
            return "cannot create an OpenGL ES 3 context (\(why)); install: apt-get install \(Self.packages)"
        case .shader(let log): return "GL shader failed: \(log)"
        case .framebuffer(let why): return "GL framebuffer failed: \(why)"
        case .size(let why): return "invalid render size: \(why)"
        case .threadStopped: return "the renderer has been shut down"
        }
    }
}
