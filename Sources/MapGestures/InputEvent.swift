import Foundation

/// Which mouse button.
public enum PointerButton: String, Sendable {
    case left, right, middle
}

/// Keyboard modifiers held during an event.
public struct Modifiers: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let shift = Modifiers(rawValue: 1)
    public static let control = Modifiers(rawValue: 2)
    public static let alt = Modifiers(rawValue: 4)
    public static let meta = Modifiers(rawValue: 8)
}

/// The phase of one touch point.
public enum TouchPhase: String, Sendable {
    case down, move, up
}

/// One input event in screen coordinates (logical pixels, origin top-left, y down).
public enum InputEvent: Sendable, Equatable {
    /// A mouse button went down.
    case pointerDown(x: Double, y: Double, button: PointerButton, modifiers: Modifiers = [])
    /// The mouse moved (buttons held or not).
    case pointerMove(x: Double, y: Double, modifiers: Modifiers = [])
    /// A mouse button came up.
    case pointerUp(x: Double, y: Double, button: PointerButton, modifiers: Modifiers = [])
    /// A wheel or trackpad scroll, `dy` as a browser's `deltaY` (negative scrolls up: zoom in).
    /// A mouse wheel notch is a multiple of 4.000244140625 (what browsers report); smaller
    /// deltas are a trackpad's.
    case wheel(x: Double, y: Double, dy: Double, modifiers: Modifiers = [])
    /// A touch point went down, moved or came up; `id` tells the fingers apart.
    case touch(phase: TouchPhase, id: Int, x: Double, y: Double)
    /// A key press: `left`, `right`, `up`, `down`, `+`, `-`, `n`, …
    case key(String, modifiers: Modifiers = [])
}

/// An input event with the time it happened, seconds on the caller's clock.
public struct TimedEvent: Sendable, Equatable {
    /// Seconds.
    public var t: Double
    /// The event.
    public var event: InputEvent

    public init(t: Double, event: InputEvent) {
        self.t = t
        self.event = event
    }
}
