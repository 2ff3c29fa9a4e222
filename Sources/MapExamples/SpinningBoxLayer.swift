import CEGL
import Foundation
import GeoKit
import MapRenderGL

/// The classic "3D object on the map": a box standing on the ground that spins about its
/// vertical axis and bounces, drawn with its own GL ES program through the custom layer
/// interface (`GLCustomLayer`). Columns and extrusions hide it where they stand in front of it.
///
/// Everything here is app code: a 36-vertex cube built on the CPU each frame in world pixels
/// relative to the box's own position (so Float32 keeps its precision at any zoom), one shader
/// with a flat light per face, and the matrix the layer context hands over.
public final class SpinningBoxLayer: GLCustomLayer, @unchecked Sendable {
    /// Where the box stands.
    public let position: LatLng
    /// Edge length, metres.
    public let size: Double
    /// Degrees per second about the vertical axis.
    public var spin = 90.0
    /// Seconds per bounce; the box rises to half its size.
    public var bouncePeriod = 1.2

    private var program: GLProgram?
    private var vao: GLuint = 0
    private var vbo: GLuint = 0

    public init(position: LatLng, size: Double = 200) {
        self.position = position
        self.size = size
    }

    deinit {
        // Buffers belong to the GL thread's context; a layer lives as long as its renderer.
    }

    static let vertex = """
        #version 300 es
        layout(location = 0) in vec3 a_pos;
        layout(location = 1) in float a_shade;
        uniform mat4 u_matrix;
        out float v_shade;
        void main() {
            gl_Position = u_matrix * vec4(a_pos, 1.0);
            v_shade = a_shade;
        }
        """
    static let fragment = """
        #version 300 es
        precision mediump float;
        in float v_shade;
        out vec4 color;
        void main() {
            vec3 base = vec3(0.98, 0.62, 0.12);
            color = vec4(base * v_shade, 1.0);
        }
        """

    public func prepare() throws {
        program = try GLProgram(vertex: Self.vertex, fragment: Self.fragment)
        glGenVertexArrays(1, &vao)
        glGenBuffers(1, &vbo)
    }

    /// The cube's 36 vertices (x, y in world px relative to the box, z in metres, shade) at time `t`.
    public func vertices(time t: Double, pixelsPerMeter ppm: Double) -> [Float] {
        let angle = t * spin * .pi / 180
        let lift = abs(sin(t * .pi / bouncePeriod)) * size / 2
        let h = size / 2
        let (c, s) = (cos(angle), sin(angle))
        func corner(_ x: Double, _ y: Double, _ z: Double) -> (Float, Float, Float) {
            let rx = (x * c - y * s) * ppm, ry = (x * s + y * c) * ppm
            return (Float(rx), Float(ry), Float(z + lift))
        }
        // Faces: (four corners in order, shade). y is south, so "north" is −y.
        let faces: [([(Double, Double, Double)], Float)] = [
            ([(-h, -h, size), (h, -h, size), (h, h, size), (-h, h, size)], 1.0),  // top
            ([(-h, h, 0), (h, h, 0), (h, h, size), (-h, h, size)], 0.8),  // south
            ([(h, -h, 0), (-h, -h, 0), (-h, -h, size), (h, -h, size)], 0.6),  // north
            ([(h, h, 0), (h, -h, 0), (h, -h, size), (h, h, size)], 0.7),  // east
            ([(-h, -h, 0), (-h, h, 0), (-h, h, size), (-h, -h, size)], 0.5),  // west
            ([(-h, -h, 0), (h, -h, 0), (h, h, 0), (-h, h, 0)], 0.4),  // bottom
        ]
        var out: [Float] = []
        out.reserveCapacity(36 * 4)
        for (q, shade) in faces {
            for i in [0, 1, 2, 0, 2, 3] {
                let p = corner(q[i].0, q[i].1, q[i].2)
                out += [p.0, p.1, p.2, shade]
            }
        }
        return out
    }

    public func render(_ context: GLLayerContext) {
        guard let program else { return }
        let origin = MapPoint(position)
        let data = vertices(time: context.time, pixelsPerMeter: context.pixelsPerMeter(atLatitude: position.lat))
        let matrix = context.matrix(relativeTo: origin)
        glUseProgram(program.id)
        matrix.withUnsafeBufferPointer { glUniformMatrix4fv(program.uniform("u_matrix"), 1, GLboolean(GL_FALSE), $0.baseAddress) }
        glBindVertexArray(vao)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vbo)
        data.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 3, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 16, nil)
        glEnableVertexAttribArray(1)
        glVertexAttribPointer(1, 1, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 16, UnsafeRawPointer(bitPattern: 12))
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 36)
        glBindVertexArray(0)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
    }
}
