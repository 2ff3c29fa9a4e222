import Foundation
import Testing
@testable import mapwright

/// Runs `mapwright camera …` with standard input.
private func runCamera(_ arguments: [String], stdin: String = "") throws -> (
    status: Int32, stdout: String, stderr: String
) {
    try runMapwright(["camera"] + arguments, stdin: stdin)
}

private func numbers(_ s: String) -> [[Double]] {
    s.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
}

@Suite struct CameraCLITests {
    /// Zoom 0, 512×512 at (0, 0): 90°E is 128 px right of centre; at bearing 90 it is 128 px
    /// up. A point 1100 px "behind" a pitch-85 camera prints nan nan (see ProjectionTests).
    @Test func projectByHand() throws {
        let r = try runCamera(
            ["project", "--center", "0,0", "--zoom", "0", "--size", "512x512"],
            stdin: "0 90\n# comment\n\n0,0\n")
        #expect(r.status == 0)
        #expect(r.stdout == "384.0 256.0\n256.0 256.0\n")
        #expect(r.stderr == "")
        let b = try runCamera(
            ["project", "--center", "0,0", "--zoom", "0", "--bearing", "90", "--size", "512x512"],
            stdin: "0 90\n")
        let v = try #require(numbers(b.stdout).first)
        #expect(abs(v[0] - 256) < 1e-9 && abs(v[1] - 128) < 1e-9)
        // Behind the camera: y = 0.5 + 1100/524288 in Mercator, i.e. φ = 2·atan(e^{π(1−2y)}) − 90°.
        let y = 0.5 + 1100.0 / 524_288
        let lat = (2 * atan(exp(.pi * (1 - 2 * y))) - .pi / 2) * 180 / .pi
        let c = try runCamera(
            ["project", "--center", "0,0", "--zoom", "10", "--pitch", "85", "--size", "1280x720"],
            stdin: "\(lat) 0\n0 0 0\n")
        #expect(c.stdout == "nan nan\n640.0 360.0\n")
    }

    /// Heights in metres: at zoom 0 on the equator 300 px of height is 300·40075016.68557849/512 m;
    /// raised that far, a point 100 px east appears at 400 + 900·100/600 = 550 in an 800×600 view.
    @Test func projectWithHeight() throws {
        let h = 300 * 40_075_016.68557849 / 512
        let r = try runCamera(
            ["project", "--center", "0,0", "--zoom", "0", "--size", "800x600"],
            stdin: "0 \(360.0 * 100 / 512) \(h)\n")
        let v = try #require(numbers(r.stdout).first)
        #expect(abs(v[0] - 550) < 1e-9 && abs(v[1] - 300) < 1e-9)
    }

    /// Unproject the centre and a pixel above the horizon (pitch 80: horizon at y = 141.3).
    @Test func unprojectByHand() throws {
        let r = try runCamera(
            ["unproject", "--center", "0,0", "--zoom", "0", "--size", "512x512"],
            stdin: "256 256\n384 256\n")
        #expect(r.status == 0)
        #expect(r.stdout == "0.0 0.0\n0.0 90.0\n")
        let s = try runCamera(
            ["unproject", "--center", "30,0", "--zoom", "5", "--pitch", "80", "--size", "800x600"],
            stdin: "400 100\n400 300\n")
        let lines = s.stdout.split(separator: "\n")
        #expect(lines.first == "nan nan")
        let centre = try #require(numbers(s.stdout).last)
        // tolerance 1e-12°: the Mercator round trip
        #expect(lines.count == 2 && abs(centre[0] - 30) < 1e-12 && abs(centre[1]) < 1e-12)
    }

    /// Fit Berlin–Munich in 800×600 with 20 px padding: centre at the Mercator midpoint, zoom
    /// log2(min(760/(512·Δx), 560/(512·Δy))) — the same hand formula as FitTests.
    @Test func fitByHand() throws {
        let r = try runCamera(["fit", "--size", "800x600", "--padding", "20"], stdin: "52.52 13.405\n48.1351 11.582\n")
        #expect(r.status == 0)
        let v = try #require(numbers(r.stdout).first)
        func my(_ lat: Double) -> Double { 0.5 - log(tan(.pi / 4 + lat * .pi / 360)) / (2 * .pi) }
        let dx = (13.405 - 11.582) / 360, dy = my(48.1351) - my(52.52)
        #expect(abs(v[2] - log2(min(760 / (512 * dx), 560 / (512 * dy)))) < 1e-6)
        #expect(abs(v[1] - (13.405 + 11.582) / 2) < 1e-9)
        let midY = (my(48.1351) + my(52.52)) / 2
        #expect(abs(v[0] - (2 * atan(exp(.pi * (1 - 2 * midY))) - .pi / 2) * 180 / .pi) < 1e-9)
        // Max zoom caps a single point.
        let one = try runCamera(["fit", "--size", "800x600", "--max-zoom", "15"], stdin: "10 20\n")
        #expect(
            one.stdout == "10.0 20.0 15.0\n"
                || (numbers(one.stdout).first.map { abs($0[0] - 10) < 1e-9 && $0[2] == 15 } ?? false))
    }

    /// Bad input: non-zero exit, the line named on stderr, nothing on stdout.
    @Test(arguments: [
        (
            ["project", "--center", "0,0", "--zoom", "3", "--size", "800x600"], "1 2\n3 4\nabc 5\n",
            "mapwright camera project: line 3"
        ),
        (["project", "--center", "0,0", "--zoom", "3", "--size", "800x600"], "1 2\n\n95 4\n", "line 3"),
        (["project", "--center", "0,0", "--zoom", "3", "--size", "800x600"], "1 2 3 4\n", "line 1"),
        (["unproject", "--center", "0,0", "--zoom", "3", "--size", "800x600"], "1 2\nnan 3\n", "line 2"),
        (["fit", "--size", "800x600"], "1 2\n1 inf\n", "line 2"),
        (["fit", "--size", "800x600"], "\n# nothing\n", "no points"),
        (["project", "--center", "0,0", "--zoom", "3", "--pitch", "90", "--size", "800x600"], "1 2\n", "--pitch"),
        (["project", "--center", "100,0", "--zoom", "3", "--size", "800x600"], "1 2\n", "--center"),
        (["project", "--center", "0,0", "--zoom", "3", "--size", "800by600"], "1 2\n", "--size"),
        (["fit", "--size", "800x600", "--padding", "400"], "1 2\n", "--padding"),
    ])
    func badInput(_ args: [String], _ stdin: String, _ mention: String) throws {
        let r = try runCamera(args, stdin: stdin)
        #expect(r.status != 0)
        #expect(r.stdout == "")
        #expect(r.stderr.contains(mention), "stderr: \(r.stderr)")
    }
}
