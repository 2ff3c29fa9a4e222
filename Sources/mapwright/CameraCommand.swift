import ArgumentParser
import Foundation
import GeoKit
import MapCamera

/// `mapwright camera`: the camera's projection and fitting, for scripts and checks.
struct CameraCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "camera",
        abstract: "Project points to the screen, unproject screen points, fit a camera to points.",
        discussion: """
            Conventions are MapLibre GL's: the world is 512·2^zoom pixels wide, bearing is degrees \
            clockwise (90 puts east at the top), pitch 0 looks straight down (at most 85). Screen \
            pixels have their origin at the top left, y down. Input lines are read from standard \
            input; blank lines and lines starting with # are skipped; values are separated by \
            spaces or commas. On bad input nothing is written to standard output.
            """,
        subcommands: [Project.self, Unproject.self, Fit.self]
    )

    /// Flags describing a camera.
    struct CameraOptions: ParsableArguments {
        @Option(parsing: .unconditional, help: ArgumentHelp("Centre of the view as LAT,LON in degrees.", valueName: "LAT,LON"))
        var center: String

        @Option(parsing: .unconditional, help: "Zoom level (world = 512·2^zoom pixels), -5 ... 30.")
        var zoom: Double

        @Option(parsing: .unconditional, help: "Degrees clockwise from north.")
        var bearing: Double = 0

        @Option(help: "Degrees from looking straight down, 0 ... 85.")
        var pitch: Double = 0

        @Option(help: ArgumentHelp("Viewport size in pixels.", valueName: "WxH"))
        var size: String

        func camera() throws -> Camera {
            let c = try CameraCLI.parseLatLng(center, flag: "--center")
            guard zoom.isFinite, (-5...30).contains(zoom) else {
                throw ValidationError("--zoom must be a number within -5...30, got \(zoom)")
            }
            guard bearing.isFinite else { throw ValidationError("--bearing must be a finite number") }
            guard pitch.isFinite, (0...85).contains(pitch) else {
                throw ValidationError("--pitch must be within 0...85 degrees, got \(pitch)")
            }
            return Camera(center: c, zoom: zoom, bearing: bearing, pitch: pitch, size: try CameraCLI.parseSize(size))
        }
    }

    struct Project: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read `lat lon [height_m]` lines; write `x y` screen pixels, or `nan nan` behind the camera.")

        @OptionGroup var options: CameraOptions

        func run() throws {
            let cam = try options.camera()
            let out = try CameraInputError.naming("mapwright camera project") {
                try CameraCLI.project(CameraCLI.readStandardInput(), camera: cam)
            }
            print(out, terminator: "")
        }
    }

    struct Unproject: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read `x y` screen pixel lines; write `lat lon` on the ground, or `nan nan` above the horizon.")

        @OptionGroup var options: CameraOptions

        func run() throws {
            let cam = try options.camera()
            let out = try CameraInputError.naming("mapwright camera unproject") {
                try CameraCLI.unproject(CameraCLI.readStandardInput(), camera: cam)
            }
            print(out, terminator: "")
        }
    }

    struct Fit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read `lat lon` lines; write `lat lon zoom` of the camera that shows them all.")

        @Option(help: ArgumentHelp("Viewport size in pixels.", valueName: "WxH"))
        var size: String

        @Option(help: "Padding on every side in pixels.")
        var padding: Double = 0

        @Option(parsing: .unconditional, help: "Degrees clockwise from north.")
        var bearing: Double = 0

        @Option(help: "Degrees from looking straight down, 0 ... 85.")
        var pitch: Double = 0

        @Option(help: "Never zoom in further than this.")
        var maxZoom: Double = 22

        func run() throws {
            let sz = try CameraCLI.parseSize(size)
            guard padding.isFinite, padding >= 0, 2 * padding < min(sz.width, sz.height) else {
                throw ValidationError("--padding must be ≥ 0 and leave room inside --size, got \(padding)")
            }
            guard bearing.isFinite else { throw ValidationError("--bearing must be a finite number") }
            guard pitch.isFinite, (0...85).contains(pitch) else {
                throw ValidationError("--pitch must be within 0...85 degrees, got \(pitch)")
            }
            guard maxZoom.isFinite, (-5...30).contains(maxZoom) else {
                throw ValidationError("--max-zoom must be within -5...30, got \(maxZoom)")
            }
            let out = try CameraInputError.naming("mapwright camera fit") {
                try CameraCLI.fit(
                    CameraCLI.readStandardInput(), size: sz, padding: padding,
                    bearing: bearing, pitch: pitch, maxZoom: maxZoom)
            }
            print(out, terminator: "")
        }
    }
}

/// An input error of `mapwright camera`: which line and why.
struct CameraInputError: Error, CustomStringConvertible {
    /// 1-based line number in the input, nil for the input as a whole.
    var line: Int?
    var why: String
    /// The command that read it, e.g. `mapwright camera project`.
    var command = ""
    var description: String {
        let what = line.map { "line \($0): \(why)" } ?? why
        return command.isEmpty ? what : "\(command): \(what)"
    }

    /// Runs `body`, naming `command` in any input error it throws.
    static func naming<T>(_ command: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var e as CameraInputError {
            e.command = command
            throw e
        }
    }
}

/// The text processing behind `mapwright camera`, separate from argument parsing.
enum CameraCLI {
    static func readStandardInput() -> String {
        String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Parses `LAT,LON` for a flag.
    static func parseLatLng(_ s: String, flag: String) throws -> LatLng {
        let parts = s.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else {
            throw ValidationError("\(flag) must be LAT,LON in degrees, got '\(s)'")
        }
        guard lat.isFinite, lon.isFinite, (-90...90).contains(lat) else {
            throw ValidationError("\(flag): latitude must be within -90...90 and both values finite, got '\(s)'")
        }
        return LatLng(lat: lat, lon: lon)
    }

    /// Parses `WxH` (pixels, each 1 ... 100000).
    static func parseSize(_ s: String) throws -> ScreenSize {
        let parts = s.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
            w.isFinite, h.isFinite, (1...100_000).contains(w), (1...100_000).contains(h)
        else {
            throw ValidationError("--size must be WxH with each side 1...100000 pixels, got '\(s)'")
        }
        return ScreenSize(width: w, height: h)
    }

    /// The numbers on each meaningful line, with its 1-based line number.
    static func records(_ input: String, counts: ClosedRange<Int>, what: String) throws -> [(
        line: Int, values: [Double]
    )] {
        var out: [(Int, [Double])] = []
        for (i, raw) in input.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty || text.hasPrefix("#") { continue }
            let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
            guard counts.contains(fields.count) else {
                throw CameraInputError(line: i + 1, why: "expected \(what), got \(fields.count) value(s): '\(text)'")
            }
            var values: [Double] = []
            for f in fields {
                guard let v = Double(f), v.isFinite else {
                    throw CameraInputError(line: i + 1, why: "'\(f)' is not a finite number")
                }
                values.append(v)
            }
            out.append((i + 1, values))
        }
        return out
    }

    static func latLng(_ r: (line: Int, values: [Double])) throws -> LatLng {
        guard (-90...90).contains(r.values[0]) else {
            throw CameraInputError(line: r.line, why: "latitude \(r.values[0]) is outside -90...90")
        }
        return LatLng(lat: r.values[0], lon: r.values[1])
    }

    /// `lat lon [height_m]` lines → `x y` lines (`nan nan` behind the camera).
    static func project(_ input: String, camera: Camera) throws -> String {
        var out = ""
        for r in try records(input, counts: 2...3, what: "'lat lon [height_m]'") {
            let p = try latLng(r)
            if let s = camera.project(p, height: r.values.count == 3 ? r.values[2] : 0) {
                out += "\(s.x) \(s.y)\n"
            } else {
                out += "nan nan\n"
            }
        }
        return out
    }

    /// `x y` lines → `lat lon` lines (`nan nan` above the horizon).
    static func unproject(_ input: String, camera: Camera) throws -> String {
        var out = ""
        for r in try records(input, counts: 2...2, what: "'x y'") {
            if let g = camera.unproject(ScreenPoint(x: r.values[0], y: r.values[1])) {
                out += "\(g.lat) \(g.lon)\n"
            } else {
                out += "nan nan\n"
            }
        }
        return out
    }

    /// `lat lon` lines → one `lat lon zoom` line.
    static func fit(
        _ input: String, size: ScreenSize, padding: Double, bearing: Double, pitch: Double,
        maxZoom: Double
    ) throws -> String {
        let points = try records(input, counts: 2...2, what: "'lat lon'").map(latLng)
        guard !points.isEmpty else { throw CameraInputError(line: nil, why: "no points on standard input") }
        guard
            let cam = Camera.fitting(
                points, size: size, padding: EdgeInsets(all: padding), bearing: bearing,
                pitch: pitch, maxZoom: maxZoom)
        else {
            throw CameraInputError(line: nil, why: "cannot fit these points in the padded viewport")
        }
        return "\(cam.center.lat) \(cam.center.lon) \(cam.zoom)\n"
    }
}
