import Foundation
import MapFormats
import MapGestures

/// A script line that could not be read: the line number and why.
public struct ScriptError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file's name as given.
    public var file: String
    /// 1-based line number (0: the file as a whole).
    public var line: Int
    /// What is wrong.
    public var reason: String

    public init(file: String, line: Int, reason: String) {
        self.file = file; self.line = line; self.reason = reason
    }

    public var description: String { line > 0 ? "\(file):\(line): \(reason)" : "\(file): \(reason)" }
}

/// One scripted event: an input event at a time, or a wait (nil) that only extends the run.
public struct ScriptEvent: Sendable, Equatable {
    /// Seconds from the start.
    public var t: Double
    /// The input, or nil for a wait.
    public var input: InputEvent?

    public init(t: Double, input: InputEvent?) { self.t = t; self.input = input }
}

/// Input events for scripted runs, one JSON object per line:
///
///     {"t": 0.25, "type": "down", "x": 10, "y": 20, "button": "left"}
///     {"t": 0.30, "type": "move", "x": 15, "y": 20}
///     {"t": 0.50, "type": "up", "x": 40, "y": 20, "button": "left"}
///     {"t": 0.60, "type": "wheel", "x": 512, "y": 384, "dy": -3}
///     {"t": 0.70, "type": "touch", "phase": "down", "id": 1, "x": 100, "y": 100}
///     {"t": 0.80, "type": "key", "key": "n"}
///     {"t": 2.00, "type": "wait"}
///
/// `t` is seconds from the start, never decreasing; x and y are logical px from the view's
/// top-left corner. `button` is left (default), right or middle; `"modifiers": ["shift",
/// "control", "alt", "meta"]` may go on any pointer, wheel or key event. `wait` does nothing
/// but makes the run last until its time (to watch inertia coast). Blank lines and lines
/// starting with `#` are skipped. Limits: 1 000 000 events, t ≤ 3600 s, |x|, |y| ≤ 100 000.
public enum ViewerScript {
    /// The most events a script may hold.
    public static let maxEvents = 1_000_000
    /// The latest time an event may have, seconds.
    public static let maxTime = 3600.0

    /// Reads a script file.
    public static func read(path: String) throws -> [ScriptEvent] {
        let data: [UInt8]
        do { data = try InputFile.read(path, limit: InputFile.wholeFileLimit) } catch {
            throw ScriptError(file: InputFile.displayName(path), line: 0, reason: "cannot read the file: \(error.reason)")
        }
        guard let text = String(bytes: data, encoding: .utf8) else {
            throw ScriptError(file: path, line: 0, reason: "not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    /// Parses script text; the error names the first bad line.
    public static func parse(_ text: String, file: String = "script") throws -> [ScriptEvent] {
        var events: [ScriptEvent] = []
        var lastT = 0.0
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            func fail(_ reason: String) -> ScriptError { ScriptError(file: file, line: n + 1, reason: reason) }
            guard events.count < maxEvents else { throw fail("more than \(maxEvents) events") }
            let object: [String: JSONValue]
            do {
                guard case .object(let o) = try JSONValue.parse(line) else { throw fail("not a JSON object") }
                object = o
            } catch let e as FormatError {
                throw fail("not valid JSON: \(e.message)")
            }
            func number(_ key: String, required: Bool = true, limit: Double = 100_000) throws -> Double? {
                guard let v = object[key] else {
                    if required { throw fail("missing \"\(key)\"") }
                    return nil
                }
                guard let d = v.numberValue, abs(d) <= limit else {
                    throw fail("\"\(key)\" must be a finite number within ±\(Int(limit))")
                }
                return d
            }
            func string(_ key: String) throws -> String? {
                guard let v = object[key] else { return nil }
                guard let s = v.stringValue else { throw fail("\"\(key)\" must be a string") }
                return s
            }
            let t = try number("t", limit: maxTime)!
            guard t >= 0 else { throw fail("\"t\" must not be negative") }
            guard t >= lastT else { throw fail("\"t\" \(t) goes back in time (the previous event is at \(lastT))") }
            lastT = t
            var mods: Modifiers = []
            if let list = object["modifiers"] {
                guard case .array(let items) = list, case let names = items.compactMap(\.stringValue), names.count == items.count else {
                    throw fail("\"modifiers\" must be a list of names")
                }
                for name in names {
                    switch name.lowercased() {
                    case "shift": mods.insert(.shift)
                    case "control", "ctrl": mods.insert(.control)
                    case "alt": mods.insert(.alt)
                    case "meta", "super", "command": mods.insert(.meta)
                    default: throw fail("unknown modifier \"\(name)\" (shift, control, alt or meta)")
                    }
                }
            }
            func button() throws -> PointerButton {
                guard let name = try string("button") else { return .left }
                guard let b = PointerButton(rawValue: name) else { throw fail("unknown button \"\(name)\" (left, right or middle)") }
                return b
            }
            guard let type = try string("type") else { throw fail("missing \"type\"") }
            let event: InputEvent
            switch type {
            case "down":
                event = .pointerDown(x: try number("x")!, y: try number("y")!, button: try button(), modifiers: mods)
            case "move":
                event = .pointerMove(x: try number("x")!, y: try number("y")!, modifiers: mods)
            case "up":
                event = .pointerUp(x: try number("x")!, y: try number("y")!, button: try button(), modifiers: mods)
            case "wheel":
                let dy = try number("dy", limit: 10_000)!
                event = .wheel(x: try number("x")!, y: try number("y")!, dy: dy, modifiers: mods)
            case "touch":
                guard let p = try string("phase"), let phase = TouchPhase(rawValue: p) else {
                    throw fail("a touch needs \"phase\": down, move or up")
                }
                guard let id = try number("id", limit: 1e9), id == id.rounded() else { throw fail("\"id\" must be an integer") }
                event = .touch(phase: phase, id: Int(id), x: try number("x")!, y: try number("y")!)
            case "key":
                guard let key = try string("key"), !key.isEmpty, key.count <= 16 else {
                    throw fail("a key event needs \"key\" (1–16 characters)")
                }
                event = .key(key, modifiers: mods)
            case "wait":
                events.append(ScriptEvent(t: t, input: nil))
                continue
            default:
                throw fail("unknown type \"\(type)\" (down, move, up, wheel, touch, key or wait)")
            }
            events.append(ScriptEvent(t: t, input: event))
        }
        return events
    }
}
