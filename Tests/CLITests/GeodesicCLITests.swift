import Foundation
import Testing

@testable import mapwright

/// `mapwright geodesic inverse|direct`: the batch logic called directly, and the built binary
/// run as a user would (stdin → stdout/stderr, exit status).
@Suite struct GeodesicCLITests {
    /// Runs the binary with `args`, feeding `stdin`; returns (status, stdout, stderr).
    static func run(_ args: [String], stdin: String) throws -> (Int32, String, String) {
        let r = try runMapwright(args, stdin: stdin)
        return (r.status, r.stdout, r.stderr)
    }

    /// Output numbers parsed back; the CLI prints shortest round-trip doubles, so values are
    /// compared to GeographicLib 2.1 (Python) at the library's tolerances.
    static func numbers(_ text: String) -> [[Double]] {
        text.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
    }

    /// A good batch: Karney (2013) Table 3 (comma separated), JFK→SIN with a comment and a blank
    /// line, coincident points. Expected values from GeographicLib 2.1 (Python).
    @Test func inverseBatch() throws {
        let input = """
            # lat1 lon1 lat2 lon2
            -30,0,29.9,179.8

            40.64 -73.78\t1.36 103.99
            51.5 -0.12 51.5 -0.12
            """
        let out = try GeodesicBatch.run(.inverse, input: input).get()
        let rows = Self.numbers(out)
        try #require(rows.count == 3 && rows.allSatisfy { $0.count == 3 })
        let expected: [[Double]] = [
            [161.89052473632697, 18.0907372457395, 19_989_832.82760953],
            [3.3057734780176125, 177.48784020815515, 15_347_512.94051294],
            [180, 180, 0],
        ]
        for (r, e) in zip(rows, expected) {
            #expect(abs(r[0] - e[0]) <= 1e-9 && abs(r[1] - e[1]) <= 1e-9 && abs(r[2] - e[2]) <= 1e-6, "\(r) vs \(e)")
        }
        // Full precision: the shortest round-trip form has all significant digits.
        #expect(out.split(separator: "\n")[0].split(separator: " ")[2].count >= 16)
    }

    /// Direct: Karney (2013) Table 2 → 41.79331020506 137.84490004377 149.09016931807.
    @Test func directBatch() throws {
        let out = try GeodesicBatch.run(.direct, input: "40 0 30 10000000\n").get()
        let r = try #require(Self.numbers(out).first)
        try #require(r.count == 3)
        #expect(abs(r[0] - 41.79331020506) <= 0.5e-11)
        #expect(abs(r[1] - 137.84490004377) <= 0.5e-11)
        #expect(abs(r[2] - 149.09016931807) <= 0.5e-11)
    }

    /// Each kind of malformed line is refused with its line number and reason.
    @Test(arguments: [
        ("1 2 3\n", 1, "expected 4 numbers (lat1 lon1 lat2 lon2), found 3"),
        ("0 0 1 1\n\n0 0 1 x\n", 3, "lon2 is not a number: \"x\""),
        ("# c\n0 0 nan 1\n", 2, "lat2 must be a finite number, got nan"),
        ("0 0 1 1\n91 0 0 0\n", 2, "lat1 must be within [-90, 90], got 91"),
        ("0 inf 1 1\n", 1, "lon1 must be a finite number, got inf"),
        ("0 0 1 1 5\n", 1, "expected 4 numbers (lat1 lon1 lat2 lon2), found 5"),
    ])
    func inverseRejects(_ input: String, _ line: Int, _ why: String) {
        #expect(GeodesicBatch.run(.inverse, input: input) == .failure(.init(line: line, why: why)))
    }

    @Test func directRejects() {
        #expect(
            GeodesicBatch.run(.direct, input: "0 0 90 1e400\n")
                == .failure(.init(line: 1, why: "s12 must be a finite number, got 1e400")))
        #expect(
            GeodesicBatch.run(.direct, input: "-90.1 0 90 1\n")
                == .failure(.init(line: 1, why: "lat1 must be within [-90, 90], got -90.1")))
    }

    /// CRLF line ends (a file saved on Windows) and a missing final newline are accepted.
    @Test func crlfInput() throws {
        let out = try GeodesicBatch.run(.direct, input: "# header\r\n40 0 30 10000000\r\n40,0,30,10000000").get()
        #expect(Self.numbers(out).count == 2)
        #expect(
            GeodesicBatch.run(.direct, input: "\r\n1 2 3\r\n")
                == .failure(.init(line: 2, why: "expected 4 numbers (lat1 lon1 azi1 s12), found 3")))
    }

    /// Empty input (or only comments) is a valid empty batch.
    @Test func emptyInput() {
        #expect(GeodesicBatch.run(.inverse, input: "") == .success(""))
        #expect(GeodesicBatch.run(.direct, input: "# nothing\n\n") == .success(""))
    }

    /// The binary: good batch → exit 0 and the lines on stdout, nothing on stderr.
    @Test func binaryGoodBatch() throws {
        let (status, out, err) = try Self.run(["geodesic", "inverse"], stdin: "-30 0 29.9 179.8\n0 0 0 180\n")
        #expect(status == 0)
        #expect(err.isEmpty)
        let rows = Self.numbers(out)
        try #require(rows.count == 2)
        #expect(abs(rows[0][2] - 19_989_832.82760953) <= 1e-6)
        // GeodSolve33: equatorial antipodes go over a pole: 0 180 20003931.458625447.
        #expect(abs(rows[1][2] - 20_003_931.458625447) <= 1e-6 && rows[1][0] == 0 && abs(rows[1][1]) == 180)
        let (dstatus, dout, _) = try Self.run(["geodesic", "direct"], stdin: "40 0 30 1e7")
        #expect(dstatus == 0)
        #expect(abs((Self.numbers(dout).first?.first ?? 0) - 41.79331020506) <= 0.5e-11)
    }

    /// The binary: one bad line → exit status 1, stderr names the line, stdout stays empty
    /// even though earlier lines were good.
    @Test func binaryMalformedLine() throws {
        let (status, out, err) = try Self.run(["geodesic", "inverse"], stdin: "0 0 1 1\n2 2 3 3\n4 4 five 5\n")
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(err.contains("line 3"))
        #expect(err.contains("lat2 is not a number"))
    }
}
