import Foundation
import GeoKit

// The operations a user performs (MapLibre's panBy, zoom around a point, rotate, pitch,
// setLocationAtPoint). Each returns a new camera inside `constraints`; a non-finite argument
// (NaN, ±∞) returns the camera unchanged, as MapLibre's transform tests require.

extension Camera {
    /// A bearing in degrees wrapped into (−180, 180].
    public static func normalizedBearing(_ b: Double) -> Double {
        guard b.isFinite else { return b }
        var r = b.truncatingRemainder(dividingBy: 360)
        if r > 180 { r -= 360 }
        if r <= -180 { r += 360 }
        return r
    }

    /// This camera with zoom, pitch and centre latitude inside `constraints` (latitude within
    /// ±85.051129°), the longitude wrapped into [−180, 180) and the bearing into (−180, 180].
    public func constrained() -> Camera {
        var c = self
        let lo = min(constraints.minZoom, constraints.maxZoom)
        c.zoom = min(max(zoom, lo), constraints.maxZoom)
        c.pitch = min(max(pitch, 0), min(constraints.maxPitch, Camera.maxSupportedPitch))
        c.center = LatLng(lat: Camera.clampLatitude(center.lat), lon: LatLng.wrapLongitude(center.lon))
        c.bearing = Camera.normalizedBearing(bearing)
        return c
    }

    /// Moves the camera so that the ground point `location` appears at screen point `point`,
    /// keeping zoom, bearing and pitch (MapLibre's `setLocationAtPoint`); unchanged when the
    /// point is above the horizon or an argument is not finite.
    public func settingLocation(_ location: LatLng, at point: ScreenPoint) -> Camera {
        guard location.lat.isFinite, location.lon.isFinite else { return self }
        let loc = MapPoint(x: (location.lon + 180) / 360, y: Camera.mercatorY(latitude: location.lat))
        return settingMapPoint(loc, at: point)
    }

    /// `settingLocation` for a normalised Mercator point (x not wrapped).
    func settingMapPoint(_ loc: MapPoint, at point: ScreenPoint) -> Camera {
        guard isFinite, point.x.isFinite, point.y.isFinite, loc.x.isFinite, loc.y.isFinite,
            let g = groundOffset(at: point)
        else { return self }
        // The ground map is a translation of the world at fixed zoom, bearing and pitch: the
        // point under `point` is centre + g, so the new centre is loc − g.
        let ws = worldSize
        var c = self
        let cx = loc.x - g.px / ws, cy = loc.y - g.py / ws
        c.center = LatLng(lat: Camera.latitude(mercatorY: cy), lon: cx * 360 - 180)
        return c.constrained()
    }

    /// Pans the map by a screen delta in logical pixels: the content moves with the delta (as
    /// when dragging), so the ground that was at `centerPoint − delta` comes to the centre.
    public func panned(by delta: ScreenPoint) -> Camera {
        guard isFinite, delta.x.isFinite, delta.y.isFinite else { return self }
        let c = centerPoint
        return dragged(from: c, to: ScreenPoint(x: c.x + delta.x, y: c.y + delta.y))
    }

    /// Drags the map: the ground point under `from` ends up under `to` (also when pitched).
    public func dragged(from: ScreenPoint, to: ScreenPoint) -> Camera {
        guard isFinite, from.x.isFinite, from.y.isFinite, to.x.isFinite, to.y.isFinite,
            let loc = unprojectToMapPoint(from)
        else { return self }
        return settingMapPoint(loc, at: to)
    }

    /// Sets the zoom keeping the ground point under `point` (default: the centre) in place,
    /// as a scroll-wheel zoom does; the zoom is clamped to `constraints`.
    public func zoomed(to newZoom: Double, around point: ScreenPoint? = nil) -> Camera {
        guard isFinite, newZoom.isFinite else { return self }
        return changed(keeping: point) { $0.zoom = newZoom }
    }

    /// Changes the zoom by `delta` levels around a screen point; see `zoomed(to:around:)`.
    public func zoomed(by delta: Double, around point: ScreenPoint? = nil) -> Camera {
        guard delta.isFinite else { return self }
        return zoomed(to: zoom + delta, around: point)
    }

    /// Sets the bearing (degrees clockwise) keeping the ground point under `point` (default:
    /// the centre) in place.
    public func rotated(to newBearing: Double, around point: ScreenPoint? = nil) -> Camera {
        guard isFinite, newBearing.isFinite else { return self }
        return changed(keeping: point) { $0.bearing = newBearing }
    }

    /// Sets the pitch in degrees (clamped to 0…`constraints.maxPitch`, at most 85), keeping
    /// the centre.
    public func pitched(to newPitch: Double) -> Camera {
        guard isFinite, newPitch.isFinite else { return self }
        var c = self
        c.pitch = newPitch
        return c.constrained()
    }

    /// Applies `change`, constrains the result, and moves it so the ground point that was under
    /// `point` (nil: keep the centre) is under it again; a non-finite point, or one above the
    /// horizon, leaves the camera unchanged.
    private func changed(keeping point: ScreenPoint?, _ change: (inout Camera) -> Void) -> Camera {
        var c = self
        change(&c)
        c = c.constrained()
        guard let p = point else { return c }
        guard p.x.isFinite, p.y.isFinite, let loc = unprojectToMapPoint(p) else { return self }
        return c.settingMapPoint(loc, at: p)
    }
}
