import CEGL
import MapRender
import MapScene

/// Runs of sprites with images of their own (labels, place names, symbols) drawn from one
/// texture in one instanced draw.
///
/// Each label is a textured quad with its own image, so drawing a map's names costs a draw call
/// and a texture switch each: on llvmpipe about 7 µs for the call and 14 µs more for the switch
/// (550 labels of one image took 4 ms of drawing, 550 different ones 13 ms). The renderer packs the
/// images of such runs into one texture at the start of the frame (`prepare`, so that no upload
/// lands between two draws that read it) and draws each run of at least `minSprites` of them as
/// instances of a unit square: the anchor in clip space, the tint, the quad's offsets and the
/// image's place in the atlas per instance (`Shaders.spriteAtlasVertex`, the same arithmetic as
/// `Shaders.screenVertex`, so every sprite lands on the pixels it did).
///
/// Only sprites drawn one texel to a device pixel, upright, take part (`atlasQuad`): their
/// texels are read at their centres, nearest, and are the texels the sprite's own texture gave.
/// Turned sprites, line labels in pieces, images drawn scaled and large images are drawn as before.
final class SpriteAtlas {
    /// The atlas's side in texels (a 4 MB texture, made on first use).
    static let side = 1024
    /// Largest image taken, texels; larger ones keep a texture of their own.
    static let maxWidth = 256, maxHeight = 128
    /// Fewest sprites worth a run: below it the draw calls cost less than compiling the program
    /// a cold process would need (about 1.5 ms on llvmpipe), and a map of a few labels stays
    /// exactly as drawn one by one.
    static let minSprites = 16

    struct Slot {
        let image: SpriteImage  // keeps the identity unique while the slot lives
        let x: Int, y: Int
    }

    private(set) var texture: GLuint = 0
    private var packer = ShelfPacker(side: SpriteAtlas.side, padding: 1)
    private var slots: [ObjectIdentifier: Slot] = [:]

    deinit { if texture != 0 { glDeleteTextures(1, &texture) } }

    func slot(for image: SpriteImage) -> Slot? { slots[ObjectIdentifier(image)] }

    /// Places and uploads every image not yet in the atlas. When they do not all fit, the atlas
    /// is emptied once and refilled with these images alone, those that still do not fit left out
    /// (drawn with their own textures).
    func prepare(_ images: [SpriteImage]) {
        var missing = images.filter { slots[ObjectIdentifier($0)] == nil }
        guard !missing.isEmpty else { return }
        if texture == 0 {
            glGenTextures(1, &texture)
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(Self.side), GLsizei(Self.side), 0, GLenum(GL_RGBA),
                         GLenum(GL_UNSIGNED_BYTE), nil)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        }
        var fits = true
        var trial = packer
        for image in missing where trial.place(width: image.width, height: image.height) == nil { fits = false; break }
        if !fits {
            // Room for this frame's images: the others go (uploaded again when next needed).
            packer.reset()
            slots.removeAll(keepingCapacity: true)
            var seen = Set<ObjectIdentifier>()
            missing = images.filter { seen.insert(ObjectIdentifier($0)).inserted }
        }
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        for image in missing where slots[ObjectIdentifier(image)] == nil {
            guard let (x, y) = packer.place(width: image.width, height: image.height) else { continue }
            image.pixels.withUnsafeBytes {
                glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(x), GLint(y), GLsizei(image.width), GLsizei(image.height),
                                GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
            }
            slots[ObjectIdentifier(image)] = Slot(image: image, x: x, y: y)
        }
    }

    /// The quad's offsets (logical px: x0, y0, x1, y1) when `cmd` is a sprite the atlas can draw:
    /// an upright textured screen quad (not a fringed shape, not blended once), its image within
    /// `maxWidth` × `maxHeight` and drawn one texel to a device pixel at `ratio`.
    static func atlasQuad(_ cmd: DrawCommand, ratio: Double) -> (Float, Float, Float, Float)? {
        guard cmd.mesh.layout == .screen, let image = cmd.texture, cmd.coverage != .shape, !cmd.blendOnce,
              image.width <= maxWidth, image.height <= maxHeight else { return nil }
        let v = cmd.mesh.vertices, ix = cmd.mesh.indices
        // Four vertices of (position, offset, uv): the anchor, then top-left, top-right,
        // bottom-right, bottom-left, and the two triangles the planner makes (`addQuad`).
        guard v.count == 24, ix == [0, 1, 2, 0, 2, 3] else { return nil }
        let x0 = v[2], y0 = v[3], x1 = v[8], y1 = v[15]
        let expected: [Float] = [0, 0, x0, y0, 0, 0, 0, 0, x1, y0, 1, 0, 0, 0, x1, y1, 1, 1, 0, 0, x0, y1, 0, 1]
        guard v == expected else { return nil }
        let w = Double(x1 - x0) * ratio, h = Double(y1 - y0) * ratio
        guard abs(w - Double(image.width)) < 1e-3, abs(h - Double(image.height)) < 1e-3 else { return nil }
        return (x0, y0, x1, y1)
    }

    /// How many commands from `i` on are atlas sprites (`atlasQuad`) whose images `placed` says
    /// are in the atlas.
    static func runLength(in cmds: [DrawCommand], from i: Int, ratio: Double, placed: (SpriteImage) -> Bool) -> Int {
        var j = i
        while j < cmds.count, atlasQuad(cmds[j], ratio: ratio) != nil, let image = cmds[j].texture, placed(image) { j += 1 }
        return j - i
    }

    /// The images of every run of at least `minSprites` atlas sprites in `cmds`, in order.
    static func runImages(in cmds: [DrawCommand], ratio: Double) -> [SpriteImage] {
        var out: [SpriteImage] = []
        var i = 0
        while i < cmds.count {
            let n = runLength(in: cmds, from: i, ratio: ratio) { _ in true }
            if n >= minSprites { out += cmds[i ..< i + n].compactMap(\.texture) }
            i += max(n, 1)
        }
        return out
    }
}

/// Rectangles packed into a square in shelves (rows of one height, filled left to right), each
/// with `padding` texels clear on its right and below.
struct ShelfPacker {
    let side: Int
    let padding: Int
    private var shelves: [(y: Int, height: Int, x: Int)] = []
    private var top = 0

    init(side: Int, padding: Int) {
        self.side = side
        self.padding = padding
    }

    mutating func reset() {
        shelves.removeAll(keepingCapacity: true)
        top = 0
    }

    /// The top-left corner of a `width` × `height` rectangle, or nil when it does not fit.
    mutating func place(width: Int, height: Int) -> (x: Int, y: Int)? {
        let w = width + padding, h = height + padding
        guard width > 0, height > 0, w <= side, h <= side else { return nil }
        // The lowest shelf that is tall enough but not twice too tall, with room left.
        var best: Int?
        for (k, s) in shelves.enumerated() where s.height >= h && s.height <= 2 * h && s.x + w <= side {
            if best == nil || s.height < shelves[best!].height { best = k }
        }
        if let k = best {
            let at = (x: shelves[k].x, y: shelves[k].y)
            shelves[k].x += w
            return at
        }
        guard top + h <= side else { return nil }
        shelves.append((y: top, height: h, x: w))
        defer { top += h }
        return (x: 0, y: top)
    }
}
