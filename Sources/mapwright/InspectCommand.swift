import ArgumentParser
import Foundation
import GeoKit
import MapFormats

/// `mapwright inspect FILE…`: format, point and part counts, bounds, geodesic length and
/// time span of track files.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Summarise track files: format, points, parts, bounds, geodesic length, time span.")

    @Flag(help: "Print one JSON object per file (one per line) instead of text.")
    var json = false

    @Option(help: "Decimal digits of encoded-polyline files: 5 or 6.")
    var precision: Int = 5

    @Flag(help: "Print how long reading and measuring each file took, on stderr.")
    var timing = false

    @Argument(help: "Track files: GPX, CSV, GeoJSON or encoded polylines (detected by extension, else content).")
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one file") }
        guard precision == 5 || precision == 6 else { throw ValidationError("--precision must be 5 or 6") }
    }

    func run() throws {
        var failed = false
        for file in files {
            switch Self.inspect(file, json: json, precision: precision, timing: timing) {
            case .success(let text):
                print(text)
            case .failure(let error):
                failed = true
                FileHandle.standardError.write(Data(("mapwright inspect: \(error)\n").utf8))
            }
        }
        if failed { throw ExitCode.failure }
    }

    /// The summary of one file as text or a JSON object, or the located read error.
    static func inspect(_ file: String, json: Bool, precision: Int = 5, timing: Bool = false) -> Result<
        String, FormatError
    > {
        do {
            let clock = ContinuousClock()
            let t0 = clock.now
            let c0 = Foundation.clock()
            let track = try TrackReader.read(
                contentsOf: URL(fileURLWithPath: file),
                options: TrackReadOptions(polylinePrecision: precision))
            let t1 = clock.now
            let c1 = Foundation.clock()
            let summary = TrackSummary(file: file, track: track)
            if timing {
                let ms = { (d: Duration) in
                    String(
                        format: "%.1f", Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000)
                }
                let cpu = { (a: clock_t, b: clock_t) in
                    String(format: "%.1f", Double(b - a) * 1000 / Double(CLOCKS_PER_SEC))
                }
                let c2 = Foundation.clock()
                FileHandle.standardError.write(
                    Data(
                        ("\(file): \(track.pointCount) points; read \(ms(t1 - t0)) ms wall, \(cpu(c0, c1)) ms CPU; "
                            + "summary (bounds, geodesic length, time) \(ms(clock.now - t1)) ms wall, \(cpu(c1, c2)) ms CPU\n")
                            .utf8))
            }
            return .success(json ? summary.json : summary.text)
        } catch {
            return .failure(error)
        }
    }
}

/// What `inspect` reports for one track.
struct TrackSummary {
    var file: String
    var format: TrackFormat
    var points: Int
    var parts: Int
    var waypoints: Int
    var bounds: (south: Double, west: Double, north: Double, east: Double)?
    var length: Double
    var timeSpan: (start: Date, end: Date)?

    init(file: String, track: Track) {
        self.file = file
        format = track.format
        points = track.pointCount
        parts = track.parts.count
        waypoints = track.waypoints.count
        bounds = track.bounds
        length = track.geodesicLength
        timeSpan = track.timeSpan
    }

    /// Human-readable lines.
    var text: String {
        var lines = [
            "\(file): \(format), \(points) points in \(parts) part\(parts == 1 ? "" : "s"), "
                + "\(waypoints) waypoint\(waypoints == 1 ? "" : "s")"
        ]
        if let b = bounds {
            lines.append(
                "  bounds (south west north east): \(num(b.south)) \(num(b.west)) \(num(b.north)) \(num(b.east))")
        }
        lines.append("  length: \(String(format: "%.3f", length)) m (geodesic, WGS84)")
        if let t = timeSpan {
            let d = t.end.timeIntervalSince(t.start)
            lines.append("  time: \(Track.formatTime(t.start)) to \(Track.formatTime(t.end)) (\(num(d)) s)")
        }
        return lines.joined(separator: "\n")
    }

    /// One compact JSON object (keys sorted).
    var json: String {
        var o: [String: JSONValue] = [
            "file": .string(file), "format": .string(format.rawValue),
            "points": .number(Double(points)), "parts": .number(Double(parts)),
            "waypoints": .number(Double(waypoints)), "length_m": .number(length),
        ]
        if let b = bounds {
            o["bounds"] = .object([
                "south": .number(b.south), "west": .number(b.west),
                "north": .number(b.north), "east": .number(b.east),
            ])
        } else {
            o["bounds"] = .null
        }
        if let t = timeSpan {
            o["time"] = .object([
                "start": .string(Track.formatTime(t.start)), "end": .string(Track.formatTime(t.end)),
                "duration_s": .number(t.end.timeIntervalSince(t.start)),
            ])
        } else {
            o["time"] = .null
        }
        return GeoJSONWriter.string(.object(o))
    }

    private func num(_ x: Double) -> String { GeoJSONWriter.number(x) }
}
