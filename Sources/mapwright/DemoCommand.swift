import ArgumentParser
import Foundation
import GeoKit
import MapCamera
import MapFormats
import MapImage
import MapMotion
import MapScene
import MapSnapshot
import MapTiles

/// `mapwright demo`: renders a small gallery of what Mapwright draws, over the embedded basemap.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Render a gallery of example maps (PNG) and an animation (APNG) over the embedded basemap.",
        discussion: "Writes world, city, region, polygon and 3D views and a replayed run with a pulse into --out and lists them."
    )

    @Option(name: [.short, .long], help: ArgumentHelp("Directory to write the PNGs into (created if missing).", valueName: "DIR"))
    var out: String = "demo"

    @Option(help: "Output pixels per logical pixel, 1…4.")
    var scale: Double = 1

    func run() throws {
        guard scale.isFinite, (1...4).contains(scale) else { throw CLIError("mapwright demo: --scale must be in 1…4") }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw CLIError("mapwright demo: cannot create '\(out)': \(RenderCommand.why(error))")
        }
        let snapshotter = try MapSnapshotter()
        for (name, make) in DemoGallery.all {
            let snapshot = try make(scale)
            let t0 = DispatchTime.now().uptimeNanoseconds
            let bitmap = try snapshotter.render(snapshot)
            let path = (out as NSString).appendingPathComponent("\(name).png")
            try bitmap.writePNG(to: path)
            let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
            print(String(format: "%@  %dx%d  %.0f ms", path, bitmap.width, bitmap.height, ms))
        }
        // The animation: a run replayed by its timestamps, a pulse where it ends.
        let animated = try DemoGallery.replay(scale: scale)
        let clock = try FrameClock(duration: animated.duration, fps: animated.fps ?? 15)
        let path = (out as NSString).appendingPathComponent("run-replay-pulse.apng")
        let (w, h) = animated.still.camera.pixelSize
        let t0 = DispatchTime.now().uptimeNanoseconds
        try AnimateCommand.render(animated, clock: clock, with: snapshotter,
                                  to: try APNGWriter(path: path, width: w, height: h, frameCount: clock.frameCount, fps: clock.fps))
        let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        print(String(format: "%@  %dx%d  %d frames  %.0f ms", path, w, h, clock.frameCount, ms))
    }
}


/// The demo scenes, each built in code from public facts (city coordinates).
enum DemoGallery {
    static let all: [(String, @Sendable (Double) throws -> Snapshot)] = [
        ("world-flights", { try flights(style: .light, scale: $0) }),
        ("world-flights-dark", { try flights(style: .dark, scale: $0) }),
        ("city-route", { try cityRoute(scale: $0) }),
        ("europe-circles-rotated", { try europeCircles(scale: $0) }),
        ("polygon-with-hole", { try polygon(scale: $0) }),
        ("world-arcs-3d", { try worldArcs3D(scale: $0) }),
        ("city-3d", { try city3D(scale: $0) }),
    ]

    static let cities: [(String, LatLng)] = [
        ("London", LatLng(lat: 51.5072, lon: -0.1276)), ("New York", LatLng(lat: 40.7128, lon: -74.0060)),
        ("Tokyo", LatLng(lat: 35.6762, lon: 139.6503)), ("Sydney", LatLng(lat: -33.8688, lon: 151.2093)),
        ("São Paulo", LatLng(lat: -23.5505, lon: -46.6333)), ("Cape Town", LatLng(lat: -33.9249, lon: 18.4241)),
        ("Singapore", LatLng(lat: 1.3521, lon: 103.8198)), ("Los Angeles", LatLng(lat: 34.0522, lon: -118.2437)),
    ]

    /// Great-circle flights from London and Singapore, markers at the airports.
    static func flights(style: BasemapStyle, scale: Double) throws -> Snapshot {
        var overlays: [Overlay] = []
        let hubs = [cities[0].1, cities[6].1]
        let colors = [Color(rgb: 0xD1242F), Color(rgb: 0x8250DF)]
        for (h, hub) in hubs.enumerated() {
            for (_, city) in cities where city != hub {
                let line = try Polyline(coordinates: [hub, city],
                                        style: LineStyle(width: .pixels(2.5), color: colors[h].withOpacity(0.85)),
                                        geodesic: true)
                overlays.append(.polyline(line))
            }
        }
        for (name, p) in cities {
            overlays.append(.marker(try Marker(position: p, color: Color(rgb: 0x1F6FEB), label: name)))
        }
        let camera = Camera(center: LatLng(lat: 15, lon: 20), zoom: 1.0, size: ScreenSize(width: 1024, height: 640),
                            pixelRatio: scale)
        return Snapshot(camera: camera, overlays: overlays, basemapStyle: style, scaleBar: false, compass: false)
    }

    /// A morning run through San Francisco: a cased route, distance circles, a pin and a coffee stop.
    static func cityRoute(scale: Double) throws -> Snapshot {
        let waypoints = [
            LatLng(lat: 37.8080, lon: -122.4177), LatLng(lat: 37.8024, lon: -122.4058), LatLng(lat: 37.7955, lon: -122.3937),
            LatLng(lat: 37.7849, lon: -122.3878), LatLng(lat: 37.7786, lon: -122.3893), LatLng(lat: 37.7763, lon: -122.3942),
            LatLng(lat: 37.7694, lon: -122.4068), LatLng(lat: 37.7599, lon: -122.4148), LatLng(lat: 37.7614, lon: -122.4265),
            LatLng(lat: 37.7694, lon: -122.4330), LatLng(lat: 37.7725, lon: -122.4544), LatLng(lat: 37.7694, lon: -122.4862),
        ]
        // Densify with a gentle, deterministic wiggle so the track looks recorded.
        var track: [LatLng] = []
        for (a, b) in zip(waypoints, waypoints.dropFirst()) {
            for k in 0..<40 {
                let t = Double(k) / 40
                let wiggle = 0.00018 * sin(Double(track.count) * 0.45)
                track.append(LatLng(lat: a.lat + (b.lat - a.lat) * t + wiggle, lon: a.lon + (b.lon - a.lon) * t - wiggle))
            }
        }
        track.append(waypoints[waypoints.count - 1])
        let route = try Polyline(coordinates: track, style: LineStyle(width: .pixels(5), color: Color(rgb: 0x1F6FEB),
                                                                   casingColor: .white, casingWidth: 2))
        let start = waypoints[0], finish = waypoints[waypoints.count - 1]
        var overlays: [Overlay] = [.polyline(route)]
        for km in [1.0, 2.0] {
            overlays.append(.circle(try Circle(center: start, radius: .meters(km * 1000), fill: Color(rgb: 0x2DA44E, alpha: 0x22),
                                               stroke: Color(rgb: 0x2DA44E), strokeWidth: 1.5)))
        }
        overlays.append(.circle(try Circle(center: finish, radius: .pixels(18), fill: Color(rgb: 0xD1242F, alpha: 0x40),
                                           stroke: Color(rgb: 0xD1242F), strokeWidth: 2)))
        overlays.append(.marker(try Marker(position: start, style: .pin, color: Color(rgb: 0x2DA44E), label: "Start")))
        overlays.append(.marker(try Marker(position: finish, color: Color(rgb: 0xD1242F), label: "Finish")))
        // A coffee stop on the way, with Maki's cafe icon in its pin.
        overlays.append(.marker(try Marker(position: waypoints[5], style: .pin, color: Color(rgb: 0x8C5A2B), label: "Coffee",
                                           symbol: "cafe")))
        let size = ScreenSize(width: 1024, height: 768)
        guard var camera = Camera.fitting(track, size: size, padding: EdgeInsets(all: 48)) else {
            throw CLIError("demo: cannot fit the city route")
        }
        camera.pixelRatio = scale
        return Snapshot(camera: camera, overlays: overlays, basemapStyle: .light, scaleBar: true, compass: true)
    }

    /// The city run replayed by its (uneven) timestamps: the route so far with an arrow at its
    /// head over the faint whole route, and the iOS pulse where the run ends. 4 s at 15 fps, 640×480.
    static func replay(scale: Double) throws -> AnimatedSnapshot {
        let base = try cityRoute(scale: scale)
        guard case .polyline(let whole) = base.overlays[0] else { throw CLIError("demo: no route") }
        let points = whole.path.points.map(\.latLng)
        // A runner's pace: slower in the middle, a pause half-way.
        var times: [Double] = [0]
        for i in 1..<points.count {
            let pace = 1.5 + 0.8 * sin(Double(i) / Double(points.count) * .pi) + (i == points.count / 2 ? 40 : 0)
            times.append(times[i - 1] + pace)
        }
        let route = try RoutePath(points: points, times: times)
        var faint = whole
        faint.style = LineStyle(width: .pixels(4), color: Color(rgb: 0x1F6FEB, alpha: 0x50))
        let duration = 4.0
        let speed = (times[times.count - 1] - times[0]) / (duration - 0.5)
        let head = try Marker(position: points[0], style: .arrow, color: Color(rgb: 0x0969DA))
        let progress = RouteProgress(route: route, head: .time(start: 0, speed: speed),
                                     style: LineStyle(width: .pixels(5), color: Color(rgb: 0x1F6FEB), casingColor: .white,
                                                      casingWidth: 2),
                                     headMarker: head)
        let pulse = try Pulse(center: points[points.count - 1], radius: .meters(450))
        var still = base
        still.overlays = [.polyline(faint)] + base.overlays.dropFirst().filter {
            if case .circle = $0 { return false }
            return true
        }
        guard var camera = Camera.fitting(points, size: ScreenSize(width: 640, height: 480), padding: EdgeInsets(all: 40)) else {
            throw CLIError("demo: cannot fit the replay")
        }
        camera.pixelRatio = scale
        still.camera = camera
        return AnimatedSnapshot(still: still, layers: [pulse, progress], duration: duration, fps: 15)
    }

    /// 500 km around four capitals (true geodesic circles), the map turned 30° with a compass.
    static func europeCircles(scale: Double) throws -> Snapshot {
        let capitals: [(String, LatLng)] = [
            ("Paris", LatLng(lat: 48.8566, lon: 2.3522)), ("Berlin", LatLng(lat: 52.52, lon: 13.405)),
            ("Rome", LatLng(lat: 41.9028, lon: 12.4964)), ("Madrid", LatLng(lat: 40.4168, lon: -3.7038)),
        ]
        var overlays: [Overlay] = []
        for (name, p) in capitals {
            overlays.append(.circle(try Circle(center: p, radius: .meters(500_000), fill: Color(rgb: 0xBF3989, alpha: 0x30),
                                               stroke: Color(rgb: 0xBF3989), strokeWidth: 2)))
            overlays.append(.marker(try Marker(position: p, color: Color(rgb: 0xBF3989), label: name)))
        }
        let camera = Camera(center: LatLng(lat: 46.5, lon: 6.5), zoom: 4.1, bearing: 30,
                            size: ScreenSize(width: 1024, height: 768), pixelRatio: scale)
        return Snapshot(camera: camera, overlays: overlays, basemapStyle: .light, scaleBar: true, compass: true)
    }

    /// A polygon with a hole (a ring around Lake Geneva's shore), outlined, with labels.
    static func polygon(scale: Double) throws -> Snapshot {
        func ring(_ c: LatLng, _ r: Double, _ n: Int) -> [LatLng] {
            (0..<n).map { Geodesic.wgs84.direct(from: c, azimuth: Double($0) * 360 / Double(n), distance: r).point }
        }
        let center = LatLng(lat: 46.45, lon: 6.55)
        let outer = (0..<10).map { k -> LatLng in
            let r = k % 2 == 0 ? 60_000.0 : 32_000.0
            return Geodesic.wgs84.direct(from: center, azimuth: Double(k) * 36, distance: r).point
        }
        let poly = try Polygon(exterior: outer, holes: [ring(center, 14_000, 48)], fill: Color(rgb: 0xFB8F44, alpha: 0x66),
                               stroke: Color(rgb: 0xBC4C00), strokeWidth: 2)
        let label = try Label(position: center, text: "A star with a hole", size: 16)
        let camera = Camera(center: center, zoom: 7.3, size: ScreenSize(width: 800, height: 600), pixelRatio: scale)
        return Snapshot(camera: camera, overlays: [.polygon(poly), .label(label)], basemapStyle: .light,
                        scaleBar: true)
    }
}
