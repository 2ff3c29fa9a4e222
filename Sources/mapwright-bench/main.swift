import Foundation
import GeoKit
import MapCamera
import MapFormats
import MapMotion
import MapScene
import MapRenderGL
import MapSnapshot

// Benchmarks that need the library rather than the CLI (`scripts/bench/motion.sh` and
// `scripts/bench/run.sh` run them).
//
//   mapwright-bench live-track ROUTE.csv [RUNS]
//   mapwright-bench pair A.json B.json [RUNS]
//
// Pair: two scene files rendered in one process, taking turns frame by frame (A, B, A, B, …),
// RUNS frames each after two warm-up frames, full redraws; each frame's time without the PNG
// (basemap, plan, draw, read back, from the snapshotter's timings) and with it. A slow spell of
// the machine lasts far longer than a frame, so it lands on both scenes of a pair; the ratio
// B/A is given from the medians and as the median of the pairs' own ratios.
//
// Live track: the points of ROUTE.csv (the shared 1M-point route) appended to a `LiveTrack`,
// drawn over the embedded basemap at 1024×768, the camera on the newest point at zoom 15.5.
// Then RUNS times each, interleaved: re-render with nothing appended, and append one point and
// re-render (planning + GL draw + read-back; no PNG). Full redraws (partial redraw off), so the
// comparison is of planning and tessellation work; partial-redraw timings follow.

func median(_ v: [Double]) -> Double {
    let s = v.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

func liveTrack(_ file: String, runs: Int) throws {
    let t0 = now()
    let track = try TrackReader.read(contentsOf: URL(fileURLWithPath: file))
    let points = track.parts.flatMap { $0.points.map(\.coordinate) }
    let live = LiveTrack(style: LineStyle(width: .pixels(4), color: Color(rgb: 0x1F6FEB)))
    for start in stride(from: 0, to: points.count, by: 10_000) {
        try live.append(Array(points[start..<min(start + 10_000, points.count)]))
    }
    print(String(format: "live track: %d points in %d pieces (read and appended in %.0f ms)", live.count, live.pieceCount, now() - t0))
    let snapshotter = try MapSnapshotter()
    guard let last = live.lastPoint else { return }
    let camera = Camera(center: last, zoom: 15.5, size: ScreenSize(width: 1024, height: 768))
    func render() throws {
        let snap = Snapshot(camera: camera, overlays: live.polylines().map { .polyline($0) }, basemapStyle: .light)
        _ = try snapshotter.render(snap)
    }
    // Synthetic new points: small steps on from the last point.
    var next = last
    func append() throws {
        next = LatLng(lat: next.lat + 0.000_002, lon: next.lon + 0.000_003)
        try live.append(next)
    }
    for partial in [false, true] {
        snapshotter.renderer.partialRedraw = partial
        try render(); try render()
        var still: [Double] = [], appended: [Double] = []
        for _ in 0..<runs {
            var a = now()
            try render()
            still.append(now() - a)
            a = now()
            try append()
            try render()
            appended.append(now() - a)
        }
        let ms = median(still), ma = median(appended)
        print(String(format: "live track %@: re-render %.2f ms, append 1 point + re-render %.2f ms (median of %d), ratio %.2f",
                     partial ? "(partial redraw)" : "(full redraw)", ms, ma, runs, ma / ms))
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

func pair(_ a: String, _ b: String, runs: Int) throws {
    func load(_ path: String) throws -> Snapshot {
        let url = URL(fileURLWithPath: path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError("cannot read scene file '\(path)'")
        }
        let doc = try SceneDocument.decode(data, file: path)
        let snapshot = try SceneLoader(baseDirectory: url.deletingLastPathComponent()).snapshot(from: doc)
        MapSnapshotter.preload(for: snapshot)
        return snapshot
    }
    let scenes = [try load(a), try load(b)]
    let snapshotter = try MapSnapshotter()
    snapshotter.renderer.partialRedraw = false
    // (frame without PNG, whole frame with PNG) per scene
    var frames: [[(Double, Double)]] = [[], []]
    for k in 0 ..< runs + 2 {
        for (i, scene) in scenes.enumerated() {
            let t0 = now()
            let bitmap = try snapshotter.render(scene)
            _ = try bitmap.pngData()
            let whole = now() - t0
            let t = snapshotter.lastTimings
            if k >= 2 { frames[i].append((t.basemap + t.plan + t.draw + t.readBack, whole)) }
        }
    }
    let names = [a, b].map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
    for i in 0 ..< 2 {
        print(String(format: "%@: frame without PNG median %.2f ms, with PNG %.2f ms (%d frames)", names[i],
                     median(frames[i].map(\.0)), median(frames[i].map(\.1)), runs))
    }
    for (label, part) in [("without PNG", 0), ("with PNG", 1)] {
        func pick(_ f: (Double, Double)) -> Double { part == 0 ? f.0 : f.1 }
        let ratios = zip(frames[1], frames[0]).map { pick($0) / pick($1) }
        print(String(format: "ratio %@/%@, frame %@: %.2f from the medians, %.2f paired frame by frame", names[1], names[0],
                     label, median(frames[1].map(pick)) / median(frames[0].map(pick)), median(ratios)))
    }
}

/// The exit race (issue 13): a thread creates a renderer and renders frames over and over while
/// the main thread ends the process after `delayMs`, so C++ static destructors (LLVM's among
/// them) run while GL work may be in flight: with `explicit`, `MapRenderer.shutdownAll()` first
/// (what the CLI does), otherwise a plain `exit` (the `atexit` handler's case).
/// `scripts/exit-check.sh` runs it hundreds of times.
func exitRace(delayMs: Int, mode: String) throws {
    // The renderer is created on the worker too, so an early exit can meet context creation
    // and shader compilation (LLVM at work) as well as drawing.
    let c = LatLng(lat: 48.2, lon: 16.37)
    var rng = SystemRandomNumberGenerator()
    let pts = (0 ..< 20_000).map { _ in
        LatLng(lat: c.lat + Double.random(in: -0.05 ... 0.05, using: &rng), lon: c.lon + Double.random(in: -0.08 ... 0.08, using: &rng))
    }
    let line = Polyline(path: try GeoPath(coordinates: pts), style: LineStyle(width: .pixels(3), color: Color(rgb: 0x1F6FEB)))
    let worker = Thread {
        guard let snapshotter = try? MapSnapshotter() else { return }
        var k = 0
        while true {
            let camera = Camera(center: c, zoom: 10 + Double(k % 7) * 0.3, bearing: Double(k * 13 % 360), pitch: Double(k * 7 % 50),
                                size: ScreenSize(width: 1024, height: 768))
            _ = try? snapshotter.render(Snapshot(camera: camera, overlays: [.polyline(line)], basemapStyle: .light))
            k += 1
        }
    }
    worker.start()
    usleep(useconds_t(delayMs * 1000))
    if mode == "explicit" { MapRenderer.shutdownAll() }
    exit(0)
}

let args = CommandLine.arguments
if args.count >= 2, args[1] == "exit-race" {
    do { try exitRace(delayMs: args.count > 2 ? Int(args[2]) ?? 0 : 0, mode: args.count > 3 ? args[3] : "exit") } catch {
        FileHandle.standardError.write(Data("mapwright-bench: \(error)\n".utf8))
        exit(1)
    }
}
let usage = "usage: mapwright-bench live-track ROUTE.csv [RUNS] | pair A.json B.json [RUNS]\n"
guard args.count >= 3, args[1] == "live-track" || (args[1] == "pair" && args.count >= 4) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}
do {
    if args[1] == "pair" {
        guard let runs = args.count > 4 ? Int(args[4]) : 100, (1 ... 100_000).contains(runs) else {
            FileHandle.standardError.write(Data("mapwright-bench pair: RUNS must be a whole number in 1…100000\n".utf8))
            exit(64)
        }
        try pair(args[2], args[3], runs: runs)
    } else {
        try liveTrack(args[2], runs: args.count > 3 ? max(1, Int(args[3]) ?? 30) : 30)
    }
} catch {
    FileHandle.standardError.write(Data("mapwright-bench: \(error)\n".utf8))
    exit(1)
}
exit(0)
