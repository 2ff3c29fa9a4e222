import ArgumentParser
import Foundation
import GeoKit

/// `mapwright geodesic inverse|direct`: WGS84 geodesics over lines of standard input.
struct GeodesicCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geodesic",
        abstract: "WGS84 geodesics (Karney 2013, GeographicLib accuracy) for lines read from stdin.",
        discussion: """
            Each input line holds numbers separated by spaces, tabs or commas; blank lines and \
            lines starting with # are skipped. Output is one line per input line, numbers in \
            full double precision (shortest round-trip form). If any line is malformed nothing \
            is written to stdout: the error goes to stderr with its line number and the exit \
            status is 1.
            """,
        subcommands: [Inverse.self, Direct.self]
    )

    struct Inverse: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Distance and azimuths between two points.",
            discussion: """
                Input lines: lat1 lon1 lat2 lon2 (degrees). Output lines: azi1 azi2 s12 \
                (forward azimuths at both points in degrees clockwise from north, distance in metres).
                Example: echo "40.64 -73.78 1.36 103.99" | mapwright geodesic inverse
                """)

        func run() throws { try GeodesicBatch.runOnStandardStreams(.inverse) }
    }

    struct Direct: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The point at a distance along an azimuth.",
            discussion: """
                Input lines: lat1 lon1 azi1 s12 (degrees, degrees, degrees clockwise from north, \
                metres; s12 may be negative). Output lines: lat2 lon2 azi2 (degrees; lon2 in [-180, 180]).
                Example: echo "40 0 30 10000000" | mapwright geodesic direct
                """)

        func run() throws { try GeodesicBatch.runOnStandardStreams(.direct) }
    }
}

/// The batch logic behind `mapwright geodesic`, separate from the streams so tests can call it.
enum GeodesicBatch {
    /// Which geodesic problem a batch solves.
    enum Problem: Sendable {
        case inverse, direct

        var name: String { self == .inverse ? "inverse" : "direct" }
        var fields: [String] { self == .inverse ? ["lat1", "lon1", "lat2", "lon2"] : ["lat1", "lon1", "azi1", "s12"] }
    }

    /// A malformed input line: its 1-based number and why it was refused.
    struct LineError: Error, Equatable, CustomStringConvertible {
        var line: Int
        var why: String
        var description: String { "line \(line): \(why)" }
    }

    /// Solves every line of `input`; returns the whole output, or the first bad line.
    static func run(_ problem: Problem, input: String, geodesic: Geodesic = .wgs84) -> Result<String, LineError> {
        var out = ""
        var lineNumber = 0
        // Split on Character.isNewline: "\r\n" is one Character in Swift, so CRLF files work too.
        for line in input.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline }) {
            lineNumber += 1
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            switch parse(trimmed, problem: problem, line: lineNumber) {
            case .failure(let e): return .failure(e)
            case .success(let v):
                let numbers: [Double]
                switch problem {
                case .inverse:
                    let r = geodesic.inverse(LatLng(lat: v[0], lon: v[1]), LatLng(lat: v[2], lon: v[3]))
                    numbers = [r.azimuth1, r.azimuth2, r.distance]
                case .direct:
                    let r = geodesic.direct(from: LatLng(lat: v[0], lon: v[1]), azimuth: v[2], distance: v[3])
                    numbers = [r.point.lat, r.point.lon, r.azimuth2]
                }
                // `+ 0` turns -0.0 into 0.0; `description` is the shortest round-trip form.
                out += numbers.map { ($0 + 0).description }.joined(separator: " ")
                out += "\n"
            }
        }
        return .success(out)
    }

    /// Four finite numbers, latitudes within [-90, 90].
    private static func parse(_ text: Substring, problem: Problem, line: Int) -> Result<[Double], LineError> {
        let fields = text.split { $0 == "," || $0 == " " || $0 == "\t" }
        let names = problem.fields
        guard fields.count == names.count else {
            return .failure(
                LineError(
                    line: line,
                    why: "expected \(names.count) numbers (\(names.joined(separator: " "))), found \(fields.count)"))
        }
        var values: [Double] = []
        for (field, name) in zip(fields, names) {
            guard let v = Double(field) else {
                return .failure(LineError(line: line, why: "\(name) is not a number: \"\(field)\""))
            }
            guard v.isFinite else {
                return .failure(LineError(line: line, why: "\(name) must be a finite number, got \(field)"))
            }
            if name.hasPrefix("lat") && abs(v) > 90 {
                return .failure(LineError(line: line, why: "\(name) must be within [-90, 90], got \(field)"))
            }
            values.append(v)
        }
        return .success(values)
    }

    /// Reads all of stdin, writes the output only if every line was good; otherwise writes the
    /// error to stderr and exits with status 1.
    static func runOnStandardStreams(_ problem: Problem) throws {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let input = String(data: data, encoding: .utf8) else {
            FileHandle.standardError.write(Data("mapwright geodesic \(problem.name): input is not UTF-8 text\n".utf8))
            throw ExitCode.failure
        }
        switch run(problem, input: input) {
        case .success(let out):
            FileHandle.standardOutput.write(Data(out.utf8))
        case .failure(let e):
            FileHandle.standardError.write(Data("mapwright geodesic \(problem.name): \(e)\n".utf8))
            throw ExitCode.failure
        }
    }
}
