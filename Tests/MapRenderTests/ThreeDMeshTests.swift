import Foundation
import GeoKit
import MapCamera
@testable import MapRender
import MapScene
import Testing

/// Meshes of 3D overlays: geometry and normals checked against hand geometry.
@Suite struct ThreeDMeshTests {
    /// Vertices of a solid mesh as (x, y, z, nx, ny, nz).
    static func vertices(_ m: Mesh) -> [(x: Double, y: Double, z: Double, n: (Double, Double, Double))] {
        stride(from: 0, to: m.vertices.count, by: 6).map { i in
            let v = m.vertices
            return (
                Double(v[i]), Double(v[i + 1]), Double(v[i + 2]), (Double(v[i + 3]), Double(v[i + 4]), Double(v[i + 5]))
            )
        }
    }

    /// A column's top is at its height with upward normals, its walls run from base to top
    /// with horizontal normals pointing away from the axis, and its rim lies at the radius
    /// (metres → map units with 1 / (40 075 016.686 · cos lat), the Web Mercator scale).
    @Test(arguments: [4, 24])
    func columnMesh(sides: Int) throws {
        let c = try Column(position: LatLng(lat: 60, lon: 10), height: 120, radius: 50, base: 10, sides: sides)
        let (mesh, origin) = SolidMeshes.column(c)
        #expect(origin == MapPoint(c.position))
        let r = 50 / (40_075_016.685578 * cos(60 * Double.pi / 180))
        for v in Self.vertices(mesh) {
            let d = (v.x * v.x + v.y * v.y).squareRoot()
            if v.n.2 > 0.5 {
                #expect(v.z == 120)
            } else if v.n.2 < -0.5 {
                #expect(v.z == 10)
            } else {
                #expect(v.z == 10 || v.z == 120)
                // Rim at the radius (Float32: 1e-6 relative).
                #expect(abs(d - r) <= r * 1e-5, "rim at \(d), radius \(r)")
                // Outward: the normal points the way the vertex lies from the axis (within a
                // half side's turn for flat faces).
                let cosAngle = (v.x * v.n.0 + v.y * v.n.1) / d
                #expect(cosAngle >= cos(Double.pi / Double(sides)) - 1e-4)
            }
        }
        // n walls × 2 triangles + top fan n + bottom fan n (it floats: base 10 m).
        #expect(mesh.triangleCount == 4 * sides)
    }

    /// An extrusion with a hole: the roof's triangles cover the footprint minus the hole
    /// (shoelace areas of the rings), walls go round both rings, and hole walls face into the
    /// hole.
    @Test(arguments: [false, true])
    func extrusionWithHole(reversed: Bool) throws {
        let origin = MapPoint(x: 0.5, y: 0.5)
        let u = 1e-6
        var outer = [(0.0, 0.0), (10.0, 0.0), (10.0, 8.0), (0.0, 8.0)].map {
            MapPoint(x: 0.5 + $0.0 * u, y: 0.5 + $0.1 * u)
        }
        var hole = [(3.0, 2.0), (7.0, 2.0), (7.0, 5.0), (3.0, 5.0)].map {
            MapPoint(x: 0.5 + $0.0 * u, y: 0.5 + $0.1 * u)
        }
        if reversed { outer.reverse(); hole.reverse() }
        let mesh = SolidMeshes.extrusion([outer, hole], base: 0, height: 30, origin: origin)
        let v = Self.vertices(mesh)
        var roofArea = 0.0
        var walls = 0
        for t in stride(from: 0, to: mesh.indices.count, by: 3) {
            let a = v[Int(mesh.indices[t])], b = v[Int(mesh.indices[t + 1])], c = v[Int(mesh.indices[t + 2])]
            if a.n.2 > 0.5 {
                roofArea += abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) / 2
                #expect(a.z == 30 && b.z == 30 && c.z == 30)
            } else {
                walls += 1
                // Wall normals: the hole's walls (inside 3…7 × 2…5) point towards the hole's centre
                // (5, 3.5); the outer walls away from the footprint's centre (5, 4).
                let mx = (a.x + b.x + c.x) / 3 / u, my = (a.y + b.y + c.y) / 3 / u
                let inHole = mx > 2.9 && mx < 7.1 && my > 1.9 && my < 5.1
                let cx = inHole ? 5.0 : 5.0, cy = inHole ? 3.5 : 4.0
                let outward = (mx - cx) * a.n.0 + (my - cy) * a.n.1
                #expect(inHole ? outward < 0 : outward > 0, "wall at (\(mx), \(my)) normal \(a.n)")
            }
        }
        // 10·8 − 4·3 = 68 square units (u² each).
        #expect(abs(roofArea / (u * u) - 68) < 0.01, "roof area \(roofArea / (u * u))")
        #expect(walls == 2 * 8)
    }

    /// An arc starts and ends on the ground at its ends, peaks at the apex in the middle
    /// (sin(π/2) = 1), and its default apex is a fifth of the distance.
    @Test func arcSamples() throws {
        let a = LatLng(lat: 48.8566, lon: 2.3522), b = LatLng(lat: 40.7128, lon: -74.006)
        let arc = try Arc(from: a, to: b)
        let s = arc.samples(count: 65)
        #expect(s.count == 65)
        #expect(s[0].height == 0 && abs(s[64].height) < 1e-6)
        #expect(abs(s[0].position.lat - a.lat) < 1e-9 && abs(s[64].position.lon - b.lon) < 1e-9)
        // Paris–New York: GeographicLib Geodesic.WGS84.Inverse gives 5 852 935.29 m, so a fifth is 1 170 587 m (under the 1 500 km cap).
        #expect(abs(arc.apex - 0.2 * 5_852_935.29) < 0.01)
        #expect(abs(s[32].height - arc.apex) < 1e-6)
        #expect(abs(s[16].height - s[48].height) < 1e-6)
        // The ground path follows the geodesic: GeographicLib Direct from Paris along azi1 for half
        // and a quarter of s12 gives (51.599717815206, -38.99707608546136) and
        // (52.09436006769609, -17.702186960194027); 1e-7° tolerance (GeoKit's geodesic is nm-accurate).
        #expect(abs(s[32].position.lat - 51.599717815206) < 1e-7 && abs(s[32].position.lon + 38.99707608546136) < 1e-7)
        #expect(
            abs(s[16].position.lat - 52.09436006769609) < 1e-7 && abs(s[16].position.lon + 17.702186960194027) < 1e-7)
    }

    /// Bad values are typed errors naming the parameter.
    @Test func badValues() {
        #expect(throws: SceneError.self) { try Column(position: LatLng(lat: 0, lon: 0), height: .nan) }
        #expect(throws: SceneError.self) { try Column(position: LatLng(lat: 0, lon: 0), height: 10, radius: 0) }
        #expect(throws: SceneError.self) { try Column(position: LatLng(lat: 0, lon: 0), height: 10, base: 20) }
        #expect(throws: SceneError.self) { try Column(position: LatLng(lat: 95, lon: 0), height: 10) }
        #expect(throws: SceneError.self) { try Extrusion(exterior: [LatLng(lat: 0, lon: 0)], height: -1) }
        #expect(throws: SceneError.self) { try Arc(from: LatLng(lat: 0, lon: 0), to: LatLng(lat: 1, lon: .infinity)) }
        #expect(throws: SceneError.self) { try Arc(from: LatLng(lat: 0, lon: 0), to: LatLng(lat: 1, lon: 1), width: 0) }
    }

    /// A round column's impostor: four vertices, each with the axis at the origin, the radius
    /// in map units (metres / (40 075 016.686 · cos lat)), the bottom and top heights and its
    /// corner, as two triangles.
    @Test func cylinderImpostorMesh() throws {
        let c = try Column(position: LatLng(lat: 60, lon: 10), height: 120, radius: 50, base: 10)
        let (mesh, origin) = SolidMeshes.cylinder(c)
        #expect(origin == MapPoint(c.position))
        #expect(mesh.layout == .cylinder)
        let r = 50 / (40_075_016.685578 * cos(60 * Double.pi / 180))
        for k in 0..<4 {
            let v = mesh.vertices[(k * 6)..<(k * 6 + 6)].map { Double($0) }
            #expect(v[0] == 0 && v[1] == 0)
            #expect(abs(v[2] - r) <= r * 1e-6)
            #expect(v[3] == 10 && v[4] == 120 && v[5] == Double(k))
        }
        #expect(mesh.indices == [0, 1, 2, 0, 2, 3])
    }

    /// The planner puts 3D overlays in cylinder/solid/ribbon commands and culls columns far off
    /// screen: round columns (12 sides or more) are impostors unless `columnImpostors` is off,
    /// boxes are prisms.
    @Test(arguments: [true, false])
    func plannerEmitsSolids(impostors: Bool) throws {
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 14, size: ScreenSize(width: 200, height: 200))
        var scene = Scene()
        scene.add(.column(try Column(position: LatLng(lat: 0, lon: 0), height: 50)))
        scene.add(.column(try Column(position: LatLng(lat: 10, lon: 10), height: 50)))
        scene.add(.column(try Column(position: LatLng(lat: 0, lon: 0.001), height: 50, color: .white, sides: 4)))
        scene.add(.arc(try Arc(from: LatLng(lat: 0, lon: -0.001), to: LatLng(lat: 0, lon: 0.001))))
        let planner = RenderPlanner()
        planner.columnImpostors = impostors
        let plan = planner.plan(scene, camera: cam)
        #expect(plan.commands.map(\.mesh.layout) == [impostors ? .cylinder : .solid, .solid, .ribbon])
    }

    /// Opaque solids of one colour near each other are merged into one command (same vertices,
    /// re-based: vertex count is the sum of the parts'); other colours and translucent ones are not;
    /// an unchanged view re-uses the merged mesh. Prisms go nearest first (the depth test rejects
    /// what they hide early), impostors farthest first (their outlines blend over what is behind).
    @Test(arguments: [true, false])
    func opaqueSolidsOfOneColourAreBatched(impostors: Bool) throws {
        // All within one batch cell (1/4096 of the world, ~9.8 km, from lon 0.01° to 0.08°).
        let cam = Camera(center: LatLng(lat: 0.01, lon: 0.01), zoom: 15, size: ScreenSize(width: 400, height: 400))
        var scene = Scene()
        let green = Color(rgb: 0x2DA44E)
        // Listed neither north to south nor south to north.
        for k in [2, 0, 4, 1, 3] {
            scene.add(
                .column(
                    try Column(position: LatLng(lat: 0.01 + 0.0005 * Double(k), lon: 0.01), height: 50, color: green)))
        }
        scene.add(.column(try Column(position: LatLng(lat: 0.01, lon: 0.011), height: 50, color: Color(rgb: 0xCF222E))))
        scene.add(
            .column(try Column(position: LatLng(lat: 0.01, lon: 0.012), height: 50, color: green.withOpacity(0.5))))
        scene.add(
            .column(try Column(position: LatLng(lat: 0.01, lon: 0.013), height: 50, color: green.withOpacity(0.5))))
        let planner = RenderPlanner()
        planner.columnImpostors = impostors
        let plan = planner.plan(scene, camera: cam)
        let layout: VertexLayout = impostors ? .cylinder : .solid
        let solids = plan.commands.filter { $0.mesh.layout == layout }
        #expect(solids.count == 4)
        // A 20 m radius at zoom 15 is 20 · 512·2^15 / 40 075 017 = 8.4 px, 53 px round: the level of
        // detail (a side per 6 px, at least 12) draws a prism with 12 sides.
        let column = try Column(position: LatLng(lat: 0.01, lon: 0.01), height: 50, color: green, sides: 12)
        let single = impostors ? SolidMeshes.cylinder(column).0 : SolidMeshes.column(column).0
        #expect(solids[0].mesh.vertexCount == 5 * single.vertexCount)
        #expect(solids[0].mesh.triangleCount == 5 * single.triangleCount)
        // Each part's mean y (map y grows southwards; the camera looks north, so south is near).
        let per = single.vertexCount * 6
        let ys = (0..<5).map { k in
            stride(from: k * per + 1, to: (k + 1) * per, by: 6).reduce(0.0) { $0 + Double(solids[0].mesh.vertices[$1]) }
                / Double(single.vertexCount)
        }
        #expect(ys == (impostors ? ys.sorted() : ys.sorted(by: >)), "\(ys)")
        let again = planner.plan(scene, camera: cam)
        #expect(again.commands.first { $0.mesh.layout == layout }?.mesh === solids[0].mesh)
    }
}
