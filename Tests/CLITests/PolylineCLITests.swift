import Foundation
import Testing
@testable import mapwright


@Suite struct PolylineCLITests {
    /// Google's published example, both directions through the real binary.
    @Test func encodeGoogleExample() throws {
        let r = try runMapwright(["polyline", "encode"], stdin: "38.5 -120.2\n40.7,-120.95\n  43.252 ,  -126.453 \n")
        #expect(r.status == 0)
        #expect(r.stdout == "_p~iF~ps|U_ulLnnqC_mqNvxq`@\n")
        #expect(r.stderr == "")
    }

    @Test func decodeGoogleExampleFromArgumentAndStdin() throws {
        let expected = "38.5 -120.2\n40.7 -120.95\n43.252 -126.453\n"
        let a = try runMapwright(["polyline", "decode", "_p~iF~ps|U_ulLnnqC_mqNvxq`@"])
        #expect(a.status == 0)
        #expect(a.stdout == expected)
        let b = try runMapwright(["polyline", "decode"], stdin: "_p~iF~ps|U_ulLnnqC_mqNvxq`@\n")
        #expect(b.stdout == expected)
    }

    /// Precision 6: the Google points divided by 10 give the same string (the integers are equal).
    @Test func precisionSixRoundTrip() throws {
        let input = "3.85 -12.02\n4.07 -12.095\n4.3252 -12.6453\n"
        let e = try runMapwright(["polyline", "encode", "--precision", "6"], stdin: input)
        #expect(e.stdout == "_p~iF~ps|U_ulLnnqC_mqNvxq`@\n")
        let d = try runMapwright(["polyline", "decode", "--precision", "6", "_p~iF~ps|U_ulLnnqC_mqNvxq`@"])
        #expect(d.stdout == input)
    }

    @Test(arguments: [
        ("38.5 -120.2\n40.7 west\n", "mapwright polyline: line 2: expected two numbers 'LAT LON', found '40.7 west'\n"),
        ("38.5 -120.2\n\n1 2 3\n", "mapwright polyline: line 3: expected 'LAT LON', found 3 values in '1 2 3'\n"),
        ("91 0\n", "mapwright polyline: line 1: latitude 91 is outside [-90, 90]\n"),
        ("nan 0\n", "mapwright polyline: line 1: 'nan 0' is not a pair of finite numbers\n"),
        ("", "mapwright polyline: no LAT LON lines on stdin\n"),
    ])
    func encodeErrors(_ input: String, _ message: String) throws {
        let r = try runMapwright(["polyline", "encode"], stdin: input)
        #expect(r.status != 0)
        #expect(r.stdout == "")
        #expect(r.stderr == message)
    }

    /// CRLF line ends (a single Character in Swift) still separate lines.
    @Test func crlfInput() throws {
        let e = try runMapwright(["polyline", "encode"], stdin: "38.5 -120.2\r\n40.7 -120.95\r\n43.252 -126.453\r\n")
        #expect(e.stdout == "_p~iF~ps|U_ulLnnqC_mqNvxq`@\n")
        let d = try runMapwright(["polyline", "decode"], stdin: "_p~iF~ps|U\r\n_p~iF~ps|U\r\n")
        #expect(d.stdout == "38.5 -120.2\n\n38.5 -120.2\n")
        let bad = try runMapwright(["polyline", "encode"], stdin: "38.5 -120.2\r\nx y\r\n")
        #expect(bad.stderr == "mapwright polyline: line 2: expected two numbers 'LAT LON', found 'x y'\n")
    }

    @Test func decodeErrorsNameLineAndColumn() throws {
        let r = try runMapwright(["polyline", "decode"], stdin: "_p~iF~ps|U\n  _p~iF~ps|U_ulLnnqC_mqNvxq`\n")
        #expect(r.status != 0)
        #expect(r.stdout == "")
        #expect(r.stderr == "mapwright polyline: line 2, column 29: the encoded string ends in the middle of a value\n")
        let bad = try runMapwright(["polyline", "decode", "_p~iF ~ps|U"])
        #expect(bad.stderr == "mapwright polyline: column 6: ' ' is not a polyline character (expected '?' to '~')\n")
        let p7 = try runMapwright(["polyline", "decode", "--precision", "7", "_p~iF~ps|U"])
        #expect(p7.status != 0 && p7.stdout == "")
    }

    @Test func formatTrimsZeros() {
        #expect(PolylineCommand.format(38.5, 5) == "38.5")
        #expect(PolylineCommand.format(-120, 5) == "-120")
        #expect(PolylineCommand.format(-0.000001, 5) == "0")
        #expect(PolylineCommand.format(0.000001, 6) == "0.000001")
    }
}
