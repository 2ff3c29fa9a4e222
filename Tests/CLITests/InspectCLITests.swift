import Foundation
import Testing
@testable import mapwright

/// The route fixtures and their GeographicLib lengths are written by
/// scripts/fixtures/gen_formats_lengths.py into Tests/MapFormatsTests/Fixtures/route.
let routeDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../MapFormatsTests/Fixtures/route").standardized

struct RouteExpectation: Decodable {
    var length_m: Double
    var points: Int
    var parts: Int
    var south: Double
    var west: Double
    var north: Double
    var east: Double
    var start: String
    var end: String
    var duration_s: Double
}

struct InspectOutput: Decodable {
    struct Bounds: Decodable { var south, west, north, east: Double }
    struct Time: Decodable {
        var start: String
        var end: String
        var duration_s: Double
    }
    var file: String
    var format: String
    var points: Int
    var parts: Int
    var waypoints: Int
    var length_m: Double
    var bounds: Bounds?
    var time: Time?
}

@Suite struct InspectCLITests {
    static let expected: RouteExpectation? = {
        guard let data = try? Data(contentsOf: routeDirectory.appendingPathComponent("expected.json")) else {
            return nil
        }
        return try? JSONDecoder().decode(RouteExpectation.self, from: data)
    }()

    /// `inspect --json` on the same route in three formats: the length equals the sum of
    /// GeographicLib's WGS84 inverse distances within 1e-9 relative; counts, bounds and time
    /// span match the generator's.
    @Test(arguments: [("route.gpx", "gpx"), ("route.csv", "csv"), ("route.geojson", "geojson")])
    func routeLengthMatchesGeographicLib(_ name: String, _ format: String) throws {
        let expected = try #require(Self.expected)
        let path = routeDirectory.appendingPathComponent(name).path
        let r = try runMapwright(["inspect", "--json", path])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let out = try JSONDecoder().decode(InspectOutput.self, from: Data(r.stdout.utf8))
        #expect(out.format == format)
        #expect(out.file == path)
        #expect(
            abs(out.length_m - expected.length_m) <= 1e-9 * expected.length_m,
            "\(out.length_m) vs GeographicLib \(expected.length_m)")
        #expect(out.points == expected.points)
        #expect(out.parts == expected.parts)
        #expect(out.waypoints == 0)
        let b = try #require(out.bounds)
        #expect([b.south, b.west, b.north, b.east] == [expected.south, expected.west, expected.north, expected.east])
        if format == "geojson" {
            #expect(out.time == nil)
        } else {
            let t = try #require(out.time)
            #expect(t.start == expected.start && t.end == expected.end && t.duration_s == expected.duration_s)
        }
    }

    @Test func textOutput() throws {
        let path = routeDirectory.appendingPathComponent("route.gpx").path
        let r = try runMapwright(["inspect", path])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(path): GPX, 17 points in 2 parts, 0 waypoints")
        #expect(lines.contains("  bounds (south west north east): -33.86 -178.5 89.5 179.25"))
        #expect(lines.contains("  time: 2024-05-01T10:00:00Z to 2024-05-01T10:24:00Z (1440 s)"))
        #expect(lines.contains { $0.hasPrefix("  length: ") && $0.hasSuffix(" m (geodesic, WGS84)") })
    }

    /// A bad file among good ones: the good ones print, the bad one prints nothing on stdout
    /// and its located message on stderr; the exit status is non-zero.
    @Test func badFileAmongGoodOnes() throws {
        let good = routeDirectory.appendingPathComponent("route.csv").path
        let bad = routeDirectory.appendingPathComponent("../gpx/nan.gpx").standardized.path
        let r = try runMapwright(["inspect", "--json", good, bad, good])
        #expect(r.status != 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            #expect((try? JSONDecoder().decode(InspectOutput.self, from: Data(line.utf8)))?.file == good)
        }
        #expect(r.stderr == "mapwright inspect: \(bad):4:26: Longitude 'NaN' is not a finite number\n")
    }

    /// Messages name the file as the user typed it, relative paths included.
    @Test func relativePathInMessages() throws {
        let r = try runMapwright(["inspect", "gpx/nan.gpx"], in: routeDirectory.deletingLastPathComponent())
        #expect(r.status != 0)
        #expect(r.stderr == "mapwright inspect: gpx/nan.gpx:4:26: Longitude 'NaN' is not a finite number\n")
    }

    /// `-` reads standard input, and a pipe (`/dev/stdin`, as the shell's `<(…)` gives) is read
    /// as the file is: the same summary. Through `render`, a route from standard input draws the
    /// same image as from the file, and a scene can come from standard input too.
    @Test func standardInputAndPipesAreReadAsFiles() throws {
        let file = routeDirectory.appendingPathComponent("route.csv").path
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let fromFile = try runMapwright(["inspect", "--json", file])
        for name in ["-", "/dev/stdin"] {
            let r = try runMapwright(["inspect", "--json", name], stdin: text)
            #expect(r.status == 0, "\(name): \(r.stderr)")
            let a = try JSONDecoder().decode(InspectOutput.self, from: Data(r.stdout.utf8))
            let b = try JSONDecoder().decode(InspectOutput.self, from: Data(fromFile.stdout.utf8))
            #expect(a.points == b.points && a.length_m == b.length_m && a.format == "csv", "\(name)")
        }
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("stdin-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let common = ["--size", "200x150", "--no-attribution"]
        let viaFile = try runMapwright(["render", "--route", file, "-o", dir.appendingPathComponent("a.png").path] + common)
        let viaStdin = try runMapwright(["render", "--route", "-", "-o", dir.appendingPathComponent("b.png").path] + common, stdin: text)
        #expect(viaFile.status == 0 && viaStdin.status == 0, "\(viaStdin.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("a.png")) == Data(contentsOf: dir.appendingPathComponent("b.png")))
        let scene = #"{"camera": {"center": [10, 20], "zoom": 3}, "size": [120, 90], "attribution": false}"#
        let s = try runMapwright(["render", "--scene", "-", "--print-camera", "-o", dir.appendingPathComponent("c.png").path], stdin: scene)
        #expect(s.status == 0 && s.stdout.hasPrefix("10.0 20.0 3.0"), "\(s.stdout) \(s.stderr)")
        // A directory, and an endless device, are refused in words (not read for ever).
        let d = try runMapwright(["render", "--scene", dir.path, "-o", dir.appendingPathComponent("d.png").path])
        #expect(d.status != 0 && d.stderr.contains("'\(dir.path)': is a directory"), "\(d.stderr)")
        let z = try runMapwright(["inspect", "/dev/zero"])
        #expect(z.status != 0 && z.stderr == "mapwright inspect: /dev/zero: binary data, not a text track file\n", "\(z.stderr)")
    }

    @Test func missingFile() throws {
        let r = try runMapwright(["inspect", "/nonexistent/x.gpx"])
        #expect(r.status != 0)
        #expect(r.stdout == "")
        #expect(r.stderr == "mapwright inspect: /nonexistent/x.gpx: cannot read: no such file\n")
    }
}
