import CEGL
import Foundation
import MapCamera
import MapRender
import MapScene

/// How a frame with 3D content is put together: which commands go in which pass, the light
/// and the sky.
enum ThreeD {
    /// The share of a solid's colour it keeps facing away from the light.
    static let ambient: Float = 0.45

    /// The commands of a plan sorted into passes (each in plan order).
    struct Passes {
        /// Flat layers (ground meshes, and sprites when nothing is deferred), in plan order.
        var flat: [DrawCommand] = []
        /// Opaque solids and ribbons: after the flat layers and the sky, depth-tested and written.
        var opaque: [DrawCommand] = []
        /// Translucent solids and ribbons: after the opaque ones, depth-tested, not written.
        var translucent: [DrawCommand] = []
        /// Sprites, dots and pixel circles, deferred to the top when a sky or 3D content is drawn.
        var sprites: [DrawCommand] = []
    }

    /// Splits the plan. Without 3D content and sky every command stays in `flat`, in order.
    static func passes(_ plan: RenderPlan, sky: Bool) -> Passes {
        var p = Passes()
        let defer3D = sky || plan.commands.contains { [.solid, .cylinder, .ribbon].contains($0.mesh.layout) }
        // A flat frame: every command flat, in order (the array shared, not copied command by command).
        guard defer3D else {
            p.flat = plan.commands
            return p
        }
        for cmd in plan.commands {
            switch cmd.mesh.layout {
            case .ground:
                // Dots and pixel circles stand upright like sprites: on top, not fogged.
                if defer3D && isPointShape(cmd.mesh) { p.sprites.append(cmd) } else { p.flat.append(cmd) }
            case .screen: if defer3D { p.sprites.append(cmd) } else { p.flat.append(cmd) }
            case .raster, .convexFill, .wedgeFill: p.flat.append(cmd)
            case .solid, .cylinder, .ribbon:
                if isOpaque(cmd) { p.opaque.append(cmd) } else { p.translucent.append(cmd) }
            }
        }
        return p
    }

    /// True when every vertex of a ground mesh sits on its origin (stops at the first that does not).
    static func isPointShape(_ mesh: Mesh) -> Bool {
        mesh.layout == .ground && !mesh.vertices.isEmpty && mesh.isAnchored
    }

    private static func isOpaque(_ cmd: DrawCommand) -> Bool {
        guard cmd.color.a == 255 else { return false }
        guard cmd.mesh.layout == .ribbon else { return true }
        let v = cmd.mesh.vertices, s = cmd.mesh.layout.stride
        for i in stride(from: s - 1, to: v.count, by: s) where v[i] < 1 { return false }
        return true
    }

    /// Turns back-face culling of solids on or off. Solid meshes wind their faces counter-clockwise
    /// about the normal in the map frame (x east, y south, z up: left-handed), which the camera's
    /// y flip makes clockwise in GL window coordinates.
    static func cullBackFaces(_ on: Bool) {
        if on {
            glEnable(GLenum(GL_CULL_FACE))
            glCullFace(GLenum(GL_BACK))
            glFrontFace(GLenum(GL_CW))
        } else {
            glDisable(GLenum(GL_CULL_FACE))
        }
    }

    /// The inverse of a column-major 4×4 matrix (Gauss–Jordan elimination with partial
    /// pivoting), or nil when it is singular or not finite.
    static func inverse(_ m: [Double]) -> [Double]? {
        guard m.count == 16, m.allSatisfy(\.isFinite) else { return nil }
        // Rows of [A | I], A[r][c] = m[c * 4 + r].
        var a = (0 ..< 4).map { r in (0 ..< 4).map { m[$0 * 4 + r] } + (0 ..< 4).map { $0 == r ? 1.0 : 0.0 } }
        for col in 0 ..< 4 {
            guard let pivot = (col ..< 4).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), a[pivot][col] != 0 else {
                return nil
            }
            a.swapAt(col, pivot)
            let p = a[col][col]
            a[col] = a[col].map { $0 / p }
            for r in 0 ..< 4 where r != col {
                let f = a[r][col]
                if f != 0 { a[r] = zip(a[r], a[col]).map { $0 - f * $1 } }
            }
        }
        let out = (0 ..< 16).map { a[$0 % 4][4 + $0 / 4] }
        return out.allSatisfy(\.isFinite) ? out : nil
    }

    /// The unit direction towards the light in the map frame (x east, y south, z up): fixed to the
    /// viewport, from the viewer's front left and above, so the sides facing the viewer are lit
    /// unevenly (left brighter than right) and the tops brightest, at every bearing.
    static func light(bearing: Double) -> (Float, Float, Float) {
        let b = (bearing.isFinite ? bearing : 0) * .pi / 180
        // Screen right and screen up (away from the viewer) in the map frame.
        let right = (cos(b), sin(b)), up = (sin(b), -cos(b))
        let x = -0.6 * right.0 - 0.4 * up.0, y = -0.6 * right.1 - 0.4 * up.1, z = 1.0
        let l = (x * x + y * y + z * z).squareRoot()
        return (Float(x / l), Float(y / l), Float(z / l))
    }

    /// The sky of a pitched view.
    struct Sky {
        /// Screen y of the horizon, logical pixels.
        var horizonY: Double
        /// Depth of the fog below the horizon, logical pixels.
        var band: Double
        /// Colour high above the horizon.
        var zenith: Color
        /// Colour at the horizon (and of the fog).
        var haze: Color

        /// The horizon's y and the fog's depth in GL window coordinates (device pixels from the
        /// bottom of a frame `height` device pixels high): what the sky quad and the fogged 3D
        /// programs both take, so a 3D object fades exactly as the ground at its foot.
        func window(height: Int, ratio: Double) -> (horizon: Float, band: Float) {
            (Float(height) - Float(horizonY * ratio), Float(band * ratio))
        }
    }

    /// The sky for a camera, or nil when the horizon and its fog are out of view. Light skies
    /// over light backgrounds, dark ones over dark backgrounds (luminance below 0.35). The fog
    /// reaches a fifth of the view's height below the horizon, but never past halfway from the
    /// horizon to the centre of the view (as MapLibre's sky blends its fog from halfway between
    /// the centre and the horizon): what the camera looks at stays clear at any pitch.
    static func sky(camera: Camera, background: Color) -> Sky? {
        let hy = camera.horizonY
        let band = min(max(24, camera.size.height * 0.2), max(8, (camera.centerPoint.y - hy) / 2))
        guard hy.isFinite, hy + band > 0 else { return nil }
        let lum = (0.2126 * Double(background.r) + 0.7152 * Double(background.g) + 0.0722 * Double(background.b)) / 255
        let dark = background.a > 0 && lum < 0.35
        return Sky(
            horizonY: hy, band: band,
            zenith: dark ? Color(rgb: 0x0B1422) : Color(rgb: 0x8DBDEB),
            haze: dark ? Color(rgb: 0x2A3446) : Color(rgb: 0xE4EDF4))
    }
}

/// A full-width quad (two triangles, x and y in −1…1) for the sky.
struct GPUQuad {
    private var vao: GLuint = 0
    private var buffer: GLuint = 0

    mutating func draw() {
        if vao == 0 {
            glGenVertexArrays(1, &vao)
            glGenBuffers(1, &buffer)
            glBindVertexArray(vao)
            glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
            let v: [Float] = [-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1]
            v.withUnsafeBytes {
                glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW))
            }
            glEnableVertexAttribArray(0)
            glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 8, nil)
        }
        glBindVertexArray(vao)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 6)
        glBindVertexArray(0)
    }

    mutating func release() {
        if vao != 0 { glDeleteVertexArrays(1, &vao); glDeleteBuffers(1, &buffer) }
        vao = 0; buffer = 0
    }
}
