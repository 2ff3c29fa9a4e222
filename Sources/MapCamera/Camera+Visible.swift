import Foundation
import GeoKit

extension Camera {
    /// The screen y (logical pixels) of the highest row of ground the camera draws: the top
    /// edge, or, when the far plane cuts the ground below it (steep pitch), the row where
    /// ground depth reaches the far plane. Ground depth along a row is
    /// w = d·cos θ / (cos θ + u·sin θ) with u = (y − centerPoint.y)/d; solving w = farZ for u.
    public var topGroundY: Double {
        let t = pitchRadians
        guard t > 0 else { return 0 }
        let d = cameraToCenterDistance
        let u = (d * cos(t) / farZ - cos(t)) / sin(t)
        return max(0, centerPoint.y + d * u)
    }

    /// The ground point under a screen point in normalised Mercator space, the longitude kept
    /// continuous around the centre (not wrapped); nil above the horizon.
    public func unprojectToMapPoint(_ s: ScreenPoint) -> MapPoint? {
        guard isFinite, let g = groundOffset(at: s) else { return nil }
        let c = centerMapPoint
        return MapPoint(x: c.x + g.px / worldSize, y: c.y + g.py / worldSize)
    }

    /// The four corners of the visible ground in normalised Mercator space (top-left,
    /// top-right, bottom-right, bottom-left as seen on screen), x continuous around the
    /// centre; empty when the camera is not finite.
    public var visibleGroundQuad: [MapPoint] {
        let top = topGroundY
        let w = size.width, h = size.height
        let corners = [
            ScreenPoint(x: 0, y: top), ScreenPoint(x: w, y: top),
            ScreenPoint(x: w, y: h), ScreenPoint(x: 0, y: h),
        ]
        let pts = corners.compactMap(unprojectToMapPoint)
        return pts.count == 4 ? pts : []
    }

    /// The visible area of the ground as a polygon of four corners (top-left, top-right,
    /// bottom-right, bottom-left as seen on screen).
    ///
    /// When the view is pitched so far that the far plane cuts the ground below the top edge
    /// (or the horizon shows), the top side is the far-plane line instead of the top edge.
    /// Longitudes are continuous around the centre's longitude (they may pass ±180 so that a
    /// view across the antimeridian stays one simple polygon); latitudes may pass ±85.05° when
    /// the view shows beyond the Mercator world. Empty for a camera with non-finite values.
    public var visibleGroundPolygon: [LatLng] {
        visibleGroundQuad.map { p in
            LatLng(lat: Camera.latitude(mercatorY: p.y), lon: p.x * 360 - 180)
        }
    }

    /// Metres on the ground per logical pixel at a screen point, measured along the screen's
    /// horizontal (the direction pitch does not foreshorten); nil above the horizon.
    ///
    /// At a ground point of view depth w, one pixel across covers w/d world pixels, and one
    /// world pixel is `circumference · cos φ / worldSize` metres at latitude φ (WGS84 equatorial
    /// circumference 40 075 016.686 m). At pitch 0 this is the usual ground resolution
    /// `circumference · cos φ / (512 · 2^zoom)` everywhere on the row of φ.
    public func metersPerPixel(at s: ScreenPoint) -> Double? {
        guard isFinite, s.x.isFinite, s.y.isFinite, let g = groundOffset(at: s) else { return nil }
        let y = centerMapPoint.y + g.py / worldSize
        let lat = Camera.latitude(mercatorY: y)
        return g.w / cameraToCenterDistance * WebMercator.earthCircumference * cos(lat * .pi / 180) / worldSize
    }
}
