import Foundation

/// Keeps one harmless, asynchronous X11 error from ending the viewer.
///
/// The render thread wakes the main thread with `SDL_PushEvent`. On X11, SDL delivers that wake-up
/// as a `ClientMessage` sent with `XSendEvent` to the viewer's window over a second connection to
/// the X server. The main thread destroys the window on quit over its own connection, and the
/// server is free to handle the two connections' requests in either order: when the destroy is
/// handled first, the wake-up fails with `BadWindow`. X reports errors asynchronously, and Xlib's
/// default handler prints "X Error of failed request: BadWindow … (X_SendEvent)" and calls
/// `exit(1)`, so a clean Ctrl+Q could end with status 1 (seen once in CI under load).
///
/// `install()` puts a handler in front of the current one that drops exactly that error —
/// `BadWindow` on `X_SendEvent` — and passes every other error on unchanged. It must run before
/// `SDL_Init` (`SDLLibrary.initVideo` does both): SDL's X11 driver puts its own handler in front
/// at `SDL_Init` and, at `SDL_Quit`, puts back the one it found — which is when the late error is
/// read (closing the wake-up connection), so a filter installed after `SDL_Init` was gone by then
/// (CI failed so once more). Xlib is `libX11.so.6`, opened with `dlopen`; where it is missing there
/// is nothing to install.
public enum X11ErrorFilter {
    /// Xlib's `BadWindow` error code (X.h).
    public static let badWindow: UInt8 = 3
    /// The core protocol's `X_SendEvent` request opcode (Xproto.h).
    public static let sendEventOpcode: UInt8 = 25

    /// Whether an error with this code from a request with this major opcode is dropped.
    public static func ignores(errorCode: UInt8, requestCode: UInt8) -> Bool {
        errorCode == badWindow && requestCode == sendEventOpcode
    }

    /// `int (*)(Display *, XErrorEvent *)`.
    typealias Handler = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
    typealias SetHandler = @convention(c) (Handler?) -> Handler?

    /// XErrorEvent's layout on LP64 and ILP32 alike: `int type; Display *display; XID resourceid;
    /// unsigned long serial; unsigned char error_code, request_code, minor_code;` — the int is
    /// padded to the pointer's alignment, and XID is an unsigned long.
    static let errorCodeOffset = 2 * MemoryLayout<UnsafeRawPointer>.stride + 2 * MemoryLayout<UInt>.stride
    static let requestCodeOffset = errorCodeOffset + 1

    /// The handler that was current when `install()` put the filter in front (Xlib returns its
    /// default one when none was set).
    nonisolated(unsafe) static var previous: Handler?
    /// How many errors the filter has dropped (for tests and diagnostics).
    nonisolated(unsafe) public private(set) static var dropped = 0

    static let handler: Handler = { display, event in
        guard let event else { return 0 }
        let code = event.load(fromByteOffset: X11ErrorFilter.errorCodeOffset, as: UInt8.self)
        let request = event.load(fromByteOffset: X11ErrorFilter.requestCodeOffset, as: UInt8.self)
        if X11ErrorFilter.ignores(errorCode: code, requestCode: request) {
            X11ErrorFilter.dropped += 1
            return 0
        }
        if let previous = X11ErrorFilter.previous { return previous(display, event) }
        // Xlib always returns a previous handler (its default one); this is only a guard.
        FileHandle.standardError.write(Data("X error \(code) on request \(request)\n".utf8))
        exit(1)
    }

    static func setHandler() -> SetHandler? {
        guard let lib = dlopen("libX11.so.6", RTLD_NOW), let sym = dlsym(lib, "XSetErrorHandler") else { return nil }
        return unsafeBitCast(sym, to: SetHandler.self)
    }

    /// Puts the filter in front of the current handler (again, when something replaced it since),
    /// on the thread that initialises SDL, before `SDL_Init`. Returns false without libX11.
    @discardableResult
    public static func install() -> Bool {
        guard let set = setHandler() else { return false }
        let current = set(handler)
        if let current, unsafeBitCast(current, to: UnsafeRawPointer.self) != unsafeBitCast(handler, to: UnsafeRawPointer.self) {
            previous = current
        }
        return true
    }
}
