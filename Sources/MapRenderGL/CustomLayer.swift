import CEGL
import GeoKit
import MapCamera

/// What a custom GL layer is told for one frame.
public struct GLLayerContext {
    /// The frame's camera.
    public let camera: Camera
    /// The frame's time in seconds (animations, the window's clock).
    public let time: Double

    /// The column-major view-projection matrix (16 floats) for positions in world pixels
    /// relative to `origin` (x east, y south) and heights in metres (z up): see
    /// `Camera.viewProjectionMatrix(relativeTo:)`. Choose an origin near what you draw so
    /// Float32 keeps its precision at high zoom.
    public func matrix(relativeTo origin: MapPoint) -> [Float] {
        camera.viewProjectionMatrix(relativeTo: origin).map { Float($0) }
    }

    /// World pixels per metre at a latitude (horizontal sizes; heights are metres already).
    public func pixelsPerMeter(atLatitude lat: Double) -> Double {
        camera.worldSize * MapPoint.unitsPerMeter(atLatitude: lat)
    }
}

/// App code that draws its own geometry with OpenGL ES 3 into the map's 3D space — MapLibre's
/// custom layer interface. Both methods run on the renderer's GL thread with its context
/// current. `render` is called after the opaque columns and extrusions are drawn, with the depth
/// test on (GL_LESS, depth writes on) against them, and premultiplied-alpha blending
/// (GL_ONE, GL_ONE_MINUS_SRC_ALPHA); the renderer restores its own state afterwards.
public protocol GLCustomLayer: AnyObject, Sendable {
    /// Compiles programs and makes buffers; called once per renderer before the first render.
    func prepare() throws
    /// Draws one frame.
    func render(_ context: GLLayerContext)
}
