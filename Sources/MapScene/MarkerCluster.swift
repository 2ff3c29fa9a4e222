import Foundation
import GeoKit

/// Many markers drawn as clusters where they crowd each other: at each whole zoom, markers
/// closer than `radius` pixels merge into one disc showing how many it holds (MapLibre's
/// clustered GeoJSON source, MapKit's cluster annotations, Leaflet.markercluster). Past
/// `maxZoom` every marker is drawn as itself.
///
/// The hierarchy is the greedy one of Agafonkin's supercluster (the algorithm behind MapLibre's
/// clustering): from `maxZoom` down to 0, each point or cluster of the zoom above, in order,
/// takes every one not yet taken within `radius` of it (measured at that zoom, 512-px world
/// tiles) into a cluster at their count-weighted centroid in Web Mercator. It is built once,
/// in `init`; `level(atZoom:)` hands out a zoom's clusters.
public struct MarkerCluster: Sendable {
    /// One thing drawn at a zoom: a marker of its own, or a cluster of several.
    public struct Node: Sendable, Equatable {
        /// Where it is drawn (a cluster: the weighted centroid of its markers), normalised Web Mercator.
        public var point: MapPoint
        /// How many markers it stands for (1: a marker of its own).
        public var count: Int
        /// For a single marker, its index in `markers`.
        public var marker: Int?
        /// For a cluster, the zoom at which it first splits (MapLibre's cluster expansion zoom).
        public var expansionZoom: Int?
    }

    /// The markers, as given.
    public let markers: [Marker]
    /// The distance in logical pixels within which markers merge (MapLibre's `clusterRadius`, 50).
    public let radius: Double
    /// The last zoom with clusters; from `maxZoom + 1` on every marker is drawn as itself.
    public let maxZoom: Int
    /// Colour of the cluster discs.
    public var color: Color
    /// Drawing order; nil takes the default for markers.
    public var zIndex: Int?
    /// Levels 0…maxZoom.
    private let levels: [[Node]]
    /// Every marker as itself (past `maxZoom`).
    private let individuals: [Node]

    /// The most markers one cluster overlay takes.
    public static let maxMarkers = 1_000_000
    /// The largest `maxZoom`.
    public static let maxZoomLimit = 24

    /// Clusters `markers`. Throws `SceneError` for a radius outside (0, 512] px, a `maxZoom`
    /// outside 0…24 or more than `maxMarkers` markers.
    public init(markers: [Marker], radius: Double = 50, maxZoom: Int = 16, color: Color = Color(rgb: 0x1F6FEB),
                zIndex: Int? = nil) throws(SceneError) {
        guard radius.isFinite, radius > 0, radius <= 512 else {
            throw SceneError(parameter: "radius", reason: "\(radius) is not in (0, 512] px")
        }
        guard (0 ... Self.maxZoomLimit).contains(maxZoom) else {
            throw SceneError(parameter: "maxZoom", reason: "\(maxZoom) is not in 0…\(Self.maxZoomLimit)")
        }
        guard markers.count <= Self.maxMarkers else {
            throw SceneError(parameter: "markers", reason: "\(markers.count) markers is over the limit of \(Self.maxMarkers)")
        }
        self.markers = markers
        self.radius = radius
        self.maxZoom = maxZoom
        self.color = color
        self.zIndex = zIndex
        individuals = markers.enumerated().map { Node(point: Self.clamped(MapPoint($1.position)), count: 1, marker: $0) }
        var above = individuals
        var levels = [[Node]](repeating: [], count: maxZoom + 1)
        for z in stride(from: maxZoom, through: 0, by: -1) {
            above = Self.cluster(above, radius: radius / (512 * pow(2, Double(z))), zoom: z)
            levels[z] = above
        }
        self.levels = levels
    }

    /// What is drawn at `zoom` (its whole part): clusters and single markers, or past `maxZoom`
    /// every marker as itself.
    public func level(atZoom zoom: Double) -> [Node] {
        let z = zoom.isFinite ? Int(max(0, zoom).rounded(.down)) : 0
        return z > maxZoom ? individuals : levels[z]
    }

    /// The diameter of a cluster's disc in logical pixels, white ring included: 28 px up to 9
    /// markers, 34 up to 99, 40 up to 999, 46 from 1000 (MapLibre's cluster example steps its
    /// circles by count the same way).
    public static func discDiameter(count: Int) -> Double {
        count < 10 ? 28 : count < 100 ? 34 : count < 1000 ? 40 : 46
    }

    /// The width of the white ring round a cluster's disc, logical pixels.
    public static let ringWidth = 2.0

    /// The count as MapLibre's `point_count_abbreviated` writes it: 999, 1k, 1.2k, 12k.
    public static func abbreviated(_ count: Int) -> String {
        if count >= 10_000 { return "\(Int((Double(count) / 1000).rounded()))k" }
        if count >= 1000 {
            let tenths = Int((Double(count) / 100).rounded())
            return tenths % 10 == 0 ? "\(tenths / 10)k" : "\(tenths / 10).\(tenths % 10)k"
        }
        return "\(count)"
    }

    /// supercluster keeps y inside the world (latitudes past ±85.05° on its edge).
    private static func clamped(_ p: MapPoint) -> MapPoint { MapPoint(x: p.x, y: min(max(p.y, 0), 1)) }

    /// One zoom's clusters from the zoom above's nodes (`r`: the radius in world units).
    private static func cluster(_ nodes: [Node], radius r: Double, zoom: Int) -> [Node] {
        // A grid of r-sized cells: every node within r of a point lies in its 3×3 cells.
        var grid: [Int64: [Int]] = [:]
        func cell(_ v: Double) -> Int64 { Int64((v / r).rounded(.down)) }
        func key(_ cx: Int64, _ cy: Int64) -> Int64 { cx &* 0x1_0000_0001 &+ cy }
        for (i, n) in nodes.enumerated() { grid[key(cell(n.point.x), cell(n.point.y)), default: []].append(i) }
        var taken = [Bool](repeating: false, count: nodes.count)
        var out: [Node] = []
        out.reserveCapacity(nodes.count)
        let r2 = r * r
        var near: [Int] = []
        for (i, p) in nodes.enumerated() where !taken[i] {
            taken[i] = true
            near.removeAll(keepingCapacity: true)
            let cx = cell(p.point.x), cy = cell(p.point.y)
            for dx in -1 ... 1 as ClosedRange<Int64> {
                for dy in -1 ... 1 as ClosedRange<Int64> {
                    for j in grid[key(cx + dx, cy + dy)] ?? [] where !taken[j] {
                        let ddx = nodes[j].point.x - p.point.x, ddy = nodes[j].point.y - p.point.y
                        if ddx * ddx + ddy * ddy <= r2 { near.append(j) }
                    }
                }
            }
            guard !near.isEmpty else {
                out.append(p)
                continue
            }
            var wx = p.point.x * Double(p.count), wy = p.point.y * Double(p.count), count = p.count
            for j in near {
                taken[j] = true
                let n = nodes[j]
                wx += n.point.x * Double(n.count)
                wy += n.point.y * Double(n.count)
                count += n.count
            }
            out.append(Node(point: MapPoint(x: wx / Double(count), y: wy / Double(count)), count: count,
                            marker: nil, expansionZoom: zoom + 1))
        }
        return out
    }
}
