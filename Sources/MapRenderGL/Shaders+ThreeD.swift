/// Shaders for the 3D part of a frame: lit solids, screen-width ribbons and the sky.
extension Shaders {
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
        out float v_shade;
        void main() {
            gl_Position = u_matrix * vec4(a_pos.xy * u_worldSize, a_pos.z, 1.0);
            float diffuse = max(dot(normalize(a_normal), u_light), 0.0);
            v_shade = u_ambient + (1.0 - u_ambient) * diffuse;
        }
        """

    static let solidFragment = """
        #version 300 es
        precision highp float;
        uniform vec4 u_color;
        in float v_shade;
        out vec4 fragColor;
        void main() {
            fragColor = vec4(u_color.rgb * v_shade, u_color.a);
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
        out vec4 v_color;
        out float v_side;
        out float v_w;
        void main() {
            vec4 c = u_matrix * vec4(a_pos.xy * u_worldSize, a_pos.z, 1.0);
            vec4 p = u_matrix * vec4(a_prev.xy * u_worldSize, a_prev.z, 1.0);
            vec4 n = u_matrix * vec4(a_next.xy * u_worldSize, a_next.z, 1.0);
            v_color = a_color;
            v_side = a_side;
            v_w = 1.0;
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
        uniform vec4 u_color;
        uniform float u_aa;
        uniform float u_outer;
        in vec4 v_color;
        in float v_side;
        in float v_w;
        out vec4 fragColor;
        void main() {
            float cov = u_aa > 0.5 ? clamp((1.0 - abs(v_side / v_w)) * u_outer, 0.0, 1.0) : 1.0;
            fragColor = v_color * u_color * cov;
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
        void main() {
            float y = a_pos.y > 0.0 ? 1.0 : u_bottom;
            gl_Position = vec4(a_pos.x, y, 1.0, 1.0);
        }
        """

    static let skyFragment = """
        #version 300 es
        precision highp float;
        uniform float u_horizon;
        uniform float u_band;
        uniform float u_span;
        uniform vec4 u_zenith;
        uniform vec4 u_haze;
        out vec4 fragColor;
        void main() {
            float above = gl_FragCoord.y - u_horizon;
            if (above >= 0.0) {
                float t = clamp(above / u_span, 0.0, 1.0);
                fragColor = mix(u_haze, u_zenith, t * (2.0 - t));
            } else {
                float a = clamp(1.0 + above / u_band, 0.0, 1.0);
                fragColor = u_haze * (a * (2.0 - a) * 0.5 + a * 0.5);
            }
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
        out float v_dist;
        out vec2 v_ext;
        out float v_c;
        out float v_w;
        flat out float v_inner;
        // Where the vertex lands; `screen` is true when its extrusion was made on screen (then the
        // antialiasing varyings must interpolate linearly on screen, not in perspective).
        vec4 place(vec2 p, vec2 e, float len, bool disc, out bool screen) {
            vec4 c = u_matrix * vec4(p, 0.0, 1.0);
            // Every vertex of a screen-width mesh (centres of fans included) says "screen", so a
            // triangle never mixes the two interpolations.
            screen = u_onGround < 0.5 && c.w > 0.0;
            // A round join's triangle (across coordinate 4): on screen as it is, so the disc
            // its coverage cuts out is round on screen at any pitch.
            if (disc && screen && u_pointShape < 0.5) return vec4(c.xy + e * u_ratio * 2.0 / u_viewport * c.w, c.z, c.w);
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
            vec2 e = a_extrude * u_extrudeScale;
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
            gl_Position = place(p, e, len, a_c > 3.0, screen);
            // Multiplied by w here and divided by the interpolated w per fragment: linear on screen.
            float k = screen ? gl_Position.w : 1.0;
            v_ext = (u_discOutset > 0.0 ? e : a_extrude) * k;
            v_c = a_c * k;
            v_w = k;
        }
        """
}
