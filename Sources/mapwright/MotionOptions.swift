import ArgumentParser
import Foundation
import MapFormats

/// The flags for moving things that `animate` and `view` share: pulses and replays.
struct MotionOptions: ParsableArguments {
    // Pulses.
    @Option(name: .customLong("pulse"), parsing: .unconditionalSingleValue, help: ArgumentHelp("A pulsing circle; RADIUS ends in m, km or px (repeatable).", valueName: "LAT,LON,RADIUS"))
    var pulses: [String] = []
    @Option(name: .customLong("pulse-color"), help: ArgumentHelp("Pulse colour (default ff3b30), multiplied by the animated opacity.", valueName: "RRGGBB"))
    var pulseColor: String?
    @Option(name: .customLong("pulse-period"), help: "Seconds per pulse (default 0.8).")
    var pulsePeriod: Double?
    @Option(name: .customLong("pulse-scale"), parsing: .unconditional, help: ArgumentHelp("Radius multipliers over a pulse (default 0.8,1.2).", valueName: "FROM,TO"))
    var pulseScale: String?
    @Option(name: .customLong("pulse-opacity"), parsing: .unconditional, help: ArgumentHelp("Opacity over a pulse (default 0.5,0.05).", valueName: "FROM,TO"))
    var pulseOpacity: String?

    // Replays.
    @Option(help: ArgumentHelp("A track with times (GPX, CSV with a time column, GeoJSON with per-point times) drawn as it is travelled.", valueName: "FILE"))
    var replay: String?
    @Option(parsing: .unconditional, help: "Track seconds per video second (default: the whole track in --duration); with --by-distance, metres per second.")
    var speed: Double?
    @Flag(name: .customLong("by-distance"), help: "Replay at constant speed along the track instead of by its times (for tracks without times).")
    var byDistance = false
    @Flag(help: "The camera follows the replay's head at --zoom (default 16) and --pitch, turned along the direction of travel.")
    var follow = false
    @Option(help: "The replay's head marker: arrow (default), dot or none; coloured like the route, or --marker-color.")
    var head: String?
    @Option(parsing: .unconditional, help: "Draw only the last METRES of the replay behind the head, fading out.")
    var tail: Double?


    /// Adds the pulses and the replay to the scene; returns their names for error messages.
    func apply(to doc: inout SceneDocument, options: SceneOptions, command: String) throws -> [String] {
        var extra: [String] = []
        var overlays = doc.overlays ?? []
        for (i, text) in pulses.enumerated() {
            let flag = "--pulse #\(i + 1) '\(text)'"
            var o = SceneDocument.OverlaySpec(type: "pulse")
            let (lat, lon, value, unit) = try SceneOptions.parseRadius(text, flag: flag, command: command)
            o.position = [lat, lon]
            o.radius = value
            o.radiusUnit = unit
            o.color = pulseColor
            o.period = pulsePeriod
            o.scale = try pulseScale.map { try Self.pair($0, flag: "--pulse-scale", command: command) }
            o.opacity = try pulseOpacity.map { try Self.pair($0, flag: "--pulse-opacity", command: command) }
            overlays.append(o)
            extra.append(flag)
        }
        if let replay {
            var o = SceneDocument.OverlaySpec(type: "replay")
            o.file = replay == "-" ? replay : URL(fileURLWithPath: replay).path
            o.color = options.routeColor
            o.width = options.routeWidth
            o.speed = speed
            o.byDistance = byDistance ? true : nil
            o.head = head
            o.tail = tail
            o.toColor = options.markerColor
            overlays.append(o)
            extra.append("--replay \(replay)")
        } else if speed != nil || follow || byDistance || head != nil || tail != nil {
            throw CLIError("mapwright \(command): --speed, --by-distance, --follow, --head and --tail apply to --replay FILE")
        }
        doc.overlays = overlays
        return extra
    }

    static func pair(_ text: String, flag: String, command: String) throws -> [Double] {
        let v = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard v.count == 2, let a = v[0], let b = v[1], a.isFinite, b.isFinite else {
            throw CLIError("mapwright \(command): \(flag) '\(text)': expected FROM,TO (two numbers)")
        }
        return [a, b]
    }
}
