import Foundation
import GeoKit

/// A point on the screen in logical pixels: origin top-left, y down.
public struct ScreenPoint: Hashable, Sendable {
    /// Horizontal position in logical pixels from the left edge.
    public var x: Double
    /// Vertical position in logical pixels from the top edge (y grows down).
    public var y: Double
    /// Creates a screen point from logical pixel coordinates.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A viewport size in logical pixels.
public struct ScreenSize: Hashable, Sendable {
    /// Width in logical pixels.
    public var width: Double
    /// Height in logical pixels.
    public var height: Double
    /// Creates a size in logical pixels.
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}

/// Insets from the viewport edges in logical pixels.
public struct EdgeInsets: Hashable, Sendable {
    /// Inset from the top edge, logical pixels.
    public var top: Double
    /// Inset from the left edge, logical pixels.
    public var left: Double
    /// Inset from the bottom edge, logical pixels.
    public var bottom: Double
    /// Inset from the right edge, logical pixels.
    public var right: Double
    /// Creates insets in logical pixels.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    /// The same inset on every side.
    public init(all v: Double) { self.init(top: v, left: v, bottom: v, right: v) }
    /// No inset.
    public static let zero = EdgeInsets()
}

/// The map's view of the world, with MapLibre GL's transform conventions.
///
/// The camera looks at `center`, which appears at the centre of the padded viewport
/// (`centerPoint`). The world is `512 · 2^zoom` logical pixels wide; the vertical field of
/// view is `2·atan(1/3)` and the eye sits `1.5 × size.height` pixels from the centre, tilted
/// by `pitch` and turned by `bearing`, exactly as MapLibre GL JS's `Transform`.
/// Out-of-range stored values are read through their effective (clamped) forms:
/// pitch in 0…85, latitude within ±85.051129°.
public struct Camera: Sendable, Equatable {
    /// The geographic point at the centre of the (padded) viewport.
    public var center: LatLng
    /// Zoom level; the world is `512 · 2^zoom` logical pixels wide.
    public var zoom: Double
    /// Degrees clockwise from north.
    public var bearing: Double
    /// Degrees from looking straight down, 0…85.
    public var pitch: Double
    /// Viewport size in logical pixels.
    public var size: ScreenSize
    /// Edge padding in logical pixels; shifts the centre of perspective.
    public var padding: EdgeInsets
    /// Output pixels per logical pixel (1–4).
    public var pixelRatio: Double
    /// Limits the user operations (`zoomed`, `pitched`, …) respect.
    public var constraints: CameraConstraints = CameraConstraints()

    /// Creates a camera.
    public init(
        center: LatLng, zoom: Double, bearing: Double = 0, pitch: Double = 0,
        size: ScreenSize, padding: EdgeInsets = .zero, pixelRatio: Double = 1
    ) {
        self.center = center; self.zoom = zoom; self.bearing = bearing; self.pitch = pitch
        self.size = size; self.padding = padding; self.pixelRatio = pixelRatio
    }

    /// World width in logical pixels at this zoom: `512 · 2^zoom`.
    public var worldSize: Double { 512 * pow(2, zoom) }

    /// The output size in pixels: `size · pixelRatio`, rounded (what a renderer draws).
    public var pixelSize: (width: Int, height: Int) {
        (Int((size.width * pixelRatio).rounded()), Int((size.height * pixelRatio).rounded()))
    }

    // MARK: Constants (MapLibre GL JS transform)

    /// Vertical field of view in radians: `2·atan(1/3)` ≈ 36.87° (MapLibre's
    /// `fov = 0.6435011087932844`), so that `tan(fov/2) = 1/3`.
    public static let fieldOfView: Double = 2 * atan(1.0 / 3.0)
    /// The largest pitch in degrees any camera supports.
    public static let maxSupportedPitch: Double = 85
    /// The latitude limit in degrees of the square Web Mercator world: ±85.051129°.
    public static let maxLatitude: Double = WebMercator.maxLatitude
}

// MARK: Derived quantities shared by projection, fit and cover.

extension Camera {
    /// Pitch in radians, clamped to 0…85°; NaN stays NaN.
    var pitchRadians: Double {
        guard !pitch.isNaN else { return .nan }
        return min(max(pitch, 0), Camera.maxSupportedPitch) * .pi / 180
    }

    /// MapLibre's `angle`: minus the bearing, in radians.
    var angle: Double { -bearing * .pi / 180 }

    /// Distance from the eye to the centre point in logical pixels:
    /// `0.5 / tan(fov/2) · height = 1.5 · height`.
    var cameraToCenterDistance: Double { 0.5 / tan(Camera.fieldOfView / 2) * size.height }

    /// The screen point the centre of perspective sits at: the middle of the padded
    /// viewport, clamped inside the viewport (MapLibre's `EdgeInsets.getCenter`).
    public var centerPoint: ScreenPoint {
        ScreenPoint(
            x: min(max((padding.left + size.width - padding.right) / 2, 0), size.width),
            y: min(max((padding.top + size.height - padding.bottom) / 2, 0), size.height))
    }

    /// The centre of the camera in normalised Mercator space; latitude clamped to the world,
    /// longitude not wrapped.
    var centerMapPoint: MapPoint {
        MapPoint(x: (center.lon + 180) / 360, y: Camera.mercatorY(latitude: center.lat))
    }

    /// Logical pixels per metre of height at the centre latitude (MapLibre's
    /// `mercatorZfromAltitude(1, center.lat) · worldSize`), with the WGS84 equatorial
    /// radius GeoKit's Web Mercator uses.
    var pixelsPerMeter: Double {
        MapPoint.unitsPerMeter(atLatitude: Camera.clampLatitude(center.lat)) * worldSize
    }

    /// Normalised Mercator y of a latitude in degrees, latitude clamped to ±85.051129°.
    static func mercatorY(latitude lat: Double) -> Double {
        let s = sin(clampLatitude(lat) * .pi / 180)
        return 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
    }

    /// Latitude in degrees of a normalised Mercator y (not clamped: y outside 0…1 gives
    /// latitudes beyond ±85.05°, up to ±90°).
    static func latitude(mercatorY y: Double) -> Double {
        atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
    }

    static func clampLatitude(_ lat: Double) -> Double {
        min(max(lat, -maxLatitude), maxLatitude)
    }

    /// True when every stored value is usable for projection.
    var isFinite: Bool {
        center.lat.isFinite && center.lon.isFinite && zoom.isFinite && bearing.isFinite
            && pitch.isFinite && size.width.isFinite && size.height.isFinite
            && size.width > 0 && size.height > 0
            && padding.top.isFinite && padding.left.isFinite && padding.bottom.isFinite
            && padding.right.isFinite
    }
}
