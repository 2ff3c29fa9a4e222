import Foundation
import MapTestSupport
@testable import MapViewer
import Testing

/// The filter that keeps the render thread's late wake-up (XSendEvent to a window the main thread
/// has just destroyed) from ending the viewer, checked through real Xlib against an Xvfb server.
@Suite(.serialized) struct X11ErrorFilterTests {
    /// The codes come from the X headers, not from the filter.
    @Test func theCodesAreTheProtocolsOwn() throws {
        func define(_ name: String, in header: String) throws -> UInt8? {
            let text = try String(contentsOfFile: header, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                if words.count >= 3, words[0] == "#define", words[1] == name { return UInt8(words[2]) }
            }
            return nil
        }
        #expect(try define("BadWindow", in: "/usr/include/X11/X.h") == X11ErrorFilter.badWindow)
        #expect(try define("X_SendEvent", in: "/usr/include/X11/Xproto.h") == X11ErrorFilter.sendEventOpcode)
        #expect(X11ErrorFilter.ignores(errorCode: 3, requestCode: 25))
        #expect(!X11ErrorFilter.ignores(errorCode: 3, requestCode: 8))  // BadWindow on MapWindow
        #expect(!X11ErrorFilter.ignores(errorCode: 9, requestCode: 25))  // BadDrawable
    }

    typealias OpenDisplay = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    typealias SendEvent = @convention(c) (OpaquePointer?, UInt, Int32, Int, UnsafeMutableRawPointer?) -> Int32
    typealias Sync = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias MapWindow = @convention(c) (OpaquePointer?, UInt) -> Int32
    typealias CloseDisplay = @convention(c) (OpaquePointer?) -> Int32
    typealias Handler = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
    typealias SetHandler = @convention(c) (Handler?) -> Handler?

    nonisolated(unsafe) static var passedOn: [UInt8] = []

    @Test func aSendEventToAGoneWindowIsDroppedAndOtherErrorsArePassedOn() throws {
        try sendEventToAGoneWindow(throughSDL: false)
    }

    /// The viewer's own order through real SDL: `initVideo` installs the filter and initialises SDL
    /// (whose X11 driver puts its handler in front), then `SDL_Quit` puts back the handler it found.
    /// The filter must still be in front afterwards: that is when the late wake-up's error is read.
    /// (With the filter installed after `SDL_Init`, the quit restored the test's recording handler
    /// and the error reached it: checked.)
    @Test func theFilterOutlivesSDLQuit() throws {
        try sendEventToAGoneWindow(throughSDL: true)
    }

    func sendEventToAGoneWindow(throughSDL: Bool) throws {
        let xvfb = try Xvfb()
        defer { withExtendedLifetime(xvfb) {} }  // the server lives until the last X call
        Self.passedOn = []
        let lib = try #require(dlopen("libX11.so.6", RTLD_NOW | RTLD_GLOBAL), "libX11 (installed with libsdl2-dev)")
        func f<T>(_ name: String, _: T.Type) throws -> T { unsafeBitCast(try #require(dlsym(lib, name)), to: T.self) }
        let open = try f("XOpenDisplay", OpenDisplay.self), send = try f("XSendEvent", SendEvent.self)
        let sync = try f("XSync", Sync.self), map = try f("XMapWindow", MapWindow.self)
        let close = try f("XCloseDisplay", CloseDisplay.self), setHandler = try f("XSetErrorHandler", SetHandler.self)
        // A handler of the test's own stands where SDL's or Xlib's default would be: it records
        // what the filter passes on (Xlib's default would end the test process).
        _ = setHandler { _, event in
            guard let event else { return 0 }
            X11ErrorFilterTests.passedOn.append(event.load(fromByteOffset: 32, as: UInt8.self))
            return 0
        }
        if throughSDL {
            let sdl = try SDLLibrary.shared.get()
            // SDL's X11 driver opens the display DISPLAY names; restored after, for other tests.
            let saved = getenv("DISPLAY").map { String(cString: $0) }
            setenv("DISPLAY", xvfb.display, 1)
            defer { if let saved { setenv("DISPLAY", saved, 1) } else { unsetenv("DISPLAY") } }
            try #require(sdl.initVideo() == 0, "SDL_Init: \(sdl.GetError().map { String(cString: $0) } ?? "")")
            sdl.Quit()
        } else {
            #expect(X11ErrorFilter.install())
        }
        let display = try #require(open(xvfb.display), "cannot open \(xvfb.display)")
        defer { _ = close(display) }
        let before = X11ErrorFilter.dropped
        // A ClientMessage (type 33, format 32) to a window id that does not exist: what SDL's
        // wake-up becomes when the window is destroyed first.
        var event = [UInt8](repeating: 0, count: 192)
        event[0] = 33
        event[48] = 32
        let gone: UInt = 0x1F_FFFF
        _ = event.withUnsafeMutableBytes { send(display, gone, 0, 0, $0.baseAddress) }
        _ = sync(display, 0)
        #expect(X11ErrorFilter.dropped == before + 1)
        #expect(Self.passedOn.isEmpty)
        // BadWindow from another request is not the filter's to drop.
        _ = map(display, gone)
        _ = sync(display, 0)
        #expect(X11ErrorFilter.dropped == before + 1)
        #expect(Self.passedOn == [X11ErrorFilter.badWindow])
    }
}
