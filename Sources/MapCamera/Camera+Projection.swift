import Foundation
import GeoKit

// The camera model, written out (MapLibre GL JS `Transform._calcMatrices`):
//
//   world pixels relative to the centre  p = (x − cx, y − cy) · worldSize, z = height · px/m
//   1. rotate about z by angle = −bearing:   x1 = cos a·px − sin a·py,  y1 = sin a·px + cos a·py
//   2. tilt about x by the pitch θ:           y2 = cos θ·y1 − sin θ·z,   z2 = sin θ·y1 + cos θ·z
//   3. the eye sits at z2 = d = 1.5·height, looking down −z; depth w = d − z2
//   4. perspective with tan(fov/2) = 1/3 puts the point at
//          screen = centerPoint + d · (x1, y2) / w
//      (d·(x1, y2)/w: one world pixel at the centre is one screen pixel at any pitch).
//
// The matrix form adds a flip of y (screen y down → GL y up), the near/far planes and the
// padding offset in the third column, exactly as MapLibre's `projMatrix`.

extension Camera {
    /// Projects a geographic point with a height in metres to the screen; nil when it
    /// lies behind the camera.
    ///
    /// The latitude is clamped to ±85.051129° (as MapLibre's `project`), and the longitude
    /// is taken on the copy of the world nearest the camera centre, so a point just across
    /// the antimeridian from the centre lands next to it. Heights use the pixels per metre at
    /// the centre latitude. Returns nil for non-finite input or a camera with non-finite
    /// values or an empty viewport.
    public func project(_ p: LatLng, height: Double = 0) -> ScreenPoint? {
        projector.project(p, height: height)
    }

    /// Projects a point in normalised Web Mercator space (with a height in metres) to the
    /// screen, its x taken as given: a copy of the world east or west of the centre's (x past 0…1)
    /// lands there, not on the copy nearest the centre. Nil as `project(_:height:)`.
    public func project(_ p: MapPoint, height: Double = 0) -> ScreenPoint? {
        projector.project(p, height: height)
    }

    /// The camera's projection with its trigonometry done once, for projecting many points:
    /// `project` costs a few multiplications a point instead of a dozen sines, logarithms and
    /// powers, with results identical to the camera's own `project` (the same operations on the
    /// same values).
    public var projector: Projector { Projector(self) }

    /// `Camera.project` with the camera's terms computed once (`Camera.projector`).
    public struct Projector: Sendable {
        /// False for a camera with non-finite values or an empty viewport: every point is nil.
        public let isValid: Bool
        let centerX: Double, centerY: Double
        let worldSize: Double, pixelsPerMeter: Double
        let cosA: Double, sinA: Double, cosT: Double, sinT: Double
        let distance: Double
        let screenX: Double, screenY: Double

        init(_ camera: Camera) {
            isValid = camera.isFinite
            let c = camera.centerMapPoint
            centerX = c.x; centerY = c.y
            worldSize = camera.worldSize
            pixelsPerMeter = camera.pixelsPerMeter
            let a = camera.angle, t = camera.pitchRadians
            cosA = cos(a); sinA = sin(a); cosT = cos(t); sinT = sin(t)
            distance = camera.cameraToCenterDistance
            let s = camera.centerPoint
            screenX = s.x; screenY = s.y
        }

        /// As `Camera.project(_: MapPoint, height:)`: x taken as given (no world wrapping).
        public func project(_ p: MapPoint, height: Double = 0) -> ScreenPoint? {
            guard isValid, p.x.isFinite, p.y.isFinite, height.isFinite else { return nil }
            let ws = worldSize
            return projectWorldOffset(px: (p.x - centerX) * ws, py: (p.y - centerY) * ws, pz: height * pixelsPerMeter)
        }

        /// As `Camera.project(_: LatLng, height:)`: on the copy of the world nearest the centre.
        public func project(_ p: LatLng, height: Double = 0) -> ScreenPoint? {
            guard isValid, p.lat.isFinite, p.lon.isFinite, height.isFinite else { return nil }
            var dx = (p.lon + 180) / 360 - centerX
            dx -= dx.rounded()  // nearest copy of the world: dx in [-0.5, 0.5]
            let dy = Camera.mercatorY(latitude: p.lat) - centerY
            let ws = worldSize
            return projectWorldOffset(px: dx * ws, py: dy * ws, pz: height * pixelsPerMeter)
        }

        /// How far a ground point lies from the eye along the view's axis, as a multiple of the
        /// centre's distance: 1 at the centre (and everywhere straight down), more towards the
        /// top of a pitched view, less below; 0 or less at and behind the eye's plane. Lengths
        /// on the ground near the point show on screen at 1/ratio of their size at the centre
        /// (across the view; along it, shortened further by the tilt), so geometry there may be
        /// as coarse as at a zoom `log2(ratio)` lower. x is taken as given.
        public func depthRatio(_ p: MapPoint) -> Double {
            guard isValid, distance > 0, p.x.isFinite, p.y.isFinite else { return .nan }
            let y1 = sinA * (p.x - centerX) * worldSize + cosA * (p.y - centerY) * worldSize
            return (distance - sinT * y1) / distance
        }

        /// The least `depthRatio` over `box` (at one of its corners: the depth is linear over the
        /// ground); NaN for a camera or box that is not finite.
        public func leastDepthRatio(in box: MapRect) -> Double {
            var least = Double.infinity
            for p in [MapPoint(x: box.minX, y: box.minY), MapPoint(x: box.maxX, y: box.minY),
                      MapPoint(x: box.minX, y: box.maxY), MapPoint(x: box.maxX, y: box.maxY)] {
                let r = depthRatio(p)
                if r.isNaN { return .nan }
                least = min(least, r)
            }
            return least
        }

        /// At most how many screen pixels a map unit on the ground spans anywhere in `box`, in
        /// any direction (an upper bound, not the least one): with r the depth ratio and x the
        /// offset across the view in world pixels, the projection's derivatives are 1/r across,
        /// cos(pitch)/r² along and x·sin(pitch)/(d·r²) of along into across (d the eye's distance);
        /// their root sum of squares bounds its stretch, and r's least and |x|'s most over a box
        /// are at its corners. Nil where the box reaches the eye's plane (or is not finite).
        public func maxScale(in box: MapRect) -> Double? {
            guard isValid, distance > 0 else { return nil }
            let r = leastDepthRatio(in: box)
            var across = 0.0
            for x in [box.minX, box.maxX] {
                for y in [box.minY, box.maxY] {
                    across = max(across, abs(cosA * (x - centerX) * worldSize - sinA * (y - centerY) * worldSize))
                }
            }
            guard r.isFinite, across.isFinite, r > 1e-6 else { return nil }
            let a = 1 / r, b = cosT / (r * r), c = across * sinT / (distance * r * r)
            let scale = worldSize * (a * a + b * b + c * c).squareRoot()
            return scale.isFinite ? scale : nil
        }

        /// An offset from the centre in world pixels (x east, y south, z up in pixels).
        func projectWorldOffset(px: Double, py: Double, pz: Double) -> ScreenPoint? {
            let x1 = cosA * px - sinA * py
            let y1 = sinA * px + cosA * py
            let y2 = cosT * y1 - sinT * pz
            let z2 = sinT * y1 + cosT * pz
            let d = distance
            let w = d - z2
            guard w > 0 else { return nil }
            let s = ScreenPoint(x: screenX + d * x1 / w, y: screenY + d * y2 / w)
            guard s.x.isFinite, s.y.isFinite else { return nil }
            return s
        }
    }

    /// The ground point under a screen point; nil above the horizon.
    ///
    /// The longitude is wrapped into [-180, 180). Near the horizon the ground point can lie
    /// beyond the top or bottom of the Mercator world; its latitude is then beyond ±85.05°
    /// (up to ±90°), as MapLibre's `unproject` returns it.
    public func unproject(_ s: ScreenPoint) -> LatLng? {
        guard isFinite, s.x.isFinite, s.y.isFinite,
            let g = groundOffset(at: s)
        else { return nil }
        let c = centerMapPoint
        let ws = worldSize
        let x = c.x + g.px / ws
        let y = c.y + g.py / ws
        let lat = Camera.latitude(mercatorY: y)
        let lon = LatLng.wrapLongitude(x * 360 - 180)
        guard lat.isFinite, lon.isFinite else { return nil }
        return LatLng(lat: lat, lon: lon)
    }

    /// The ground point under a screen point as an offset from the centre in world pixels
    /// (x east, y south), with the view depth `w` of that point; nil at or above the horizon.
    ///
    /// Derivation: the ray through s has (x1, y2) = u·w with u = (s − centerPoint)/d and
    /// z2 = d − w; it meets the ground (z = −sin θ·y2 + cos θ·z2 = 0) at
    /// w = d·cos θ / (cos θ + u.y·sin θ), which is positive only below the horizon.
    func groundOffset(at s: ScreenPoint) -> (px: Double, py: Double, w: Double)? {
        let c = centerPoint
        let d = cameraToCenterDistance
        let ux = (s.x - c.x) / d, uy = (s.y - c.y) / d
        let t = pitchRadians
        let denom = cos(t) + uy * sin(t)
        guard denom > 0 else { return nil }
        let w = d * cos(t) / denom
        let x1 = ux * w
        let y1 = uy * w * cos(t) + (d - w) * sin(t)
        let a = angle
        let px = cos(a) * x1 + sin(a) * y1
        let py = -sin(a) * x1 + cos(a) * y1
        guard px.isFinite, py.isFinite, w.isFinite else { return nil }
        return (px, py, w)
    }

    /// The screen y of the horizon (points above it see sky), in logical pixels; −∞ when
    /// looking straight down. `centerPoint.y − d · cot θ`.
    public var horizonY: Double {
        let t = pitchRadians
        guard t > 0 else { return -.infinity }
        return centerPoint.y - cameraToCenterDistance * cos(t) / sin(t)
    }

    /// Distance from the eye to the near clipping plane in logical pixels: `height / 50`
    /// (MapLibre's `nearZ`).
    var nearZ: Double { size.height / 50 }

    /// Distance from the eye to the far clipping plane in logical pixels, as MapLibre computes
    /// it: the depth of the ground point seen at the top edge of the view (law of sines in the
    /// triangle eye–centre–that point, the angle at that point clamped to ≥ 0.01 rad so pitched
    /// views whose top edge is above the horizon still reach far towards it), plus 1 %.
    var farZ: Double {
        let d = cameraToCenterDistance
        let t = pitchRadians
        let offsetY = centerPoint.y - size.height / 2
        let groundAngle = Double.pi / 2 + t
        let fovAboveCenter = Camera.fieldOfView * (0.5 + offsetY / size.height)
        let opposite = min(max(Double.pi - groundAngle - fovAboveCenter, 0.01), Double.pi - 0.01)
        let topHalfSurfaceDistance = sin(fovAboveCenter) * d / sin(opposite)
        let furthestDistance = cos(Double.pi / 2 - t) * topHalfSurfaceDistance + d
        return furthestDistance * 1.01
    }

    /// The projection matrix alone (eye space → clip space), with the padding offset.
    var projectionMatrix: Matrix4 {
        var p = Matrix4.perspective(
            fovy: Camera.fieldOfView, aspect: size.width / size.height,
            near: nearZ, far: farZ)
        let c = centerPoint
        let offsetX = c.x - size.width / 2, offsetY = c.y - size.height / 2
        p[0, 2] = -offsetX * 2 / size.width
        p[1, 2] = offsetY * 2 / size.height
        return p
    }

    /// Column-major 4×4 view-projection matrix (16 values) taking
    /// `((x - origin.x) · worldSize, (y - origin.y) · worldSize, height in metres)` —
    /// world pixels relative to `origin` (a `MapPoint`), so Float32 keeps precision at
    /// high zoom — to GL clip space (clip y up, screen y down handled inside).
    /// Heights use the pixels-per-metre at the camera's centre latitude, as MapLibre does.
    ///
    /// With a GL viewport of `size · pixelRatio`, clip → window coordinates and a top-down
    /// read-back put a point where `project` puts it (times `pixelRatio`):
    /// `screen.x = (ndc.x + 1)/2 · width`, `screen.y = (1 − ndc.y)/2 · height`.
    /// Depth runs −1…1 from `height/50` to MapLibre's far plane. `origin` is taken as is (not
    /// wrapped): pass the copy of the world you draw.
    public func viewProjectionMatrix(relativeTo origin: MapPoint) -> [Double] {
        let c = centerMapPoint
        let ws = worldSize
        let m =
            projectionMatrix
            .scaled(1, -1, 1)
            .translated(0, 0, -cameraToCenterDistance)
            .rotatedX(pitchRadians)
            .rotatedZ(angle)
            .translated(-(c.x - origin.x) * ws, -(c.y - origin.y) * ws, 0)
            .scaled(1, 1, pixelsPerMeter)
        return m.m
    }
}
