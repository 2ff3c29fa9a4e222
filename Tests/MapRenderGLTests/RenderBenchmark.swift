import Foundation
import GeoKit
import MapCamera
import MapRender
import MapRenderGL
import MapScene
import MapTestSupport
import Testing

/// Times the standard scene of shared/bench (1024×768, zoom 15.5, 4 px #1f6feb route, three
/// metric circles, five markers; no basemap) in-process with a warm renderer. Runs only with
/// `MAPWRIGHT_BENCH=/path/to/bench` (the folder holding route-10k.csv …), best in a release build:
/// `MAPWRIGHT_BENCH=../shared/bench swift test -c release --filter RenderBenchmark`.
/// Performance goals are checked by running this, not by a timed assertion.
@Suite struct RenderBenchmark {
    static let benchDir = ProcessInfo.processInfo.environment["MAPWRIGHT_BENCH"]

    static func readCSV(_ path: String) throws -> [LatLng] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var out: [LatLng] = []
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let parts = line.split(separator: ",")
            if parts.count >= 2, let lat = Double(parts[0]), let lon = Double(parts[1]) { out.append(LatLng(lat: lat, lon: lon)) }
        }
        return out
    }

    static func scene(route: [LatLng]) throws -> Scene {
        var s = Scene(background: Color(rgb: 0xF2EFE9))
        s.add(.polyline(try Polyline(coordinates: route, style: LineStyle(width: .pixels(4), color: try Color(parsing: "#1f6feb")))))
        for (lat, lon, r) in [(37.76649, -122.4214196, 120.0), (37.7669728, -122.4156743, 200.0), (37.7635399, -122.4197586, 320.0)] {
            s.add(.circle(try Circle(center: LatLng(lat: lat, lon: lon), radius: .meters(r), fill: try Color(parsing: "#ff000040"),
                                     stroke: try Color(parsing: "#ff0000"), strokeWidth: 2)))
        }
        for (lat, lon) in [(37.77, -122.42), (37.767431, -122.4228484), (37.7669728, -122.4156743), (37.7624633, -122.4203828),
                           (37.7621662, -122.4187426)] {
            s.add(.marker(try Marker(position: LatLng(lat: lat, lon: lon), color: try Color(parsing: "#d1242f"))))
        }
        return s
    }

    static func time(_ label: String, runs: Int, _ body: () throws -> Void) rethrows -> Double {
        let t0 = DispatchTime.now().uptimeNanoseconds
        try body()
        let first = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        var ms: [Double] = []
        for _ in 0 ..< runs {
            let t = DispatchTime.now().uptimeNanoseconds
            try body()
            ms.append(Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6)
        }
        ms.sort()
        let median = ms[ms.count / 2]
        print(String(format: "bench %@: first %.1f ms, median %.2f ms, min %.2f ms, max %.2f ms (%d warm runs)",
                     label, first, median, ms.first ?? 0, ms.last ?? 0, runs))
        return median
    }

    @Test(.enabled(if: benchDir != nil))
    func standardScene() throws {
        let dir = try #require(Self.benchDir)
        let r = try RenderHarness.renderer()
        print("bench device: \(r.deviceDescription), \(ProcessInfo.processInfo.activeProcessorCount) cores")
        let camera = Camera(center: LatLng(lat: 37.7651335, lon: -122.4191805), zoom: 15.5,
                            size: ScreenSize(width: 1024, height: 768))
        var medians: [String: Double] = [:]
        for name in ["route-10k", "route-100k", "route-1m"] {
            let route = try Self.readCSV("\(dir)/\(name).csv")
            let scene = try Self.scene(route: route)
            let plan = r.planner.plan(scene, camera: camera)
            let tris = plan.commands.reduce(0) { $0 + $1.mesh.triangleCount }
            print("bench \(name): \(plan.commands.count) draw calls, \(tris) triangles")
            var frame: Frame? = nil
            medians[name] = try Self.time("\(name) (\(route.count) points) render", runs: 30) {
                frame = try r.render(scene: scene, camera: camera)
            }
            if let f = frame {
                try RenderHarness.bitmap(f).writePNG(to: "/tmp/mapwright-bench-\(name).png", options: .fast)
            }
        }
        if let a = medians["route-1m"], let b = medians["route-10k"] {
            print(String(format: "bench ratio 1m / 10k: %.2f", a / b))
        }
        // A 100k-point random scribble across the image (fixed seed), drawn 4 px wide.
        var rng = SplitMix(seed: 42)
        let c = MapPoint(camera.center), ws = camera.worldSize
        let pts = (0 ..< 100_000).map { _ in
            MapPoint(x: c.x + (Double(rng.next() % 1024) - 512) / ws, y: c.y + (Double(rng.next() % 768) - 384) / ws)
        }
        var scribble = Scene(background: Color(rgb: 0xF2EFE9))
        scribble.add(.polyline(Polyline(path: try GeoPath(points: pts), style: LineStyle(width: .pixels(4), color: Color(rgb: 0x1F6FEB, alpha: 0xC0)))))
        let t0 = DispatchTime.now().uptimeNanoseconds
        let stris = r.planner.plan(scribble, camera: camera).commands.reduce(0) { $0 + $1.mesh.triangleCount }
        print(String(format: "bench scribble: planned (tessellation + overdraw culling) in %.1f ms, %d triangles",
                     Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6, stris))
        var frame: Frame? = nil
        _ = try Self.time("scribble 100k random points", runs: 3) { frame = try r.render(scene: scribble, camera: camera) }
        let r0 = try MapRenderer(samples: 0)
        _ = try Self.time("scribble 100k random points, no MSAA", runs: 3) { _ = try r0.render(scene: scribble, camera: camera) }
        if let f = frame { try RenderHarness.bitmap(f).writePNG(to: "/tmp/mapwright-bench-scribble.png", options: .fast) }
    }
}

/// Benchmark input generator (SplitMix64, from MapTestSupport).
typealias SplitMix = SplitMix64
