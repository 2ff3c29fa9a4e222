import GeoKit
import MapCamera
import MapScene

/// The ground of a view (basemap shapes and tile layers, no labels or overlays) drawn once with
/// a margin around it (`MapSnapshotter.pictureGround`), to be drawn again as an image on the
/// ground in later frames (`Snapshot.groundStandIn`). The picture is an image between the ground
/// positions of its camera's corners, so it stays glued to the map under any later pan, zoom,
/// rotation or pitch; what it cannot give is what it did not see (ground beyond its edges) and
/// detail finer than its pixels (zoomed in past its zoom).
public struct GroundPicture: Sendable {
    /// The pixels (premultiplied RGBA, the camera's pixel ratio).
    public let image: SpriteImage
    /// The ground under the picture's top-left, top-right, bottom-right and bottom-left corners.
    public let corners: [MapPoint]
    /// The camera the picture was drawn with (the view's, grown by the margin).
    public let camera: Camera
    /// What drawing it took, ms.
    public let milliseconds: Double
    /// Whether every tile it covers was loaded and every set drawn with its own mesh (false: it
    /// shows stand-ins, or nothing, where those were missing, as a frame drawn then would).
    public let complete: Bool

    public init(image: SpriteImage, corners: [MapPoint], camera: Camera, milliseconds: Double, complete: Bool = true) {
        self.image = image; self.corners = corners; self.camera = camera; self.milliseconds = milliseconds
        self.complete = complete
    }

    /// The picture as an image on the ground (in this copy of the world only).
    public var groundImage: GroundImage {
        var g = GroundImage(corners: corners, image: image)
        g.worldCopies = false
        return g
    }

    /// The share of `camera`'s view (0…1) whose ground the picture holds: the view's points on a
    /// 9 × 7 lattice from corner to corner that land on the ground inside the picture.
    public func coverage(of camera: Camera) -> Double {
        guard corners.count == 4 else { return 0 }
        let w = camera.size.width, h = camera.size.height
        var inside = 0, all = 0
        for j in 0 ... 6 {
            for i in 0 ... 8 {
                all += 1
                guard let p = camera.unprojectToMapPoint(ScreenPoint(x: w * Double(i) / 8, y: h * Double(j) / 6)) else { continue }
                if Self.contains(corners, p) { inside += 1 }
            }
        }
        return Double(inside) / Double(all)
    }

    /// Whether the picture may stand in for the ground of `camera`'s view: it holds at least
    /// `coverage` of it, and the view's zoom is within one of the picture's (twice or half its
    /// pixels' size at most).
    public func canStandIn(for camera: Camera, coverage minimum: Double = 0.9) -> Bool {
        guard abs(camera.zoom - self.camera.zoom) <= 1, camera.pixelRatio == self.camera.pixelRatio else { return false }
        return coverage(of: camera) >= minimum
    }

    /// Whether `p` lies in the convex quadrilateral `q` (either winding; edges included).
    static func contains(_ q: [MapPoint], _ p: MapPoint) -> Bool {
        var sign = 0.0
        for k in 0 ..< 4 {
            let a = q[k], b = q[(k + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
        }
        return true
    }
}
