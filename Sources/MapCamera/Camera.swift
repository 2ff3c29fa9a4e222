import Foundation
import GeoKit

// CONTRACT STUB — the camera issue (3) replaces the bodies; keep the public signatures,
// other modules (MapRender, MapRenderGL, the CLI) code against them.

/// A point on the screen in logical pixels: origin top-left, y down.
public struct ScreenPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A viewport size in logical pixels.
public struct ScreenSize: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}

/// Insets from the viewport edges in logical pixels.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    /// The same inset on every side.
    public init(all v: Double) { self.init(top: v, left: v, bottom: v, right: v) }
    public static let zero = EdgeInsets()
}

/// The map's view of the world, with MapLibre GL's transform conventions.
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

    /// Creates a camera.
    public init(center: LatLng, zoom: Double, bearing: Double = 0, pitch: Double = 0,
                size: ScreenSize, padding: EdgeInsets = .zero, pixelRatio: Double = 1) {
        self.center = center; self.zoom = zoom; self.bearing = bearing; self.pitch = pitch
        self.size = size; self.padding = padding; self.pixelRatio = pixelRatio
    }

    /// World width in logical pixels at this zoom: `512 · 2^zoom`.
    public var worldSize: Double { 512 * pow(2, zoom) }

    /// Projects a geographic point with a height in metres to the screen; nil when it
    /// lies behind the camera.
    public func project(_ p: LatLng, height: Double = 0) -> ScreenPoint? {
        fatalError("Camera.project: not yet implemented")
    }

    /// The ground point under a screen point; nil above the horizon.
    public func unproject(_ s: ScreenPoint) -> LatLng? {
        fatalError("Camera.unproject: not yet implemented")
    }

    /// Column-major 4×4 view-projection matrix (16 values) taking
    /// `((x - origin.x) · worldSize, (y - origin.y) · worldSize, height in metres)` —
    /// world pixels relative to `origin` (a `MapPoint`), so Float32 keeps precision at
    /// high zoom — to GL clip space (clip y up, screen y down handled inside).
    /// Heights use the pixels-per-metre at the camera's centre latitude, as MapLibre does.
    public func viewProjectionMatrix(relativeTo origin: MapPoint) -> [Double] {
        fatalError("Camera.viewProjectionMatrix: not yet implemented")
    }
}
