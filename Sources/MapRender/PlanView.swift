import Foundation
import GeoKit
import MapCamera
import MapScene

/// What the planner needs to know about the view: zoom bucket, tolerance, visible area.
struct PlanView {
    /// The camera's centre in map units.
    let center: MapPoint
    /// World size in logical pixels at the camera's zoom.
    let worldSize: Double
    /// `floor(2 · zoom)`: meshes are shared within half a zoom level.
    let bucket: Int
    /// World size at the bottom of the bucket: lines are simplified to 0.5 px there, so the
    /// error is 0.5 px at the bucket's lowest zoom and at most 0.71 px at its top.
    let bucketWorldSize: Double
    /// Simplification tolerance in map units.
    let tolerance: Double
    /// The zoom, clamped as the buckets are.
    let zoom: Double
    /// Depths along the view's axis (pitched views only; nil straight down).
    let depths: Camera.Projector?
    /// Radius around `center` (map units) that holds the whole viewport; nil when the view
    /// reaches the horizon (no culling then).
    let viewRadius: Double?
    /// Output pixels per logical pixel.
    let pixelRatio: Double
    /// Metres → logical pixels at the centre latitude.
    let pixelsPerMeter: Double

    /// The camera.
    let camera: Camera
    /// The copies of the world the view shows: an overlay is planned once per copy it may show
    /// in, with the view shifted by whole worlds the other way, and its commands moved by those
    /// worlds (`origin.x + k`); meshes are shared between copies.
    let worldCopies: WorldCopies

    init(camera: Camera) {
        self.camera = camera
        let zoom = camera.zoom.isFinite ? min(max(camera.zoom, -2), 26) : 0
        center = MapPoint(camera.center)
        worldSize = 512 * pow(2, zoom)
        self.zoom = zoom
        bucket = Int((zoom * 2).rounded(.down))
        depths = camera.pitch > 0 && camera.pitch.isFinite ? camera.projector : nil
        detail = Detail(bucket: bucket)
        bucketWorldSize = detail.worldSize
        tolerance = detail.tolerance
        pixelRatio = camera.pixelRatio
        pixelsPerMeter = MapPoint.unitsPerMeter(atLatitude: camera.center.lat) * worldSize
        var radius = 0.0
        var reachesHorizon = false
        let w = camera.size.width, h = camera.size.height
        for (x, y) in [(0.0, 0.0), (w, 0), (0, h), (w, h), (w / 2, 0), (w / 2, h), (0, h / 2), (w, h / 2)] {
            // x continuous across the antimeridian (a wrapped longitude would put a corner of a
            // view across it, or wider than the world, on the wrong side of the centre).
            guard let m = camera.unprojectToMapPoint(ScreenPoint(x: x, y: y)) else { reachesHorizon = true; break }
            radius = max(radius, ((m.x - center.x) * (m.x - center.x) + (m.y - center.y) * (m.y - center.y)).squareRoot())
        }
        viewRadius = reachesHorizon || !radius.isFinite ? nil : radius
        // The ground the view shows is a quadrilateral on the map (`Camera.visibleGroundQuad`:
        // the view's corners straight down or pitched; where the far plane cuts the ground below
        // the top edge, as at the horizon, its top side is that line): its bounding box holds
        // it, tighter than the radius's square (which reaches as far behind the bottom edge as
        // the top corners lie ahead, and is not there at all for a view reaching the horizon).
        // Strokes reach past it by their widths on screen, which cover the most ground along
        // the top side: across it (left and right), and down from it where it is the view's top
        // edge. A far-plane line needs no margin beyond it: what lies past it is clipped.
        let quad = camera.visibleGroundQuad
        var perPixel = 1 / worldSize
        if camera.pitch > 0, quad.count == 4 {
            perPixel = max(perPixel, hypot(quad[1].x - quad[0].x, quad[1].y - quad[0].y) / max(w, 1))
            if camera.topGroundY <= 0 {
                if let c = camera.unprojectToMapPoint(ScreenPoint(x: w / 2, y: 0)),
                   let d = camera.unprojectToMapPoint(ScreenPoint(x: w / 2, y: 1)) {
                    perPixel = max(perPixel, hypot(d.x - c.x, d.y - c.y))
                } else {
                    perPixel = .infinity
                }
            }
        }
        unitsPerPixelAtTop = perPixel
        groundBox = quad.count == 4 && perPixel.isFinite && quad.allSatisfy({ $0.x.isFinite && $0.y.isFinite })
            ? MapRect(bounding: quad) : nil
        worldCopies = WorldCopies(camera: camera)
        (viewCell, viewCellSize) = Self.cell(center: center, viewRadius: viewRadius, worldSize: worldSize)
    }

    /// How finely geometry is meshed: a zoom bucket (meshes are cached by it), the world size at
    /// its bottom and the simplification tolerance there (0.5 px, in map units).
    struct Detail: Equatable {
        let bucket: Int
        let worldSize: Double
        let tolerance: Double

        init(bucket: Int) {
            self.bucket = bucket
            worldSize = 512 * pow(2, Double(bucket) / 2)
            tolerance = 0.5 / worldSize
        }
    }

    /// The view's own detail (its zoom's bucket).
    let detail: Detail

    /// The detail for geometry lying wholly within `bounds`: the view's own, or in a pitched view
    /// where all of `bounds` lies farther from the eye than the centre (towards the horizon), the
    /// bucket of the zoom at which its nearest point shows (the zoom less `log2` of its depth
    /// ratio, `Camera.Projector.depthRatio`): there a pixel covers that much more ground, so a
    /// simplification of 0.5 px at that zoom is at most 0.5–0.71 px on screen at its nearest
    /// point and less beyond. Strokes keep their widths (in screen pixels) and joins; only the
    /// points kept change, as they would zooming out in a view straight down. The depth is
    /// linear over the ground, so its least over a box is at a corner.
    func detail(for bounds: MapRect) -> Detail {
        guard let depths else { return detail }
        let least = depths.leastDepthRatio(in: bounds)
        // (Not where any of it is as near as the centre, or for a non-finite box.)
        guard least.isFinite, least > 2.0.squareRoot() else { return detail }
        let coarser = Int((2 * (zoom - log2(least))).rounded(.down))
        return Detail(bucket: max(-4, min(bucket, coarser)))
    }

    /// A length in logical pixels at this view.
    func pixels(_ length: Length) -> Double {
        switch length {
        case .pixels(let v): return v.isFinite ? min(max(v, 0), 2000) : 0
        case .meters(let m): return m.isFinite ? min(max(m * pixelsPerMeter, 0), 20000) : 0
        }
    }

    /// A box on screen holding the part of `bounds` (on the ground) that the view shows, grown
    /// by `marginPx` logical pixels and cut to the viewport; nil when that part is not known
    /// (a corner at or behind the eye's plane, or values that are not finite).
    func screenBox(of bounds: MapRect, marginPx: Double) -> ScreenBox? {
        var b = bounds
        if let g = groundBox {
            guard let shown = b.intersection(g) else { return ScreenBox(minX: 0, minY: 0, maxX: 0, maxY: 0) }
            b = shown
        }
        let p = camera.projector
        var box: ScreenBox?
        for c in [MapPoint(x: b.minX, y: b.minY), MapPoint(x: b.maxX, y: b.minY),
                  MapPoint(x: b.minX, y: b.maxY), MapPoint(x: b.maxX, y: b.maxY)] {
            // (A corner near the eye's plane projects far off and without meaning.)
            guard p.depthRatio(c) > 1e-3, let s = p.project(c), s.x.isFinite, s.y.isFinite else { return nil }
            let one = ScreenBox(minX: s.x, minY: s.y, maxX: s.x, maxY: s.y)
            box = box?.union(one) ?? one
        }
        guard let box, marginPx.isFinite else { return nil }
        let w = camera.size.width, h = camera.size.height
        return ScreenBox(minX: min(max(box.minX - marginPx, 0), w), minY: min(max(box.minY - marginPx, 0), h),
                         maxX: min(max(box.maxX + marginPx, 0), w), maxY: min(max(box.maxY + marginPx, 0), h))
    }

    /// False when `bounds` grown by `marginPx` logical pixels is certainly off screen.
    func mayBeVisible(_ bounds: MapRect, marginPx: Double) -> Bool {
        guard let r = viewRadius else { return true }
        let m = r + marginPx / worldSize
        return bounds.maxX >= center.x - m && bounds.minX <= center.x + m
            && bounds.maxY >= center.y - m && bounds.minY <= center.y + m
    }

    /// The bounding box of the ground the view shows (map units, up to the far plane), nil for
    /// a camera that is not finite.
    let groundBox: MapRect?
    /// The most map units a pixel of the view covers: 1 / `worldSize` straight down, more along
    /// the top edge of a pitched view.
    let unitsPerPixelAtTop: Double

    /// The index ranges of `mesh` to draw for this view: the bins whose bounds meet the ground's
    /// bounding box grown by `marginPx` logical pixels (how far strokes and fringes reach) at
    /// the scale of the view's top side. Nil for all of them (a mesh without bins, or one whose
    /// bins all reach the view), empty for none. Adjacent bins merge into one range.
    func visibleRanges(_ mesh: Mesh, marginPx: Double) -> [Range<Int>]? {
        guard !mesh.bins.isEmpty, let box = groundBox else { return nil }
        let reach = box.insetBy(-marginPx * unitsPerPixelAtTop)
        var ranges: [Range<Int>] = []
        var start = 0, all = true
        for bin in mesh.bins {
            defer { start = bin.indexEnd }
            guard bin.indexEnd > start else { continue }
            guard bin.bounds.intersects(reach) else { all = false; continue }
            if let last = ranges.last, last.upperBound == start {
                ranges[ranges.count - 1] = last.lowerBound ..< bin.indexEnd
            } else {
                ranges.append(start ..< bin.indexEnd)
            }
        }
        return all ? nil : ranges
    }

    /// The clip cell for geometry much larger than the view, or nil to keep it whole.
    /// Cells are squares of a power-of-two size ≥ the view radius (plus a 64 px margin); the
    /// clip rectangle is the cell grown by one cell size on every side, so every camera whose
    /// centre lies in the cell sees only clipped-in geometry, and the clipped mesh is cached per cell.
    func clipCell(for bounds: MapRect) -> ClipCell? {
        guard let viewCell, max(bounds.width, bounds.height) > 4 * viewCellSize else { return nil }
        return viewCell
    }

    /// The view's clip cell and its size (see `clipCell(for:)`), made once per view.
    private let viewCell: ClipCell?
    private let viewCellSize: Double
    /// The size of the view's clip cell in map units (infinite without a view radius).
    var cellSize: Double { viewCellSize }

    private static func cell(center: MapPoint, viewRadius: Double?, worldSize: Double) -> (ClipCell?, Double) {
        guard let r = viewRadius else { return (nil, .infinity) }
        let need = r + 64 / worldSize
        let exp = Int(log2(need).rounded(.up))
        let size = pow(2, Double(exp))
        let cx = Int((center.x / size).rounded(.down)), cy = Int((center.y / size).rounded(.down))
        let rect = MapRect(origin: MapPoint(x: Double(cx - 1) * size, y: Double(cy - 1) * size),
                           width: 3 * size, height: 3 * size)
        return (ClipCell(key: ClipCell.Key(exp: exp, x: cx, y: cy), rect: rect), size)
    }
}

/// A cache cell for clipped geometry.
struct ClipCell {
    struct Key: Hashable {
        var exp: Int
        var x: Int
        var y: Int
    }
    let key: Key
    let rect: MapRect
}
