import Foundation
import GeoKit
import MapCamera
import MapFormats
import MapMotion
import MapScene

/// What the moving overlays of a scene add up to while it is loaded.
struct MotionBuild {
    var duration: Double?
    var layers: [any AnimatedLayer] = []
    var fitPoints: [LatLng] = []
    var replays: [(route: RoutePath, drive: RouteDrive)] = []

    /// Default length: 10 s with a replay, else four default pulses (3.2 s).
    var resolvedDuration: Double { duration ?? (replays.isEmpty ? 3.2 : 10) }
}

extension SceneLoader {
    func checkDuration(_ d: Double, _ where_: String) throws {
        guard d.isFinite, d > 0 else { throw SceneLoadError(where_, "\(Self.fmt(d)) is not a positive number of seconds") }
        guard d <= FrameClock.maxDuration else {
            throw SceneLoadError(where_, "\(Self.fmt(d)) s is over the limit of \(Int(FrameClock.maxDuration)) s (10 minutes)")
        }
    }

    /// Builds a `pulse` or `replay` overlay into `motion`; false for other types.
    func motionOverlay(_ s: SceneDocument.OverlaySpec, index i: Int, into motion: inout MotionBuild) throws -> Bool {
        let at = { (key: String) in self.locate(i, key) }
        let z = try zIndex(s, at: at)
        switch s.type {
        case "pulse":
            let center = try position(s.position, at("position"))
            let radius = try radiusLength(s, at: at)
            let color = try self.color(s.color, at("color")) ?? Color(rgb: 0xFF3B30)
            let scale = try pair(s.scale, Pulse.defaultScale, at("scale"))
            let opacity = try pair(s.opacity, Pulse.defaultOpacity, at("opacity"))
            let pulse: Pulse
            do {
                pulse = try Pulse(center: center, radius: radius, color: color, period: s.period ?? Pulse.defaultPeriod,
                                  scale: scale, opacity: opacity, zIndex: z)
            } catch { throw SceneLoadError(at(error.parameter == "duration" ? "period" : error.parameter), error.reason) }
            motion.layers.append(pulse)
            motion.fitPoints.append(center)
            if case .meters(let m) = radius {
                let reach = m * max(scale.from, scale.to)
                for az in stride(from: 0.0, to: 360, by: 45) {
                    motion.fitPoints.append(Geodesic.wgs84.direct(from: center, azimuth: az, distance: reach).point)
                }
            }
            return true
        case "replay":
            guard let file = s.file else { throw SceneLoadError(at("file"), "a replay needs a track file") }
            let track = try readTrack(file, at("file"))
            let points = track.parts.flatMap { $0.points }
            guard points.count >= 2 else { throw SceneLoadError(at("file"), "'\(file)' has fewer than two points") }
            let byDistance = s.byDistance ?? false
            var times: [Double]?
            if !byDistance {
                let missing = points.filter { $0.time == nil }.count
                guard missing == 0 else {
                    throw SceneLoadError(at("file"), "'\(file)' has no times on \(missing) of \(points.count) points; "
                        + "replay it by distance instead (--by-distance, or \"byDistance\": true)")
                }
                let t = points.map { $0.time?.timeIntervalSince1970 ?? 0 }
                for i in t.indices.dropFirst() where t[i] < t[i - 1] {
                    throw SceneLoadError(at("file"), "'\(file)': point \(i + 1) of \(points.count) is "
                        + "\(Self.fmt(t[i - 1] - t[i])) s earlier than point \(i); a replay by time needs "
                        + "its times in order (sort the track, or replay it by distance: --by-distance, or \"byDistance\": true)")
                }
                times = t
            }
            let route: RoutePath
            do { route = try RoutePath(points: points.map(\.coordinate), times: times) } catch {
                throw SceneLoadError(at("file"), "\(file): \(error)")
            }
            if let speed = s.speed {
                guard speed.isFinite, speed > 0, speed < 1e9 else {
                    throw SceneLoadError(at("speed"), "\(Self.fmt(speed)) is not a positive speed")
                }
            }
            // How much there is to travel: track seconds, or metres by distance.
            let span = byDistance ? route.length : (route.timeSpan.map { $0.end - $0.start } ?? 0)
            guard span > 0 else {
                throw SceneLoadError(at("file"), byDistance ? "'\(file)' has zero length" : "'\(file)': all points have the same time")
            }
            if motion.duration == nil, let speed = s.speed {
                let d = span / speed
                guard d <= FrameClock.maxDuration else {
                    throw SceneLoadError(at("speed"), "at speed \(Self.fmt(speed)) the replay lasts \(Self.fmt(d.rounded())) s, "
                        + "over the limit of 600 s; give a higher speed or a duration")
                }
                motion.duration = d
            }
            let duration = motion.resolvedDuration
            let speed = s.speed ?? span / duration
            let drive: RouteDrive
            if byDistance {
                let timing = try AnimationTiming(duration: span / speed)
                drive = .distance(Animation(from: 0, to: route.length, timing: timing))
            } else {
                drive = .time(start: route.timeSpan?.start ?? 0, speed: speed)
            }
            var style = try lineStyle(s, at: at)
            if s.casing == nil, style.casingColor == nil { style.casingColor = .white; style.casingWidth = 1 }
            var head: Marker?
            let headColor = try color(s.toColor, at("toColor")) ?? style.color.withOpacity(1)
            switch s.head ?? "arrow" {
            case "arrow": head = try? Marker(position: route.points[0], style: .arrow, color: headColor, zIndex: z.map { $0 + 1 })
            case "dot": head = try? Marker(position: route.points[0], style: .dot, color: headColor, zIndex: z.map { $0 + 1 })
            case "none": head = nil
            case let h: throw SceneLoadError(at("head"), "unknown head '\(h)' (expected arrow, dot or none)")
            }
            if let tail = s.tail { _ = try positive(tail, at("tail")) }
            motion.layers.append(RouteProgress(route: route, head: drive, tail: s.tail, style: style, headMarker: head, zIndex: z))
            motion.replays.append((route, drive))
            motion.fitPoints += Self.fitSample(route.points)
            return true
        default:
            return false
        }
    }

    private func pair(_ v: [Double]?, _ fallback: (from: Double, to: Double), _ where_: String) throws -> (from: Double, to: Double) {
        guard let v else { return fallback }
        guard v.count == 2, v.allSatisfy(\.isFinite) else { throw SceneLoadError(where_, "expected [from, to]") }
        return (v[0], v[1])
    }

    /// Wraps built overlays in `AnimatedOverlay`s driven by an `animation` block.
    func animate(_ overlays: [Overlay], _ a: SceneDocument.AnimationSpec, _ s: SceneDocument.OverlaySpec,
                 index i: Int) throws -> [any AnimatedLayer] {
        let at = { (key: String) in self.locate(i, "animation" + (key.isEmpty ? "" : ".\(key)")) }
        let easing: Easing
        do { easing = try Easing(parsing: a.easing ?? "linear") } catch { throw SceneLoadError(at("easing"), error.reason) }
        let timing: AnimationTiming
        do {
            timing = try AnimationTiming(duration: a.duration ?? 1, delay: a.delay ?? 0, repeatCount: a.repeat?.count ?? .infinity,
                                         autoreverses: a.autoreverse ?? false, easing: easing)
        } catch { throw SceneLoadError(at(error.parameter), error.reason) }
        func frames<Spec, Value>(_ specs: [SceneDocument.KeyframeSpec<Spec>]?, _ key: String,
                                 _ convert: (Spec, String) throws -> Value) throws -> Animation<Value>? {
            guard let specs else { return nil }
            guard specs.count >= 2, specs.count <= 1000 else { throw SceneLoadError(at(key), "expected 2…1000 keyframes") }
            let given = specs.filter { $0.offset != nil }.count
            guard given == 0 || given == specs.count else {
                throw SceneLoadError(at(key), "give an offset for every keyframe or for none")
            }
            var kf: [Keyframe<Value>] = []
            for (k, f) in specs.enumerated() {
                let e: Easing
                do { e = try Easing(parsing: f.easing ?? "linear") } catch { throw SceneLoadError(at("\(key)[\(k)].easing"), error.reason) }
                let offset = f.offset ?? Double(k) / Double(specs.count - 1)
                kf.append(Keyframe(offset: offset, value: try convert(f.value, at("\(key)[\(k)]")), easing: e))
            }
            do { return try Animation(keyframes: kf, timing: timing) } catch { throw SceneLoadError(at(key), error.reason) }
        }
        let finite: (Double, String) throws -> Double = { v, w in
            guard v.isFinite, abs(v) < 1e9 else { throw SceneLoadError(w, "\(v) is not a usable number") }
            return v
        }
        let opacity = try frames(a.opacity, "opacity") { v, w in
            guard v.isFinite, v >= 0, v <= 1 else { throw SceneLoadError(w, "opacity \(v) is not in 0…1") }
            return v
        }
        let color = try frames(a.color, "color") { v, w in try self.color(v, w) ?? .black }
        let width = try frames(a.width, "width") { v, w in
            guard v.isFinite, v >= 0, v <= 2000 else { throw SceneLoadError(w, "width \(v) is not in 0…2000") }
            return v
        }
        let radiusScale = try frames(a.radiusScale, "radiusScale") { v, w in
            guard v.isFinite, v >= 0, v <= 100 else { throw SceneLoadError(w, "scale \(v) is not in 0…100") }
            return v
        }
        let position = try frames(a.position, "position") { v, w in try self.position(v, w) }
        let progress = try frames(a.progress, "progress", finite)
        if let d = a.dashSpeed { _ = try finite(d, at("dashSpeed")) }
        var out: [any AnimatedLayer] = []
        for overlay in overlays {
            var anim = AnimatedOverlay(overlay)
            anim.opacity = opacity; anim.color = color; anim.width = width
            anim.radiusScale = radiusScale; anim.position = position
            anim.dashSpeed = a.dashSpeed ?? 0
            if let progress {
                guard case .polyline(let line) = overlay else {
                    throw SceneLoadError(at("progress"), "progress applies to routes only")
                }
                do {
                    let route = try RoutePath(points: line.path.points.map(\.latLng))
                    anim.progress = (route, progress)
                } catch { throw SceneLoadError(at("progress"), error.reason) }
            }
            out.append(anim)
        }
        return out
    }
}
