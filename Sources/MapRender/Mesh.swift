import GeoKit

/// The vertex layout of a mesh.
public enum VertexLayout: Sendable, Equatable {
    /// Ground geometry, 6 floats per vertex: `x, y` in map units (world widths) relative to the
    /// draw command's origin, `ex, ey` an extrusion in logical pixels along the map's axes
    /// (multiplied by the command's `extrudeScale`: half the line width for strokes),
    /// `distance` along the line in map units (for dashes), and `c`, the coordinate the shader
    /// antialiases with (see `Coverage`): for strokes the signed distance across the line in
    /// half widths (±1 on the edges, 0 on the centre, 1 at the rim of join and cap fans); for
    /// fills the coverage (1 inside, ½ on the edge, 0 on the outer rim of the edge fringe); for
    /// pixel discs and rings the outer radius in logical pixels (with the inner radius, or −1,
    /// in `distance`).
    case ground
    /// Upright screen geometry, 6 floats per vertex: `x, y` in map units relative to the
    /// origin (the anchor), `ox, oy` an offset in logical screen pixels (x right, y down,
    /// not rotated with the map), `u, v` texture coordinates.
    case screen
    /// Lit 3D solids (columns, extrusions), 6 floats per vertex: `x, y` in map units relative to
    /// the origin, `z` height in metres, `nx, ny, nz` the unit normal (x east, y south, z up).
    case solid
    /// Round columns drawn as impostors, 6 floats per vertex, four vertices per column: `x, y`
    /// the axis in map units relative to the origin, the radius in map units, the bottom and top
    /// heights in metres, and the corner (0…3). The shader lays a screen quad around the column's
    /// silhouette and finds the cylinder by casting each fragment's ray, so the column is exactly
    /// round, lit per fragment, antialiased on its outline and writes its true depth.
    case cylinder
    /// Screen-width ribbons in 3D (arcs), 14 floats per vertex: `x, y, z` (map units from the
    /// origin, metres), the previous and next points along the ribbon in the same form, the side
    /// (−1 or +1), and a premultiplied RGBA colour (the command colour tints it).
    case ribbon
    /// Textured ground quads (raster tiles, image overlays), 4 floats per vertex: `x, y` in map
    /// units relative to the origin, `u, v` texture coordinates (0,0 the image's top-left).
    case raster
    /// Small convex fills antialiased without a fringe (`RenderPlanner.convexFillMesh`), 9
    /// floats per vertex, a fan of 3 or 4 vertices per polygon: every vertex carries its
    /// polygon's four corners, `x, y` in map units relative to the origin, in the same order
    /// round the polygon (a triangle's fourth is its first again), then its own corner's index.
    /// The backend projects them, moves the vertex half a device pixel out along its miter on
    /// screen and hands each fragment its distances to the edges' lines on screen, from which it
    /// computes the coverage: the polygon costs its own triangles and no fringe.
    case convexFill
    /// Polygons of any shape antialiased without a fringe (`RenderPlanner.wedgeFillMesh`), 20
    /// floats per vertex, three vertices of their own per triangle of the polygon's
    /// triangulation: the triangle's corners `c0, c1, c2` (`x, y` in map units relative to the
    /// origin, counter-clockwise as the map's x and y go: positive area), this vertex's index
    /// (0…2), flags (bit i: corner i is reflex; bit 3 + i: the edge from corner i to the next is
    /// the polygon's own), then for each corner the polygon's vertices before and after it, so
    /// that the inside is on the left. The backend moves the vertex half a device pixel out
    /// across the triangle's own edges and computes each pixel's coverage from the corners'
    /// edges (see `WedgeFills.swift`).
    case wedgeFill

    /// Floats per vertex.
    public var stride: Int {
        switch self {
        case .ground: 6
        case .screen: 6
        case .solid: 6
        case .cylinder: 6
        case .ribbon: 14
        case .raster: 4
        case .convexFill: 9
        case .wedgeFill: 20
        }
    }
}

/// Tessellated triangles, backend-neutral. A class: backends keep GPU buffers per mesh
/// identity, and the planner's cache hands the same mesh back while its inputs are unchanged.
public final class Mesh: Sendable {
    /// How `vertices` is laid out.
    public let layout: VertexLayout
    /// Interleaved vertex data (see `VertexLayout`).
    public let vertices: [Float]
    /// Triangle list, three indices per triangle.
    public let indices: [UInt32]
    /// For fills: where the triangles of the antialiasing fringe start in `indices` (the ones
    /// before are the interior, drawn without blending when the colour is opaque).
    public let fringeStart: Int?
    /// For the large meshes of sets (a vector tile's buildings or streets of one kind): the
    /// triangles grouped by where their parts lie, in order, so that a frame draws only the
    /// groups that reach the view (see `SetBins`). Empty: one group.
    public let bins: [MeshBin]

    /// Creates a mesh.
    public init(layout: VertexLayout, vertices: [Float], indices: [UInt32], fringeStart: Int? = nil, bins: [MeshBin] = []) {
        self.layout = layout; self.vertices = vertices; self.indices = indices; self.fringeStart = fringeStart
        self.bins = bins
    }

    /// Number of vertices.
    public var vertexCount: Int { vertices.count / layout.stride }
    /// Number of triangles.
    public var triangleCount: Int { indices.count / 3 }

    /// True when every vertex of a screen or ground mesh has its position (the first two floats)
    /// at 0: a shape in pixels round one anchor, which backends draw upright (stops at the first
    /// vertex that is not). False for other layouts.
    public var isAnchored: Bool {
        guard layout == .screen || layout == .ground else { return false }
        let s = layout.stride, v = vertices
        var i = 0
        while i + 1 < v.count {
            if v[i] != 0 || v[i + 1] != 0 { return false }
            i += s
        }
        return true
    }
}

/// Accumulates ground vertices (see `VertexLayout.ground`).
struct GroundMeshBuilder {
    var vertices: [Float] = []
    var indices: [UInt32] = []
    let origin: MapPoint

    init(origin: MapPoint) { self.origin = origin }

    var count: UInt32 { UInt32(vertices.count / 6) }

    /// Adds a vertex at map point `p` with a pixel extrusion, distance along and antialiasing
    /// coordinate (see `VertexLayout.ground`); returns its index.
    @inline(__always) mutating func add(_ px: Double, _ py: Double, _ ex: Double, _ ey: Double, _ d: Double,
                                        _ c: Double) -> UInt32 {
        let i = count
        vertices.append(Float(px - origin.x)); vertices.append(Float(py - origin.y))
        vertices.append(Float(ex)); vertices.append(Float(ey)); vertices.append(Float(d)); vertices.append(Float(c))
        return i
    }

    @inline(__always) mutating func triangle(_ a: UInt32, _ b: UInt32, _ c: UInt32) {
        indices.append(a); indices.append(b); indices.append(c)
    }

    var fringeStart: Int?

    func build(bins: [MeshBin] = []) -> Mesh {
        Mesh(layout: .ground, vertices: vertices, indices: indices, fringeStart: fringeStart, bins: bins)
    }
}
