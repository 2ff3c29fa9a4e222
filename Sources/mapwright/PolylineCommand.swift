import ArgumentParser
import Foundation
import GeoKit

/// `mapwright polyline encode|decode`: Google encoded polylines from and to `LAT LON` lines.
struct PolylineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "polyline",
        abstract: "Encode LAT LON lines to a Google encoded polyline, or decode one.",
        subcommands: [Encode.self, Decode.self]
    )

    /// Reads `LAT LON` lines (space, tab or comma separated) on stdin; prints one encoded string.
    struct Encode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read LAT LON lines (whitespace or comma separated) on stdin, print one encoded polyline.")

        @Option(help: "Decimal digits kept: 5 (Google) or 6 (OSRM, Valhalla).")
        var precision: Int = 5

        func validate() throws {
            guard precision == 5 || precision == 6 else { throw ValidationError("--precision must be 5 or 6") }
        }

        func run() throws {
            let input = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            switch PolylineCommand.encode(input, precision: precision) {
            case .success(let s): print(s)
            case .failure(let e): try PolylineCommand.exit(with: e)
            }
        }
    }

    /// Decodes an encoded polyline (argument, or stdin: one per line); prints `LAT LON` lines.
    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decode an encoded polyline (argument, or one per line on stdin) into LAT LON lines.")

        @Option(help: "Decimal digits kept: 5 (Google) or 6 (OSRM, Valhalla).")
        var precision: Int = 5

        @Argument(help: "The encoded polyline; read from stdin when left out. Quote it: it may hold shell characters.")
        var encoded: String?

        func validate() throws {
            guard precision == 5 || precision == 6 else { throw ValidationError("--precision must be 5 or 6") }
        }

        func run() throws {
            let input = encoded ?? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            switch PolylineCommand.decode(input, precision: precision, fromArgument: encoded != nil) {
            case .success(let s): print(s, terminator: "")
            case .failure(let e): try PolylineCommand.exit(with: e)
            }
        }
    }

    /// A message for stderr.
    struct Failure: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    static func exit(with failure: Failure) throws -> Never {
        FileHandle.standardError.write(Data(("mapwright polyline: " + failure.description + "\n").utf8))
        throw ExitCode.failure
    }

    /// Encodes `LAT LON` lines (blank lines and `#` comments skipped) into one string.
    static func encode(_ input: String, precision: Int) -> Result<String, Failure> {
        var points: [LatLng] = []
        var lineNumber = 0
        for line in input.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty || text.hasPrefix("#") { continue }
            let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
            guard fields.count == 2 else {
                return .failure(
                    Failure(
                        description: "line \(lineNumber): expected 'LAT LON', found \(fields.count) values in '\(text)'"
                    ))
            }
            guard let lat = Double(fields[0]), let lon = Double(fields[1]), !fields[0].contains("x"),
                !fields[1].contains("x")
            else {
                return .failure(
                    Failure(description: "line \(lineNumber): expected two numbers 'LAT LON', found '\(text)'"))
            }
            guard lat.isFinite, lon.isFinite else {
                return .failure(Failure(description: "line \(lineNumber): '\(text)' is not a pair of finite numbers"))
            }
            guard lat >= -90 && lat <= 90 else {
                return .failure(Failure(description: "line \(lineNumber): latitude \(fields[0]) is outside [-90, 90]"))
            }
            points.append(LatLng(lat: lat, lon: lon))
        }
        guard !points.isEmpty else { return .failure(Failure(description: "no LAT LON lines on stdin")) }
        do {
            return .success(try PolylineCodec.encode(points, precision: precision))
        } catch {
            return .failure(Failure(description: error.description))
        }
    }

    /// Decodes one encoded string per non-blank line into `LAT LON` lines; parts from
    /// several input lines are separated by a blank line.
    static func decode(_ input: String, precision: Int, fromArgument: Bool = false) -> Result<String, Failure> {
        var out = ""
        var lineNumber = 0
        var parts = 0
        for line in input.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            var text = Substring(line)
            var lead = 0
            while let c = text.first, c == " " || c == "\t" {
                text = text.dropFirst()
                lead += 1
            }
            while let c = text.last, c == " " || c == "\t" || c == "\r" { text = text.dropLast() }
            if text.isEmpty { continue }
            let points: [LatLng]
            do {
                points = try PolylineCodec.decode(text, precision: precision)
            } catch {
                let where_ = fromArgument ? "" : "line \(lineNumber), "
                return .failure(Failure(description: "\(where_)column \(lead + error.offset + 1): \(error.message)"))
            }
            if parts > 0 { out += "\n" }
            parts += 1
            for p in points {
                out += "\(format(p.lat, precision)) \(format(p.lon, precision))\n"
            }
        }
        guard parts > 0 else { return .failure(Failure(description: "no encoded polyline given")) }
        return .success(out)
    }

    /// A decoded value with at most `precision` decimals and no trailing zeros (`38.5`, `-120`).
    static func format(_ x: Double, _ precision: Int) -> String {
        var s = String(format: "%.\(precision)f", x)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s == "-0" ? "0" : s
    }
}
