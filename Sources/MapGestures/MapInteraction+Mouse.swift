import Foundation
import GeoKit
import MapCamera

/// What a held mouse button is doing.
struct MouseState {
    enum Mode { case pan, rotate, box }
    var mode: Mode
    var start: ScreenPoint
    var last: ScreenPoint
    var startTime: Double
    var dragging = false
}

extension MapInteraction {
    func pointerDown(_ p: ScreenPoint, _ button: PointerButton, _ mods: Modifiers) {
        interrupt()
        samples.removeAll()
        let mode: MouseState.Mode
        if button == .right || (button == .left && mods.contains(.control)) {
            mode = .rotate
        } else if button == .left && mods.contains(.shift) {
            mode = .box
        } else if button == .left {
            mode = .pan
        } else {
            return
        }
        mouse = MouseState(mode: mode, start: p, last: p, startTime: now)
        // Double-click: a second click within 500 ms and 30 px zooms in (out with Shift) by 1 about it.
        if button == .left, !mods.contains(.control), let c = lastClick, now - c.t <= 0.5,
           hypot(c.point.x - p.x, c.point.y - p.y) <= 30 {
            lastClick = nil
            mouse = nil
            zoomStep(mods.contains(.shift) ? -1 : 1, around: p)
        }
    }

    func pointerMove(_ p: ScreenPoint) {
        guard var m = mouse else { return }
        if !m.dragging {
            guard hypot(p.x - m.start.x, p.y - m.start.y) >= Self.clickTolerance else { return }
            m.dragging = true
            lastClick = nil
        }
        let dx = p.x - m.last.x, dy = p.y - m.last.y
        switch m.mode {
        case .pan:
            camera = camera.dragged(from: m.last, to: p)
            record(pan: ScreenPoint(x: dx, y: dy))
        case .rotate:
            let db = dx * Self.rotatePerPixel, dp = dy * Self.pitchPerPixel
            let oldPitch = camera.pitch
            camera = camera.rotated(to: camera.bearing + db).pitched(to: camera.pitch + dp)
            record(bearing: db, pitch: camera.pitch - oldPitch)
        case .box:
            break
        }
        m.last = p
        mouse = m
    }

    func pointerUp(_ p: ScreenPoint) {
        guard let m = mouse else { return }
        mouse = nil
        if !m.dragging {
            if m.mode == .pan {
                // The second click of a double-click zoomed on its press and never gets here.
                lastClick = (now, p)
                clicks.append(p)
            }
            return
        }
        switch m.mode {
        case .pan, .rotate:
            release()
        case .box:
            // Fit the box's ground corners at the current bearing and pitch (ease 500 ms).
            let corners = [m.start, ScreenPoint(x: p.x, y: m.start.y), p, ScreenPoint(x: m.start.x, y: p.y)]
            let ground = corners.compactMap { camera.unproject($0) }
            guard ground.count == 4, abs(p.x - m.start.x) > 2, abs(p.y - m.start.y) > 2,
                  let fit = Camera.fitting(ground, size: camera.size, padding: EdgeInsets(all: 0), bearing: camera.bearing,
                                           pitch: camera.pitch, maxZoom: camera.constraints.maxZoom) else { return }
            ease(to: fit, duration: 0.5)
        }
    }

    /// Eases the zoom by `delta` levels about `point` over 300 ms.
    func zoomStep(_ delta: Double, around point: ScreenPoint?) {
        var e = CameraEase(base: camera, start: now, duration: 0.3, easing: .ease)
        e.zoomDelta = delta
        e.around = point
        ease = e
        easeIsWheel = false
    }

    func wheel(_ p: ScreenPoint, _ dy: Double) {
        guard dy.isFinite, dy != 0 else { return }
        let notches = abs(dy) / Self.wheelDelta
        let isWheel = abs(dy) >= 4 && abs(notches - notches.rounded()) < 1e-6
        // MapLibre: zoom rate 1/450 per delta unit for a wheel, 1/100 for a trackpad; the scale
        // of one event is 2/(1 + e^(−|delta·rate|)), at most 2×.
        let rate = isWheel ? 1.0 / 450 : 1.0 / 100
        let scale = min(2, 2 / (1 + exp(-abs(dy * rate))))
        let delta = log2(scale) * (dy < 0 ? 1 : -1)
        if isWheel {
            // Eased over 200 ms; a tick during a running wheel ease continues towards the new target.
            var pending = 0.0
            if easeIsWheel, let e = ease { pending = e.base.zoom + e.zoomDelta - camera.zoom }
            ease = nil
            var e = CameraEase(base: camera, start: now, duration: 0.2, easing: .ease)
            e.zoomDelta = pending + delta
            e.around = p
            ease = e
            easeIsWheel = true
        } else {
            interrupt()
            camera = camera.zoomed(by: delta, around: p)
        }
    }

    func keyPress(_ key: String, _ mods: Modifiers) {
        interrupt()
        // MapLibre's keyboard handler: 100 px, 15°, 10°, zoom to round(z) ± 1 (± 2 with Shift),
        // eased 300 ms with t(2 − t), the cubic-bezier(1/3, 2/3, 2/3, 1).
        let quadOut = EasingCurve(x1: 1.0 / 3, y1: 2.0 / 3, x2: 2.0 / 3, y2: 1)
        var e = CameraEase(base: camera, start: now, duration: 0.3, easing: quadOut)
        let shift = mods.contains(.shift)
        switch key.lowercased() {
        case "left": if shift { e.bearing = camera.bearing - 15 } else { e.pan = ScreenPoint(x: 100, y: 0) }
        case "right": if shift { e.bearing = camera.bearing + 15 } else { e.pan = ScreenPoint(x: -100, y: 0) }
        case "up": if shift { e.pitch = camera.pitch + 10 } else { e.pan = ScreenPoint(x: 0, y: 100) }
        case "down": if shift { e.pitch = max(0, camera.pitch - 10) } else { e.pan = ScreenPoint(x: 0, y: -100) }
        case "+", "=": e.zoomDelta = camera.zoom.rounded() + (shift ? 2 : 1) - camera.zoom
        case "-", "_": e.zoomDelta = camera.zoom.rounded() - (shift ? 2 : 1) - camera.zoom
        case "n":
            // Reset north (and pitch with Shift) over 1 s.
            e.duration = 1
            e.easing = .ease
            e.bearing = camera.bearing - Camera.normalizedBearing(camera.bearing)
            if shift { e.pitch = 0 }
        default: return
        }
        ease = e
        easeIsWheel = false
    }
}
