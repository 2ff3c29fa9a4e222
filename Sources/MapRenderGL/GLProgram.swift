import CEGL

/// A linked GLES 3 program with its uniform locations looked up once.
final class GLProgram {
    let id: GLuint
    private var locations: [String: GLint] = [:]

    init(vertex: String, fragment: String) throws {
        let vs = try GLProgram.compile(GLenum(GL_VERTEX_SHADER), vertex)
        let fs = try GLProgram.compile(GLenum(GL_FRAGMENT_SHADER), fragment)
        id = glCreateProgram()
        glAttachShader(id, vs); glAttachShader(id, fs)
        glLinkProgram(id)
        glDeleteShader(vs); glDeleteShader(fs)
        var ok: GLint = 0
        glGetProgramiv(id, GLenum(GL_LINK_STATUS), &ok)
        guard ok != 0 else {
            let log = GLProgram.log { glGetProgramInfoLog(id, $0, nil, $1) }
            glDeleteProgram(id)
            throw RenderError(.shader("link: \(log)"))
        }
    }

    deinit { glDeleteProgram(id) }

    func uniform(_ name: String) -> GLint {
        if let l = locations[name] { return l }
        let l = glGetUniformLocation(id, name)
        locations[name] = l
        return l
    }

    private static func compile(_ type: GLenum, _ source: String) throws -> GLuint {
        let s = glCreateShader(type)
        source.withCString { ptr in
            var p: UnsafePointer<GLchar>? = ptr
            glShaderSource(s, 1, &p, nil)
        }
        glCompileShader(s)
        var ok: GLint = 0
        glGetShaderiv(s, GLenum(GL_COMPILE_STATUS), &ok)
        guard ok != 0 else {
            let log = GLProgram.log { glGetShaderInfoLog(s, $0, nil, $1) }
            glDeleteShader(s)
            throw RenderError(.shader("compile: \(log)"))
        }
        return s
    }

    private static func log(_ get: (GLsizei, UnsafeMutablePointer<GLchar>) -> Void) -> String {
        var buf = [GLchar](repeating: 0, count: 4096)
        buf.withUnsafeMutableBufferPointer { get(4096, $0.baseAddress!) }
        let bytes = buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The shader sources (GLSL ES 3.00).
enum Shaders {
    /// Ground geometry: map-unit positions relative to the command origin, scaled to world
    /// pixels, plus a pixel extrusion along the map axes; the matrix takes world pixels
    /// relative to the origin to clip space (so Float32 keeps precision at zoom 20).
    static let groundVertex = """
    #version 300 es
    precision highp float;
    layout(location = 0) in vec2 a_pos;
    layout(location = 1) in vec2 a_extrude;
    layout(location = 2) in float a_dist;
    uniform mat4 u_matrix;
    uniform float u_worldSize;
    uniform float u_extrudeScale;
    out float v_dist;
    void main() {
        vec2 p = a_pos * u_worldSize + a_extrude * u_extrudeScale;
        v_dist = a_dist * u_worldSize;
        gl_Position = u_matrix * vec4(p, 0.0, 1.0);
    }
    """

    /// Solid premultiplied colour with an optional dash pattern (logical pixels along the line,
    /// shifted by `u_dashOffset`) and an optional fade-in over the first `u_fade` pixels.
    static let groundFragment = """
    #version 300 es
    precision highp float;
    uniform vec4 u_color;
    uniform float u_dash[8];
    uniform int u_dashCount;
    uniform float u_dashTotal;
    uniform float u_dashOffset;
    uniform float u_fade;
    in float v_dist;
    out vec4 fragColor;
    void main() {
        if (u_dashTotal > 0.0) {
            float d = mod(v_dist - u_dashOffset, u_dashTotal);
            float acc = 0.0;
            for (int i = 0; i < 8; i++) {
                if (i >= u_dashCount) break;
                acc += u_dash[i];
                if (d < acc) {
                    if ((i & 1) == 1) discard;
                    break;
                }
            }
        }
        // A fading tail: transparent at distance 0, full colour from u_fade on.
        fragColor = u_fade > 0.0 ? u_color * clamp(v_dist / u_fade, 0.0, 1.0) : u_color;
    }
    """

    /// Solid premultiplied colour, no dashes (no `discard`).
    static let groundSolidFragment = """
    #version 300 es
    precision highp float;
    uniform vec4 u_color;
    out vec4 fragColor;
    void main() {
        fragColor = u_color;
    }
    """

    /// Upright screen geometry: the anchor is projected and snapped to the device pixel grid,
    /// then the offset (logical pixels, y down) is added on screen.
    static let screenVertex = """
    #version 300 es
    precision highp float;
    layout(location = 0) in vec2 a_pos;
    layout(location = 1) in vec2 a_offset;
    layout(location = 2) in vec2 a_uv;
    uniform mat4 u_matrix;
    uniform float u_worldSize;
    uniform vec2 u_viewport;
    uniform float u_ratio;
    out vec2 v_uv;
    void main() {
        vec4 c = u_matrix * vec4(a_pos * u_worldSize, 0.0, 1.0);
        vec2 px = (c.xy / c.w * 0.5 + 0.5) * u_viewport;
        px = floor(px + a_offset * vec2(1.0, -1.0) * u_ratio + 0.5);
        gl_Position = vec4((px / u_viewport * 2.0 - 1.0) * c.w, c.z, c.w);
        v_uv = a_uv;
    }
    """

    static let screenFragment = """
    #version 300 es
    precision highp float;
    uniform sampler2D u_texture;
    uniform vec4 u_color;
    in vec2 v_uv;
    out vec4 fragColor;
    void main() {
        fragColor = texture(u_texture, v_uv) * u_color;
    }
    """
}
