import CEGL
import Foundation

/// A linked GLES 3 program with its uniform locations looked up once (public for custom GL
/// layers, which create theirs on the GL thread in `prepare`).
public final class GLProgram {
    public let id: GLuint
    private var locations: [String: GLint] = [:]

    public init(vertex: String, fragment: String) throws {
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

    public func uniform(_ name: String) -> GLint {
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
    /// A stroke fragment's coverage: the distance across the line (`v_c`, half widths) or from a
    /// fan's centre (`v_ext`), whichever is less, both linear on screen (`v_w`), against the
    /// geometry's reach `v_aa.y` (`u_outer`) in device pixels (the edge half a pixel inside it).
    static let strokeCoverage = "clamp((1.0 - min(abs(v_c), length(v_ext)) / v_w) * v_aa.y, 0.0, 1.0)"

    /// The opening of the ground fragment shaders: version, precision, the per-draw constants and
    /// the output. The constants (`v_color`; `v_aa`: antialiasing on, the stroke's reach
    /// `u_outer`, the pixel ratio) come as `flat` inputs that the vertex shader copies from
    /// uniforms, because llvmpipe (Mesa 22) loads a fragment shader's uniforms lane by lane, as
    /// bounds-checked gathers of about 20 instructions per component for every 8 pixels, where
    /// a flat input is loaded once per triangle. The gathers were a quarter of the stroke
    /// shader's instructions and a third of the cylinder impostor's (its JIT code read with perf
    /// and gdb); the hot shaders elsewhere do the same.
    static let groundFragmentHeader = """
    #version 300 es
    precision highp float;
    flat in vec4 v_color;
    flat in vec3 v_aa;
    out vec4 fragColor;
    """

    /// Strokes: solid premultiplied colour with an optional dash pattern (logical pixels along
    /// the line, shifted by `u_dashOffset`), an optional fade-in over the first `u_fade` pixels,
    /// and, with `u_aa` (`v_aa.x`), coverage from the distance across the line (`v_c` in half
    /// widths, or the distance from a join or cap fan's centre, `v_ext`, whichever is less: the
    /// geometry reaches `u_outer` device pixels, the edge is half a pixel inside it) and from the
    /// distance to the nearest dash end. `u_pass` 1 keeps only fully covered fragments and 2
    /// only partly covered ones (translucent strokes blended once per pixel, in two passes).
    static let groundFragment = """
    \(groundFragmentHeader)
    uniform float u_dash[8];
    uniform int u_dashCount;
    uniform float u_dashTotal;
    uniform float u_dashOffset;
    uniform float u_fade;
    uniform int u_pass;
    in float v_dist;
    in vec2 v_ext;
    in float v_c;
    in float v_w;
    void main() {
        float cov = 1.0;
        if (v_aa.x > 0.5) cov = \(strokeCoverage);
        if (u_dashTotal > 0.0) {
            float d = mod(v_dist - u_dashOffset, u_dashTotal);
            float start = 0.0;
            float sd = 0.0;
            for (int i = 0; i < 8; i++) {
                if (i >= u_dashCount) break;
                float end = start + u_dash[i];
                if (d < end) {
                    float inside = min(d - start, end - d);
                    sd = (i & 1) == 0 ? inside : -inside;
                    break;
                }
                start = end;
            }
            if (v_aa.x > 0.5) cov *= clamp(sd * v_aa.z + 0.5, 0.0, 1.0);
            else if (sd < 0.0) discard;
        }
        if (u_pass == 1 && cov < 0.999) discard;
        if (u_pass == 2 && (cov >= 0.999 || cov <= 0.001)) discard;
        // A fading tail: transparent at distance 0, full colour from u_fade on.
        if (u_fade > 0.0) cov *= clamp(v_dist / u_fade, 0.0, 1.0);
        fragColor = v_color * cov;
    }
    """

    /// Solid strokes without dashes, fade or passes (no `discard`: llvmpipe runs fewer steps).
    ///
    /// It reads the same inputs as `groundDiscFragment`, with the same components (`v_inner` and
    /// `v_aa.z` in a test that never holds; the disc shader reads `v_aa.y` the same way), so that
    /// llvmpipe's triangle set-up, whose compiled code is keyed by the fragment shader's inputs
    /// and not kept in Mesa's shader cache, is compiled once for both. With fills and sprites
    /// sharing another (see `screenVertex`), a cold render of the standard scene compiles two
    /// set-up functions instead of four (about 10 ms less from start to PNG).
    static let groundSolidFragment = """
    \(groundFragmentHeader)
    in vec2 v_ext;
    in float v_c;
    in float v_w;
    flat in float v_inner;
    void main() {
        float cov = v_aa.x > 0.5 ? \(strokeCoverage) : 1.0;
        if (v_inner > 1e30 && v_aa.z < 0.0) cov = 0.0;
        fragColor = v_color * cov;
    }
    """

    /// Fills: the interior has coverage 1, the fringe outside the edges fades to 0 (see
    /// `RenderPlanner.fillMesh`).
    static let groundFillFragment = """
    \(groundFragmentHeader)
    in float v_c;
    in float v_w;
    void main() {
        fragColor = v_color * clamp(v_c / v_w, 0.0, 1.0);
    }
    """

    /// What the vertex shaders of fills with coverage from their own triangles (convex and
    /// wedge fills) take and hand on besides their own inputs: the per-draw uniforms, and the
    /// colour and antialiasing switch the fragment reads flat.
    static let coverageFillDeclarations = """
    uniform mat4 u_matrix;
    uniform float u_worldSize;
    uniform vec2 u_viewport;
    uniform float u_ratio;
    uniform vec4 u_color;
    uniform float u_aa;
    flat out vec4 v_color;
    flat out vec3 v_aa;
    """

    /// The fragment shaders of convex and wedge fills open with the ground header, edited to
    /// define `LINEAR` (`coverageFillInterpolation`) after its `#version`.
    static let coverageFillFragmentHeader = edited(groundFragmentHeader, [("#version 300 es\n", "#version 300 es\n\(coverageFillInterpolation)\n")])

    /// `LINEAR` for the convex and wedge fills: their inputs interpolated as usual, not
    /// `noperspective` as the columns' are (`linearInterpolation`), although every vertex has
    /// w = 1 and the values are the same. With `noperspective`, llvmpipe (Mesa 22.3) gave a fill
    /// reaching well past the frame wrong distances over part of it (a 60 × 40 frame at bearing
    /// 195 lost a third of a triangle, `TranslucentLayerTests.fillsReachingOffTheFrameAreDrawnWhole`);
    /// interpolated as usual they come out right, at no cost measured
    /// (Documentation/PERFORMANCE.md, *Concave parts in a layer*).
    static let coverageFillInterpolation = "#define LINEAR"

    /// Convex fills (`VertexLayout.convexFill`): the vertex projects its polygon's corners to
    /// device pixels, moves its own (`a_k`) out by half a pixel along its miter there (so both of
    /// its edges move half a pixel out: the fringe's reach, at any pitch), and hands on its
    /// signed distances to the four edges' lines in device pixels, positive inside (a triangle's
    /// fourth edge has no length: far away). Those distances are affine on screen, so the vertex
    /// is placed with w = 1 (position and depth divided here) and they interpolate exactly. The
    /// corner is picked by selects, not by indexing arrays (which llvmpipe does lane by lane).
    /// Without shader coverage (`u_aa` 0) nothing moves; a polygon with a corner behind the eye
    /// is drawn as it is, covered in full.
    static let convexFillVertex = """
    #version 300 es
    \(coverageFillInterpolation)
    precision highp float;
    layout(location = 0) in vec4 a_c01;
    layout(location = 1) in vec4 a_c23;
    layout(location = 2) in float a_k;
    \(coverageFillDeclarations)
    LINEAR out vec4 v_d;
    vec2 inward(vec2 u, float o) {
        float len = length(u);
        return len > 0.0 ? o * vec2(-u.y, u.x) / len : vec2(0.0);
    }
    float across(vec2 n, vec2 p, vec2 from) {
        return n == vec2(0.0) ? 1e6 : dot(n, p - from);
    }
    void main() {
        v_color = u_color;
        v_aa = vec3(u_aa, 0.0, u_ratio);
        vec4 q0 = u_matrix * vec4(a_c01.xy * u_worldSize, 0.0, 1.0);
        vec4 q1 = u_matrix * vec4(a_c01.zw * u_worldSize, 0.0, 1.0);
        vec4 q2 = u_matrix * vec4(a_c23.xy * u_worldSize, 0.0, 1.0);
        vec4 q3 = u_matrix * vec4(a_c23.zw * u_worldSize, 0.0, 1.0);
        vec4 own = a_k < 0.5 ? q0 : a_k < 1.5 ? q1 : a_k < 2.5 ? q2 : q3;
        if (min(min(q0.w, q1.w), min(q2.w, q3.w)) <= 0.0) {
            gl_Position = own;
            v_d = vec4(1.0);
            return;
        }
        vec2 half_ = 0.5 * u_viewport;
        vec2 s0 = (q0.xy / q0.w + 1.0) * half_, s1 = (q1.xy / q1.w + 1.0) * half_;
        vec2 s2 = (q2.xy / q2.w + 1.0) * half_, s3 = (q3.xy / q3.w + 1.0) * half_;
        vec2 d1 = s1 - s0, d2 = s2 - s0, d3 = s3 - s0;
        float area = d1.x * d2.y - d1.y * d2.x + d2.x * d3.y - d2.y * d3.x;
        float o = area >= 0.0 ? 1.0 : -1.0;
        vec2 n0 = inward(s1 - s0, o), n1 = inward(s2 - s1, o), n2 = inward(s3 - s2, o), n3 = inward(s0 - s3, o);
        // An edge between two copies of one corner (a triangle's fourth corner is its first) has
        // no length, whatever rounding the projection did to the copies.
        if (a_c01.zw == a_c01.xy) n0 = vec2(0.0);
        if (a_c23.zw == a_c01.xy) n3 = vec2(0.0);
        vec2 p = own.xy / own.w;
        p = (p + 1.0) * half_;
        if (u_aa > 0.5) {
            // The miter of the outward normals of the edges into and out of this corner (a
            // triangle's edge into its first corner is its third), at most 4 long as
            // `Outline.miter`'s, half a pixel.
            vec2 a = -(a_k < 0.5 ? (n3 == vec2(0.0) ? n2 : n3) : a_k < 1.5 ? n0 : a_k < 2.5 ? n1 : n2);
            vec2 c = -(a_k < 0.5 ? n0 : a_k < 1.5 ? n1 : a_k < 2.5 ? n2 : n3);
            float k = 1.0 + dot(a, c);
            vec2 m = k > 0.125 ? (a + c) / k : a + c;
            float ml = length(m);
            if (ml > 4.0) m *= 4.0 / ml;
            p += m * 0.5;
        }
        v_d = vec4(across(n0, p, s0), across(n1, p, s1), across(n2, p, s2), across(n3, p, s3));
        gl_Position = vec4(p / half_ - 1.0, own.z / own.w, 1.0);
    }
    """

    /// Convex fills: covered where the pixel's centre is inside every edge, else ½ less its
    /// distance outside the nearest edge's line (device pixels): the fringe's coverage, from the
    /// polygon's own triangles.
    static let convexFillFragment = """
    \(coverageFillFragmentHeader)
    LINEAR in vec4 v_d;
    void main() {
        float dm = min(min(v_d.x, v_d.y), min(v_d.z, v_d.w));
        fragColor = v_color * (dm >= 0.0 || v_aa.x < 0.5 ? 1.0 : clamp(0.5 + dm, 0.0, 1.0));
    }
    """

    /// Wedge fills (`VertexLayout.wedgeFill`): the vertex projects its triangle's corners and
    /// their polygon neighbours to device pixels, moves its own corner (`a_c2kf.z`) half a pixel
    /// out across the triangle's edges that are the polygon's (and 1/128 px across its inner edges,
    /// so neighbouring triangles still meet), at most 16 pixels, and hands on its signed
    /// distances to the lines of each corner's two polygon edges, positive inside. As for convex
    /// fills those are affine on screen and the vertex is placed with w = 1. A neighbour behind
    /// the eye is replaced by a point of the same edge in front of it (the same line on screen);
    /// a triangle with a corner behind the eye is drawn as it is, covered in full.
    static let wedgeFillVertex = """
    #version 300 es
    \(coverageFillInterpolation)
    precision highp float;
    layout(location = 0) in vec4 a_c01;
    layout(location = 1) in vec4 a_c2kf;
    layout(location = 2) in vec4 a_pn0;
    layout(location = 3) in vec4 a_pn1;
    layout(location = 4) in vec4 a_pn2;
    \(coverageFillDeclarations)
    LINEAR out vec3 v_dp;
    LINEAR out vec3 v_dn;
    LINEAR out vec3 v_b;
    flat out vec3 v_reflex;
    vec4 clipOf(vec2 p) {
        return u_matrix * vec4(p * u_worldSize, 0.0, 1.0);
    }
    vec2 screenOf(vec4 q, vec2 h) {
        return (q.xy / q.w + 1.0) * h;
    }
    // A point of the edge from the corner qc to q in front of the eye, on screen.
    vec2 toward(vec4 qc, vec4 q, vec2 h) {
        if (q.w <= 0.0) q = mix(qc, q, 0.5 * qc.w / (qc.w - q.w));
        return screenOf(q, h);
    }
    // The signed distance of p from the line a → b, positive on the side o names; far when a = b.
    float side(vec2 a, vec2 b, vec2 p, float o) {
        vec2 u = b - a;
        float len = length(u);
        return len > 0.0 ? o * (u.x * (p.y - a.y) - u.y * (p.x - a.x)) / len : 1e6;
    }
    // How far p lies past the triangle's corner c (its other corners a and b) along the
    // corner's outward bisector; far behind when the corner has no width.
    float past(vec2 c, vec2 a, vec2 b, vec2 p) {
        vec2 u = c - a, v = c - b;
        float lu = length(u), lv = length(v);
        if (lu == 0.0 || lv == 0.0) return -1e6;
        vec2 m = u / lu + v / lv;
        float lm = length(m);
        return lm < 1e-6 ? -1e6 : dot(p - c, m / lm);
    }
    // The unit normal of a → b pointing away from the side o names.
    vec2 outward(vec2 a, vec2 b, float o) {
        vec2 u = b - a;
        float len = length(u);
        return len > 0.0 ? -o * vec2(-u.y, u.x) / len : vec2(0.0);
    }
    void main() {
        v_color = u_color;
        v_aa = vec3(u_aa, 0.0, u_ratio);
        int flags = int(a_c2kf.w + 0.5);
        v_reflex = vec3((flags & 1) != 0 ? 1.0 : 0.0, (flags & 2) != 0 ? 1.0 : 0.0, (flags & 4) != 0 ? 1.0 : 0.0);
        float k = a_c2kf.z;
        vec4 q0 = clipOf(a_c01.xy), q1 = clipOf(a_c01.zw), q2 = clipOf(a_c2kf.xy);
        vec4 own = k < 0.5 ? q0 : k < 1.5 ? q1 : q2;
        if (min(min(q0.w, q1.w), q2.w) <= 0.0) {
            gl_Position = own;
            v_dp = vec3(1.0);
            v_dn = vec3(1.0);
            v_b = vec3(-1e6);
            return;
        }
        vec2 h = 0.5 * u_viewport;
        vec2 s0 = screenOf(q0, h), s1 = screenOf(q1, h), s2 = screenOf(q2, h);
        vec2 d1 = s1 - s0, d2 = s2 - s0;
        float o = d1.x * d2.y - d1.y * d2.x >= 0.0 ? 1.0 : -1.0;
        vec2 p = k < 0.5 ? s0 : k < 1.5 ? s1 : s2;
        if (u_aa > 0.5) {
            // The edges into and out of this corner, moved out by half a pixel where they are
            // the polygon's, and by 1/128 of a pixel where they are inner edges: the corner goes
            // where the moved lines cross. (A corner moved along an inner edge's line lands on
            // it only up to rounding, and the neighbour across it may not move that corner at
            // all: without the overlap a pixel centre on that edge could fall between the two.)
            vec2 before = k < 0.5 ? s2 : k < 1.5 ? s0 : s1;
            vec2 after = k < 0.5 ? s1 : k < 1.5 ? s2 : s0;
            int inBit = k < 0.5 ? 32 : k < 1.5 ? 8 : 16;
            int outBit = k < 0.5 ? 8 : k < 1.5 ? 16 : 32;
            float offIn = (flags & inBit) != 0 ? 0.5 : 0.0078125;
            float offOut = (flags & outBit) != 0 ? 0.5 : 0.0078125;
            vec2 a = outward(before, p, o), c = outward(p, after, o);
            float det = a.x * c.y - a.y * c.x;
            vec2 m = abs(det) > 1e-4 ? (offIn * vec2(c.y, -c.x) - offOut * vec2(a.y, -a.x)) / det
                                      : max(offIn, offOut) * normalize(a + c + vec2(1e-9));
            float ml = length(m);
            if (ml > 16.0) m *= 16.0 / ml;
            p += m;
        }
        vec2 c0 = s0, c1 = s1, c2 = s2;
        v_dp = vec3(side(toward(q0, clipOf(a_pn0.xy), h), c0, p, o),
                    side(toward(q1, clipOf(a_pn1.xy), h), c1, p, o),
                    side(toward(q2, clipOf(a_pn2.xy), h), c2, p, o));
        v_dn = vec3(side(c0, toward(q0, clipOf(a_pn0.zw), h), p, o),
                    side(c1, toward(q1, clipOf(a_pn1.zw), h), p, o),
                    side(c2, toward(q2, clipOf(a_pn2.zw), h), p, o));
        v_b = vec3(past(c0, c1, c2, p), past(c1, c2, c0, p), past(c2, c0, c1, p));
        gl_Position = vec4(p / h - 1.0, own.z / own.w, 1.0);
    }
    """

    /// Wedge fills: each edge line's coverage is the fringe's (1 inside, else ½ less the distance
    /// outside in device pixels); a convex corner takes the lesser of its two, a reflex corner
    /// 1 − (1 − a)(1 − b) (inside either line), and the pixel the least over the triangle's
    /// corners (see `WedgeFills.swift`).
    static let wedgeFillFragment = """
    \(coverageFillFragmentHeader)
    LINEAR in vec3 v_dp;
    LINEAR in vec3 v_dn;
    LINEAR in vec3 v_b;
    flat in vec3 v_reflex;
    void main() {
        vec3 cp = mix(clamp(0.5 + v_dp, 0.0, 1.0), vec3(1.0), step(0.0, v_dp));
        vec3 cn = mix(clamp(0.5 + v_dn, 0.0, 1.0), vec3(1.0), step(0.0, v_dn));
        vec3 e = mix(min(cp, cn), 1.0 - (1.0 - cp) * (1.0 - cn), v_reflex);
        // (Nothing past a corner of the triangle along its bisector, from \(bevelReach) px: where
        // a sliver's corner, moved out along a nearly parallel inner edge, reaches far.)
        e = min(e, clamp(\(bevelReach) - v_b, 0.0, 1.0));
        float c = min(min(e.x, e.y), e.z);
        fragColor = v_color * (v_aa.x < 0.5 ? 1.0 : c);
    }
    """

    /// Convex fills in a layer whose parts are apart (`DrawGroup.partsApart`): each edge's
    /// coverage is ½ plus the distance inside, on both sides (so the two parts beside an edge
    /// share each pixel on it), the product over the edges (a right-angled corner's pixel a
    /// quarter each way) and over the corners' reach past them (`bevelReach`). At a corner wider
    /// than a right angle the product of its two edges is moved towards the lesser of them, in
    /// proportion to the angle (all the way at a straight one, where the product would take
    /// a quarter of a pixel on the corner for a half and let the background through beside a
    /// neighbour's edge): the corner's own pixel then gets the angle's share of a turn, as
    /// multisampling gives it. The colour comes straight, the coverage in alpha, for the
    /// layer's saturating blend (see `MapRenderer`).
    static let convexFillSumFragment = """
    \(coverageFillFragmentHeader)
    LINEAR in vec4 v_d;
    LINEAR in vec4 v_b;
    flat in vec4 v_w;
    void main() {
        vec4 e = clamp(0.5 + v_d, 0.0, 1.0);
        // Each corner's pair of edges: the product, moved towards the lesser of the two by the
        // corner's v_w (0 at a right angle or sharper, 1 when straight), which is the greater's
        // reciprocal; the whole no more than the least edge's.
        // (A triangle's v_w.w is −1: its first corner comes after its third edge.)
        vec4 before = vec4(v_w.w < -0.5 ? e.z : e.w, e.x, e.y, e.z);
        vec4 k = mix(vec4(1.0), 1.0 / max(max(e, before), vec4(1e-6)), max(v_w, 0.0));
        vec4 c = e * clamp(\(bevelReach) - v_b, 0.0, 1.0);
        float a = min(c.x * c.y * c.z * c.w * k.x * k.y * k.z * k.w, min(min(e.x, e.y), min(e.z, e.w)));
        fragColor = vec4(v_color.rgb, v_color.a * a);
    }
    """

    /// How far past a corner, along its bisector, a convex fill's coverage in a layer whose
    /// parts are apart reaches (device pixels), where the product of its edges' coverages would
    /// run on along a sharp corner's bisector (the geometry reaches up to 2 px out there): 1 up
    /// to 0.7 px past (where a right angle's product has ended), 0 from 1.7.
    static let bevelReach = "1.7"

    /// `convexFillVertex` handing on each corner's distance past it along its outward bisector
    /// (for `convexFillSumFragment`; a triangle's fourth corner, which is its first, none), its
    /// miter up to 16 long (corners down to about 7°, which a pitched view may make of a layer's
    /// triangles, see `ConvexFillBuilder.addTriangle`): a shorter one would bring the corner's
    /// edges in, less than half a pixel out along much of their length, and the pixels just
    /// across them would miss their share (the coverage past the corner ends at `bevelReach`
    /// however far the geometry reaches).
    static let convexFillSumVertex = edited(convexFillVertex, [
        ("vec2 m = k > 0.125 ? (a + c) / k : a + c;", "vec2 m = (a + c) / max(k, 1e-6);"),
        ("if (ml > 4.0) m *= 4.0 / ml;", """
            if (ml > 16.0) m *= 16.0 / ml;
                    // A corner given twice (`ConvexFillBuilder.addTriangle`): each copy also slides
                    // 2 px along its edge's moved line, past the corner, so that the bevel between
                    // them leaves the corner's reach (`bevelReach`) inside.
                    if (c == vec2(0.0)) m += 4.0 * o * vec2(-a.y, a.x);
                    if (a == vec2(0.0)) m += 4.0 * o * vec2(c.y, -c.x);
            """),
        ("LINEAR out vec4 v_d;\n", """
        LINEAR out vec4 v_d;
        LINEAR out vec4 v_b;
        float past(vec2 nIn, vec2 nOut, vec2 p, vec2 at) {
            vec2 m = -(nIn + nOut);
            float len = length(m);
            return nIn == vec2(0.0) || nOut == vec2(0.0) || len < 1e-6 ? -1e6 : dot(p - at, m / len);
        }
        flat out vec4 v_w;
        // How far a corner between edges with inward normals a and b is from a right angle
        // towards a straight one: 0 at 90° or sharper, 1 at 180° (linear in the angle); 0 where
        // an edge has no length.
        float straightness(vec2 a, vec2 b) {
            return a == vec2(0.0) || b == vec2(0.0) ? 0.0 : clamp(1.0 - acos(clamp(dot(a, b), -1.0, 1.0)) / 1.5707963, 0.0, 1.0);
        }

        """),
        ("    v_d = vec4(1.0);\n", "    v_d = vec4(1.0);\n    v_b = vec4(-1e6);\n    v_w = vec4(0.0);\n"),
        ("    gl_Position = vec4(p / half_ - 1.0, own.z / own.w, 1.0);\n", """
            v_b = vec4(past(n3 == vec2(0.0) ? n2 : n3, n0 == vec2(0.0) ? n1 : n0, p, s0), past(n0, n1, p, s1), past(n1, n2, p, s2),
                       past(n2, n3, p, s3));
            v_w = vec4(straightness(n3 == vec2(0.0) ? n2 : n3, n0), straightness(n0, n1), straightness(n1, n2),
                       n3 == vec2(0.0) ? -1.0 : straightness(n2, n3));
            gl_Position = vec4(p / half_ - 1.0, own.z / own.w, 1.0);

        """),
    ])

    /// Wedge fills in a layer whose parts are apart: their coverage as `wedgeFillFragment`'s,
    /// the colour straight and the coverage in alpha, for the layer's saturating blend.
    static let wedgeFillSumFragment = edited(wedgeFillFragment, [
        ("fragColor = v_color * (v_aa.x < 0.5 ? 1.0 : c);", "fragColor = vec4(v_color.rgb, v_color.a * c);"),
    ])

    /// A faded layer whose parts are apart (`DrawGroup.partsApart`), drawn over the frame: the
    /// layer's premultiplied pixels at the layer's opacity.
    static let layerFragment = """
        #version 300 es
        precision highp float;
        uniform highp sampler2D u_layer;
        uniform float u_alpha;
        out vec4 fragColor;
        void main() { fragColor = texelFetch(u_layer, ivec2(gl_FragCoord.xy), 0) * u_alpha; }
        """

    /// Pixel discs and rings: coverage of the true circle (outer radius `v_c`, inner `v_inner`
    /// or none when negative, logical pixels) from the distance to the centre.
    static let groundDiscFragment = """
    \(groundFragmentHeader)
    in vec2 v_ext;
    in float v_c;
    in float v_w;
    flat in float v_inner;
    void main() {
        float cov = 1.0;
        if (v_aa.x > 0.5) {
            float ratio = v_aa.z;
            float r = length(v_ext) / v_w * ratio;
            cov = clamp(v_c / v_w * ratio + 0.5 - r, 0.0, 1.0);
            if (v_inner >= 0.0) cov *= clamp(r - v_inner * ratio + 0.5, 0.0, 1.0);
        }
        if (v_aa.y < -1e30) cov = 0.0;
        fragColor = v_color * cov;
    }
    """

    /// Upright screen geometry: the anchor is projected and snapped to the device pixel grid,
    /// then the offset (logical pixels, y down) is added on screen. Shapes (`u_shape`) are told
    /// from textured sprites by `v_uv.y` = −1 rather than by a flat input of their own, so that
    /// the fragment shader's inputs (a flat vec4, a smooth vec2) are the fills' (`v_color`, and
    /// `v_c` and `v_w` packed in one slot) and llvmpipe compiles one triangle set-up for both
    /// (see `groundSolidFragment`).
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
    uniform float u_shape;
    uniform vec4 u_color;
    out vec2 v_uv;
    flat out vec4 v_color;
    void main() {
        vec4 c = u_matrix * vec4(a_pos * u_worldSize, 0.0, 1.0);
        vec2 px = (c.xy / c.w * 0.5 + 0.5) * u_viewport;
        // Sprites land on whole pixels (crisp); shapes with a fringe keep their exact outline
        // about the snapped anchor; sprite strips turned along a line (texture v raised by 2)
        // keep their exact corners, so that neighbouring strips meet.
        bool strip = a_uv.y > 1.5;
        if (u_shape > 0.5) px = floor(px + 0.5) + a_offset * vec2(1.0, -1.0) * u_ratio;
        else if (strip) px = px + a_offset * vec2(1.0, -1.0) * u_ratio;
        else px = floor(px + a_offset * vec2(1.0, -1.0) * u_ratio + 0.5);
        gl_Position = vec4((px / u_viewport * 2.0 - 1.0) * c.w, c.z, c.w);
        // Shapes read only the coverage ramp in uv.x; uv.y = −1 marks them.
        v_uv = vec2(a_uv.x, u_shape > 0.5 ? -1.0 : (strip ? a_uv.y - 2.0 : a_uv.y));
        v_color = u_color;
    }
    """

    /// The instance attributes of a run of markers (`ScreenBatch`): the anchor in clip space and
    /// a colour per part (locations 5…8, as `ScreenBatch.bindInstanceAttributes` points them).
    static let instanceAttributes = """
    layout(location = 5) in vec4 a_clip;
    layout(location = 6) in vec4 a_color0;
    layout(location = 7) in vec4 a_color1;
    layout(location = 8) in vec4 a_color2;

    """

    /// A vertex's colour in a run: its part's (`a_part` 0, 1 or 2) from the instance.
    static let partColor = "a_part < 0.5 ? a_color0 : (a_part < 1.5 ? a_color1 : a_color2)"

    /// `source` with each (old, new) replacement made; each must apply, so a change to the
    /// source that the edits were written for stops the program at start rather than drawing wrong.
    static func edited(_ source: String, _ edits: [(String, String)]) -> String {
        var s = source
        for (old, new) in edits {
            precondition(s.contains(old), "shader source changed: \(old)")
            s = s.replacingOccurrences(of: old, with: new)
        }
        return s
    }

    /// `screenVertex` for a run of markers drawn instanced (`ScreenBatch`): the anchor comes in
    /// clip space and the colour per part from the instance, whether the part is a fringed shape
    /// from the vertex; the rest is `screenVertex` itself, so the pixels are the same.
    static let screenInstancedVertex = edited(screenVertex, [
        ("uniform float u_shape;\n", "layout(location = 3) in float a_part;\nlayout(location = 4) in float a_shape;\n\(instanceAttributes)"),
        ("u_shape > 0.5", "a_shape > 0.5"),
        ("vec4 c = u_matrix * vec4(a_pos * u_worldSize, 0.0, 1.0);", "vec4 c = a_clip;"),
        ("v_color = u_color;", "v_color = \(partColor);"),
    ])

    /// A sprite of a run drawn from the atlas (`SpriteAtlas`): a unit square's corner, and per
    /// instance the anchor in clip space, the tint (premultiplied), the quad's offsets (x0, y0,
    /// x1, y1 logical px, y down) and the image's box in the atlas (u0, v0, u1, v1). The rest is
    /// `screenVertex` itself, a sprite's vertex (not a shape's), so the sprite covers the same pixels.
    static let spriteAtlasVertex = edited(screenVertex, [
        ("layout(location = 0) in vec2 a_pos;\nlayout(location = 1) in vec2 a_offset;\nlayout(location = 2) in vec2 a_uv;\n",
         "layout(location = 0) in vec2 a_corner;\nlayout(location = 5) in vec4 a_clip;\nlayout(location = 6) in vec4 a_tint;\n"
            + "layout(location = 7) in vec4 a_quad;\nlayout(location = 8) in vec4 a_box;\n"),
        // The corner's offset and texture coordinates, under the names `screenVertex` reads.
        ("vec4 c = u_matrix * vec4(a_pos * u_worldSize, 0.0, 1.0);",
         "vec4 c = a_clip;\n    vec2 a_offset = mix(a_quad.xy, a_quad.zw, a_corner);\n    vec2 a_uv = mix(a_box.xy, a_box.zw, a_corner);"),
        ("u_shape > 0.5", "false"),
        ("v_color = u_color;", "v_color = a_tint;"),
    ])

    /// A stamped marker's quad (`ScreenBatch`): `u_box` is the stamp's box about the marker's
    /// anchor (snapped to a whole pixel as `screenVertex` does), in device pixels, y up.
    static let stampVertex = """
    #version 300 es
    precision highp float;
    layout(location = 0) in vec2 a_corner;
    \(instanceAttributes)uniform vec2 u_viewport;
    uniform vec4 u_box;
    out vec2 v_uv;
    flat out vec4 v_color0;
    flat out vec4 v_color1;
    flat out vec4 v_color2;
    void main() {
        vec4 c = a_clip;
        vec2 px = floor((c.xy / c.w * 0.5 + 0.5) * u_viewport + 0.5) + u_box.xy + a_corner * u_box.zw;
        gl_Position = vec4((px / u_viewport * 2.0 - 1.0) * c.w, c.z, c.w);
        v_uv = a_corner;
        v_color0 = a_color0;
        v_color1 = a_color1;
        v_color2 = a_color2;
    }
    """

    /// The parts' colours (premultiplied) laid over each other in order, each by its coverage
    /// from the stamp: what blending the parts one by one gives.
    static let stampFragment = """
    #version 300 es
    precision highp float;
    uniform sampler2D u_texture;
    in vec2 v_uv;
    flat in vec4 v_color0;
    flat in vec4 v_color1;
    flat in vec4 v_color2;
    out vec4 fragColor;
    void main() {
        vec4 a = texture(u_texture, v_uv);
        vec4 acc = v_color0 * a.r;
        acc = v_color1 * a.g + acc * (1.0 - v_color1.a * a.g);
        fragColor = v_color2 * a.b + acc * (1.0 - v_color2.a * a.b);
    }
    """

    /// `stampVertex` for a stamp with a sprite (`ScreenBatch.spriteLast`): the pixel's place in
    /// the box, and where the sprite lies in it (`u_sprite`: x, y, width, height in device
    /// pixels, y up), handed on flat.
    static let stampSpriteVertex = edited(stampVertex, [
        ("uniform vec4 u_box;\nout vec2 v_uv;\n", "uniform vec4 u_box;\nuniform vec4 u_sprite;\nout vec2 v_uv;\nout vec2 v_px;\nflat out vec4 v_sprite;\n"),
        ("v_uv = a_corner;", "v_uv = a_corner;\n    v_px = a_corner * u_box.zw;\n    v_sprite = u_sprite;"),
    ])

    /// `stampFragment` for a stamp with a sprite: the shapes' colours laid over each other by
    /// their coverage (red, green) as there, then, in place of a third shape, the sprite's texel
    /// at this pixel (one texel a pixel, top row first) tinted by the last part's colour on top:
    /// what drawing the parts and the sprite's quad one by one gives.
    static let stampSpriteFragment = edited(stampFragment, [
        ("uniform sampler2D u_texture;\nin vec2 v_uv;\n",
         "uniform sampler2D u_texture;\nuniform sampler2D u_spriteTexture;\nin vec2 v_uv;\nin vec2 v_px;\nflat in vec4 v_sprite;\n"),
        ("    fragColor = v_color2 * a.b + acc * (1.0 - v_color2.a * a.b);\n", """
            vec2 q = v_px - v_sprite.xy;
            if (q.x >= 0.0 && q.y >= 0.0 && q.x < v_sprite.z && q.y < v_sprite.w) {
                vec4 t = texelFetch(u_spriteTexture, ivec2(int(q.x), int(v_sprite.w - q.y)), 0) * v_color2;
                acc = t + acc * (1.0 - t.a);
            }
            fragColor = acc;

        """),
    ])

    static let screenFragment = """
    #version 300 es
    precision highp float;
    uniform sampler2D u_texture;
    in vec2 v_uv;
    flat in vec4 v_color;
    out vec4 fragColor;
    void main() {
        fragColor = v_uv.y < -0.5 ? v_color * clamp(v_uv.x, 0.0, 1.0) : texture(u_texture, v_uv) * v_color;
    }
    """

    /// Textured ground quads (raster tiles, image overlays): positions in map units on the
    /// ground plane, texture coordinates as given.
    static let rasterVertex = """
    #version 300 es
    precision highp float;
    layout(location = 0) in vec2 a_pos;
    layout(location = 1) in vec2 a_uv;
    uniform mat4 u_matrix;
    uniform float u_worldSize;
    uniform vec4 u_color;
    uniform float u_saturation;
    uniform float u_contrast;
    uniform vec2 u_brightness;
    out vec2 v_uv;
    flat out vec4 v_adjust;
    flat out float v_opacity;
    void main() {
        gl_Position = u_matrix * vec4(a_pos * u_worldSize, 0.0, 1.0);
        v_uv = a_uv;
        v_adjust = vec4(u_saturation, u_contrast, u_brightness);
        v_opacity = u_color.a;
    }
    """

    /// MapLibre's raster paint adjustments on the straight colour: saturation towards the grey
    /// average, contrast about mid-grey, then black and white mapped to the brightness range;
    /// the result premultiplied and scaled by the opacity (`u_color.a`).
    static let rasterFragment = """
    #version 300 es
    precision highp float;
    uniform sampler2D u_texture;
    in vec2 v_uv;
    flat in vec4 v_adjust;
    flat in float v_opacity;
    out vec4 fragColor;
    void main() {
        vec4 c = texture(u_texture, v_uv);
        if (c.a <= 0.0) discard;
        vec3 rgb = c.rgb / c.a;
        float average = (rgb.r + rgb.g + rgb.b) / 3.0;
        rgb += (average - rgb) * v_adjust.x;
        rgb = (rgb - 0.5) * v_adjust.y + 0.5;
        rgb = mix(vec3(v_adjust.z), vec3(v_adjust.w), rgb);
        fragColor = vec4(clamp(rgb, 0.0, 1.0) * c.a, c.a) * v_opacity;
    }
    """
}

/// A program compiled and linked on first use (on the GL thread that owns the context).
final class LazyProgram {
    private let vertex: String
    private let fragment: String
    private var made: GLProgram?

    init(_ vertex: String, _ fragment: String) {
        self.vertex = vertex
        self.fragment = fragment
    }

    func get() throws -> GLProgram {
        if let made { return made }
        let p = try GLProgram(vertex: vertex, fragment: fragment)
        made = p
        return p
    }
}
