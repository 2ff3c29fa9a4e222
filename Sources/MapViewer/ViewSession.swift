import Foundation
import GeoKit
import MapCamera
import MapFormats
import MapGestures
import MapMotion
import MapScene
import MapSnapshot

/// How a view behaves.
public struct ViewerOptions: Sendable {
    /// Draw the compass (top right).
    public var compass = true
    /// Fade the compass out while north is up and the map is flat (MapKit, MapLibre Native).
    public var compassAutoHide = false
    /// Picking tolerance, logical px.
    public var pickTolerance = Picker.defaultTolerance
    /// Start in measure mode (`M` toggles it).
    public var measure = false
    /// Markers can be dragged to new positions.
    public var draggableMarkers = false
    /// Highlight what is under the pointer.
    public var hover = true
    /// Keep the newest point of followed files in the middle of the view.
    public var followNewest = false

    public init() {}
}

/// Something the session reports: a pick, a marker moved, a measurement changed.
public enum ViewerReport: Sendable, Equatable {
    case pick(Pick?)
    case markerMoved(overlay: Int, position: LatLng)
    case measure(legs: [Double], total: Double)
    case warning(String)

    /// One JSON line (what `--log-camera` prints).
    public var jsonLine: String {
        switch self {
        case .pick(let p):
            guard let p else { return #"{"pick": null}"# }
            var fields = [#""kind": "\#(p.kind.rawValue)""#, #""overlay": \#(p.overlay)"#]
            if let part = p.part { fields.append(#""part": \#(part)"#) }
            if let s = p.segment { fields.append(#""segment": \#(s)"#) }
            if let d = p.distanceAlong { fields.append(#""distanceAlong": \#(ViewSession.number(d, 3))"#) }
            fields.append(#""lat": \#(ViewSession.number(p.position.lat, 8))"#)
            fields.append(#""lon": \#(ViewSession.number(p.position.lon, 8))"#)
            if let t = p.time { fields.append(#""time": "\#(ViewSession.isoTime(t))""#) }
            if let l = p.label { fields.append(#""label": \#(ViewSession.jsonString(l))"#) }
            if let c = p.count { fields.append(#""count": \#(c)"#) }
            if let z = p.expansionZoom { fields.append(#""expansionZoom": \#(z)"#) }
            return #"{"pick": {\#(fields.joined(separator: ", "))}}"#
        case .markerMoved(let i, let p):
            return #"{"marker": {"overlay": \#(i), "lat": \#(ViewSession.number(p.lat, 8)), "lon": \#(ViewSession.number(p.lon, 8))}}"#
        case .measure(let legs, let total):
            let l = legs.map { ViewSession.number($0, 3) }.joined(separator: ", ")
            return #"{"measure": {"legs": [\#(l)], "total": \#(ViewSession.number(total, 3))}}"#
        case .warning(let w):
            return #"{"warning": \#(ViewSession.jsonString(w))}"#
        }
    }
}

/// A live map without a window: input events in (already timed), a `Snapshot` per frame out.
/// It owns the gestures (`MapInteraction`), the compass widget (click: back to north in 1 s,
/// Shift-click also flattens; drag: rotate and pitch), picking with callouts and hover
/// highlights, draggable markers, the measure tool and followed files (live tracks). The window
/// (`MapViewer`) and scripted headless runs both drive one, so what a test sees is what a user
/// sees. Not thread-safe: the window calls it under its lock.
public final class ViewSession: @unchecked Sendable {
    /// The gestures and the camera.
    public let interaction: MapInteraction
    /// The scene: still overlays and animated layers.
    public private(set) var animated: AnimatedSnapshot
    /// Behaviour.
    public var options: ViewerOptions
    /// Show the heads-up panel (F1).
    public var hudVisible = false
    /// Lines for the heads-up panel, set by the window (fps, frame time).
    public var hudStats: [String] = []
    /// Whether clicks drop measure points.
    public private(set) var measuring: Bool
    /// The measure tool's points.
    public private(set) var measurePoints: [LatLng] = []
    /// The last pick shown as a callout.
    public private(set) var selection: Pick?
    /// What the pointer is over.
    public private(set) var hover: Pick?
    /// Reports since the last `takeReports()`.
    private var reports: [ViewerReport] = []
    /// Called for every report as it happens (the API's way to hear of moved markers).
    public var onReport: ((ViewerReport) -> Void)?

    private let picker = Picker()
    /// Where the selection's and the measurement's callouts stand (see `smartWrap`).
    private var selectionWrap: CalloutWrap?, measureWrap: CalloutWrap?
    private var drag: Drag?
    private var pointer: ScreenPoint?
    private var follows: [(file: FollowedFile, track: LiveTrack)] = []
    private var lastNorthUp: Double?
    private var now = 0.0
    /// Whether something changed that the next frame must show even with the camera still.
    private var changed = true

    enum Drag {
        case marker(index: Int)
        case measurePoint(index: Int)
        case compass(start: ScreenPoint, angle: Double, moved: Bool, modifiers: Modifiers)
    }

    /// Starts a session on a scene; the still snapshot's camera is the starting camera.
    public init(_ animated: AnimatedSnapshot, options: ViewerOptions = ViewerOptions()) {
        self.animated = animated
        self.options = options
        self.measuring = options.measure
        interaction = MapInteraction(camera: animated.still.camera)
    }

    /// The camera as of the last event or frame.
    public var camera: Camera { interaction.camera }

    /// Follows a file of positions appended by another program; its points are drawn as a live
    /// track in `style`.
    public func follow(_ file: FollowedFile, style: LineStyle = LineStyle(width: .pixels(4), color: Color(rgb: 0xE8590C))) {
        follows.append((file, LiveTrack(style: style)))
    }

    /// Whether any file is followed (the window then polls them).
    public var isFollowing: Bool { !follows.isEmpty }

    /// Resizes the view, keeping the centre.
    public func resize(to size: ScreenSize) {
        guard size.width >= 1, size.height >= 1, size != interaction.camera.size else { return }
        var c = interaction.camera
        c.size = size
        interaction.setCamera(c)
        changed = true
    }

    /// Takes the reports since the last call.
    public func takeReports() -> [ViewerReport] {
        defer { reports.removeAll() }
        return reports
    }

    private func report(_ r: ViewerReport) {
        reports.append(r)
        onReport?(r)
    }

    /// Whether the next frame differs from the last: the camera or the scene is moving, a
    /// marker or measure point is being dragged, followed files brought points, or something
    /// else changed. A window draws while this is true and sleeps otherwise.
    public var needsFrame: Bool {
        changed || interaction.isActive || animated.isAnimated || drag != nil || compassFading
    }

    private var compassFading: Bool {
        guard options.compassAutoHide, let since = lastNorthUp else { return false }
        return now - since < Self.compassFade
    }

    /// Seconds the compass takes to fade out when north comes up.
    public static let compassFade = 0.25


    // MARK: Input

    /// Applies one event at its time.
    public func handle(_ event: TimedEvent) {
        now = max(now, event.t)
        changed = true
        let cam = interaction.camera
        switch event.event {
        case .pointerDown(let x, let y, let button, let mods):
            let p = ScreenPoint(x: x, y: y)
            pointer = p
            if button == .left, options.compass, inCompass(p, cam) {
                interaction.setCamera(cam)  // stops any ease
                drag = .compass(start: p, angle: compassAngle(p, cam), moved: false, modifiers: mods)
                return
            }
            if button == .left, mods.isEmpty {
                if measuring, let i = nearestMeasurePoint(p, cam) {
                    drag = .measurePoint(index: i)
                    return
                }
                if options.draggableMarkers, let pick = picker.pick(animated.still.overlays, at: p, camera: cam, tolerance: options.pickTolerance),
                   pick.kind == .marker {
                    drag = .marker(index: pick.overlay)
                    return
                }
            }
            interaction.handle(event)
        case .pointerMove(let x, let y, _):
            let p = ScreenPoint(x: x, y: y)
            pointer = p
            switch drag {
            case .marker(let i):
                if let g = cam.unproject(p), case .marker(var m) = animated.still.overlays[i] {
                    m.position = g
                    animated.still.overlays[i] = .marker(m)
                }
                return
            case .measurePoint(let i):
                if let g = cam.unproject(p) {
                    measurePoints[i] = g
                    if i == measurePoints.count - 1 { measureWrap = CalloutWrap(lon: g.lon, screen: p) }
                    reportMeasure()
                }
                return
            case .compass(let start, let angle, var moved, let mods):
                // Dragging on the compass turns the map by the angle swept round its centre
                // (MapLibre's navigation control): the rose follows the pointer.
                if !moved && hypot(p.x - start.x, p.y - start.y) >= MapInteraction.clickTolerance { moved = true }
                let a = compassAngle(p, cam)
                if moved {
                    interaction.setCamera(cam.rotated(to: cam.bearing - Camera.normalizedBearing(a - angle)))
                }
                drag = .compass(start: start, angle: moved ? a : angle, moved: moved, modifiers: mods)
                return
            case nil:
                break
            }
            interaction.handle(event)
            updateHover(p)
        case .pointerUp(let x, let y, _, _):
            let p = ScreenPoint(x: x, y: y)
            pointer = p
            switch drag {
            case .marker(let i):
                drag = nil
                if case .marker(let m) = animated.still.overlays[i] { report(.markerMoved(overlay: i, position: m.position)) }
                return
            case .measurePoint:
                drag = nil
                return
            case .compass(_, _, let moved, let mods):
                drag = nil
                if !moved { resetNorth(flatten: mods.contains(.shift)) }
                return
            case nil:
                interaction.handle(event)
            }
        case .key(let key, let mods):
            switch key.lowercased() {
            case "m":
                measuring.toggle()
                if !measuring { measurePoints.removeAll() }
            case "escape":
                selection = nil
                selectionWrap = nil
                measurePoints.removeAll()
            case "n" where options.compass:
                resetNorth(flatten: mods.contains(.shift))
            default:
                interaction.handle(event)
            }
        case .wheel, .touch:
            interaction.handle(event)
        }
        for c in interaction.takeClicks() { click(at: c) }
    }

    /// Eases back to north (and flat with `flatten`) over 1 s.
    public func resetNorth(flatten: Bool) {
        interaction.step(to: now)  // the ease starts now, not at the last event the gestures saw
        var target = interaction.camera
        target.bearing = interaction.camera.bearing - Camera.normalizedBearing(interaction.camera.bearing)
        if flatten { target.pitch = 0 }
        interaction.ease(to: target, duration: 1)
    }

    private func click(at p: ScreenPoint) {
        let cam = interaction.camera
        if measuring {
            guard let g = cam.unproject(p) else { return }
            measurePoints.append(g)
            measureWrap = CalloutWrap(lon: g.lon, screen: p)
            reportMeasure()
            return
        }
        let pick = picker.pick(frameOverlays(at: now), at: p, camera: cam, tolerance: options.pickTolerance)
        if let pick, pick.kind == .cluster, let z = pick.expansionZoom {
            // A cluster opens: the map eases onto it at the zoom where it splits (MapLibre's
            // cluster example), no callout.
            interaction.step(to: now)
            var target = cam
            target.center = pick.position
            target.zoom = max(cam.zoom, Double(z))
            interaction.ease(to: target, duration: 0.5)
            selection = nil
            selectionWrap = nil
            report(.pick(pick))
            return
        }
        selection = pick
        // The callout starts on the copy of the world that was clicked.
        selectionWrap = pick.map { CalloutWrap(lon: $0.position.lon, screen: p) }
        report(.pick(pick))
    }

    private func reportMeasure() {
        let legs = Self.legs(measurePoints)
        report(.measure(legs: legs, total: legs.reduce(0, +)))
    }

    /// Geodesic lengths (WGS84, metres) of the legs between consecutive points.
    public static func legs(_ points: [LatLng]) -> [Double] {
        zip(points, points.dropFirst()).map { Geodesic.wgs84.inverse($0, $1).distance }
    }

    private func updateHover(_ p: ScreenPoint) {
        guard options.hover, drag == nil, !interaction.isDragging else { return }
        let h = picker.pick(frameOverlays(at: now), at: p, camera: interaction.camera, tolerance: options.pickTolerance)
        if h?.overlay != hover?.overlay || h?.kind != hover?.kind { changed = true }
        hover = h
    }

    private func inCompass(_ p: ScreenPoint, _ cam: Camera) -> Bool {
        let c = MapSnapshotter.compassCenter(for: cam.size)
        return hypot(p.x - c.x, p.y - c.y) <= MapSnapshotter.compassSize / 2 && compassOpacity(cam) > 0
    }

    /// The pointer's direction from the compass centre, degrees clockwise from up.
    private func compassAngle(_ p: ScreenPoint, _ cam: Camera) -> Double {
        let c = MapSnapshotter.compassCenter(for: cam.size)
        return atan2(p.x - c.x, -(p.y - c.y)) * 180 / .pi
    }

    private func nearestMeasurePoint(_ p: ScreenPoint, _ cam: Camera) -> Int? {
        var best: (Int, Double)?
        for (i, m) in measurePoints.enumerated() {
            guard let s = cam.project(m) else { continue }
            let d = hypot(s.x - p.x, s.y - p.y)
            if d <= options.pickTolerance, best == nil || d < best!.1 { best = (i, d) }
        }
        return best?.0
    }

    private func compassOpacity(_ cam: Camera) -> Double {
        guard options.compass else { return 0 }
        guard options.compassAutoHide else { return 1 }
        let northUp = Camera.normalizedBearing(cam.bearing) == 0 && cam.pitch == 0
        guard northUp, let since = lastNorthUp else { return 1 }
        return max(0, 1 - (now - since) / Self.compassFade)
    }

    // MARK: Frames

    /// The scene at `t`: still, animated and followed overlays (what picks index into).
    func scene(at t: Double) -> Snapshot {
        var s = animated.frame(at: t)
        for f in follows { s.overlays += f.track.overlays(at: t) }
        return s
    }

    func frameOverlays(at t: Double) -> [Overlay] { scene(at: t).overlays }

    /// Reads followed files (call once per frame or on a timer); returns whether points arrived.
    @discardableResult
    public func pollFollowedFiles() -> Bool {
        var any = false
        for f in follows {
            let (points, warnings) = f.file.poll()
            for w in warnings { report(.warning(w)) }
            guard !points.isEmpty else { continue }
            do { try f.track.append(points) } catch { report(.warning("\(f.file.path): \(error)")) }
            any = true
        }
        if any {
            changed = true
            if options.followNewest, let last = follows.compactMap({ $0.track.lastPoint }).last {
                var c = interaction.camera
                c.center = last
                interaction.ease(to: c, duration: 0.3)
            }
        }
        return any
    }

    /// The snapshot to draw at time `t` (seconds on the events' clock): the camera after eases
    /// and inertia, the scene at `t`, highlights, measurements, callouts, the compass.
    public func frame(at t: Double) -> Snapshot {
        now = max(now, t)
        let cam = interaction.step(to: t)
        changed = false
        let northUp = Camera.normalizedBearing(cam.bearing) == 0 && cam.pitch == 0
        if northUp { if lastNorthUp == nil { lastNorthUp = now } } else { lastNorthUp = nil }
        var s = scene(at: t)
        s.camera = cam
        if let h = hover, h.overlay < s.overlays.count, h != selection {
            s.overlays += Self.highlight(s.overlays[h.overlay], part: h.part, camera: cam)
        }
        if let sel = selection, sel.overlay < s.overlays.count {
            s.overlays += Self.highlight(s.overlays[sel.overlay], part: sel.part, camera: cam)
            let a = Self.smartWrap(sel.position, from: selectionWrap, camera: cam)
            selectionWrap = a
            s.callouts.append(Callout(position: LatLng(lat: sel.position.lat, lon: a.lon), lines: Self.calloutLines(sel),
                                      unwrappedLongitude: true))
        }
        s.overlays += measureOverlays(cam)
        if measurePoints.count >= 2, let last = measurePoints.last {
            let total = Self.legs(measurePoints).reduce(0, +)
            let a = Self.smartWrap(last, from: measureWrap, camera: cam)
            measureWrap = a
            s.callouts.append(Callout(position: LatLng(lat: last.lat, lon: a.lon), lines: ["Total \(Self.distance(total))"],
                                      unwrappedLongitude: true))
        }
        s.compass = options.compass
        s.compassOpacity = compassOpacity(cam)
        s.labelFade = animated.labelFade  // labels fade as the view moves
        if hudVisible {
            s.hud = hudStats + [
                String(format: "zoom %.2f  bearing %.1f°  pitch %.1f°", cam.zoom, Camera.normalizedBearing(cam.bearing), cam.pitch),
                String(format: "%.5f, %.5f", cam.center.lat, cam.center.lon),
            ] + (measuring ? ["measure: click to add points, Esc clears"] : [])
        }
        return s
    }

    /// A callout's place on one copy of the world: its longitude there, unwrapped, and where on
    /// the screen it was drawn last.
    struct CalloutWrap: Equatable {
        var lon: Double
        var screen: ScreenPoint?
    }

    /// The copy of the world a callout for `p` stands on this frame, as MapLibre's popups
    /// "smart-wrap": when the view shows more than one copy, it stays on the copy it was on (the
    /// one clicked, at first) as the map pans, the copy a world east or west of it being taken
    /// only where that lands nearer its last screen position; then, while it lies more than half a
    /// world from the centre and off the screen, it moves a world toward the centre, so it is
    /// never lost off-screen while a copy of it is in view.
    static func smartWrap(_ p: LatLng, from wrap: CalloutWrap?, camera cam: Camera) -> CalloutWrap {
        guard p.lat.isFinite, p.lon.isFinite else { return CalloutWrap(lon: p.lon, screen: nil) }
        let centre = cam.center.lon
        // Start on the copy nearest the longitude it stood at, within a few worlds of the centre.
        let start = wrap.map { $0.lon.isFinite ? min(max($0.lon, centre - 1080), centre + 1080) : p.lon } ?? p.lon
        var lon = p.lon + 360 * ((start - p.lon) / 360).rounded()
        func screen(_ l: Double) -> ScreenPoint? { cam.project(MapPoint(LatLng(lat: p.lat, lon: l))) }
        if let prior = wrap?.screen {
            func d(_ l: Double) -> Double { screen(l).map { hypot($0.x - prior.x, $0.y - prior.y) } ?? .infinity }
            for _ in 0 ..< 4 {
                let here = d(lon)
                if d(lon - 360) < here { lon -= 360 } else if d(lon + 360) < here { lon += 360 } else { break }
            }
        }
        for _ in 0 ..< 8 where abs(lon - centre) > 180 {
            if let s = screen(lon), s.x >= 0, s.y >= 0, s.x <= cam.size.width, s.y <= cam.size.height { break }
            lon += lon > centre ? -360 : 360
        }
        return CalloutWrap(lon: lon, screen: screen(lon))
    }

    static func calloutLines(_ p: Pick) -> [String] {
        var lines: [String] = []
        switch p.kind {
        case .route:
            if let d = p.distanceAlong { lines.append("\(distance(d)) along") }
            if let t = p.time { lines.append(isoTime(t).replacingOccurrences(of: "T", with: " ")) }
        case .marker, .label:
            lines.append(p.label ?? String(format: "%.5f, %.5f", p.position.lat, p.position.lon))
        case .cluster:
            lines.append("\(p.count ?? 0) markers")
        default:
            lines.append(String(format: "%@ %.5f, %.5f", p.kind.rawValue, p.position.lat, p.position.lon))
        }
        return lines.isEmpty ? [String(format: "%.5f, %.5f", p.position.lat, p.position.lon)] : lines
    }

    /// A glow under a picked or hovered overlay.
    static func highlight(_ o: Overlay, part: Int? = nil, camera: Camera) -> [Overlay] {
        let glow = Color(rgb: 0xFFD33D, alpha: 0xB0)
        // A set's part picked: that polygon or line alone, at the set's z-index.
        switch o {
        case .multiPolygon(let set) where part.map(set.polygons.polygons.indices.contains) == true:
            return highlight(.polygon(set.part(part!)), camera: camera)
        case .multiPolyline(let set) where part.map(set.paths.paths.indices.contains) == true:
            return highlight(.polyline(set.part(part!)), camera: camera)
        default: break
        }
        // A line's glow: 4 px wider each side, solid, uncased.
        func glowing(_ line: LineStyle) -> LineStyle {
            var style = line
            style.width = .pixels(Picker.halfWidth(line.width, camera) * 2 + 8)
            style.color = glow
            style.dash = []
            style.casingColor = nil
            return style
        }
        switch o {
        case .polyline(let l):
            var h = Polyline(path: l.path, style: glowing(l.style), geodesic: l.geodesic, zIndex: o.effectiveZIndex - 1)
            h.alongOffset = l.alongOffset
            return [.polyline(h)]
        case .marker(let m):
            guard let c = try? Circle(center: m.position, radius: .pixels(14), fill: Color(rgb: 0xFFD33D, alpha: 0x60), stroke: glow,
                                      strokeWidth: 3, zIndex: o.effectiveZIndex - 1) else { return [] }
            return [.circle(c)]
        case .circle(let c):
            guard let h = try? Circle(center: c.center, radius: c.radius, fill: .transparent, stroke: glow, strokeWidth: c.strokeWidth + 4,
                                      zIndex: o.effectiveZIndex + 1) else { return [] }
            return [.circle(h)]
        case .polygon(let p):
            let h = Polygon(exterior: p.exterior, holes: p.holes, fill: .transparent, stroke: glow, strokeWidth: p.strokeWidth + 4,
                            zIndex: o.effectiveZIndex + 1)
            return [.polygon(h)]
        case .multiPolyline(let l):
            return [.multiPolyline(MultiPolyline(paths: l.paths, style: glowing(l.style), geodesic: l.geodesic,
                                                 zIndex: o.effectiveZIndex - 1))]
        case .multiPolygon(let p):
            return [.multiPolygon(MultiPolygon(polygons: p.polygons, fill: .transparent, stroke: glow, strokeWidth: p.strokeWidth + 4,
                                               zIndex: o.effectiveZIndex + 1))]
        default:
            return []
        }
    }

    private func measureOverlays(_ cam: Camera) -> [Overlay] {
        guard !measurePoints.isEmpty else { return [] }
        var out: [Overlay] = []
        let colour = Color(rgb: 0x212121)
        if measurePoints.count >= 2, let line = try? Polyline(
            coordinates: measurePoints,
            style: LineStyle(width: .pixels(3), color: colour, dash: [8, 5], casingColor: .white, casingWidth: 1.5),
            geodesic: true, zIndex: 1000) {
            out.append(.polyline(line))
            for (i, leg) in Self.legs(measurePoints).enumerated() {
                let mid = Geodesic.wgs84.inverse(measurePoints[i], measurePoints[i + 1])
                let half = Geodesic.wgs84.direct(from: measurePoints[i], azimuth: mid.azimuth1, distance: mid.distance / 2).point
                // Beside the leg's middle (on its upper side), clear of the dashes.
                var offset = (x: 0.0, y: -12.0)
                if let a = cam.project(measurePoints[i]), let b = cam.project(measurePoints[i + 1]) {
                    let len = hypot(b.x - a.x, b.y - a.y)
                    if len > 0 {
                        var n = (x: (b.y - a.y) / len, y: -(b.x - a.x) / len)
                        if n.y > 0 { n = (-n.x, -n.y) }
                        // Far enough that the text box (about 0.6 em per character) clears the line.
                        let halfW = 0.3 * 13 * Double(Self.distance(leg).count), halfH = 9.0
                        let d = abs(n.x) * halfW + abs(n.y) * halfH + 4
                        offset = (n.x * d, n.y * d)
                    }
                }
                if let label = try? Label(position: half, text: Self.distance(leg), size: 13, offset: offset, zIndex: 1002) {
                    out.append(.label(label))
                }
            }
        }
        for p in measurePoints {
            if let c = try? Circle(center: p, radius: .pixels(5), fill: .white, stroke: colour, strokeWidth: 2, zIndex: 1001) {
                out.append(.circle(c))
            }
        }
        return out
    }

    // MARK: Formatting

    /// `123 m`, `1.23 km`, `123.4 km`.
    public static func distance(_ metres: Double) -> String {
        if metres < 1000 { return String(format: "%.0f m", metres) }
        if metres < 100_000 { return String(format: "%.2f km", metres / 1000) }
        return String(format: "%.1f km", metres / 1000)
    }

    static func isoTime(_ t: Double) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: Date(timeIntervalSince1970: t))
    }

    static func number(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite else { return "null" }
        var s = String(format: "%.\(digits)f", v)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s == "-0" ? "0" : s
    }

    static func jsonString(_ s: String) -> String { GeoJSONWriter.jsonString(s) }

    /// The camera log line for frame `k` at time `t`.
    public static func cameraLine(frame k: Int, t: Double, camera c: Camera) -> String {
        #"{"frame": \#(k), "t": \#(number(t, 6)), "lat": \#(number(c.center.lat, 8)), "lon": \#(number(c.center.lon, 8)), "zoom": \#(number(c.zoom, 6)), "bearing": \#(number(Camera.normalizedBearing(c.bearing), 6)), "pitch": \#(number(c.pitch, 6))}"#
    }
}
