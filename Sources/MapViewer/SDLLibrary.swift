import CSDL2
import Foundation

/// SDL2, loaded with `dlopen` when a window is first opened rather than linked: SDL2 brings
/// about 37 shared libraries with it (X11 extensions, Wayland, PulseAudio, ALSA, audio codecs),
/// which every process of the CLI would otherwise load and relocate at start-up, although only
/// `mapwright view` with a window uses them (a cold `mapwright render` paid for them in its
/// start-up time). The CSDL2 module still provides SDL's types and constants; the functions the
/// viewer calls are looked up here.
struct SDLLibrary: @unchecked Sendable {
    typealias Window = OpaquePointer
    typealias Surface = UnsafeMutablePointer<SDL_Surface>

    let SetHint: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> SDL_bool
    let Init: @convention(c) (UInt32) -> Int32
    let Quit: @convention(c) () -> Void
    let GetError: @convention(c) () -> UnsafePointer<CChar>?
    let CreateWindow: @convention(c) (UnsafePointer<CChar>?, Int32, Int32, Int32, Int32, UInt32) -> Window?
    let DestroyWindow: @convention(c) (Window?) -> Void
    let RegisterEvents: @convention(c) (Int32) -> UInt32
    let WaitEventTimeout: @convention(c) (UnsafeMutablePointer<SDL_Event>?, Int32) -> Int32
    let PollEvent: @convention(c) (UnsafeMutablePointer<SDL_Event>?) -> Int32
    let PushEvent: @convention(c) (UnsafeMutablePointer<SDL_Event>?) -> Int32
    let GetWindowSurface: @convention(c) (Window?) -> Surface?
    let LockSurface: @convention(c) (Surface?) -> Int32
    let UnlockSurface: @convention(c) (Surface?) -> Void
    let ConvertPixels: @convention(c) (Int32, Int32, UInt32, UnsafeRawPointer?, Int32, UInt32, UnsafeMutableRawPointer?, Int32)
        -> Int32
    let UpdateWindowSurface: @convention(c) (Window?) -> Int32
    let GetModState: @convention(c) () -> SDL_Keymod
    let GetWindowSize: @convention(c) (Window?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void

    /// `SDL_Init` of video and events, with the X11 error filter in front of SDL's handler (see
    /// `X11ErrorFilter`: installed after `SDL_Init`, `SDL_Quit` would take it away).
    func initVideo() -> Int32 {
        X11ErrorFilter.install()
        return Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS)
    }

    /// The shared object's name (Debian's `libsdl2-2.0-0`).
    static let soname = "libSDL2-2.0.so.0"

    /// Loaded once per process; the error names the library and what `dlopen`/`dlsym` said.
    static let shared: Result<SDLLibrary, ViewerError> = load()

    private static func load() -> Result<SDLLibrary, ViewerError> {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(ViewerError("cannot load SDL2 (\(soname): \(why)); install libsdl2-2.0-0"))
        }
        let names = [
            "SDL_SetHint", "SDL_Init", "SDL_Quit", "SDL_GetError", "SDL_CreateWindow", "SDL_DestroyWindow",
            "SDL_RegisterEvents", "SDL_WaitEventTimeout", "SDL_PollEvent", "SDL_PushEvent", "SDL_GetWindowSurface",
            "SDL_LockSurface", "SDL_UnlockSurface", "SDL_ConvertPixels", "SDL_UpdateWindowSurface", "SDL_GetModState",
            "SDL_GetWindowSize",
        ]
        var symbols: [String: UnsafeMutableRawPointer] = [:]
        for name in names { if let s = dlsym(handle, name) { symbols[name] = s } }
        let missing = names.filter { symbols[$0] == nil }
        guard missing.isEmpty else {
            return .failure(ViewerError("cannot use SDL2 (\(soname)): missing \(missing.joined(separator: ", "))"))
        }
        func f<T>(_ name: String, _: T.Type) -> T { unsafeBitCast(symbols[name], to: T.self) }
        let lib = SDLLibrary(
            SetHint: f("SDL_SetHint", (@convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> SDL_bool).self),
            Init: f("SDL_Init", (@convention(c) (UInt32) -> Int32).self),
            Quit: f("SDL_Quit", (@convention(c) () -> Void).self),
            GetError: f("SDL_GetError", (@convention(c) () -> UnsafePointer<CChar>?).self),
            CreateWindow: f(
                "SDL_CreateWindow",
                (@convention(c) (UnsafePointer<CChar>?, Int32, Int32, Int32, Int32, UInt32) -> Window?).self),
            DestroyWindow: f("SDL_DestroyWindow", (@convention(c) (Window?) -> Void).self),
            RegisterEvents: f("SDL_RegisterEvents", (@convention(c) (Int32) -> UInt32).self),
            WaitEventTimeout: f("SDL_WaitEventTimeout", (@convention(c) (UnsafeMutablePointer<SDL_Event>?, Int32) -> Int32).self),
            PollEvent: f("SDL_PollEvent", (@convention(c) (UnsafeMutablePointer<SDL_Event>?) -> Int32).self),
            PushEvent: f("SDL_PushEvent", (@convention(c) (UnsafeMutablePointer<SDL_Event>?) -> Int32).self),
            GetWindowSurface: f("SDL_GetWindowSurface", (@convention(c) (Window?) -> Surface?).self),
            LockSurface: f("SDL_LockSurface", (@convention(c) (Surface?) -> Int32).self),
            UnlockSurface: f("SDL_UnlockSurface", (@convention(c) (Surface?) -> Void).self),
            ConvertPixels: f(
                "SDL_ConvertPixels",
                (@convention(c) (Int32, Int32, UInt32, UnsafeRawPointer?, Int32, UInt32, UnsafeMutableRawPointer?, Int32) -> Int32)
                    .self),
            UpdateWindowSurface: f("SDL_UpdateWindowSurface", (@convention(c) (Window?) -> Int32).self),
            GetModState: f("SDL_GetModState", (@convention(c) () -> SDL_Keymod).self),
            GetWindowSize: f(
                "SDL_GetWindowSize",
                (@convention(c) (Window?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void).self))
        return .success(lib)
    }
}
