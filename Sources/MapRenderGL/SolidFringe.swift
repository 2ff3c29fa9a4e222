import MapRender

/// The antialiasing fringes of a lit solid (`VertexLayout.solid`): one quad per boundary edge of
/// each face, for `Shaders.solidFringeVertex`.
///
/// A face's boundary edges are the triangle edges no other triangle of the mesh shares: solids
/// give every face its own vertices (walls, roofs, floors; a smooth column's sides too), so an
/// edge between two faces belongs to each face once, and the diagonals inside a face are shared.
/// Each edge keeps the direction its triangle winds it and that triangle's third vertex, which
/// tell the shader which way the face looks and on which side of the edge it lies.
///
/// Vertex layout, `stride` floats: the vertex's end of the edge (`x, y` map units from the
/// mesh's origin, `z` metres), the other end, the third vertex, the normal at this end,
/// whether this is the edge's second end and whether the vertex is on the outer side (0 or 1),
/// then the third vertex of the neighbouring face's triangle on this edge and 1, or four zeros
/// where no face of the mesh shares the edge (a wall's foot, a floating floor's rim).
struct SolidFringe {
    static let stride = 18
    /// Meshes of more triangles keep aliased edges: a fringe is four vertices of 18 floats per
    /// edge, and a pathological polygon (a self-crossing ring of 100,000 points) would need half
    /// a million thin quads, which doubled its render's time and memory. 50,000 triangles is
    /// some 5,000 block-shaped buildings in one batch (a batch cell is about 10 km across).
    static let maxTriangles = 50_000
    var vertices: [Float] = []
    var indices: [UInt32] = []

    init(_ mesh: Mesh) {
        guard mesh.layout == .solid, mesh.triangleCount <= Self.maxTriangles else { return }
        let v = mesh.vertices, idx = mesh.indices
        let s = mesh.layout.stride
        // How many triangles use each undirected edge; boundary edges are used once.
        var uses: [UInt64: Int] = [:]
        uses.reserveCapacity(idx.count)
        func key(_ a: UInt32, _ b: UInt32) -> UInt64 { UInt64(min(a, b)) << 32 | UInt64(max(a, b)) }
        for t in Swift.stride(from: 0, to: idx.count - 2, by: 3) {
            for k in 0 ..< 3 { uses[key(idx[t + k], idx[t + (k + 1) % 3]), default: 0] += 1 }
        }
        func point(_ i: UInt32) -> ArraySlice<Float> { v[Int(i) * s ..< Int(i) * s + 3] }
        func position(_ i: UInt32) -> SIMD3<Float> { SIMD3(v[Int(i) * s], v[Int(i) * s + 1], v[Int(i) * s + 2]) }
        func normal(_ i: UInt32) -> ArraySlice<Float> { v[Int(i) * s + 3 ..< Int(i) * s + 6] }
        // Each boundary edge a→b as its triangle winds it, with the triangle's third vertex c.
        var edges: [(a: UInt32, b: UInt32, c: UInt32)] = []
        for t in Swift.stride(from: 0, to: idx.count - 2, by: 3) {
            for k in 0 ..< 3 {
                let a = idx[t + k], b = idx[t + (k + 1) % 3], c = idx[t + (k + 2) % 3]
                guard uses[key(a, b)] == 1, Int(max(a, b, c)) * s + s <= v.count else { continue }
                edges.append((a, b, c))
            }
        }
        // The face on the other side of each boundary edge: the boundary edge of another face
        // between the same two points (solids repeat a point's position in every face it
        // bounds), found by the points' exact coordinates; it runs the edge the other way round,
        // and its triangle's third vertex tells the shader whether that face looks at the eye
        // (a crease) or away (a silhouette).
        struct Ends: Hashable { var a: SIMD3<Float>; var b: SIMD3<Float> }
        var thirdAcross: [Ends: UInt32] = [:]
        thirdAcross.reserveCapacity(edges.count)
        for e in edges { thirdAcross[Ends(a: position(e.a), b: position(e.b))] = e.c }
        vertices.reserveCapacity(edges.count * 4 * Self.stride)
        indices.reserveCapacity(edges.count * 6)
        for (a, b, c) in edges {
            let partner = thirdAcross[Ends(a: position(b), b: position(a))]
            let first = UInt32(vertices.count / Self.stride)
            // Inner a, inner b, outer b, outer a.
            for (end, outer) in [(0, 0), (1, 0), (1, 1), (0, 1)] {
                let here = end == 0 ? a : b, there = end == 0 ? b : a
                vertices += point(here)
                vertices += point(there)
                vertices += point(c)
                vertices += normal(here)
                vertices += [Float(end), Float(outer)]
                if let partner { vertices += point(partner); vertices.append(1) } else { vertices += [0, 0, 0, 0] }
            }
            indices += [first, first + 1, first + 2, first, first + 2, first + 3]
        }
    }
}
