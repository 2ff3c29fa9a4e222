import CEGL
import Foundation
import GeoKit
import MapCamera
import MapRender
import MapScene

/// Renders scenes headless with OpenGL ES 3 on EGL and reads the pixels back.
///
/// One renderer keeps one warm context on its own OS thread (all GL calls run there, whatever
/// thread or task calls `render`), compiles its programs once, and keeps GPU buffers for meshes
/// and textures for sprites across renders; with its `RenderPlanner`'s zoom-bucket cache,
/// re-rendering the same data only re-uploads what changed. Calls are serialised.
public final class MapRenderer: RenderBackend, @unchecked Sendable {
    /// The largest output side in pixels (after the pixel ratio).
    public static let maxSide = 8192
    /// The largest output area in pixels (after the pixel ratio): 64 megapixels.
    public static let maxPixels = 64_000_000

    /// The planner (and its mesh cache) used by `render(scene:camera:)`.
    public let planner: RenderPlanner
    private let thread: GLThread
    private let state: GLStateBox
    /// "GL renderer string via EGL platform", e.g. `llvmpipe (LLVM 15.0.6, 256 bits) via surfaceless`.
    public let deviceDescription: String

    /// Starts the GL thread and creates the context. `samples` is the multisample count (4 by
    /// default; clamped to what the device offers). Throws `RenderError` naming the Debian
    /// packages when EGL or Mesa is missing or offers no GLES 3 config.
    public init(labelRasterizer: (any LabelRasterizer)? = nil, samples: Int = 4) throws {
        planner = RenderPlanner(labelRasterizer: labelRasterizer)
        thread = GLThread(name: "mapwright-gl")
        let box = GLStateBox()
        state = box
        do {
            deviceDescription = try thread.sync {
                let s = try GLState(samples: samples)
                box.state = s
                return s.description
            }
        } catch {
            thread.stop()
            throw error
        }
    }

    deinit {
        let box = state
        thread.stop { box.state = nil }
    }

    /// Plans and draws `scene` through `camera`; returns the frame (straight-alpha RGBA, top-down,
    /// `size · pixelRatio` pixels).
    public func render(scene: Scene, camera: Camera) throws -> Frame {
        try Self.validate(camera)
        let plan = planner.plan(scene, camera: camera)
        return try draw(plan)
    }

    /// Draws an existing plan.
    public func draw(_ plan: RenderPlan) throws -> Frame {
        try Self.validate(plan.camera)
        let box = state
        return try thread.sync {
            guard let s = box.state else { throw RenderError(.threadStopped) }
            return try s.draw(plan)
        }
    }

    /// Checks the camera's output size and pixel ratio.
    static func validate(_ camera: Camera) throws {
        let r = camera.pixelRatio
        guard r.isFinite, r >= 1, r <= 4 else { throw RenderError(.size("pixel ratio \(r) is not in 1…4")) }
        let w = camera.size.width * r, h = camera.size.height * r
        guard w.isFinite, h.isFinite, w >= 1, h >= 1 else {
            throw RenderError(.size("\(camera.size.width)x\(camera.size.height) is not a positive size"))
        }
        guard w <= Double(maxSide), h <= Double(maxSide) else {
            throw RenderError(.size("\(Int(w))x\(Int(h)) px exceeds \(maxSide) px a side"))
        }
        guard w * h <= Double(maxPixels) else {
            throw RenderError(.size("\(Int(w))x\(Int(h)) px exceeds \(maxPixels / 1_000_000) megapixels"))
        }
        guard camera.zoom.isFinite, camera.center.isValid, camera.bearing.isFinite, camera.pitch.isFinite else {
            throw RenderError(.size("camera has a non-finite value"))
        }
    }
}

private final class GLStateBox: @unchecked Sendable {
    var state: GLState?
}

/// Everything that lives on the GL thread.
private final class GLState {
    let egl: HeadlessEGL
    let ground: GLProgram
    /// `ground` without the dash test, for fills and solid lines (a shader without `discard`
    /// leaves llvmpipe fewer per-fragment steps).
    let groundSolid: GLProgram
    let screen: GLProgram
    let solid: GLProgram
    let ribbon: GLProgram
    let skyProgram: GLProgram
    var skyQuad = GPUQuad()
    let samples: Int
    var target: OffscreenTarget?
    var meshes: [ObjectIdentifier: GPUMesh] = [:]
    var textures: [ObjectIdentifier: GPUTexture] = [:]
    var whiteTexture: GLuint = 0
    var frame = 0
    let description: String

    init(samples: Int) throws {
        egl = try HeadlessEGL()
        ground = try GLProgram(vertex: Shaders.groundScreenWidthVertex, fragment: Shaders.groundFragment)
        groundSolid = try GLProgram(vertex: Shaders.groundScreenWidthVertex, fragment: Shaders.groundSolidFragment)
        screen = try GLProgram(vertex: Shaders.screenVertex, fragment: Shaders.screenFragment)
        solid = try GLProgram(vertex: Shaders.solidVertex, fragment: Shaders.solidFragment)
        ribbon = try GLProgram(vertex: Shaders.ribbonVertex, fragment: Shaders.ribbonFragment)
        skyProgram = try GLProgram(vertex: Shaders.skyVertex, fragment: Shaders.skyFragment)
        self.samples = max(0, min(samples, 16))
        let renderer = glGetString(GLenum(GL_RENDERER)).map { String(cString: $0) } ?? "unknown GL"
        description = "\(renderer) via \(egl.platform)"
        glGenTextures(1, &whiteTexture)
        glBindTexture(GLenum(GL_TEXTURE_2D), whiteTexture)
        var white: [UInt8] = [255, 255, 255, 255]
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, 1, 1, 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &white)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
    }

    deinit {
        meshes.removeAll()
        textures.removeAll()
        skyQuad.release()
        glDeleteTextures(1, &whiteTexture)
        target = nil
    }

    func draw(_ plan: RenderPlan) throws -> Frame {
        frame += 1
        let camera = plan.camera
        let w = Int((camera.size.width * camera.pixelRatio).rounded()), h = Int((camera.size.height * camera.pixelRatio).rounded())
        if target?.width != w || target?.height != h {
            target = nil
            target = try OffscreenTarget(width: w, height: h, samples: samples)
        }
        guard let target else { throw RenderError(.framebuffer("no target")) }
        target.bind()
        let bg = plan.background.premultiplied
        glDisable(GLenum(GL_DEPTH_TEST))
        glDisable(GLenum(GL_CULL_FACE))
        glClearColor(bg.0, bg.1, bg.2, bg.3)
        glClearStencil(0)
        glStencilMask(0xFF)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        let worldSize = Float(camera.worldSize)
        // One matrix per frame; each command's origin is a translation of it (exact in Double).
        let base = plan.commands.first?.origin ?? MapPoint(camera.center)
        let baseMatrix = camera.viewProjectionMatrix(relativeTo: base)
        let ws = camera.worldSize
        var stencilRef: GLint = 0
        var current: GLuint = 0
        var blending = true
        func drawCommand(_ cmd: DrawCommand) {
            guard !cmd.mesh.indices.isEmpty else { return }
            let gpu = buffers(for: cmd.mesh)
            let faded = cmd.mesh.layout == .ground && cmd.fadeLength > 0
            let dashed = cmd.mesh.layout == .ground && cmd.dash.reduce(0, +) > 0
            let program = cmd.mesh.layout == .ground && !dashed && !faded ? groundSolid : self.program(for: cmd.mesh.layout)
            // Premultiplied blending of an opaque colour gives that colour exactly, and drawing
            // it twice changes nothing: skip both the blend and the stencil (blendOnce) test.
            let blend = !(cmd.mesh.layout == .ground && cmd.color.premultiplied.3 >= 1 && !faded)
            if blend != blending {
                if blend { glEnable(GLenum(GL_BLEND)) } else { glDisable(GLenum(GL_BLEND)) }
                blending = blend
            }
            if program.id != current {
                glUseProgram(program.id)
                current = program.id
            }
            let tx = (cmd.origin.x - base.x) * ws, ty = (cmd.origin.y - base.y) * ws
            var m = [Float](repeating: 0, count: 16)
            for i in 0 ..< 16 { m[i] = Float(baseMatrix[i]) }
            for i in 0 ..< 4 { m[12 + i] = Float(baseMatrix[i] * tx + baseMatrix[4 + i] * ty + baseMatrix[12 + i]) }
            glUniformMatrix4fv(program.uniform("u_matrix"), 1, GLboolean(GL_FALSE), m)
            glUniform1f(program.uniform("u_worldSize"), worldSize)
            let c = cmd.color.premultiplied
            glUniform4f(program.uniform("u_color"), c.0, c.1, c.2, c.3)
            glUniform2f(program.uniform("u_viewport"), Float(w), Float(h))
            glUniform1f(program.uniform("u_ratio"), Float(camera.pixelRatio))
            switch cmd.mesh.layout {
            case .ground:
                glUniform1f(program.uniform("u_extrudeScale"), Float(cmd.extrudeScale))
                glUniform1f(program.uniform("u_pointShape"), gpu.pointShape ? 1 : 0)
                glUniform1f(program.uniform("u_onGround"), cmd.widthOnGround ? 1 : 0)
                glUniform2f(program.uniform("u_screenAxes"), Float(cos(-camera.bearing * .pi / 180)),
                            Float(sin(-camera.bearing * .pi / 180)))
                let dash = cmd.dash.map { Float($0) }
                let total = dash.reduce(0, +)
                glUniform1f(program.uniform("u_dashTotal"), total > 0 ? total : 0)
                glUniform1f(program.uniform("u_dashOffset"), Float(cmd.dashOffset))
                glUniform1f(program.uniform("u_fade"), Float(cmd.fadeLength))
                glUniform1i(program.uniform("u_dashCount"), GLint(dash.count))
                if total > 0 {
                    let padded = dash + [Float](repeating: 0, count: max(0, 8 - dash.count))
                    glUniform1fv(program.uniform("u_dash"), 8, padded)
                }
            case .screen:
                glActiveTexture(GLenum(GL_TEXTURE0))
                glBindTexture(GLenum(GL_TEXTURE_2D), cmd.texture.map { texture(for: $0) } ?? whiteTexture)
                glUniform1i(program.uniform("u_texture"), 0)
            case .solid:
                glUniform3f(program.uniform("u_light"), light.0, light.1, light.2)
                glUniform1f(program.uniform("u_ambient"), ThreeD.ambient)
            case .ribbon:
                glUniform1f(program.uniform("u_extrudeScale"), Float(cmd.extrudeScale))
            }
            if cmd.blendOnce && blend && cmd.mesh.layout != .solid {
                stencilRef += 1
                if stencilRef > 255 {
                    glClear(GLbitfield(GL_STENCIL_BUFFER_BIT))
                    stencilRef = 1
                }
                glEnable(GLenum(GL_STENCIL_TEST))
                glStencilFunc(GLenum(GL_NOTEQUAL), stencilRef, 0xFF)
                glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_REPLACE))
            } else {
                glDisable(GLenum(GL_STENCIL_TEST))
            }
            glBindVertexArray(gpu.vao)
            glDrawElements(GLenum(GL_TRIANGLES), GLsizei(cmd.mesh.indices.count), GLenum(GL_UNSIGNED_INT), nil)
        }
        // 3D frames (see `ThreeD`): the flat layers in order, as in a flat frame (no depth test:
        // the ground is a plane under every solid, so nothing flat can hide a solid); the sky;
        // opaque solids, depth-tested and depth-written; translucent solids and arcs; sprites on top.
        let sky = ThreeD.sky(camera: camera, background: plan.background)
        let passes = ThreeD.passes(plan, sky: sky != nil)
        let light = ThreeD.light(bearing: camera.bearing)
        glDisable(GLenum(GL_DEPTH_TEST))
        for cmd in passes.flat { drawCommand(cmd) }
        if let sky {
            glDisable(GLenum(GL_STENCIL_TEST))
            glEnable(GLenum(GL_BLEND))
            blending = true
            drawSky(sky, height: h, ratio: camera.pixelRatio)
            current = skyProgram.id
        }
        if !passes.opaque.isEmpty || !passes.translucent.isEmpty {
            glEnable(GLenum(GL_DEPTH_TEST))
            glDepthFunc(GLenum(GL_LESS))
            glDepthMask(GLboolean(GL_TRUE))
            ThreeD.cullBackFaces(true)
            for cmd in passes.opaque { drawCommand(cmd) }
            glDepthMask(GLboolean(GL_FALSE))
            for cmd in passes.translucent {
                ThreeD.cullBackFaces(cmd.mesh.layout == .solid)
                drawCommand(cmd)
            }
            ThreeD.cullBackFaces(false)
            glDisable(GLenum(GL_DEPTH_TEST))
        }
        for cmd in passes.sprites { drawCommand(cmd) }
        glDepthMask(GLboolean(GL_TRUE))
        glEnable(GLenum(GL_BLEND))
        glBindVertexArray(0)
        glDisable(GLenum(GL_STENCIL_TEST))
        let pixels = target.readPixels()
        evict()
        return Frame(width: w, height: h, pixels: pixels)
    }

    private func program(for layout: VertexLayout) -> GLProgram {
        switch layout {
        case .ground: ground
        case .screen: screen
        case .solid: solid
        case .ribbon: ribbon
        }
    }

    /// Draws the sky quad (see `Shaders.skyVertex`).
    private func drawSky(_ sky: ThreeD.Sky, height: Int, ratio: Double) {
        glUseProgram(skyProgram.id)
        let hp = Float(height)
        // Horizon and band in GL window coordinates (device pixels from the bottom).
        let horizon = hp - Float(sky.horizonY * ratio)
        let band = Float(sky.band * ratio)
        let bottomNDC = max(-1, min(1, (horizon - band) / hp * 2 - 1))
        glUniform1f(skyProgram.uniform("u_bottom"), bottomNDC)
        glUniform1f(skyProgram.uniform("u_horizon"), horizon)
        glUniform1f(skyProgram.uniform("u_band"), max(band, 1))
        glUniform1f(skyProgram.uniform("u_span"), max(hp * 0.6, 1))
        let z = sky.zenith.premultiplied, hz = sky.haze.premultiplied
        glUniform4f(skyProgram.uniform("u_zenith"), z.0, z.1, z.2, z.3)
        glUniform4f(skyProgram.uniform("u_haze"), hz.0, hz.1, hz.2, hz.3)
        skyQuad.draw()
    }

    private func buffers(for mesh: Mesh) -> GPUMesh {
        let id = ObjectIdentifier(mesh)
        if let g = meshes[id] {
            g.lastFrame = frame
            return g
        }
        let g = GPUMesh(mesh, frame: frame)
        meshes[id] = g
        return g
    }

    private func texture(for image: SpriteImage) -> GLuint {
        let id = ObjectIdentifier(image)
        if let t = textures[id] {
            t.lastFrame = frame
            return t.id
        }
        let t = GPUTexture(image, frame: frame)
        textures[id] = t
        return t.id
    }

    /// Drops GPU objects unused for 8 frames.
    private func evict() {
        let f = frame
        meshes = meshes.filter { f - $0.value.lastFrame < 8 }
        textures = textures.filter { f - $0.value.lastFrame < 8 }
    }
}

/// A mesh's vertex array, vertex and index buffers. Holds the mesh so its identity stays unique.
private final class GPUMesh {
    let mesh: Mesh
    var vao: GLuint = 0
    var buffers: [GLuint] = [0, 0]
    var lastFrame: Int
    /// A ground mesh whose vertices all sit on its origin (a pixel circle or dot).
    let pointShape: Bool

    init(_ mesh: Mesh, frame: Int) {
        self.mesh = mesh
        lastFrame = frame
        pointShape = ThreeD.isPointShape(mesh)
        glGenVertexArrays(1, &vao)
        glGenBuffers(2, &buffers)
        glBindVertexArray(vao)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffers[0])
        mesh.vertices.withUnsafeBytes {
            glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW))
        }
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), buffers[1])
        mesh.indices.withUnsafeBytes {
            glBufferData(GLenum(GL_ELEMENT_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW))
        }
        let stride = GLsizei(mesh.layout.stride * 4)
        func attrib(_ loc: GLuint, _ n: GLint, _ offset: Int) {
            glEnableVertexAttribArray(loc)
            glVertexAttribPointer(loc, n, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, UnsafeRawPointer(bitPattern: offset))
        }
        switch mesh.layout {
        case .ground:
            attrib(0, 2, 0); attrib(1, 2, 8); attrib(2, 1, 16)
        case .screen:
            attrib(0, 2, 0); attrib(1, 2, 8); attrib(2, 2, 16)
        case .solid:
            attrib(0, 3, 0); attrib(1, 3, 12)
        case .ribbon:
            attrib(0, 3, 0); attrib(1, 3, 12); attrib(2, 3, 24); attrib(3, 1, 36); attrib(4, 4, 40)
        }
        glBindVertexArray(0)
    }

    deinit {
        glDeleteVertexArrays(1, &vao)
        glDeleteBuffers(2, &buffers)
    }
}

/// A sprite's texture. Holds the image so its identity stays unique.
private final class GPUTexture {
    let image: SpriteImage
    var id: GLuint = 0
    var lastFrame: Int

    init(_ image: SpriteImage, frame: Int) {
        self.image = image
        lastFrame = frame
        glGenTextures(1, &id)
        glBindTexture(GLenum(GL_TEXTURE_2D), id)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        image.pixels.withUnsafeBytes {
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(image.width), GLsizei(image.height), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    }

    deinit { glDeleteTextures(1, &id) }
}
