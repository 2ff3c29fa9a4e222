import GeoKit
import MapCamera
import MapScene

/// The markers (and cluster discs) a plan drew and the markers' labels, and which of those
/// labels are placed: in drawing order, a label is placed where its box overlaps no label placed
/// before it and no marker or disc but its own marker (greedy placement, as MapLibre's
/// collision index places symbols in order).
struct MarkerLabels {
    struct Pending {
        /// The label on the marker's right; `left` is the same label on its left.
        var label: Label
        var left: Label
        /// The world copy the marker was planned in.
        var copy: Int
        /// Its marker's index in `obstacles`.
        var marker: Int
        /// Its marker's opacity (0 < opacity ≤ 1), which the label is drawn with.
        var opacity: Double
    }

    /// What labels keep off: a point in world copy `copy` and the box about it (logical px).
    private(set) var obstacles: [(point: MapPoint, copy: Int, box: Box)] = []
    private(set) var labels: [Pending] = []

    /// A marker, in world copy `k`; an invisible one (opacity 0) keeps no label out and has none.
    mutating func add(_ marker: Marker, copy k: Int) {
        add(marker, at: MapPoint(marker.position), copy: k)
    }

    /// As `add(_:copy:)`, with the marker's position as a map point (`MapPoint(marker.position)`).
    mutating func add(_ marker: Marker, at point: MapPoint, copy k: Int) {
        let opacity = marker.opacity.isFinite ? min(max(marker.opacity, 0), 1) : 1
        guard opacity > 0 else { return }
        let b = marker.box
        obstacles.append((point, k, Box(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY)))
        if let label = marker.rightLabel {
            var left = label
            left.anchor = (1, 0.5)
            left.offset = marker.leftLabelOffset
            labels.append(Pending(label: label, left: left, copy: k, marker: obstacles.count - 1, opacity: opacity))
        }
    }

    /// A cluster's disc of `radius` logical px at `point`, in world copy `k`.
    mutating func addDisc(at point: MapPoint, radius: Double, copy k: Int) {
        obstacles.append((point, k, Box(minX: -radius, minY: -radius, maxX: radius, maxY: radius)))
    }

    /// The labels to draw (each on its marker's right, or on its left where the right is
    /// taken, as MapLibre's `text-variable-anchor` tries anchors in turn), with their images, in
    /// order, and their markers' opacities.
    func placed(camera: Camera, rasterizer: any LabelRasterizer) -> [(Label, copy: Int, SpriteImage, opacity: Double)] {
        var out: [(Label, copy: Int, SpriteImage, opacity: Double)] = []
        place(camera: camera, size: { rasterizer.labelSize($0, pixelRatio: camera.pixelRatio) }) { label, k, opacity, _ in
            guard let image = rasterizer.rasterize(label, pixelRatio: camera.pixelRatio) else { return false }
            out.append((label, k, image, opacity))
            return true
        }
        return out
    }

    /// The placement: in order, each label's first side (right, then left) whose box (from
    /// `size`, logical px) is partly in the view and overlaps no obstacle but its own marker and
    /// no label placed before it is offered to `accept` (with its world copy, its marker's
    /// opacity and its screen box);
    /// `accept` returns whether the label is drawn (and so in the way of later ones). A label
    /// with no size, or whose first free side is refused, is left out.
    func place(camera: Camera, size: (Label) -> (width: Double, height: Double)?,
               accept: (Label, Int, Double, Box) -> Bool) {
        let w = camera.size.width, h = camera.size.height
        let projector = camera.projector
        func screen(_ m: MapPoint, _ k: Int) -> ScreenPoint? {
            guard let s = projector.project(MapPoint(x: m.x + Double(k), y: m.y)), s.x.isFinite, s.y.isFinite else { return nil }
            return s
        }
        var grid = BoxGrid()
        for (i, (p, k, b)) in obstacles.enumerated() {
            guard let s = screen(p, k) else { continue }
            grid.insert(Box(minX: s.x + b.minX, minY: s.y + b.minY, maxX: s.x + b.maxX, maxY: s.y + b.maxY), owner: i)
        }
        for l in labels {
            guard let s = screen(MapPoint(l.label.position), l.copy) else { continue }
            // A label wholly off the view is neither drawn nor in the way; one partly in it is
            // placed like the rest (cut by the edge, as MapLibre draws symbols at the edges).
            let reach = 64 * 16.0
            guard s.x > -reach, s.y > -reach, s.x < w + reach, s.y < h + reach, let size = size(l.label) else { continue }
            for label in [l.label, l.left] {
                let b = label.box(atX: s.x, y: s.y, width: size.width, height: size.height)
                let box = Box(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY)
                guard box.maxX > 0, box.maxY > 0, box.minX < w, box.minY < h, !grid.hits(box, except: l.marker) else { continue }
                if accept(label, l.copy, l.opacity, box) { grid.insert(box, owner: -1) }
                break
            }
        }
    }

    /// The markers, discs and labels a plan of `scene` seen by `camera` adds, in the planner's
    /// order (drawing order, each overlay in the world copies it is drawn in).
    init(_ scene: Scene, camera: Camera) {
        let copies = PlanView(camera: camera).worldCopies
        scene.forEachInDrawingOrder { overlay in
            switch overlay {
            case .marker, .cluster: break
            default: return
            }
            let shifts = overlay.worldXExtent.map { copies.shifts(lo: $0.lo, hi: $0.hi) } ?? [0]
            for k in shifts {
                switch overlay {
                case .marker(let m): add(m, copy: k)
                case .cluster(let c):
                    for node in c.level(atZoom: camera.zoom) {
                        if let i = node.marker { add(c.markers[i], copy: k) }
                        else { addDisc(at: node.point, radius: MarkerCluster.discDiameter(count: node.count) / 2, copy: k) }
                    }
                default: break
                }
            }
        }
    }

    init() {}
}

/// Where the renderer puts markers' labels, for code that lays out a view around them (a fitted
/// camera keeping the labels inside its padding, basemap labels keeping clear of them). A plan
/// given the placement made for its scene and camera uses it instead of placing the labels again.
public struct MarkerLabelPlacement: Sendable {
    /// The camera it was made for.
    public let camera: Camera
    /// Made for a scene whose labels may overlap (every label on its marker's right).
    let mayOverlap: Bool
    /// The labels drawn, in order, with their world copies, their markers' opacities and their
    /// screen boxes (logical px).
    let placed: [(label: Label, copy: Int, opacity: Double, box: Box)]

    /// The marker labels of `scene` seen by `camera`, placed as the planner places them (unless
    /// `scene.labelsMayOverlap`: then every label, on its marker's right), sized by `measure`
    /// at the camera's pixel ratio. Labels wholly off the view are left out.
    public init(_ scene: Scene, camera: Camera, measure: any LabelRasterizer) {
        self.camera = camera
        mayOverlap = scene.labelsMayOverlap
        let labels = MarkerLabels(scene, camera: camera)
        var out: [(label: Label, copy: Int, opacity: Double, box: Box)] = []
        if labels.labels.isEmpty {
        } else if scene.labelsMayOverlap {
            let w = camera.size.width, h = camera.size.height
            let projector = camera.projector
            for l in labels.labels {
                let p = MapPoint(l.label.position)
                guard let s = projector.project(MapPoint(x: p.x + Double(l.copy), y: p.y)), s.x.isFinite, s.y.isFinite,
                      let size = measure.labelSize(l.label, pixelRatio: camera.pixelRatio) else { continue }
                let b = l.label.box(atX: s.x, y: s.y, width: size.width, height: size.height)
                if b.maxX > 0, b.maxY > 0, b.minX < w, b.minY < h {
                    out.append((l.label, l.copy, l.opacity, Box(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY)))
                }
            }
        } else {
            labels.place(camera: camera, size: { measure.labelSize($0, pixelRatio: camera.pixelRatio) }) { label, k, opacity, b in
                out.append((label, k, opacity, b))
                return true
            }
        }
        placed = out
    }

    /// The labels' screen boxes (logical px), in order.
    public var boxes: [(minX: Double, minY: Double, maxX: Double, maxY: Double)] {
        placed.map { ($0.box.minX, $0.box.minY, $0.box.maxX, $0.box.maxY) }
    }
}

/// A screen box in logical px.
struct Box {
    var minX, minY, maxX, maxY: Double

    func overlaps(_ o: Box) -> Bool { minX < o.maxX && o.minX < maxX && minY < o.maxY && o.minY < maxY }
}

/// Boxes in a grid of 64-px cells, for overlap queries.
struct BoxGrid {
    private var boxes: [(box: Box, owner: Int)] = []
    private var cells: [Int64: [Int32]] = [:]
    private static let cell = 64.0
    /// Cells a box may span on each axis (beyond it, the box is clipped to that many: a box
    /// that large is off the view's scale and collides through the cells it does cover).
    private static let maxSpan = 64

    private static func range(_ lo: Double, _ hi: Double) -> ClosedRange<Int>? {
        guard lo.isFinite, hi.isFinite, hi >= lo else { return nil }
        let a = Int(max(-1e6, min(1e6, (lo / cell).rounded(.down))))
        let b = Int(max(-1e6, min(1e6, (hi / cell).rounded(.down))))
        return a ... min(b, a + maxSpan)
    }

    private static func key(_ x: Int, _ y: Int) -> Int64 { Int64(x) << 32 | Int64(UInt32(bitPattern: Int32(y))) }

    mutating func insert(_ box: Box, owner: Int) {
        guard let xs = Self.range(box.minX, box.maxX), let ys = Self.range(box.minY, box.maxY) else { return }
        let i = Int32(boxes.count)
        boxes.append((box, owner))
        for x in xs { for y in ys { cells[Self.key(x, y), default: []].append(i) } }
    }

    /// Whether `box` overlaps a box whose owner is not `except`.
    func hits(_ box: Box, except: Int) -> Bool {
        guard let xs = Self.range(box.minX, box.maxX), let ys = Self.range(box.minY, box.maxY) else { return true }
        for x in xs {
            for y in ys {
                guard let list = cells[Self.key(x, y)] else { continue }
                for i in list {
                    let b = boxes[Int(i)]
                    if b.owner != except, b.box.overlaps(box) { return true }
                }
            }
        }
        return false
    }
}
