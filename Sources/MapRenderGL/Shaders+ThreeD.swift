/// Shaders for the 3D part of a frame: lit solids, screen-width ribbons and the sky.
extension Shaders {
    /// `LINEAR`, for the inputs of shaders whose every vertex has clip w = 1 (screen-space quads):
    /// `noperspective` where the driver has GL_NV_shader_noperspective_interpolation, which saves
    /// llvmpipe the per-pixel perspective correction (the same values: with w = 1 perspective
    /// interpolation is linear), nothing elsewhere.
    static let linearInterpolation = """
        #ifdef GL_NV_shader_noperspective_interpolation
        #extension GL_NV_shader_noperspective_interpolation : enable
        #define LINEAR noperspective
        #else
        #define LINEAR
        #endif
        """

    /// Distance fog for 3D content, compiled in by `#define FOG` (see `Shaders.fogged`) for frames
    /// with a sky. A solid, column or arc fades into the haze as the ground beneath it does: the
    /// sky's fog over the ground is a band of `u_fogBand.y` device pixels below the horizon
    /// (`u_fogBand.x`, GL window y), so `fogAt` takes the clip position of the ground point under
    /// a vertex and returns the fog the sky laid on that point, as (haze · f, 1 − f) for
    /// `colour · (1 − f) + haze · f · alpha`. A ground point behind the eye is near it: no fog.
    static let fogHeader = """
        #ifdef FOG
        uniform vec4 u_fogColor;
        uniform vec3 u_fogBand;
        vec4 fogAt(vec4 ground) {
            if (ground.w <= 0.0) return vec4(0.0, 0.0, 0.0, 1.0);
            float y = (ground.y / ground.w * 0.5 + 0.5) * u_fogBand.z;
            float a = clamp(1.0 + (y - u_fogBand.x) / u_fogBand.y, 0.0, 1.0);
            float f = a * (2.0 - a) * 0.5 + a * 0.5;
            return vec4(u_fogColor.rgb * f, 1.0 - f);
        }
        #endif
        """

    /// A shader's source with `FOG` defined (after its `#version` line).
    static func fogged(_ source: String) -> String {
        guard let end = source.firstIndex(of: "\n") else { return source }
        return String(source[...end]) + "#define FOG\n" + source[source.index(after: end)...]
    }

    /// Lit solids (columns, extrusions): map-unit positions relative to the command origin
    /// scaled to world pixels, heights in metres (the matrix scales them); Lambert shading with
    /// an ambient floor from a light fixed to the viewport.
    static let solidVertex = """
        #version 300 es
        precision highp float;
        layout(location = 0) in vec3 a_pos;
        layout(location = 1) in vec3 a_normal;
        uniform mat4 u_matrix;
        uniform float u_worldSize;
        uniform vec3 u_light;
        uniform float u_ambient;
        uniform vec4 u_color;
        out float v_shade;
        flat out vec4 v_color;
        \(fogHeader)
        #ifdef FOG
        out vec4 v_fog;
        #endif
        void main() {
            gl_Position = u_matrix * vec4(a_pos.xy * u_worldSize, a_pos.z, 1.0);
            float diffuse = max(dot(normalize(a_normal), u_light), 0.0);
            v_shade = u_ambient + (1.0 - u_ambient) * diffuse;
            v_color = u_color;
            #ifdef FOG
            v_fog = fogAt(u_matrix * vec4(a_pos.xy * u_worldSize, 0.0, 1.0));
            #endif
        }
        """

    static let solidFragment = """
        #version 300 es
        precision highp float;
        in float v_shade;
        flat in vec4 v_color;
        #ifdef FOG
        in vec4 v_fog;
        #endif
        out vec4 fragColor;
        void main() {
            fragColor = vec4(v_color.rgb * v_shade, v_color.a);
            #ifdef FOG
            fragColor.rgb = fragColor.rgb * v_fog.a + v_fog.rgb * fragColor.a;
            #endif
        }
        """

    /// The antialiased fringes of lit solids' faces (see `SolidFringe`), drawn after every opaque
    /// solid with the depth test on, depth writes and blending off, reading `u_behind`: a copy of
    /// the frame taken just before. Each edge of a face that looks at the eye is a quad in the
    /// face's plane (its depth the plane's, extended past the edge) from half a device pixel
    /// inside the face to one outside. Every fragment writes the pixel's colour mixed by the
    /// face's share of it, `0.5 − d` for a pixel centre `d` pixels outside the edge: outside,
    /// with the copy's colour at the pixel itself (what lies behind: the background, or the
    /// neighbouring face across a crease, which lies behind the face's plane extended); inside
    /// a silhouette, with the copy's colour a pixel further out than the edge (the face hid what
    /// was behind its own pixels). Inside a crease the neighbour's own fringe does that.
    static let solidFringeVertex = """
        #version 300 es
        \(linearInterpolation)
        precision highp float;
        layout(location = 0) in vec3 a_pos;
        layout(location = 1) in vec3 a_other;
        layout(location = 2) in vec3 a_third;
        layout(location = 3) in vec3 a_normal;
        layout(location = 4) in vec2 a_corner;
        layout(location = 5) in vec4 a_across;
        uniform mat4 u_matrix;
        uniform float u_worldSize;
        uniform vec2 u_viewport;
        uniform vec3 u_light;
        uniform float u_ambient;
        uniform vec4 u_color;
        LINEAR out float v_across;
        LINEAR out float v_shade;
        flat out vec4 v_color;
        flat out vec3 v_out;
        \(fogHeader)
        #ifdef FOG
        LINEAR out vec4 v_fog;
        #endif
        vec3 screen(vec4 p, vec2 hv) { return vec3(p.xy / p.w * hv, p.z / p.w); }
        void main() {
            vec4 p = u_matrix * vec4(a_pos.xy * u_worldSize, a_pos.z, 1.0);
            vec4 q = u_matrix * vec4(a_other.xy * u_worldSize, a_other.z, 1.0);
            vec4 c = u_matrix * vec4(a_third.xy * u_worldSize, a_third.z, 1.0);
            vec4 n = u_matrix * vec4(a_across.xy * u_worldSize, a_across.z, 1.0);
            float diffuse = max(dot(normalize(a_normal), u_light), 0.0);
            v_shade = u_ambient + (1.0 - u_ambient) * diffuse;
            v_color = u_color;
            v_across = 0.0;
            v_out = vec3(0.0);
            #ifdef FOG
            v_fog = fogAt(u_matrix * vec4(a_pos.xy * u_worldSize, 0.0, 1.0));
            #endif
            // Nothing for edges that reach behind the eye (their faces are clipped there).
            if (p.w <= 0.0 || q.w <= 0.0 || c.w <= 0.0) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); return; }
            vec2 hv = 0.5 * u_viewport;
            vec3 sp = screen(p, hv), sq = screen(q, hv), sc = screen(c, hv);
            // The edge from a to b as its triangle winds it (a_corner.x: this vertex is b).
            bool atB = a_corner.x > 0.5;
            vec3 sa = atB ? sq : sp, sb = atB ? sp : sq;
            vec2 e = sb.xy - sa.xy;
            float len = length(e);
            float turn = e.x * (sc.y - sa.y) - e.y * (sc.x - sa.x);
            // Front faces wind clockwise on screen (see ThreeD.cullBackFaces); an edge seen end on
            // has no fringe.
            if (len < 1e-3 || turn >= 0.0) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); return; }
            vec2 d = e / len;
            // Clockwise: the face lies to the right of a→b, so outward is to the left.
            vec2 outward = vec2(-d.y, d.x);
            float across = a_corner.y > 0.5 ? 1.0 : -0.5;
            float along = (atB ? 0.5 : -0.5) * (a_corner.y > 0.5 ? 1.0 : 0.0);
            vec2 s = sp.xy + outward * across + d * along;
            // The face's plane in screen space (depth affine in x and y over a plane).
            vec3 g = cross(vec3(e, sb.z - sa.z), sc - sa);
            float z = abs(g.z) > 1e-9 ? sp.z - (g.x * (s.x - sp.x) + g.y * (s.y - sp.y)) / g.z : sp.z;
            gl_Position = vec4(s / hv, clamp(z, -1.0, 1.0), 1.0);
            v_across = across;
            // A silhouette when no face shares the edge or the one that does looks away.
            bool silhouette = true;
            if (a_across.w > 0.5 && n.w > 0.0) {
                vec3 sn = screen(n, hv);
                silhouette = (-e.x) * (sn.y - sb.y) - (-e.y) * (sn.x - sb.x) >= 0.0;
            }
            v_out = vec3(outward, silhouette ? 1.0 : 0.0);
        }
        """

    static let solidFringeFragment = """
        #version 300 es
        \(linearInterpolation)
        precision highp float;
        uniform sampler2D u_behind;
        LINEAR in float v_across;
        LINEAR in float v_shade;
        flat in vec4 v_color;
        flat in vec3 v_out;
        #ifdef FOG
        LINEAR in vec4 v_fog;
        #endif
        out vec4 fragColor;
        void main() {
            float share = clamp(0.5 - v_across, 0.0, 1.0);
            if (v_across < 0.0 && v_out.z < 0.5) discard;
            vec2 at = gl_FragCoord.xy + (v_across < 0.0 ? v_out.xy * (1.0 - v_across) : vec2(0.0));
            ivec2 size = textureSize(u_behind, 0);
            vec4 behind = texelFetch(u_behind, clamp(ivec2(floor(at)), ivec2(0), size - 1), 0);
            vec4 face = vec4(v_color.rgb * v_shade, v_color.a);
            #ifdef FOG
            face.rgb = face.rgb * v_fog.a + v_fog.rgb * face.a;
            #endif
            fragColor = face * share + behind * (1.0 - share);
        }
        """

    /// Round columns as impostors (`VertexLayout.cylinder`). Each of the four vertices lays the
    /// screen quad along the column's axis on screen, tight round the exact projections of its
    /// bottom and top rims (`rimExtent`) plus a device pixel for the antialiased outline; a
    /// column reaching behind the eye gets the whole viewport.
    ///
    /// The ray through a screen position is `eye + t·dir`, where `dir` (the far-plane point
    /// unprojected by `u_inverse`, homogeneous, minus the eye times its w) is linear in the
    /// screen position, and so is every dot or cross product of it with a constant. The vertex
    /// shader computes those (`v_dir`, `v_lin`: the cross and dot products with the axis offset
    /// from the eye, the ray's light term, and its clip z and w), and the interpolation hands
    /// each fragment its own exact values for a few multiplications. Positions are world pixels
    /// from the command's origin, heights metres, as `u_matrix` takes them.
    static let cylinderVertex = """
        #version 300 es
        \(linearInterpolation)
        precision highp float;
        layout(location = 0) in vec2 a_axis;
        layout(location = 1) in vec4 a_cyl;
        uniform mat4 u_matrix;
        uniform mat4 u_inverse;
        uniform vec3 u_eye;
        uniform vec3 u_light;
        uniform vec4 u_color;
        uniform float u_ambient;
        uniform vec2 u_eyeClip;
        uniform float u_worldSize;
        uniform vec2 u_viewport;
        LINEAR out vec3 v_dir;
        LINEAR out vec4 v_lin;
        LINEAR out float v_w;
        flat out vec4 v_cyl;
        flat out vec4 v_shade;
        flat out vec4 v_color;
        \(fogHeader)
        #ifdef FOG
        flat out vec4 v_fog;
        #endif
        // The extent along the screen direction `e` (pixels, from `origin`) of the rim
        // A + cos θ·U + sin θ·V (clip space, in front of the eye): the two values λ for which
        // (a₀ − λw₀) + (a₁ − λw₁) cos θ + (a₂ − λw₂) sin θ = 0 has exactly one solution θ,
        // the roots of (w₁² + w₂² − w₀²) λ² − 2 (a₁w₁ + a₂w₂ − a₀w₀) λ + a₁² + a₂² − a₀² = 0.
        vec2 rimExtent(vec4 A, vec4 U, vec4 V, vec2 e, vec2 origin, vec2 hv) {
            float k = dot(e, origin);
            float a0 = dot(e, A.xy * hv) - k * A.w;
            float a1 = dot(e, U.xy * hv) - k * U.w;
            float a2 = dot(e, V.xy * hv) - k * V.w;
            float qa = U.w * U.w + V.w * V.w - A.w * A.w;
            float qb = a1 * U.w + a2 * V.w - a0 * A.w;
            float qc = a1 * a1 + a2 * a2 - a0 * a0;
            float root = sqrt(max(qb * qb - qa * qc, 0.0));
            return vec2((qb + root) / qa, (qb - root) / qa);
        }
        void main() {
            vec2 c = a_axis * u_worldSize;
            float r = a_cyl.x * u_worldSize;
            vec2 axis = c - u_eye.xy;
            // Per column, flat: llvmpipe loads a fragment shader's uniforms lane by lane (see
            // `Shaders.groundFragmentHeader`), a flat input once per triangle.
            v_cyl = vec4(r, a_cyl.y - u_eye.z, a_cyl.z - u_eye.z, u_light.z);
            v_shade = vec4(dot(axis, u_light.xy), u_ambient, u_eyeClip);
            v_color = u_color;
            #ifdef FOG
            v_fog = fogAt(u_matrix * vec4(c, 0.0, 1.0));
            #endif
            int corner = int(a_cyl.w + 0.5);
            vec2 hv = 0.5 * u_viewport;
            vec2 ndc = vec2(corner == 1 || corner == 2 ? 1.0 : -1.0, corner >= 2 ? 1.0 : -1.0);
            vec4 b = u_matrix * vec4(c, a_cyl.y, 1.0);
            vec4 t = u_matrix * vec4(c, a_cyl.z, 1.0);
            vec2 sb = b.w > 0.0 ? b.xy / b.w * hv : vec2(0.0);
            vec2 st = t.w > 0.0 ? t.xy / t.w * hv : vec2(0.0);
            vec2 d = st - sb;
            d = dot(d, d) > 1e-6 ? normalize(d) : vec2(0.0, 1.0);
            vec2 n = vec2(-d.y, d.x);
            // Each rim is A + cos θ·U + sin θ·V in clip space; its clip w ranges over
            // A.w ± |(U.w, V.w)|. Behind the eye's plane (w < 1) anywhere: the whole viewport.
            vec4 u = u_matrix[0] * r, v = u_matrix[1] * r;
            float swing = length(vec2(u.w, v.w));
            float wMax = max(b.w, t.w) + swing;
            if (wMax < 1.0) {
                // Wholly behind the eye: nothing to draw.
                gl_Position = vec4(2.0, 2.0, 0.0, 1.0);
                v_dir = vec3(0.0); v_lin = vec4(0.0); v_w = 0.0;
                return;
            }
            if (min(b.w, t.w) - swing >= 1.0) {
                // Tight round both rims along the axis (d) and across it (n), plus a pixel: the
                // outline's coverage fades to nothing within 0.71 px of the silhouette (half a
                // pixel of fwidth, which is up to √2 times the gradient).
                vec2 bd = rimExtent(b, u, v, d, sb, hv), td = rimExtent(t, u, v, d, sb, hv);
                vec2 bn = rimExtent(b, u, v, n, sb, hv), tn = rimExtent(t, u, v, n, sb, hv);
                vec2 q = vec2(ndc.x < 0.0 ? min(bd.x, td.x) - 1.0 : max(bd.y, td.y) + 1.0,
                              ndc.y < 0.0 ? min(bn.x, tn.x) - 1.0 : max(bn.y, tn.y) + 1.0);
                ndc = (sb + d * q.x + n * q.y) / hv;
            }
            gl_Position = vec4(ndc, 0.0, 1.0);
            vec4 far = u_inverse * vec4(ndc, 1.0, 1.0);
            vec3 dir = (far.xyz - u_eye * far.w) * sign(far.w);
            v_dir = dir;
            v_lin = vec4(dir.x * axis.y - dir.y * axis.x, dot(dir.xy, axis), dot(dir.xy, u_light.xy),
                         dot(vec3(u_matrix[0][2], u_matrix[1][2], u_matrix[2][2]), dir));
            v_w = dot(vec3(u_matrix[0][3], u_matrix[1][3], u_matrix[2][3]), dir);
        }
        """

    /// The cylinder for each fragment, on the ray `eye + t·dir`: with `Q = |dir.xy|²`, the
    /// ray passes the axis at distance `h = |cross|/√Q` and is inside the infinite cylinder for
    /// `t = (dot ∓ √(r²Q − cross²))/Q`, and between the bottom and the top for the `t` of the
    /// slab; the first `t` in both is the hit, on a cap when the slab comes second. Coverage fades
    /// over a device pixel across the silhouette: by `r − h` (the sides) and by how far the two
    /// intervals overlap (the rims of the caps). The side's normal at the entry is
    /// `(t·dir.xy − axis)/r`, so its light term is `(t·dirLight − axisLight)/r`; lit as
    /// `solidFragment`, with the hit's own depth.
    static let cylinderFragment = """
        #version 300 es
        \(linearInterpolation)
        precision highp float;
        LINEAR in vec3 v_dir;
        LINEAR in vec4 v_lin;
        LINEAR in float v_w;
        flat in vec4 v_cyl;
        flat in vec4 v_shade;
        flat in vec4 v_color;
        #ifdef FOG
        flat in vec4 v_fog;
        #endif
        out vec4 fragColor;
        void main() {
            float r = v_cyl.x;
            // (A ray straight down the axis has Q = 0: the floor keeps it a cap hit, not NaN.)
            float q = max(dot(v_dir.xy, v_dir.xy), 1e-20);
            float iq = 1.0 / q;
            float cross2 = v_lin.x * v_lin.x;
            float h = sqrt(cross2 * iq);
            float root = sqrt(max(r * r * q - cross2, 0.0));
            float t0 = (v_lin.y - root) * iq, t1 = (v_lin.y + root) * iq;
            // The slab between bottom and top, in t (a level ray: all of t or none of it).
            float dz = abs(v_dir.z) < 1e-30 ? 1e-30 : v_dir.z;
            float idz = 1.0 / dz;
            float s0 = v_cyl.y * idz, s1 = v_cyl.z * idz;
            float lo = min(s0, s1), hi = max(s0, s1);
            float gap = min(t1, hi) - max(t0, lo);
            float cov = min(clamp((r - h) / max(fwidth(h), 1e-6) + 0.5, 0.0, 1.0),
                            clamp(gap / max(fwidth(gap), 1e-12) + 0.5, 0.0, 1.0));
            // Entering the slab after the cylinder: through a cap (the top looking down).
            float capAhead = lo - t0;
            bool cap = capAhead > 0.0;
            float t = cap ? lo : t0;
            float depth = (v_shade.z + t * v_lin.w) / (v_shade.w + t * v_w);
            if (cov <= 0.0 || t <= 0.0 || depth < -1.0 || depth > 1.0) discard;
            gl_FragDepth = depth * 0.5 + 0.5;
            // The rim between the cap and the side shares a pixel's area between the two: their
            // light mixed by how far the cap's share runs across the pixel. Measured in height:
            // how far the side's entry lies above the top (looking down) or below the bottom
            // (looking up), positive exactly where capAhead is, over the entry height's own
            // fwidth. Both stay smooth where the rays turn level; capAhead's slab entry runs off
            // to infinity there, and its fwidth with it (a seam of cap light at the eye's height).
            float entry = t0 * dz;
            float beyond = dz < 0.0 ? entry - v_cyl.z : v_cyl.y - entry;
            float capShare = clamp(beyond / max(fwidth(entry), 1e-12) + 0.5, 0.0, 1.0);
            float capLight = max(dz < 0.0 ? v_cyl.w : -v_cyl.w, 0.0);
            float sideLight = max((t0 * v_lin.z - v_shade.x) / r, 0.0);
            float shade = v_shade.y + (1.0 - v_shade.y) * mix(sideLight, capLight, capShare);
            fragColor = vec4(v_color.rgb * shade, v_color.a);
            #ifdef FOG
            fragColor.rgb = fragColor.rgb * v_fog.a + v_fog.rgb * fragColor.a;
            #endif
            fragColor *= cov;
        }
        """

    /// Screen-width ribbons (arcs): each point is projected with its neighbours; the vertex
    /// moves perpendicular to the ribbon's direction on screen by half the width (the command's
    /// `extrudeScale`, logical pixels), so the width is constant on screen at any pitch.
    static let ribbonVertex = """
        #version 300 es
        precision highp float;
        layout(location = 0) in vec3 a_pos;
        layout(location = 1) in vec3 a_prev;
        layout(location = 2) in vec3 a_next;
        layout(location = 3) in float a_side;
        layout(location = 4) in vec4 a_color;
        uniform mat4 u_matrix;
        uniform float u_worldSize;
        uniform float u_extrudeScale;
        uniform vec2 u_viewport;
        uniform float u_ratio;
        uniform float u_aa;
        uniform vec4 u_color;
        uniform float u_outer;
        out vec4 v_color;
        out float v_side;
        out float v_w;
        flat out vec4 v_tint;
        flat out vec2 v_aa;
        \(fogHeader)
        #ifdef FOG
        out vec4 v_fog;
        #endif
        void main() {
            vec4 c = u_matrix * vec4(a_pos.xy * u_worldSize, a_pos.z, 1.0);
            vec4 p = u_matrix * vec4(a_prev.xy * u_worldSize, a_prev.z, 1.0);
            vec4 n = u_matrix * vec4(a_next.xy * u_worldSize, a_next.z, 1.0);
            v_color = a_color;
            v_tint = u_color;
            v_aa = vec2(u_aa, u_outer);
            v_side = a_side;
            v_w = 1.0;
            #ifdef FOG
            v_fog = fogAt(u_matrix * vec4(a_pos.xy * u_worldSize, 0.0, 1.0));
            #endif
            if (c.w <= 0.0 || p.w <= 0.0 || n.w <= 0.0) { gl_Position = c; return; }
            vec2 dir = (n.xy / n.w - p.xy / p.w) * u_viewport;
            float len = length(dir);
            vec2 normal = len > 0.0 ? vec2(-dir.y, dir.x) / len : vec2(0.0);
            // With shader coverage, half a device pixel wider; the side fades over the outer pixel.
            float halfPx = u_extrudeScale * u_ratio + 0.5 * u_aa;
            vec2 offset = normal * a_side * halfPx * 2.0 / u_viewport;
            gl_Position = vec4(c.xy + offset * c.w, c.z, c.w);
            // Linear on screen (see groundScreenWidthVertex).
            v_side = a_side * c.w;
            v_w = c.w;
        }
        """

    static let ribbonFragment = """
        #version 300 es
        precision highp float;
        in vec4 v_color;
        in float v_side;
        in float v_w;
        flat in vec4 v_tint;
        flat in vec2 v_aa;
        #ifdef FOG
        in vec4 v_fog;
        #endif
        out vec4 fragColor;
        void main() {
            float cov = v_aa.x > 0.5 ? clamp((1.0 - abs(v_side / v_w)) * v_aa.y, 0.0, 1.0) : 1.0;
            fragColor = v_color * v_tint;
            #ifdef FOG
            fragColor.rgb = fragColor.rgb * v_fog.a + v_fog.rgb * fragColor.a;
            #endif
            fragColor *= cov;
        }
        """

    /// The sky above the horizon of a pitched view: a full-width quad from the top of the
    /// view down to `u_band` device pixels below the horizon at the far plane's depth, a
    /// gradient from the horizon colour up to the zenith colour, fading out (fog) below the
    /// horizon so the ground melts into it.
    static let skyVertex = """
        #version 300 es
        precision highp float;
        layout(location = 0) in vec2 a_pos;
        uniform float u_bottom;
        uniform float u_horizon;
        uniform float u_band;
        uniform float u_span;
        uniform vec4 u_zenith;
        uniform vec4 u_haze;
        flat out vec3 v_sky;
        flat out vec4 v_zenith;
        flat out vec4 v_haze;
        void main() {
            float y = a_pos.y > 0.0 ? 1.0 : u_bottom;
            gl_Position = vec4(a_pos.x, y, 1.0, 1.0);
            v_sky = vec3(u_horizon, u_band, u_span);
            v_zenith = u_zenith;
            v_haze = u_haze;
        }
        """

    static let skyFragment = """
        #version 300 es
        precision highp float;
        flat in vec3 v_sky;
        flat in vec4 v_zenith;
        flat in vec4 v_haze;
        out vec4 fragColor;
        void main() {
            float above = gl_FragCoord.y - v_sky.x;
            if (above >= 0.0) {
                float t = clamp(above / v_sky.z, 0.0, 1.0);
                fragColor = mix(v_haze, v_zenith, t * (2.0 - t));
            } else {
                float a = clamp(1.0 + above / v_sky.y, 0.0, 1.0);
                fragColor = v_haze * (a * (2.0 - a) * 0.5 + a * 0.5);
            }
        }
        """

    /// A full-frame quad giving back the frame as it was under a faded layer (see
    /// `MapRenderer.drawLayers`), pixel for pixel.
    static let underVertex = """
        #version 300 es
        layout(location = 0) in vec2 a_pos;
        void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
        """

    static let underFragment = """
        #version 300 es
        precision highp float;
        uniform highp sampler2D u_under;
        out vec4 fragColor;
        void main() { fragColor = texelFetch(u_under, ivec2(gl_FragCoord.xy), 0); }
        """

    /// `groundScreenWidthVertex` for a run of pixel discs drawn instanced (`ScreenBatch`): the
    /// anchor comes in clip space and the colour per part from the instance; `u_matrix` is the
    /// frame's matrix untranslated, for the directions it still maps. With the position 0 the
    /// arithmetic is `groundScreenWidthVertex`'s, so the pixels are the same.
    static let groundInstancedVertex = edited(groundScreenWidthVertex, [
        ("layout(location = 3) in float a_c;\n", "layout(location = 3) in float a_c;\nlayout(location = 4) in float a_part;\n\(instanceAttributes)"),
        ("vec4 c = u_matrix * vec4(p, 0.0, 1.0);", "vec4 c = a_clip;"),
        ("u_matrix * vec4(p + e, 0.0, 1.0)", "(a_clip + u_matrix * vec4(p + e, 0.0, 0.0))"),
        ("u_matrix * vec4(p + vec2(-u.y, u.x), 0.0, 1.0)", "(a_clip + u_matrix * vec4(p + vec2(-u.y, u.x), 0.0, 0.0))"),
        ("u_matrix * vec4(p + u, 0.0, 1.0)", "(a_clip + u_matrix * vec4(p + u, 0.0, 0.0))"),
        ("v_color = u_color;", "v_color = \(partColor);"),
    ])

    /// A run of two-part pixel circles drawn one square each (`ScreenBatch.pair`): what
    /// `groundInstancedVertex` does for a square round a point (`u_pointShape`, `u_discOutset`),
    /// without the branches for lines, joins and widths on the ground, which llvmpipe would run
    /// for every vertex; both parts' colours handed over. The square's corners move out by
    /// `u_discOutset` along their diagonals and are turned upright on screen with the map.
    static let groundPairVertex = """
        #version 300 es
        precision highp float;
        layout(location = 1) in vec2 a_extrude;
        \(instanceAttributes)
        uniform mat4 u_matrix;
        uniform float u_extrudeScale;
        uniform vec2 u_viewport;
        uniform float u_ratio;
        uniform vec2 u_screenAxes;
        uniform float u_discOutset;
        uniform float u_aa;
        uniform float u_outer;
        out vec2 v_ext;
        out float v_w;
        flat out vec4 v_color;
        flat out vec4 v_color1;
        flat out vec3 v_aa;
        void main() {
            vec2 e = a_extrude * u_extrudeScale;
            float len = length(e);
            if (len > 0.0) e *= (len + u_discOutset) / len;
            vec4 c = a_clip;
            vec2 s = vec2(e.x * u_screenAxes.x - e.y * u_screenAxes.y, e.x * u_screenAxes.y + e.y * u_screenAxes.x);
            gl_Position = c.w > 0.0 ? vec4(c.xy + s * vec2(1.0, -1.0) * u_ratio * 2.0 / u_viewport * c.w, c.z, c.w)
                                    : a_clip + u_matrix * vec4(e, 0.0, 0.0);
            // Multiplied by w here and divided by the interpolated w per fragment: linear on screen.
            float k = c.w > 0.0 ? gl_Position.w : 1.0;
            v_ext = e * k;
            v_w = k;
            v_color = a_color0;
            v_color1 = a_color1;
            v_aa = vec3(u_aa, u_outer, u_ratio);
        }
        """

    /// Two pixel discs or rings about one centre in one square (`ScreenBatch.pair`): each part's
    /// coverage from the distance to the centre, as `groundDiscFragment` has it (`u_pair`: the
    /// first part's inner and outer radii in logical pixels, then the second's; inner < 0: a
    /// disc), the second part laid over the first, premultiplied.
    static let groundPairFragment = """
    \(groundFragmentHeader)
    in vec2 v_ext;
    in float v_w;
    flat in vec4 v_color1;
    uniform vec4 u_pair;
    float part(float r, float inner, float outer, float ratio) {
        float c = clamp(outer * ratio + 0.5 - r, 0.0, 1.0);
        if (inner >= 0.0) c *= clamp(r - inner * ratio + 0.5, 0.0, 1.0);
        return c;
    }
    void main() {
        float ratio = v_aa.z;
        float r = length(v_ext) / v_w * ratio;
        vec4 top = v_color1 * part(r, u_pair.z, u_pair.w, ratio);
        fragColor = top + v_color * part(r, u_pair.x, u_pair.y, ratio) * (1.0 - top.a);
    }
    """

    /// Ground geometry with extrusions widened on screen: the extrusion's ground tangent is
    /// projected to find the line's direction on screen, and the vertex moves perpendicular to it
    /// by the extrusion's length in logical pixels, so a 4 px line is 4 px wide everywhere on a
    /// pitched view (widening on the ground plane would thin it towards the horizon). At pitch 0
    /// this is the same as widening on the ground. Meshes whose vertices all sit on the origin
    /// (pixel circles, dots: `u_pointShape`) are offset upright on screen, turned by the bearing
    /// (`u_screenAxes` = (cos, sin) of −bearing), so they stay round under pitch. Widths in metres
    /// (`u_onGround`) are widened on the ground plane as they are.
    static let groundScreenWidthVertex = """
        #version 300 es
        precision highp float;
        layout(location = 0) in vec2 a_pos;
        layout(location = 1) in vec2 a_extrude;
        layout(location = 2) in float a_dist;
        layout(location = 3) in float a_c;
        uniform mat4 u_matrix;
        uniform float u_worldSize;
        uniform float u_extrudeScale;
        uniform vec2 u_viewport;
        uniform float u_ratio;
        uniform float u_pointShape;
        uniform float u_onGround;
        uniform vec2 u_screenAxes;
        uniform float u_discOutset;
        uniform float u_sectorJoins;
        uniform vec4 u_color;
        uniform float u_aa;
        uniform float u_outer;
        out float v_dist;
        out vec2 v_ext;
        out float v_c;
        out float v_w;
        flat out float v_inner;
        // The fragment shaders' constants, handed over flat (see `Shaders.groundFragmentHeader`).
        flat out vec4 v_color;
        flat out vec3 v_aa;
        // Where the vertex lands; `screen` is true when its extrusion was made on screen (then the
        // antialiasing varyings must interpolate linearly on screen, not in perspective).
        vec4 place(vec2 p, vec2 e, float len, bool disc, bool sector, out bool screen) {
            vec4 c = u_matrix * vec4(p, 0.0, 1.0);
            // Every vertex of a screen-width mesh (centres of fans included) says "screen", so a
            // triangle never mixes the two interpolations.
            screen = u_onGround < 0.5 && c.w > 0.0;
            // A round join's triangle (across coordinate 4 and more): on screen, so the disc its
            // coverage cuts out is round on screen at any pitch; a sector (pitch 0) turned with the
            // map, as the segments are, so it fills the wedge they leave open.
            if (disc && screen && u_pointShape < 0.5) {
                vec2 s = sector ? vec2(e.x * u_screenAxes.x - e.y * u_screenAxes.y, e.x * u_screenAxes.y + e.y * u_screenAxes.x)
                                  * vec2(1.0, -1.0) : e;
                return vec4(c.xy + s * u_ratio * 2.0 / u_viewport * c.w, c.z, c.w);
            }
            if (u_pointShape > 0.5 && c.w > 0.0) {
                // A shape around one point (pixel circle, dot): upright on screen, turned with the map.
                vec2 s = vec2(e.x * u_screenAxes.x - e.y * u_screenAxes.y, e.x * u_screenAxes.y + e.y * u_screenAxes.x);
                return vec4(c.xy + s * vec2(1.0, -1.0) * u_ratio * 2.0 / u_viewport * c.w, c.z, c.w);
            }
            if (len <= 0.0 || c.w <= 0.0 || u_onGround > 0.5) return u_matrix * vec4(p + e, 0.0, 1.0);
            vec2 u = e / len;
            vec4 ct = u_matrix * vec4(p + vec2(-u.y, u.x), 0.0, 1.0);
            vec4 ce = u_matrix * vec4(p + u, 0.0, 1.0);
            if (ct.w <= 0.0 || ce.w <= 0.0) return u_matrix * vec4(p + e, 0.0, 1.0);
            vec2 s0 = c.xy / c.w;
            vec2 st = (ct.xy / ct.w - s0) * u_viewport;
            vec2 se = (ce.xy / ce.w - s0) * u_viewport;
            vec2 n = vec2(-st.y, st.x);
            float nl = length(n);
            if (nl <= 0.0) return u_matrix * vec4(p + e, 0.0, 1.0);
            n /= nl;
            if (dot(n, se) < 0.0) n = -n;
            vec2 offset = n * len * u_ratio * 2.0 / u_viewport;
            return vec4(c.xy + offset * c.w, c.z, c.w);
        }
        void main() {
            vec2 p = a_pos * u_worldSize;
            v_dist = a_dist * u_worldSize;
            v_inner = a_dist;
            v_color = u_color;
            v_aa = vec3(u_aa, u_outer, u_ratio);
            // A round join's sector corner (across coordinate 5, 6, 7) where the view is pitched:
            // the corresponding corner of the triangle round the whole disc (see `LineStroker`).
            vec2 ext = a_extrude;
            // (Pixel discs and rings carry their radius there instead: not joins.)
            bool sector = u_pointShape < 0.5 && u_discOutset <= 0.0 && a_c > 4.5 && a_c < 7.5;
            if (sector && u_sectorJoins < 0.5) {
                // Two half widths out at 90°, 210° and 330° (no trigonometry per vertex).
                ext = a_c < 5.5 ? vec2(0.0, 2.0) : vec2(a_c < 6.5 ? -1.7320508 : 1.7320508, -1.0);
            }
            vec2 e = ext * u_extrudeScale;
            float len = length(e);
            if (u_discOutset > 0.0 && len > 0.0) {
                // Pixel discs and rings (radii in a_c and a_dist): the outer rim moves out and the
                // inner rim in by u_discOutset logical pixels, so the fragments cover the true circle.
                bool inner = a_dist >= 0.0 && len < 0.5 * (a_dist + a_c);
                float grown = inner ? max(len - u_discOutset, 0.0) : len + u_discOutset;
                e *= grown / len;
                len = grown;
            }
            bool screen;
            gl_Position = place(p, e, len, a_c > 3.0, sector && u_sectorJoins > 0.5, screen);
            // Multiplied by w here and divided by the interpolated w per fragment: linear on screen.
            float k = screen ? gl_Position.w : 1.0;
            v_ext = (u_discOutset > 0.0 ? e : ext) * k;
            v_c = a_c * k;
            v_w = k;
        }
        """
}
