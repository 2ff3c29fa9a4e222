import CEGL
import MapRender

/// Runs of markers drawn as one instanced draw each.
///
/// A marker is one to three consecutive commands at one origin (a pin's white outline, coloured
/// body and white dot; an arrow's two parts; an icon's quad; a dot's white ring and coloured
/// disc, which are ground discs drawn upright on screen). Thousands of markers with
/// the same meshes follow each other in a plan, and drawing each command on its own costs a
/// draw call and its uniforms every time: on llvmpipe about 8 µs, most of the time of a map of
/// many pins. A run of such markers becomes one `glDrawElementsInstanced` over the parts' meshes
/// joined into one (each vertex knows its part), with each marker's anchor in clip space and its
/// parts' colours as instance attributes. Instances are drawn in order and a marker's parts in
/// order within it, so the painter's order is the plan's and the pixels are the same as drawing
/// the commands one by one (`Shaders.screenInstancedVertex` does the same arithmetic as
/// `Shaders.screenVertex`).
///
/// Drawn that way a pin is still some 370 triangles, and llvmpipe's cost is then their set-up:
/// 20 000 pins took 0.9 s. Without multisampling a run of untextured shapes is stamped
/// instead: since a shape's anchor lands on a whole pixel, each part covers the same pixels by
/// the same amounts wherever the marker is, so that coverage is drawn once (each part into a
/// channel of a small texture, by the same shader and rasteriser) and every marker becomes one
/// quad that mixes its parts' colours by it, in the parts' order (`Shaders.stampFragment`):
/// 2 triangles a marker, the same pixels within two levels (the 8-bit rounding of the coverage,
/// and one rounding of the framebuffer where there were one per part). A pin with a glyph or
/// symbol (shapes, then a sprite) is stamped too: the stamp's shader lays the sprite's texel
/// over the shapes' colours (`spriteLast`, `spriteRect`).
enum ScreenBatch {
    /// Most parts to a marker (the instance attributes hold this many colours).
    static let maxParts = 3
    /// Fewest markers worth a batch: below it the draw calls cost less than compiling the two
    /// programs a cold process would need (about 1.5 ms each on llvmpipe), and a map of a few
    /// markers stays exactly as drawn one by one.
    static let minMarkers = 16
    /// Floats per instance: the anchor in clip space, then a colour per part.
    static let instanceStride = 4 + 4 * maxParts

    /// A run: `markers` markers of `parts` commands each, from command `start`.
    struct Run: Equatable {
        var start: Int
        var parts: Int
        var markers: Int
        var commands: Int { parts * markers }
    }

    /// Whether a command may be part of a run: a mesh anchored at its origin (every vertex's
    /// position is the origin; only its pixel offsets differ) and no once-per-pixel stencil (the
    /// renderer's own rules): a screen mesh, opaque if it is a fringed shape that asks to be
    /// blended once; or a pixel disc or ring on the ground program (`Coverage.disc`, no dashes,
    /// fade or fringe, its width on screen), opaque or not: a pixel circle's fill and rim, a
    /// dot's ring and disc. Their meshes are squares or polygons whose triangles do not
    /// overlap, so each pixel is blended once per part either way.
    static func joinable(_ cmd: DrawCommand, anchored: (Mesh) -> Bool) -> Bool {
        guard !cmd.mesh.indices.isEmpty else { return false }
        let opaque = cmd.color.premultiplied.3 >= 1
        switch cmd.mesh.layout {
        case .screen:
            guard !cmd.blendOnce || (opaque && cmd.coverage == .shape) else { return false }
        case .ground:
            guard cmd.coverage == .disc, cmd.texture == nil, cmd.dash.isEmpty, cmd.fadeLength <= 0,
                  !cmd.widthOnGround, cmd.mesh.fringeStart == nil else { return false }
        default:
            return false
        }
        return anchored(cmd.mesh)
    }

    /// The run that starts at command `i`, or nil when fewer than `least` markers follow each
    /// other there. The marker's part count is the smallest (1…`maxParts`) for which the next
    /// marker repeats the first: the same meshes, textures and coverage in the same order, each
    /// marker's parts at one origin.
    ///
    /// With `sprites` (a single-sampled target, where runs of shapes are stamped) a marker may
    /// also be fringed shapes followed by one sprite (`spriteLast`: a pin with a glyph or a
    /// symbol in its head), the sprite's image the same for every marker of the run.
    static func run(in cmds: [DrawCommand], from i: Int, least: Int = minMarkers, sprites: Bool = false,
                    joinable: (Int) -> Bool) -> Run? {
        guard i < cmds.count, joinable(i) else { return nil }
        func same(_ a: DrawCommand, _ b: DrawCommand) -> Bool {
            a.mesh === b.mesh && a.texture === b.texture && a.coverage == b.coverage && a.extrudeScale == b.extrudeScale
        }
        // Whether the marker of `parts` commands at `at` repeats the first one.
        func repeats(_ at: Int, _ parts: Int) -> Bool {
            guard at + parts <= cmds.count else { return false }
            let origin = cmds[at].origin
            for j in 0 ..< parts {
                let c = cmds[at + j]
                guard same(c, cmds[i + j]), c.origin == origin, joinable(at + j) else { return false }
            }
            return true
        }
        // The first marker's own parts share one texture (nil or one image), so one is bound, and
        // one program (layout) and extrusion scale.
        for parts in 1 ... maxParts {
            guard repeats(i, parts) else { break }
            let first = cmds[i]
            let uniform = (1 ..< parts).allSatisfy({
                let c = cmds[i + $0]
                return c.texture === first.texture && c.mesh.layout == first.mesh.layout && c.extrudeScale == first.extrudeScale
            })
            // Shapes, then a sprite: only as a stamp, and only as the marker's last part.
            let mixed = !uniform && sprites && spriteLast(Array(cmds[i ..< i + parts]))
            guard uniform || mixed else { break }
            guard repeats(i + parts, parts) else { continue }
            var markers = 2
            while repeats(i + markers * parts, parts) { markers += 1 }
            return markers >= max(least, 2) ? Run(start: i, parts: parts, markers: markers) : nil
        }
        return nil
    }

    /// Whether a run can be stamped: untextured fringed shapes (pins, arrows), or such shapes
    /// and a sprite last (`spriteLast`), and a single-sampled target.
    static func stampable(_ parts: [DrawCommand], samples: Int) -> Bool {
        samples <= 1 && (parts.allSatisfy(isShape) || spriteLast(parts))
    }

    /// A marker of two pixel squares (`RenderPlanner.pixelQuad`: a pixel circle's fill and rim,
    /// a dot's white ring and coloured disc), which a single-sampled target draws as one square
    /// each: the larger part's, its fragment shader (`Shaders.groundPairFragment`) covering both
    /// parts by the distance to the centre and laying the second over the first, as drawing them
    /// one after the other does. Half the triangles (whose set-up is most of what a run of small
    /// circles costs llvmpipe) and the smaller square's fragments saved; the pixels those of
    /// drawing both within a level (one rounding of the framebuffer where there were two).
    /// The parts' inner and outer radii in logical pixels (inner −1: a disc), and which part's
    /// square holds both; nil unless both parts are such squares.
    static func pair(_ parts: [DrawCommand]) -> (radii: (Float, Float, Float, Float), cover: Int)? {
        guard parts.count == 2 else { return nil }
        let s = VertexLayout.ground.stride
        var radii: [(inner: Float, outer: Float)] = []
        for p in parts {
            let v = p.mesh.vertices
            guard p.mesh.layout == .ground, p.coverage == .disc, v.count == 4 * s, p.mesh.indices.count == 6 else { return nil }
            let inner = v[4], outer = v[5]
            // A square of half side `outer` round the origin, every corner carrying both radii.
            for k in 0 ..< 4 {
                guard v[k * s] == 0, v[k * s + 1] == 0, abs(v[k * s + 2]) == outer, abs(v[k * s + 3]) == outer,
                      v[k * s + 4] == inner, v[k * s + 5] == outer else { return nil }
            }
            guard outer > 0, inner < outer else { return nil }
            radii.append((inner, outer))
        }
        return ((radii[0].inner, radii[0].outer, radii[1].inner, radii[1].outer), radii[1].outer > radii[0].outer ? 1 : 0)
    }

    static func isShape(_ c: DrawCommand) -> Bool { c.mesh.layout == .screen && c.texture == nil && c.coverage == .shape }

    /// Fringed shapes, then one screen sprite (a textured quad, not itself a shape): a pin and
    /// the glyph or symbol in its head.
    static func spriteLast(_ parts: [DrawCommand]) -> Bool {
        guard parts.count >= 2, let last = parts.last else { return false }
        return parts.dropLast().allSatisfy(isShape) && last.mesh.layout == .screen && last.texture != nil
            && last.coverage != .shape && last.mesh.vertices.count == 4 * VertexLayout.screen.stride
    }

    /// Where a stamped marker's sprite lies in its stamp, in device pixels from the stamp box's
    /// corner (y up), as `Shaders.screenVertex` would place it about the snapped anchor: nil
    /// unless that is a whole-pixel rectangle the image's size, upright (texture coordinates
    /// (0, 0) at its top-left), so that each pixel shows one texel as drawing the quad does.
    static func spriteRect(_ quad: DrawCommand, ratio: Double, box: (x: Int, y: Int, width: Int, height: Int))
        -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let image = quad.texture else { return nil }
        let s = VertexLayout.screen.stride, v = quad.mesh.vertices
        guard v.count == 4 * s else { return nil }
        var xs: [Double] = [], ys: [Double] = []
        for k in 0 ..< 4 {
            // Device pixels about the anchor, y up, as the vertex shader adds them.
            let x = Double(v[k * s + 2]) * ratio, y = -Double(v[k * s + 3]) * ratio
            guard abs(x - x.rounded()) < 1e-3, abs(y - y.rounded()) < 1e-3 else { return nil }
            xs.append(x.rounded()); ys.append(y.rounded())
            // Upright: u grows with x, v (image rows, top first) against y.
            let u = Double(v[k * s + 4]), t = Double(v[k * s + 5])
            guard u == 0 || u == 1, t == 0 || t == 1 else { return nil }
        }
        let x0 = xs.min()!, x1 = xs.max()!, y0 = ys.min()!, y1 = ys.max()!
        for k in 0 ..< 4 {
            let u = Double(v[k * s + 4]), t = Double(v[k * s + 5])
            guard xs[k] == (u == 0 ? x0 : x1), ys[k] == (t == 0 ? y1 : y0) else { return nil }
        }
        guard Int(x1 - x0) == image.width, Int(y1 - y0) == image.height else { return nil }
        let r = (x: Int(x0) - box.x, y: Int(y0) - box.y, width: image.width, height: image.height)
        guard r.x >= 0, r.y >= 0, r.x + r.width <= box.width, r.y + r.height <= box.height else { return nil }
        return r
    }

    /// The pixel box round a marker's parts, relative to its snapped anchor in GL window
    /// coordinates (y up), at `ratio` device pixels per logical pixel, with two pixels to spare:
    /// (left, bottom, width, height).
    static func stampBox(_ parts: [DrawCommand], ratio: Double) -> (x: Int, y: Int, width: Int, height: Int) {
        let s = VertexLayout.screen.stride
        var lo = (Double.infinity, Double.infinity), hi = (-Double.infinity, -Double.infinity)
        for cmd in parts {
            let v = cmd.mesh.vertices
            var k = 0
            while k + s <= v.count {
                let x = Double(v[k + 2]) * ratio, y = -Double(v[k + 3]) * ratio
                lo = (min(lo.0, x), min(lo.1, y)); hi = (max(hi.0, x), max(hi.1, y))
                k += s
            }
        }
        guard lo.0.isFinite, hi.0.isFinite, lo.1.isFinite, hi.1.isFinite else { return (0, 0, 1, 1) }
        let x0 = Int(lo.0.rounded(.down)) - 2, y0 = Int(lo.1.rounded(.down)) - 2
        let x1 = Int(hi.0.rounded(.up)) + 2, y1 = Int(hi.1.rounded(.up)) + 2
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// Points the instance attributes (locations 5…8: the anchor in clip space and a colour per
    /// part) of `vao` at `buffer`, one set per instance.
    static func bindInstanceAttributes(vao: GLuint, buffer: GLuint) {
        glBindVertexArray(vao)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        let stride = GLsizei(instanceStride * 4)
        for k in 0 ... maxParts {
            let loc = GLuint(5 + k)
            glEnableVertexAttribArray(loc)
            glVertexAttribPointer(loc, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride,
                                  UnsafeRawPointer(bitPattern: 16 * k))
            glVertexAttribDivisor(loc, 1)
        }
        glBindVertexArray(0)
    }

    /// Floats a vertex of a joined mesh: the layout's, then the part's index, and for screen
    /// meshes whether the part is a fringed shape.
    static func joinedStride(_ layout: VertexLayout) -> Int { layout.stride + (layout == .screen ? 2 : 1) }

    /// The vertices of the parts' meshes (one layout) joined, each followed by its part's index
    /// (and, on screen, whether it is a fringed shape, `Coverage.shape`), and their indices
    /// rebased.
    static func joined(_ parts: [DrawCommand]) -> (vertices: [Float], indices: [UInt32]) {
        let layout = parts[0].mesh.layout
        let s = layout.stride, out = joinedStride(layout)
        var v: [Float] = [], idx: [UInt32] = []
        v.reserveCapacity(parts.reduce(0) { $0 + $1.mesh.vertices.count / s * out })
        for (j, cmd) in parts.enumerated() {
            let base = UInt32(v.count / out)
            let m = cmd.mesh.vertices
            let shape: Float = cmd.coverage == .shape ? 1 : 0
            var k = 0
            while k + s <= m.count {
                v.append(contentsOf: m[k ..< k + s])
                v.append(Float(j))
                if layout == .screen { v.append(shape) }
                k += s
            }
            idx.append(contentsOf: cmd.mesh.indices.map { $0 + base })
        }
        return (v, idx)
    }
}

/// The joined meshes of a run's marker, with the instance attributes read from a shared buffer.
/// Holds the parts' meshes so their identities stay unique.
final class GPUScreenBatch {
    let meshes: [Mesh]
    let arrays: GPUArrays
    /// Each part's indices in the joined mesh: first index and count.
    let partRanges: [(start: Int, count: Int)]
    var lastFrame: Int
    /// The parts' coverage, one per channel, at one pixel ratio (see `ScreenBatch`).
    var stamp: Stamp?

    /// A texture holding a marker's coverage: red the first part's, green the second's, blue
    /// the third's; the anchor is at texel corner (−x, −y).
    final class Stamp {
        let ratio: Double
        let x: Int, y: Int, width: Int, height: Int
        var texture: GLuint = 0
        var framebuffer: GLuint = 0

        init(ratio: Double, box: (x: Int, y: Int, width: Int, height: Int)) {
            self.ratio = ratio
            (x, y, width, height) = box
            glGenTextures(1, &texture)
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
            for p in [GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER] {
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(p), GL_NEAREST)
            }
            for p in [GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T] {
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(p), GL_CLAMP_TO_EDGE)
            }
            glGenFramebuffers(1, &framebuffer)
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
            glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        }

        deinit {
            glDeleteFramebuffers(1, &framebuffer)
            glDeleteTextures(1, &texture)
        }
    }

    init(_ parts: [DrawCommand], instanceBuffer: GLuint, frame: Int) {
        meshes = parts.map(\.mesh)
        lastFrame = frame
        let (v, idx) = ScreenBatch.joined(parts)
        var ranges: [(Int, Int)] = [], start = 0
        for cmd in parts {
            ranges.append((start, cmd.mesh.indices.count))
            start += cmd.mesh.indices.count
        }
        partRanges = ranges
        // Screen: offset, uv, part, shape (the position is 0 and unread); ground: the ground
        // layout's four attributes, then the part.
        arrays = parts[0].mesh.layout == .screen
            ? GPUArrays(vertices: v, indices: idx, stride: 8, attributes: [(1, 2, 8), (2, 2, 16), (3, 1, 24), (4, 1, 28)])
            : GPUArrays(vertices: v, indices: idx, stride: 7, attributes: [(0, 2, 0), (1, 2, 8), (2, 1, 16), (3, 1, 20), (4, 1, 24)])
        ScreenBatch.bindInstanceAttributes(vao: arrays.vao, buffer: instanceBuffer)
    }
}
