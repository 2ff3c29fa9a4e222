import Foundation
import GeoKit
import MapCamera

/// The state of a touch gesture.
struct TouchGesture {
    /// When the first finger went down, and where.
    var startTime = 0.0
    var startPoints: [Int: ScreenPoint] = [:]
    /// The most fingers down at once in this gesture, and whether any moved beyond tap drift.
    var maxFingers = 0
    var moved = false
    /// Two fingers: spread and finger vector at the start, the smallest spread so far.
    var startSpread = 0.0
    var startVector = ScreenPoint(x: 0, y: 0)
    var minSpread = Double.infinity
    var zooming = false
    var rotating = false
    /// Two-finger pitch, once recognised, excludes pan, zoom and rotate for the gesture.
    var pitching = false
    /// Whether pitch or the others won; until then (≤ 100 ms) two-finger moves wait.
    var decided = false
    var twoStart: [Int: ScreenPoint] = [:]
    var twoStartTime = 0.0
    /// Finger positions as of the last two-finger change applied (moves held back while
    /// undecided are applied later, not lost).
    var applied: [Int: ScreenPoint] = [:]
    /// Tap-then-drag zoom: armed by a tap, active while its second touch drags.
    var tapDragZoom = false
}

extension MapInteraction {
    /// Tap limits (MapLibre's tap recogniser): 500 ms between taps, 500 ms per touch, 30 px drift.
    static let tapInterval = 0.5, tapDuration = 0.5, tapDrift = 30.0

    func touch(_ phase: TouchPhase, _ id: Int, _ p: ScreenPoint) {
        guard p.x.isFinite, p.y.isFinite else { return }
        let before = touches
        switch phase {
        case .down:
            interrupt()
            if touches.isEmpty {
                samples.removeAll()
                let armed = lastClick.map { now - $0.t <= Self.tapInterval && hypot($0.point.x - p.x, $0.point.y - p.y) <= Self.tapDrift } ?? false
                touchGesture = TouchGesture()
                touchGesture.startTime = now
                touchGesture.tapDragZoom = armed
            }
            touches[id] = p
            touchGesture.startPoints[id] = p
            touchGesture.maxFingers = max(touchGesture.maxFingers, touches.count)
            if touches.count == 2 { startTwoFinger() }
            if touches.count != 1 { touchGesture.tapDragZoom = false }
        case .move:
            guard touches[id] != nil else { return }
            touches[id] = p
            if let s = touchGesture.startPoints[id], hypot(s.x - p.x, s.y - p.y) > Self.tapDrift { touchGesture.moved = true }
            moveTouches(from: before)
        case .up:
            guard touches[id] != nil else { return }
            touches[id] = nil
            if touches.count == 1 { touchGesture.pitching = false }
            if touches.count == 2 { startTwoFinger() }
            if touches.isEmpty { endTouches(at: p) }
        }
    }

    private func startTwoFinger() {
        let pts = touches.keys.sorted().compactMap { touches[$0] }
        guard pts.count == 2 else { return }
        let v = ScreenPoint(x: pts[1].x - pts[0].x, y: pts[1].y - pts[0].y)
        touchGesture.startVector = v
        touchGesture.startSpread = hypot(v.x, v.y)
        touchGesture.minSpread = touchGesture.startSpread
        touchGesture.zooming = false
        touchGesture.rotating = false
        touchGesture.decided = false
        touchGesture.pitching = false
        touchGesture.twoStart = touches
        touchGesture.applied = touches
        touchGesture.twoStartTime = now
    }

    private func moveTouches(from before: [Int: ScreenPoint]) {
        // Only the fingers present before and now count, so a finger going down or up never jumps the map.
        let ids = touches.keys.filter { before[$0] != nil }.sorted()
        guard !ids.isEmpty else { return }
        let new = ids.compactMap { touches[$0] }
        let m1 = ScreenPoint(x: new.map(\.x).reduce(0, +) / Double(new.count), y: new.map(\.y).reduce(0, +) / Double(new.count))
        if ids.count == 1, let old = before[ids[0]] {
            let m0 = old
            if touchGesture.tapDragZoom {
                // Tap, then drag: Δy/128 zoom levels per px (down zooms in), about the centre.
                let dz = (m1.y - m0.y) / 128
                camera = camera.zoomed(by: dz)
                record(zoom: dz)
                return
            }
            camera = camera.dragged(from: m0, to: m1)
            record(pan: ScreenPoint(x: m1.x - m0.x, y: m1.y - m0.y))
            return
        }
        guard ids.count == 2, let a0 = touchGesture.applied[ids[0]], let b0 = touchGesture.applied[ids[1]] else { return }
        let a1 = new[0], b1 = new[1]
        let m0 = ScreenPoint(x: (a0.x + b0.x) / 2, y: (a0.y + b0.y) / 2)
        // Two-finger pitch (MapLibre): both fingers move vertically the same way by ≥ 2 px while
        // side by side (their line within 45° of horizontal), waiting up to 100 ms for the second
        // finger; once recognised it excludes pan, zoom and rotate for the rest of the gesture.
        if !touchGesture.decided {
            guard let sa = touchGesture.twoStart[ids[0]], let sb = touchGesture.twoStart[ids[1]] else { return }
            let da = ScreenPoint(x: a1.x - sa.x, y: a1.y - sa.y), db = ScreenPoint(x: b1.x - sb.x, y: b1.y - sb.y)
            let movedA = hypot(da.x, da.y) >= 2, movedB = hypot(db.x, db.y) >= 2
            let verticalA = abs(da.y) > abs(da.x), verticalB = abs(db.y) > abs(db.x)
            if movedA && movedB {
                let sideBySide = abs(a1.y - b1.y) < abs(a1.x - b1.x)
                touchGesture.pitching = verticalA && verticalB && da.y * db.y > 0 && sideBySide
                touchGesture.decided = true
            } else if (movedA && !verticalA) || (movedB && !verticalB) || now - touchGesture.twoStartTime >= 0.1 {
                touchGesture.decided = true
            } else {
                return
            }
            if touchGesture.pitching {
                touchGesture.applied = touches
                // Everything moved since the fingers went down counts.
                let dp = ((da.y + db.y) / 2) * Self.pitchPerPixel
                let oldPitch = camera.pitch
                camera = camera.pitched(to: camera.pitch + dp)
                record(pitch: camera.pitch - oldPitch)
                return
            }
        }
        touchGesture.applied = touches
        if touchGesture.pitching {
            let dp = (m1.y - m0.y) * Self.pitchPerPixel
            let oldPitch = camera.pitch
            camera = camera.pitched(to: camera.pitch + dp)
            record(pitch: camera.pitch - oldPitch)
            return
        }
        camera = camera.dragged(from: m0, to: m1)
        var sample = (pan: ScreenPoint(x: m1.x - m0.x, y: m1.y - m0.y), zoom: 0.0, bearing: 0.0)
        let v1 = ScreenPoint(x: b1.x - a1.x, y: b1.y - a1.y), v0 = ScreenPoint(x: b0.x - a0.x, y: b0.y - a0.y)
        let spread = hypot(v1.x, v1.y), spread0 = hypot(v0.x, v0.y)
        if spread > 0, spread0 > 0 {
            if touchGesture.zooming {
                sample.zoom = log2(spread / spread0)
            } else if abs(log2(spread / touchGesture.startSpread)) >= Self.pinchZoomThreshold {
                // Starts with everything spread since the gesture began.
                touchGesture.zooming = true
                sample.zoom = log2(spread / touchGesture.startSpread)
            }
            if sample.zoom != 0 { camera = camera.zoomed(by: sample.zoom, around: m1) }
            touchGesture.minSpread = min(touchGesture.minSpread, spread)
            // Screen angles grow clockwise (y down); turning the fingers clockwise turns the map
            // with them, which lowers the bearing.
            let turned = angle(from: v0, to: v1)
            if touchGesture.rotating {
                sample.bearing = -turned
            } else {
                let threshold = Self.rotationArc / (Double.pi * touchGesture.minSpread) * 360
                if abs(angle(from: touchGesture.startVector, to: v1)) >= threshold { touchGesture.rotating = true }
            }
            if sample.bearing != 0 { camera = camera.rotated(to: camera.bearing + sample.bearing, around: m1) }
        }
        record(pan: sample.pan, zoom: sample.zoom, bearing: sample.bearing, around: m1)
    }

    /// Signed angle from `a` to `b` on screen, degrees (clockwise positive, y down).
    private func angle(from a: ScreenPoint, to b: ScreenPoint) -> Double {
        atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y) * 180 / .pi
    }

    private func endTouches(at p: ScreenPoint) {
        let g = touchGesture
        let quick = now - g.startTime <= Self.tapDuration && !g.moved
        if quick && g.maxFingers == 2 {
            // Two-finger tap: zoom out by one about the fingers' midpoint.
            let pts = Array(g.startPoints.values)
            let mid = ScreenPoint(x: pts.map(\.x).reduce(0, +) / Double(pts.count), y: pts.map(\.y).reduce(0, +) / Double(pts.count))
            samples.removeAll()
            lastClick = nil
            zoomStep(-1, around: mid)
            return
        }
        if quick && g.maxFingers == 1 {
            if let c = lastClick, now - c.t <= Self.tapInterval, hypot(c.point.x - p.x, c.point.y - p.y) <= Self.tapDrift {
                // Double tap: zoom in by one about it.
                lastClick = nil
                samples.removeAll()
                zoomStep(1, around: p)
            } else {
                lastClick = (now, p)
                clicks.append(p)
            }
            return
        }
        lastClick = nil
        release()
    }
}
