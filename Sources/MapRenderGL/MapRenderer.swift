import CEGL
import Foundation
import GeoKit
import MapCamera
import MapRender
import MapScene

/// Renders scenes headless with OpenGL ES 3 on EGL and reads the pixels back.
///
/// One renderer keeps one warm context on its own OS thread (all GL calls run there, whatever
/// thread or task calls `render`), compiles each program once on first use, and keeps GPU buffers for meshes
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

    /// Redraw only what changed since the last frame when the camera, size and clear colour are
    /// the same and the frame has no 3D objects: the draw commands are compared with the last
    /// frame's, and clearing, drawing, multisample resolve and read-back are limited to the
    /// screen rectangle of the ones that changed (the pixels are identical to a full redraw).
    /// On by default; animations of pulses or moving markers over a still map gain most.
    public var partialRedraw: Bool {
        get { state.flagLock.withLock { state.partialRedraw } }
        set { state.flagLock.withLock { state.partialRedraw = newValue } }
    }

    /// Draw runs of markers with the same meshes (pins, arrows, repeated icons) as one instanced
    /// draw each instead of a draw call per part (see `ScreenBatch`), and runs of labels and
    /// other sprites from one texture (see `SpriteAtlas`); the pixels are the same. On by default.
    public var instancing: Bool {
        get { state.flagLock.withLock { state.instancing } }
        set { state.flagLock.withLock { state.instancing = newValue } }
    }

    /// The multisample count in use (0: none).
    public var samples: Int { state.flagLock.withLock { state.samples } }
    /// Whether the shaders compute edge coverage (antialiasing without multisampling).
    public var shaderAntialiasing: Bool { state.flagLock.withLock { state.shaderAA } }

    /// The fraction of the frame's pixels the last `draw` redrew (1 for a full redraw, 0 when
    /// nothing changed).
    public var lastRedrawFraction: Double { state.flagLock.withLock { state.lastRedrawFraction } }

    /// Starts the GL thread and creates the context. `samples` is the multisample count (clamped
    /// to what the device offers; 1 is 0); nil picks it: 4 on a GPU, none on a CPU rasteriser (llvmpipe,
    /// softpipe), where multisampling costs about half of a frame. Without multisampling the
    /// shaders antialias edges themselves (`shaderAntialiasing`, see `Coverage`); with it they
    /// do not, unless `shaderAntialiasing` says so. Throws `RenderError` naming the Debian
    /// packages when EGL or Mesa is missing or offers no GLES 3 config.
    public init(labelRasterizer: (any LabelRasterizer)? = nil, samples: Int? = nil,
                shaderAntialiasing: Bool? = nil) throws {
        planner = RenderPlanner(labelRasterizer: labelRasterizer)
        thread = GLThread(name: "mapwright-gl")
        let box = GLStateBox()
        state = box
        do {
            // Registered before the context exists, so a process ending now waits for it.
            try GLLifetime.register(box, thread: thread) { box.state = nil }
            deviceDescription = try thread.sync {
                let s = try GLState(samples: samples, shaderAA: shaderAntialiasing)
                // After the context is made, and again after the first frame (see GLLifetime).
                GLLifetime.installExitHook()
                box.state = s
                box.samples = s.samples
                box.shaderAA = s.aa
                return s.description
            }
            // Round joins as one triangle each need the shaders' coverage to cut out their disc.
            planner.discJoins = self.shaderAntialiasing
        } catch {
            Self.retire(box, thread)
            throw error
        }
    }

    deinit { Self.retire(state, thread) }

    /// Takes a renderer out of `GLLifetime` and destroys its GL state on its own thread.
    private static func retire(_ box: GLStateBox, _ thread: GLThread) {
        GLLifetime.unregister(box)
        thread.stop { box.state = nil }
    }

    /// Tears down every renderer's GL in the process (see `GLLifetime`); the CLI calls it
    /// before exiting, and an `atexit` handler calls it for everyone else.
    public static func shutdownAll() { GLLifetime.shutdownAll() }

    /// Plans and draws `scene` through `camera`; returns the frame (straight-alpha RGBA, top-down,
    /// `size · pixelRatio` pixels).
    /// `customLayers` draw their own GL into the map's 3D space after the opaque solids (depth-
    /// tested against columns and extrusions) and before translucent ones; `time` is passed on.
    /// `labelPlacement`: see `RenderPlanner.plan(_:camera:time:placement:)`.
    public func render(scene: Scene, camera: Camera, customLayers: [any GLCustomLayer] = [], time: Double = 0,
                       labelPlacement: MarkerLabelPlacement? = nil) throws -> Frame {
        try Self.validate(camera)
        let t0 = DispatchTime.now().uptimeNanoseconds
        let plan = planner.plan(scene, camera: camera, time: time, placement: labelPlacement)
        let planned = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        let frame = try draw(plan, customLayers: customLayers, time: time)
        state.flagLock.withLock { state.timings.plan = planned }
        return frame
    }

    /// Where the last frame's time went (milliseconds): planning (for `render(scene:camera:)`),
    /// drawing (commands issued and finished by GL) and reading back (resolve, read, flip,
    /// unpremultiply).
    public struct Timings: Sendable {
        public var plan = 0.0
        public var draw = 0.0
        public var readBack = 0.0
        /// Triangles submitted (multi-pass commands counted once per pass).
        public var triangles = 0
        /// Sprites drawn from the atlas, in runs (see `SpriteAtlas`).
        public var atlasSprites = 0
        /// Draw calls issued (`glDrawElements`, instanced or not), stamps and frame quads included.
        public var drawCalls = 0
    }

    /// The last frame's timings.
    public var lastTimings: Timings { state.flagLock.withLock { state.timings } }

    /// Draws an existing plan.
    public func draw(_ plan: RenderPlan) throws -> Frame { try draw(plan, customLayers: [], time: 0) }

    /// Draws an existing plan with custom GL layers (see `render(scene:camera:customLayers:time:)`).
    public func draw(_ plan: RenderPlan, customLayers: [any GLCustomLayer], time: Double) throws -> Frame {
        try Self.validate(plan.camera)
        let box = state
        return try thread.sync {
            guard let s = box.state else { throw RenderError(.threadStopped) }
            let (partial, instancing) = box.flagLock.withLock { (box.partialRedraw, box.instancing) }
            s.instancing = instancing
            let (frame, fraction, drawMs, readMs) = try s.draw(plan, partial: partial, custom: customLayers, time: time)
            // Again after frames 1, 2, 4, 8, …: LLVM builds statics lazily as it compiles, and the
            // handler must stay registered after them (a handful of entries over any run).
            box.framesDrawn += 1
            if box.framesDrawn & (box.framesDrawn - 1) == 0 { GLLifetime.installExitHook() }
            box.flagLock.withLock {
                box.lastRedrawFraction = fraction
                box.timings = Timings(plan: 0, draw: drawMs, readBack: readMs, triangles: s.triangles, atlasSprites: s.atlasSprites,
                                    drawCalls: s.drawCalls)
            }
            return frame
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
    let flagLock = NSLock()
    var partialRedraw = true
    var instancing = true
    var lastRedrawFraction = 1.0
    var samples = 0
    var shaderAA = true
    var timings = MapRenderer.Timings()
    /// Frames drawn (the exit handler is installed again after each power of two; GL thread only).
    var framesDrawn = 0
}

/// Everything that lives on the GL thread.
private final class GLState {
    let egl: HeadlessEGL
    // Programs are compiled on first use (a flat frame needs four of the nine; each costs about
    // 1.5 ms on llvmpipe, which a one-image process pays at start-up).
    let ground = LazyProgram(Shaders.groundScreenWidthVertex, Shaders.groundFragment)
    /// `ground` without the dash test, for fills and solid lines (a shader without `discard`
    /// leaves llvmpipe fewer per-fragment steps).
    let groundSolid = LazyProgram(Shaders.groundScreenWidthVertex, Shaders.groundSolidFragment)
    /// Fills (interior and fringe) and pixel discs.
    let groundFill = LazyProgram(Shaders.groundScreenWidthVertex, Shaders.groundFillFragment)
    let groundDisc = LazyProgram(Shaders.groundScreenWidthVertex, Shaders.groundDiscFragment)
    let convexFill = LazyProgram(Shaders.convexFillVertex, Shaders.convexFillFragment)
    let wedgeFill = LazyProgram(Shaders.wedgeFillVertex, Shaders.wedgeFillFragment)
    /// Convex and wedge fills added up in a layer whose parts are apart (`DrawGroup.partsApart`).
    let convexFillSum = LazyProgram(Shaders.convexFillSumVertex, Shaders.convexFillSumFragment)
    let wedgeFillSum = LazyProgram(Shaders.wedgeFillVertex, Shaders.wedgeFillSumFragment)
    /// A layer whose parts are apart, over the frame.
    let layerProgram = LazyProgram(Shaders.underVertex, Shaders.layerFragment)
    let screen = LazyProgram(Shaders.screenVertex, Shaders.screenFragment)
    /// `screen` for runs of markers drawn instanced (see `ScreenBatch`).
    let screenInstanced = LazyProgram(Shaders.screenInstancedVertex, Shaders.screenFragment)
    /// Stamped markers (see `ScreenBatch`).
    let stampProgram = LazyProgram(Shaders.stampVertex, Shaders.stampFragment)
    let stampSpriteProgram = LazyProgram(Shaders.stampSpriteVertex, Shaders.stampSpriteFragment)
    /// Runs of sprites from the atlas (see `SpriteAtlas`).
    let spriteAtlasProgram = LazyProgram(Shaders.spriteAtlasVertex, Shaders.screenFragment)
    /// `groundDisc` for runs of dots drawn instanced (see `ScreenBatch`).
    let groundDiscInstanced = LazyProgram(Shaders.groundInstancedVertex, Shaders.groundDiscFragment)
    /// Runs of two-part pixel circles, one square each (see `ScreenBatch.pair`).
    let groundPairInstanced = LazyProgram(Shaders.groundPairVertex, Shaders.groundPairFragment)
    let solid = LazyProgram(Shaders.solidVertex, Shaders.solidFragment)
    let cylinder = LazyProgram(Shaders.cylinderVertex, Shaders.cylinderFragment)
    /// Antialiased fringes of opaque solids' faces, with shader coverage (see `SolidFringe`).
    let solidFringe = LazyProgram(Shaders.solidFringeVertex, Shaders.solidFringeFragment)
    let ribbon = LazyProgram(Shaders.ribbonVertex, Shaders.ribbonFragment)
    /// The 3D programs with distance fog (`Shaders.fogHeader`), for frames with a sky.
    let solidFog = LazyProgram(Shaders.fogged(Shaders.solidVertex), Shaders.fogged(Shaders.solidFragment))
    let cylinderFog = LazyProgram(Shaders.fogged(Shaders.cylinderVertex), Shaders.fogged(Shaders.cylinderFragment))
    let solidFringeFog = LazyProgram(Shaders.fogged(Shaders.solidFringeVertex), Shaders.fogged(Shaders.solidFringeFragment))
    let ribbonFog = LazyProgram(Shaders.fogged(Shaders.ribbonVertex), Shaders.fogged(Shaders.ribbonFragment))
    let skyProgram = LazyProgram(Shaders.skyVertex, Shaders.skyFragment)
    /// What lay under a faded layer (`DrawGroup`), mixed back over it.
    let underProgram = LazyProgram(Shaders.underVertex, Shaders.underFragment)
    let raster = LazyProgram(Shaders.rasterVertex, Shaders.rasterFragment)
    var skyQuad = GPUQuad()
    let samples: Int
    /// Edge coverage in the shaders (see `Coverage`).
    let aa: Bool
    var target: OffscreenTarget?
    var meshes: [ObjectIdentifier: GPUMesh] = [:]
    /// See `behindTexture(width:height:)`.
    var behind: (id: GLuint, width: Int, height: Int) = (0, 0, 0)
    /// See `sumLayer(width:height:)`.
    var layer: (framebuffer: GLuint, texture: GLuint, width: Int, height: Int) = (0, 0, 0, 0)
    var textures: [ObjectIdentifier: GPUTexture] = [:]
    var whiteTexture: GLuint = 0
    /// Joined marker meshes of instanced runs, by their parts' meshes and coverage.
    var batches: [BatchKey: GPUScreenBatch] = [:]
    /// The instance attributes of the run being drawn (a buffer and its staging array, kept).
    var instanceBuffer: GLuint = 0
    var instances: [Float] = []
    /// The images of runs of sprites (see `SpriteAtlas`).
    let atlas = SpriteAtlas()
    /// Draw runs of markers instanced (`MapRenderer.instancing`), set before each frame.
    var instancing = true
    /// The unit square a stamped marker's quad is made of, with the instance attributes.
    lazy var stampQuad: GPUArrays = {
        let a = GPUArrays(vertices: [0, 0, 1, 0, 1, 1, 0, 1], indices: [0, 1, 2, 0, 2, 3], stride: 2, attributes: [(0, 2, 0)])
        ScreenBatch.bindInstanceAttributes(vao: a.vao, buffer: instanceBuffer)
        return a
    }()
    var frame = 0
    let description: String

    init(samples: Int?, shaderAA: Bool?) throws {
        egl = try HeadlessEGL()
        let renderer = glGetString(GLenum(GL_RENDERER)).map { String(cString: $0) } ?? "unknown GL"
        description = "\(renderer) via \(egl.platform)"
        let software = ["llvmpipe", "softpipe", "swrast", "lavapipe"].contains { renderer.lowercased().contains($0) }
        // What the device offers decides both the sample count and whether the shaders antialias.
        var maxSamples: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_SAMPLES), &maxSamples)
        // One sample per pixel is no multisampling: a 1-sample target would only add a resolve
        // (on llvmpipe it doubled the drawing of a dense vector view).
        let clamped = max(0, min(samples ?? (software ? 0 : 4), 16, Int(maxSamples)))
        let chosen = clamped == 1 ? 0 : clamped
        self.samples = chosen
        aa = shaderAA ?? (chosen <= 1)
        glGenTextures(1, &whiteTexture)
        glBindTexture(GLenum(GL_TEXTURE_2D), whiteTexture)
        var white: [UInt8] = [255, 255, 255, 255]
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, 1, 1, 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &white)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glGenBuffers(1, &instanceBuffer)
    }

    deinit {
        meshes.removeAll()
        textures.removeAll()
        batches.removeAll()
        glDeleteBuffers(1, &instanceBuffer)
        skyQuad.release()
        glDeleteTextures(1, &whiteTexture)
        if behind.id != 0 { glDeleteTextures(1, &behind.id) }
        releaseSumLayer()
        target = nil
    }

    /// The last frame, for partial redraws (its commands keep their meshes alive, so identities
    /// cannot be re-used by new meshes while they are compared).
    private var previous: PreviousFrame?

    /// Triangles submitted in the last frame.
    var triangles = 0
    /// Sprites the last frame drew from the atlas.
    var atlasSprites = 0
    /// Draw calls the last frame issued.
    var drawCalls = 0

    /// Custom layers prepared on this context.
    var preparedLayers: [ObjectIdentifier: any GLCustomLayer] = [:]

    func draw(_ plan: RenderPlan, partial: Bool, custom: [any GLCustomLayer] = [], time: Double = 0) throws -> (Frame, Double, Double, Double) {
        for layer in custom where preparedLayers[ObjectIdentifier(layer)] == nil {
            try layer.prepare()
            preparedLayers[ObjectIdentifier(layer)] = layer
        }
        frame += 1
        triangles = 0
        atlasSprites = 0
        drawCalls = 0
        let start = DispatchTime.now().uptimeNanoseconds
        func ms(_ from: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - from) / 1e6 }
        let camera = plan.camera
        let (w, h) = camera.pixelSize
        if target?.width != w || target?.height != h {
            target = nil
            target = try OffscreenTarget(width: w, height: h, samples: samples)
        }
        guard let target else { throw RenderError(.framebuffer("no target")) }
        target.bind()
        // 3D frames (see `ThreeD`): the flat layers in order, as in a flat frame (no depth test:
        // the ground is a plane under every solid, so nothing flat can hide a solid); the sky;
        // opaque solids, depth-tested and depth-written; translucent solids and arcs; sprites on top.
        let sky = ThreeD.sky(camera: camera, background: plan.background)
        let passes = ThreeD.passes(plan, sky: sky != nil)
        let light = ThreeD.light(bearing: camera.bearing)
        let flatOnly = sky == nil && passes.opaque.isEmpty && passes.translucent.isEmpty && custom.isEmpty
        let ordered = passes.flat + passes.sprites
        if instancing {
            // Every image the frame's runs of sprites need, in the atlas before anything reads it.
            atlas.prepare(SpriteAtlas.runImages(in: passes.flat, ratio: camera.pixelRatio)
                + SpriteAtlas.runImages(in: passes.sprites, ratio: camera.pixelRatio))
        }
        let baseOrigin = plan.commands.first?.origin ?? MapPoint(camera.center)
        var damage = Damage.full
        if partial, flatOnly, camera.pitch == 0,
           let prev = previous, prev.camera == camera, prev.clearColor == plan.clearColor, prev.width == w, prev.height == h {
            // Boxes only of the commands that changed (the last frame's under the same camera).
            let m = camera.viewProjectionMatrix(relativeTo: baseOrigin)
            damage = Self.damage(from: prev, to: ordered, width: w, height: h) {
                box(of: $0, matrix: m, base: baseOrigin, camera: camera, width: w, height: h)
            }
        }
        if case .none = damage, let prev = previous {
            previous = PreviousFrame(camera: camera, clearColor: plan.clearColor, commands: ordered,
                                     pixels: prev.pixels, width: w, height: h)
            evict()
            return (Frame(width: w, height: h, pixels: prev.pixels), 0, ms(start), 0)
        }
        // Partial redraws: each damaged rectangle is cleared and drawn under its own scissor.
        var scissors: [PixelRect] = []
        // The partial redraw's rectangle being drawn, if any.
        var clipRect: PixelRect?
        // Whether commands are being added up into a layer whose parts are apart.
        var summing = false
        // The scissor set to a rectangle from the frame's top left.
        func scissor(_ r: PixelRect) {
            glScissor(GLint(r.x), GLint(h - r.y - r.height), GLsizei(r.width), GLsizei(r.height))
        }
        if case .rects(let rs) = damage, rs.reduce(0, { $0 + $1.area }) * 10 <= w * h * 6 {
            scissors = rs
            glEnable(GLenum(GL_SCISSOR_TEST))
        }
        let bg = plan.clearColor.premultiplied
        glDisable(GLenum(GL_DEPTH_TEST))
        glDisable(GLenum(GL_CULL_FACE))
        glClearColor(bg.0, bg.1, bg.2, bg.3)
        glClearStencil(0)
        glStencilMask(0xFF)
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        let worldSize = Float(camera.worldSize)
        // One matrix per frame; each command's origin is a translation of it (exact in Double).
        let base = plan.commands.first?.origin ?? MapPoint(camera.center)
        let baseMatrix = camera.viewProjectionMatrix(relativeTo: base)
        // Each command's matrix (translated to its origin in Double: cylinders also invert it)
        // and its Float copy for the uniform, allocated once per frame and rewritten in place.
        var md = baseMatrix
        var m = baseMatrix.map { Float($0) }
        // The untranslated matrix, for runs of discs (their anchors come per instance).
        let baseFloat = m
        let ws = camera.worldSize
        var stencilRef: GLint = 0
        var current: GLuint = 0
        var blending = true
        let ratio = camera.pixelRatio
        func setBlend(_ on: Bool) {
            if on != blending {
                if on { glEnable(GLenum(GL_BLEND)) } else { glDisable(GLenum(GL_BLEND)) }
                blending = on
            }
        }
        // This command's matrix, translated to its origin.
        func setMatrix(_ program: GLProgram, _ cmd: DrawCommand) {
            let a = anchor(cmd.origin)
            for i in 0 ..< 4 {
                md[12 + i] = a[i]
                m[12 + i] = Float(a[i])
            }
            glUniformMatrix4fv(program.uniform("u_matrix"), 1, GLboolean(GL_FALSE), m)
        }
        /// Where `origin` lands in clip space: the last column of the frame's matrix translated to
        /// it (in Double). Commands' matrices and the anchors of instanced runs both come from here,
        /// so a marker lands on the same pixel either way.
        func anchor(_ origin: MapPoint) -> SIMD4<Double> {
            let tx = (origin.x - base.x) * ws, ty = (origin.y - base.y) * ws
            var a = SIMD4<Double>()
            for i in 0 ..< 4 { a[i] = baseMatrix[i] * tx + baseMatrix[4 + i] * ty + baseMatrix[12 + i] }
            return a
        }
        /// The ground program's uniforms for how a command's extrusions are made and antialiased
        /// (a command's own, or a run of discs' in `drawRun`).
        func setGroundUniforms(_ program: GLProgram, coverage: Coverage, scale: Double, pointShape: Bool, onGround: Bool) {
            glUniform1f(program.uniform("u_aa"), aa ? 1 : 0)
            glUniform1f(program.uniform("u_discOutset"), aa && coverage == .disc ? Float(1 / ratio) : 0)
            glUniform1f(program.uniform("u_sectorJoins"), camera.pitch == 0 ? 1 : 0)
            glUniform1f(program.uniform("u_extrudeScale"), Float(scale))
            glUniform1f(program.uniform("u_pointShape"), pointShape ? 1 : 0)
            glUniform1f(program.uniform("u_onGround"), onGround ? 1 : 0)
            glUniform2f(program.uniform("u_screenAxes"), Float(cos(-camera.bearing * .pi / 180)),
                        Float(sin(-camera.bearing * .pi / 180)))
        }
        func useProgram(_ program: GLProgram) {
            if program.id != current {
                glUseProgram(program.id)
                current = program.id
            }
        }
        // The sky's fog, for the fogged 3D programs (the same band as `drawSky`'s).
        let fogColor = sky.map { $0.haze.premultiplied }
        let fogBand = sky.map { $0.window(height: h, ratio: ratio) }
        func setFog(_ program: GLProgram) {
            guard let fogColor, let fogBand else { return }
            glUniform4f(program.uniform("u_fogColor"), fogColor.0, fogColor.1, fogColor.2, fogColor.3)
            glUniform3f(program.uniform("u_fogBand"), fogBand.horizon, max(fogBand.band, 1), Float(h))
        }
        /// The antialiased fringes of an opaque solid's faces (see `SolidFringe`).
        func drawFringe(_ cmd: DrawCommand) throws {
            guard cmd.mesh.layout == .solid, !cmd.mesh.indices.isEmpty, let fringe = buffers(for: cmd.mesh).fringe else { return }
            let program = try (sky == nil ? solidFringe : solidFringeFog).get()
            useProgram(program)
            setBlend(false)
            setMatrix(program, cmd)
            setFog(program)
            glUniform1f(program.uniform("u_worldSize"), worldSize)
            let c = cmd.color.premultiplied
            glUniform4f(program.uniform("u_color"), c.0, c.1, c.2, c.3)
            glUniform2f(program.uniform("u_viewport"), Float(w), Float(h))
            glUniform3f(program.uniform("u_light"), light.0, light.1, light.2)
            glUniform1f(program.uniform("u_ambient"), ThreeD.ambient)
            glUniform1i(program.uniform("u_behind"), 0)
            glBindVertexArray(fringe.vao)
            triangles += fringe.indexCount / 3
            drawCalls += 1
            glDrawElements(GLenum(GL_TRIANGLES), GLsizei(fringe.indexCount), GLenum(GL_UNSIGNED_INT), nil)
        }
        func drawCommand(_ cmd: DrawCommand) throws {
            guard !cmd.mesh.indices.isEmpty else { return }
            let gpu = buffers(for: cmd.mesh)
            let ground = cmd.mesh.layout == .ground
            let faded = ground && cmd.fadeLength > 0
            let dashed = ground && cmd.dash.reduce(0, +) > 0
            let opaque = cmd.color.premultiplied.3 >= 1 && !faded
            // Translucent strokes blended once per pixel with shader coverage: fully covered
            // fragments first, then the partly covered edge, each through the stencil.
            let twoPass = aa && ground && cmd.coverage == .stroke && cmd.blendOnce && !opaque
            // Strokes that need the full ground program (dashes, fade, two passes).
            let full = ground && cmd.coverage != .fill && cmd.coverage != .disc && (dashed || faded || twoPass)
            let program: GLProgram
            switch (cmd.mesh.layout, cmd.coverage) {
            case (.ground, .fill): program = try groundFill.get()
            case (.ground, .disc): program = try groundDisc.get()
            case (.ground, _): program = try (full ? self.ground : groundSolid).get()
            case (.convexFill, _) where summing: program = try convexFillSum.get()
            case (.wedgeFill, _) where summing: program = try wedgeFillSum.get()
            default: program = try self.program(for: cmd.mesh.layout, fog: sky != nil)
            }
            // Premultiplied blending of an opaque colour gives that colour exactly, and drawing
            // it twice changes nothing: without shader coverage skip both the blend and the
            // stencil (blendOnce) test; with it, only opaque fill interiors skip the blend.
            let coverageFill = cmd.mesh.layout == .convexFill || cmd.mesh.layout == .wedgeFill
            let blend = coverageFill ? !(opaque && !aa) : !(ground && opaque && (!aa || cmd.coverage == .fill))
            setBlend(blend || summing)
            if summing {
                // Fringed fills (parts with clipper corridors) come premultiplied: laid under what
                // the pixel has, by what it has left (1 − alpha), which keeps colour and coverage
                // together; convex and wedge fills come straight, for the saturating blend.
                if cmd.mesh.layout == .ground {
                    glBlendFuncSeparate(GLenum(GL_ONE_MINUS_DST_ALPHA), GLenum(GL_ONE), GLenum(GL_ONE_MINUS_DST_ALPHA), GLenum(GL_ONE))
                } else {
                    glBlendFuncSeparate(GLenum(GL_SRC_ALPHA_SATURATE), GLenum(GL_ONE), GLenum(GL_ONE), GLenum(GL_ONE))
                }
            }
            useProgram(program)
            setMatrix(program, cmd)
            glUniform1f(program.uniform("u_worldSize"), worldSize)
            let c = cmd.color.premultiplied
            glUniform4f(program.uniform("u_color"), c.0, c.1, c.2, c.3)
            glUniform2f(program.uniform("u_viewport"), Float(w), Float(h))
            glUniform1f(program.uniform("u_ratio"), Float(ratio))
            switch cmd.mesh.layout {
            case .ground:
                var scale = cmd.extrudeScale
                switch cmd.coverage {
                case .fill:
                    // The fringe: half a device pixel outside the edges, or nothing.
                    scale = aa ? 0.5 / ratio : 0
                case .stroke where aa && cmd.extrudeScale > 0:
                    // Widened by half a device pixel; the edge fades over the outer pixel.
                    let half = cmd.extrudeScale * ratio
                    scale = cmd.extrudeScale * (half + 0.5) / half
                    glUniform1f(program.uniform("u_outer"), Float(half + 0.5))
                default: break
                }
                setGroundUniforms(program, coverage: cmd.coverage, scale: scale, pointShape: gpu.pointShape,
                                  onGround: cmd.widthOnGround)
                if full {
                    let dash = cmd.dash.map { Float($0) }
                    let total = dash.reduce(0, +)
                    glUniform1f(program.uniform("u_dashTotal"), total > 0 ? total : 0)
                    glUniform1f(program.uniform("u_dashOffset"), Float(cmd.dashOffset))
                    glUniform1f(program.uniform("u_fade"), Float(cmd.fadeLength))
                    glUniform1i(program.uniform("u_dashCount"), GLint(dash.count))
                    glUniform1i(program.uniform("u_pass"), 0)
                    if total > 0 {
                        let padded = dash + [Float](repeating: 0, count: max(0, 8 - dash.count))
                        glUniform1fv(program.uniform("u_dash"), 8, padded)
                    }
                }
            case .screen:
                glActiveTexture(GLenum(GL_TEXTURE0))
                glBindTexture(GLenum(GL_TEXTURE_2D), cmd.texture.map { texture(for: $0) } ?? whiteTexture)
                glUniform1i(program.uniform("u_texture"), 0)
                glUniform1f(program.uniform("u_shape"), cmd.coverage == .shape ? 1 : 0)
            case .solid:
                glUniform3f(program.uniform("u_light"), light.0, light.1, light.2)
                glUniform1f(program.uniform("u_ambient"), ThreeD.ambient)
                setFog(program)
            case .cylinder:
                setFog(program)
                glUniform3f(program.uniform("u_light"), light.0, light.1, light.2)
                glUniform1f(program.uniform("u_ambient"), ThreeD.ambient)
                // Fragments unproject their rays with the inverse of this command's matrix,
                // inverted in Double from the Double matrix.
                // The eye is where clip x, y and w vanish: the inverse's third column.
                guard let inv = ThreeD.inverse(md), inv[11] != 0 else { return } // singular: nothing to see
                let eye = (inv[8] / inv[11], inv[9] / inv[11], inv[10] / inv[11])
                glUniformMatrix4fv(program.uniform("u_inverse"), 1, GLboolean(GL_FALSE), inv.map { Float($0) })
                glUniform3f(program.uniform("u_eye"), Float(eye.0), Float(eye.1), Float(eye.2))
                // The eye's clip z and w (w is 0 up to rounding).
                glUniform2f(program.uniform("u_eyeClip"),
                            Float(md[2] * eye.0 + md[6] * eye.1 + md[10] * eye.2 + md[14]),
                            Float(md[3] * eye.0 + md[7] * eye.1 + md[11] * eye.2 + md[15]))
            case .raster:
                glActiveTexture(GLenum(GL_TEXTURE0))
                let tex = cmd.texture.map { texture(for: $0) } ?? whiteTexture
                glBindTexture(GLenum(GL_TEXTURE_2D), tex)
                // Texels that land 1:1 on pixels (a flat, north-up view at the tile's own scale)
                // are copied as they are; any other scale or angle is filtered.
                let filter = cmd.texture.map { Self.isPixelExact(cmd, image: $0, camera: camera) } == true ? GL_NEAREST : GL_LINEAR
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
                glUniform1i(program.uniform("u_texture"), 0)
                let a = cmd.raster
                glUniform1f(program.uniform("u_saturation"), Float(a.saturationFactor))
                glUniform1f(program.uniform("u_contrast"), Float(a.contrastFactor))
                glUniform2f(program.uniform("u_brightness"), Float(a.brightnessMin), Float(a.brightnessMax))
            case .convexFill, .wedgeFill:
                glUniform1f(program.uniform("u_aa"), aa ? 1 : 0)
            case .ribbon:
                setFog(program)
                glUniform1f(program.uniform("u_extrudeScale"), Float(cmd.extrudeScale))
                glUniform1f(program.uniform("u_aa"), aa ? 1 : 0)
                glUniform1f(program.uniform("u_outer"), Float(cmd.extrudeScale * ratio + 0.5))
            }
            // Opaque colours need no once-per-pixel guard (a second coat changes nothing), and with
            // shader coverage it would let a first, partly covered fragment block a full one.
            if cmd.blendOnce && blend && cmd.mesh.layout != .solid && cmd.mesh.layout != .cylinder
                && !(opaque && (ground || cmd.coverage == .shape || coverageFill)) {
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
            let count = cmd.mesh.indices.count
            // Indices first ..< first + count, only within the command's ranges where it has them
            // (a set's bins that reach the view).
            func drawIndices(_ first: Int, _ count: Int) {
                guard let ranges = cmd.ranges else {
                    drawCalls += 1
                    glDrawElements(GLenum(GL_TRIANGLES), GLsizei(count), GLenum(GL_UNSIGNED_INT),
                                   UnsafeRawPointer(bitPattern: first * 4))
                    return
                }
                for r in ranges {
                    let lo = max(r.lowerBound, first), hi = min(r.upperBound, first + count)
                    guard lo < hi else { continue }
                    drawCalls += 1
                    glDrawElements(GLenum(GL_TRIANGLES), GLsizei(hi - lo), GLenum(GL_UNSIGNED_INT),
                                   UnsafeRawPointer(bitPattern: lo * 4))
                }
            }
            let drawn = cmd.ranges?.reduce(0) { $0 + min($1.upperBound, count) - min($1.lowerBound, count) } ?? count
            triangles += drawn / 3 * (twoPass ? 2 : 1)
            if twoPass {
                glUniform1i(program.uniform("u_pass"), 1)
                drawIndices(0, count)
                glUniform1i(program.uniform("u_pass"), 2)
                drawIndices(0, count)
            } else if let split = cmd.mesh.fringeStart, split < count, !blend {
                // An opaque fill: the interior as it is, then the fringe blended.
                drawIndices(0, split)
                if aa {
                    setBlend(true)
                    drawIndices(split, count - split)
                }
            } else if let split = cmd.mesh.fringeStart, split < count, !aa {
                drawIndices(0, split)
            } else {
                drawIndices(0, count)
            }
        }
        /// A run of markers (see `ScreenBatch`) as one instanced draw.
        func drawRun(_ cmds: [DrawCommand], _ run: ScreenBatch.Run) throws {
            let parts = Array(cmds[run.start ..< run.start + run.parts])
            let key = BatchKey(meshes: parts.map { ObjectIdentifier($0.mesh) }, shapes: parts.map { $0.coverage == .shape })
            let batch: GPUScreenBatch
            if let b = batches[key] {
                b.lastFrame = frame
                batch = b
            } else {
                batch = GPUScreenBatch(parts, instanceBuffer: instanceBuffer, frame: frame)
                batches[key] = batch
            }
            let stamped = ScreenBatch.stampable(parts, samples: target.samples)
            let stamp = stamped ? try stamp(batch, parts) : nil
            // A pin with a sprite in its head: the sprite is laid over the stamp in its shader,
            // where it lands on whole pixels; else (or with multisampling) one by one.
            let sprite = ScreenBatch.spriteLast(parts)
            var spriteRect: (x: Int, y: Int, width: Int, height: Int)?
            if sprite {
                if let stamp, let last = parts.last,
                   let r = ScreenBatch.spriteRect(last, ratio: ratio, box: (stamp.x, stamp.y, stamp.width, stamp.height)) {
                    spriteRect = r
                } else {
                    for k in run.start ..< run.start + run.commands { try drawCommand(cmds[k]) }
                    return
                }
            }
            // Each marker's anchor in clip space (as `setMatrix` has it), then its parts' colours.
            instances.removeAll(keepingCapacity: true)
            for g in 0 ..< run.markers {
                let first = run.start + g * run.parts
                let a = anchor(cmds[first].origin)
                for i in 0 ..< 4 { instances.append(Float(a[i])) }
                for j in 0 ..< ScreenBatch.maxParts {
                    if j < run.parts {
                        let c = cmds[first + j].color.premultiplied
                        instances.append(c.0); instances.append(c.1); instances.append(c.2); instances.append(c.3)
                    } else {
                        instances.append(0); instances.append(0); instances.append(0); instances.append(0)
                    }
                }
            }
            let ground = parts[0].mesh.layout == .ground
            // Two pixel squares a marker: one square each where the shader gives the coverage.
            let pair = ground && aa ? ScreenBatch.pair(parts) : nil
            var pairArrays: GPUArrays?
            if let pair {
                let cover = [parts[pair.cover]]
                let key = BatchKey(meshes: cover.map { ObjectIdentifier($0.mesh) }, shapes: [false])
                if let b = batches[key] {
                    b.lastFrame = frame
                    pairArrays = b.arrays
                } else {
                    let b = GPUScreenBatch(cover, instanceBuffer: instanceBuffer, frame: frame)
                    batches[key] = b
                    pairArrays = b.arrays
                }
            }
            let program = try (pair != nil ? groundPairInstanced : ground ? groundDiscInstanced : stamp == nil ? screenInstanced
                               : sprite ? stampSpriteProgram : stampProgram).get()
            useProgram(program)
            // As `drawCommand`: opaque discs are blended only for their shader coverage,
            // translucent ones always (an opaque colour blended stays exactly that colour).
            let translucent = ground && (run.start ..< run.start + run.commands).contains { cmds[$0].color.premultiplied.3 < 1 }
            setBlend(ground ? aa || translucent : true)
            glDisable(GLenum(GL_STENCIL_TEST))
            glUniform2f(program.uniform("u_viewport"), Float(w), Float(h))
            glActiveTexture(GLenum(GL_TEXTURE0))
            if ground {
                // The uniforms `drawCommand` sets for a pixel disc, the matrix untranslated.
                glUniformMatrix4fv(program.uniform("u_matrix"), 1, GLboolean(GL_FALSE), baseFloat)
                glUniform1f(program.uniform("u_worldSize"), worldSize)
                glUniform1f(program.uniform("u_ratio"), Float(ratio))
                setGroundUniforms(program, coverage: .disc, scale: parts[0].extrudeScale, pointShape: true, onGround: false)
                if let r = pair?.radii { glUniform4f(program.uniform("u_pair"), r.0, r.1, r.2, r.3) }
            } else if let stamp {
                glUniform4f(program.uniform("u_box"), Float(stamp.x), Float(stamp.y), Float(stamp.width), Float(stamp.height))
                if let r = spriteRect, let image = parts.last?.texture {
                    glUniform4f(program.uniform("u_sprite"), Float(r.x), Float(r.y), Float(r.width), Float(r.height))
                    glActiveTexture(GLenum(GL_TEXTURE1))
                    glBindTexture(GLenum(GL_TEXTURE_2D), texture(for: image))
                    glUniform1i(program.uniform("u_spriteTexture"), 1)
                    glActiveTexture(GLenum(GL_TEXTURE0))
                }
                glBindTexture(GLenum(GL_TEXTURE_2D), stamp.texture)
            } else {
                glUniform1f(program.uniform("u_ratio"), Float(ratio))
                glBindTexture(GLenum(GL_TEXTURE_2D), parts[0].texture.map { texture(for: $0) } ?? whiteTexture)
            }
            glUniform1i(program.uniform("u_texture"), 0)
            glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
            instances.withUnsafeBytes {
                glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW))
            }
            let arrays = pairArrays ?? (stamp == nil ? batch.arrays : stampQuad)
            glBindVertexArray(arrays.vao)
            triangles += arrays.indexCount / 3 * run.markers
            drawCalls += 1
            glDrawElementsInstanced(GLenum(GL_TRIANGLES), GLsizei(arrays.indexCount), GLenum(GL_UNSIGNED_INT), nil,
                                    GLsizei(run.markers))
        }
        /// The batch's stamp at this pixel ratio, drawn when first needed: each part's coverage
        /// into its channel, by the same program that draws the parts unstamped.
        func stamp(_ batch: GPUScreenBatch, _ parts: [DrawCommand]) throws -> GPUScreenBatch.Stamp {
            if let st = batch.stamp, st.ratio == ratio { return st }
            let program = try screenInstanced.get()
            let st = GPUScreenBatch.Stamp(ratio: ratio, box: ScreenBatch.stampBox(parts, ratio: ratio))
            let scissored = glIsEnabled(GLenum(GL_SCISSOR_TEST)) == GLboolean(GL_TRUE)
            glDisable(GLenum(GL_SCISSOR_TEST))
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), st.framebuffer)
            glViewport(0, 0, GLsizei(st.width), GLsizei(st.height))
            glClearColor(0, 0, 0, 0)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            useProgram(program)
            setBlend(true)
            glDisable(GLenum(GL_STENCIL_TEST))
            glUniform2f(program.uniform("u_viewport"), Float(st.width), Float(st.height))
            glUniform1f(program.uniform("u_ratio"), Float(ratio))
            glActiveTexture(GLenum(GL_TEXTURE0))
            glBindTexture(GLenum(GL_TEXTURE_2D), whiteTexture)
            glUniform1i(program.uniform("u_texture"), 0)
            // One marker, anchored at texel corner (−x, −y), every part in white.
            var one: [Float] = [Float(-st.x) / Float(st.width) * 2 - 1, Float(-st.y) / Float(st.height) * 2 - 1, 0, 1]
            one += [Float](repeating: 1, count: 4 * ScreenBatch.maxParts)
            glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
            one.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
            glBindVertexArray(batch.arrays.vao)
            // The shapes only: a sprite last is laid on in the stamp's own shader.
            let shapes = ScreenBatch.spriteLast(parts) ? parts.count - 1 : parts.count
            for (j, r) in batch.partRanges.enumerated() where j < shapes {
                glColorMask(GLboolean(j == 0 ? 1 : 0), GLboolean(j == 1 ? 1 : 0), GLboolean(j == 2 ? 1 : 0), GLboolean(0))
                drawCalls += 1
                glDrawElementsInstanced(GLenum(GL_TRIANGLES), GLsizei(r.count), GLenum(GL_UNSIGNED_INT),
                                        UnsafeRawPointer(bitPattern: r.start * 4), 1)
            }
            glColorMask(GLboolean(1), GLboolean(1), GLboolean(1), GLboolean(1))
            target.bind()
            glClearColor(bg.0, bg.1, bg.2, bg.3)
            if scissored { glEnable(GLenum(GL_SCISSOR_TEST)) }
            batch.stamp = st
            return st
        }
        /// A run of sprites from the atlas (see `SpriteAtlas`) as one instanced draw.
        func drawAtlasRun(_ cmds: ArraySlice<DrawCommand>) throws {
            let program = try spriteAtlasProgram.get()
            useProgram(program)
            setBlend(true)
            glDisable(GLenum(GL_STENCIL_TEST))
            glUniform2f(program.uniform("u_viewport"), Float(w), Float(h))
            glUniform1f(program.uniform("u_ratio"), Float(ratio))
            glActiveTexture(GLenum(GL_TEXTURE0))
            glBindTexture(GLenum(GL_TEXTURE_2D), atlas.texture)
            glUniform1i(program.uniform("u_texture"), 0)
            instances.removeAll(keepingCapacity: true)
            let side = Float(SpriteAtlas.side)
            for cmd in cmds {
                guard let image = cmd.texture, let slot = atlas.slot(for: image),
                      let q = SpriteAtlas.atlasQuad(cmd, ratio: ratio) else { continue }
                let a = anchor(cmd.origin)
                for i in 0 ..< 4 { instances.append(Float(a[i])) }
                let c = cmd.color.premultiplied
                instances += [c.0, c.1, c.2, c.3, q.0, q.1, q.2, q.3,
                              Float(slot.x) / side, Float(slot.y) / side,
                              Float(slot.x + image.width) / side, Float(slot.y + image.height) / side]
            }
            let count = instances.count / ScreenBatch.instanceStride
            glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
            instances.withUnsafeBytes {
                glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW))
            }
            glBindVertexArray(stampQuad.vao)
            triangles += 2 * count
            atlasSprites += count
            drawCalls += 1
            glDrawElementsInstanced(GLenum(GL_TRIANGLES), GLsizei(stampQuad.indexCount), GLenum(GL_UNSIGNED_INT), nil,
                                    GLsizei(count))
        }
        /// Commands in order, runs of markers instanced and runs of sprites from the atlas.
        func drawList(_ cmds: [DrawCommand]) throws {
            var i = 0
            while i < cmds.count {
                // (Not in a layer summed by coverage, whose blending is set per command.)
                if instancing && !summing, let run = ScreenBatch.run(in: cmds, from: i, sprites: target.samples <= 1, joinable: { k in
                    ScreenBatch.joinable(cmds[k]) { self.buffers(for: $0).anchored }
                }) {
                    try drawRun(cmds, run)
                    i += run.commands
                } else if instancing, case let n = SpriteAtlas.runLength(in: cmds, from: i, ratio: ratio, placed: {
                    self.atlas.slot(for: $0) != nil
                }), n >= SpriteAtlas.minSprites {
                    try drawAtlasRun(cmds[i ..< i + n])
                    i += n
                } else {
                    try drawCommand(cmds[i])
                    i += 1
                }
            }
        }
        /// The flat commands, each run of one faded layer (`DrawGroup`) drawn as it is and then
        /// mixed with the frame as it was before the run: frame = α·layer-over-under + (1 − α)·under,
        /// which is the layer at opacity α over what was under it, each pixel faded once.
        func drawLayers(_ cmds: [DrawCommand]) throws {
            guard cmds.contains(where: { $0.group != nil }) else { return try drawList(cmds) }
            var i = 0
            while i < cmds.count {
                let group = cmds[i].group
                var j = i + 1
                while j < cmds.count, cmds[j].group == group { j += 1 }
                defer { i = j }
                // (A layer at opacity 1 is drawn as one only when its parts are apart and share
                // their edge pixels: an opaque choropleth's, see `MultiPolygon.layer`.)
                guard let group, group.opacity < 1 || group.partsApart && aa else { try drawList(Array(cmds[i ..< j])); continue }
                guard group.opacity > 0 else { continue }
                // Only where the run draws (its commands' boxes, when all have one) and the
                // partial redraw's scissor allows.
                var box = PixelRect(x: 0, y: 0, width: w, height: h)
                if let b = ScreenBox.union(of: cmds[i ..< j].map(\.screenBox)) {
                    let r = Double(ratio)
                    let x0 = max(0, Int((b.minX * r).rounded(.down))), y0 = max(0, Int((b.minY * r).rounded(.down)))
                    let x1 = min(w, Int((b.maxX * r).rounded(.up))), y1 = min(h, Int((b.maxY * r).rounded(.up)))
                    box = PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
                }
                if let clip = clipRect { box = box.intersection(clip) }
                guard box.area > 0 else { continue }
                glEnable(GLenum(GL_SCISSOR_TEST))
                scissor(box)
                defer {
                    if let clip = clipRect { scissor(clip) } else { glDisable(GLenum(GL_SCISSOR_TEST)) }
                }
                if group.partsApart && aa {
                    // Parts apart, with shader coverage: drawn in a layer of their own (cleared to
                    // nothing), each fragment adding its colour at its coverage but no more than
                    // the pixel has left (the saturating blend: min(coverage, 1 − alpha so far),
                    // set per command in `drawCommand`), which then goes over the frame at the
                    // layer's opacity. So where two parts meet, the pixels on an edge are shared
                    // between them, as multisampling shares them, and overlapping triangles of
                    // one part count once. Convex fills come first: their coverage is shared on
                    // both sides of an edge (½ plus the distance inside), a wedge fill's is whole
                    // inside and the rest is left outside, so a wedge fill after a convex fill
                    // beside it takes exactly the rest, and of two wedge fills the later takes the
                    // rest of the earlier's outer half pixel.
                    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), sumLayer(width: w, height: h).framebuffer)
                    glClearColor(0, 0, 0, 0)
                    glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
                    glClearColor(bg.0, bg.1, bg.2, bg.3)
                    let run = cmds[i ..< j]
                    summing = true
                    try drawList(run.filter { $0.mesh.layout == .convexFill } + run.filter { $0.mesh.layout != .convexFill })
                    summing = false
                    glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
                    target.bind()
                    let program = try layerProgram.get()
                    try drawFrameQuad(program, texture: layer.texture, sampler: "u_layer") {
                        glUniform1f(program.uniform("u_alpha"), Float(group.opacity))
                    }
                    continue
                }
                glActiveTexture(GLenum(GL_TEXTURE0))
                target.copyColor(into: behindTexture(width: w, height: h), rect: box)
                try drawList(Array(cmds[i ..< j]))
                try drawFrameQuad(try underProgram.get(), texture: behind.id, sampler: "u_under") {
                    glBlendColor(0, 0, 0, Float(group.opacity))
                    glBlendFunc(GLenum(GL_ONE_MINUS_CONSTANT_ALPHA), GLenum(GL_CONSTANT_ALPHA))
                }
                glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
            }
        }
        /// A quad over the whole frame (within the scissor) drawn by `program` from `texture`,
        /// blended, after `setUp` has set what else it needs.
        func drawFrameQuad(_ program: GLProgram, texture: GLuint, sampler: String, setUp: () -> Void) throws {
            useProgram(program)
            glDisable(GLenum(GL_STENCIL_TEST))
            setBlend(true)
            glActiveTexture(GLenum(GL_TEXTURE0))
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            glUniform1i(program.uniform(sampler), 0)
            setUp()
            skyQuad.draw()
            drawCalls += 1
            triangles += 2
        }
        func drawAll() throws {
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))
            stencilRef = 0
            glDisable(GLenum(GL_DEPTH_TEST))
            try drawLayers(passes.flat)
            if let sky {
                glDisable(GLenum(GL_STENCIL_TEST))
                glEnable(GLenum(GL_BLEND))
                blending = true
                current = try drawSky(sky, height: h, ratio: camera.pixelRatio)
            }
            if !passes.opaque.isEmpty || !passes.translucent.isEmpty || !custom.isEmpty {
                glEnable(GLenum(GL_DEPTH_TEST))
                glDepthFunc(GLenum(GL_LESS))
                glDepthMask(GLboolean(GL_TRUE))
                for cmd in passes.opaque {
                    // Cylinders' screen quads face either way.
                    ThreeD.cullBackFaces(cmd.mesh.layout == .solid)
                    try drawCommand(cmd)
                }
                if !custom.isEmpty {
                    ThreeD.cullBackFaces(false)
                    glDisable(GLenum(GL_STENCIL_TEST))
                    glEnable(GLenum(GL_BLEND))
                    glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
                    let context = GLLayerContext(camera: camera, time: time)
                    for layer in custom {
                        layer.render(context)
                        // Back to the state the renderer expects.
                        glBindVertexArray(0)
                        glEnable(GLenum(GL_DEPTH_TEST))
                        glDepthFunc(GLenum(GL_LESS))
                        glDepthMask(GLboolean(GL_TRUE))
                        glEnable(GLenum(GL_BLEND))
                        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
                    }
                    current = 0
                    glUseProgram(0)
                    blending = true
                }
                glDepthMask(GLboolean(GL_FALSE))
                // (Not with multisampling: the copy below needs a single-sampled frame.)
                if aa && target.samples <= 1 && passes.opaque.contains(where: { $0.mesh.layout == .solid }) {
                    // Faces' fringes over what is behind them, after every opaque solid (and
                    // custom layer) is in the depth buffer.
                    ThreeD.cullBackFaces(false)
                    glDisable(GLenum(GL_STENCIL_TEST))
                    glDepthFunc(GLenum(GL_LEQUAL))
                    // What the fringes mix with: the frame as the opaque pass left it.
                    glActiveTexture(GLenum(GL_TEXTURE0))
                    glBindTexture(GLenum(GL_TEXTURE_2D), behindTexture(width: w, height: h))
                    glCopyTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, 0, 0, GLsizei(w), GLsizei(h))
                    // The fringes lie in their faces' planes: pulled a little towards the eye
                    // (by the plane's own depth slope), so a face's own pixels never hide them.
                    glEnable(GLenum(GL_POLYGON_OFFSET_FILL))
                    glPolygonOffset(-1, -4)
                    for cmd in passes.opaque { try drawFringe(cmd) }
                    glDisable(GLenum(GL_POLYGON_OFFSET_FILL))
                    glDepthFunc(GLenum(GL_LESS))
                    setBlend(true)
                }
                for cmd in passes.translucent {
                    ThreeD.cullBackFaces(cmd.mesh.layout == .solid)
                    try drawCommand(cmd)
                }
                ThreeD.cullBackFaces(false)
                glDisable(GLenum(GL_DEPTH_TEST))
            }
            try drawLayers(passes.sprites)
        }
        if scissors.isEmpty {
            try drawAll()
        } else {
            for r in scissors {
                scissor(r)
                clipRect = r
                try drawAll()
            }
        }
        glDepthMask(GLboolean(GL_TRUE))
        glEnable(GLenum(GL_BLEND))
        glBindVertexArray(0)
        glDisable(GLenum(GL_STENCIL_TEST))
        glFinish()
        let drawn = ms(start)
        let readStart = DispatchTime.now().uptimeNanoseconds
        var pixels: [UInt8]
        if !scissors.isEmpty, let prev = previous {
            // The multisample resolve (a blit) honours the scissor: off first.
            glDisable(GLenum(GL_SCISSOR_TEST))
            pixels = prev.pixels
            for r in scissors { target.readPixels(r, into: &pixels) }
        } else {
            glDisable(GLenum(GL_SCISSOR_TEST))
            pixels = target.readPixels()
        }
        previous = partial && flatOnly && camera.pitch == 0
            ? PreviousFrame(camera: camera, clearColor: plan.clearColor, commands: ordered, pixels: pixels,
                            width: w, height: h)
            : nil
        evict()
        let fraction = scissors.isEmpty ? 1 : Double(scissors.reduce(0) { $0 + $1.area }) / Double(w * h)
        return (Frame(width: w, height: h, pixels: pixels), fraction, drawn, ms(readStart))
    }

    /// What changed since the last frame.
    enum Damage {
        /// Nothing: the last frame's pixels are this frame's.
        case none
        /// Only these rectangles (disjoint).
        case rects([PixelRect])
        /// Everything (or it cannot be told).
        case full
    }

    /// Compares the command lists: commands in both (same mesh, place, colour and parameters)
    /// must keep their order; the others (gone or new) are the damage, the union of their boxes.
    static func damage(from prev: PreviousFrame, to commands: [DrawCommand], width: Int, height: Int,
                       box: (DrawCommand) -> PixelRect?) -> Damage {
        var changed: [PixelRect] = []
        func add(_ b: PixelRect?) -> Bool {
            guard let b else { return false }
            if b.area > 0 { changed.append(b) }
            return true
        }
        if prev.commands.count == commands.count {
            // The common case (an animation, a moving marker): the same list with some commands
            // changed in place. Those are the damage, their old and new boxes; compared pairwise,
            // with no signatures or hashing (a frame of 60 000 marker commands spent 0.25 s here).
            for (a, b) in zip(prev.commands, commands) where !CommandSignature.same(a, b) {
                guard add(box(a)), add(box(b)) else { return .full }
            }
        } else {
            let old = prev.commands.map(CommandSignature.init), new = commands.map(CommandSignature.init)
            var oldCount: [CommandSignature: Int] = [:], newCount: [CommandSignature: Int] = [:]
            for sgn in old { oldCount[sgn, default: 0] += 1 }
            for sgn in new { newCount[sgn, default: 0] += 1 }
            // The common commands, in order, on each side.
            func common(_ list: [CommandSignature], _ mine: [CommandSignature: Int], _ other: [CommandSignature: Int],
                        _ cmds: [DrawCommand]) -> [CommandSignature]? {
                var budget: [CommandSignature: Int] = [:]
                for (k, v) in mine { budget[k] = min(v, other[k] ?? 0) }
                var kept: [CommandSignature] = []
                for (i, sgn) in list.enumerated() {
                    if let b = budget[sgn], b > 0 {
                        budget[sgn] = b - 1
                        kept.append(sgn)
                    } else if !add(box(cmds[i])) {
                        return nil
                    }
                }
                return kept
            }
            guard let a = common(old, oldCount, newCount, prev.commands), let b = common(new, newCount, oldCount, commands),
                  a == b else {
                return .full
            }
        }
        let rects = Self.merged(changed.map { b in
            let x0 = max(0, b.x - 2), y0 = max(0, b.y - 2)
            let x1 = min(width, b.x + b.width + 2), y1 = min(height, b.y + b.height + 2)
            return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
        }.filter { $0.area > 0 })
        return rects.isEmpty ? .none : .rects(rects)
    }

    /// Disjoint rectangles covering `rects`: overlapping ones (or ones whose union wastes little)
    /// are merged into their bounding box, and more than 8 become one.
    static func merged(_ rects: [PixelRect]) -> [PixelRect] {
        var out = rects
        var mergedSome = true
        while mergedSome {
            mergedSome = false
            search: for i in 0 ..< out.count {
                for j in i + 1 ..< out.count {
                    let a = out[i], b = out[j]
                    let u = a.union(b)
                    if a.intersects(b) || u.area <= (a.area + b.area) * 5 / 4 {
                        out[i] = u
                        out.remove(at: j)
                        mergedSome = true
                        break search
                    }
                }
            }
        }
        if out.count > 8 { return [out.dropFirst().reduce(out[0]) { $0.union($1) }] }
        return out
    }

    /// The device-pixel rectangle a command can touch (top-left origin), or nil when unknown.
    private func box(of cmd: DrawCommand, matrix m: [Double], base: MapPoint, camera: Camera, width: Int,
                     height: Int) -> PixelRect? {
        guard !cmd.mesh.indices.isEmpty else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        guard cmd.mesh.layout == .ground || cmd.mesh.layout == .screen || cmd.mesh.layout == .raster else { return nil }
        let e = buffers(for: cmd.mesh).extent
        let ws = camera.worldSize, ratio = camera.pixelRatio
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for (px, py) in [(e.minX, e.minY), (e.maxX, e.minY), (e.minX, e.maxY), (e.maxX, e.maxY)] {
            let x = (cmd.origin.x - base.x + px) * ws, y = (cmd.origin.y - base.y + py) * ws
            let cw = m[3] * x + m[7] * y + m[15]
            guard cw > 1e-9 else { return nil }
            let nx = (m[0] * x + m[4] * y + m[12]) / cw, ny = (m[1] * x + m[5] * y + m[13]) / cw
            let sx = (nx * 0.5 + 0.5) * Double(width), sy = (1 - (ny * 0.5 + 0.5)) * Double(height)
            x0 = min(x0, sx); y0 = min(y0, sy); x1 = max(x1, sx); y1 = max(y1, sy)
        }
        let scale = cmd.mesh.layout == .screen ? 1 : cmd.mesh.layout == .raster ? 0 : abs(cmd.extrudeScale)
        let margin = e.reach * scale * ratio * 1.05 + 3
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, margin.isFinite else { return nil }
        let bx0 = Int((x0 - margin).rounded(.down)), by0 = Int((y0 - margin).rounded(.down))
        let bx1 = Int((x1 + margin).rounded(.up)), by1 = Int((y1 + margin).rounded(.up))
        let cx0 = max(0, min(width, bx0)), cy0 = max(0, min(height, by0))
        let cx1 = max(0, min(width, bx1)), cy1 = max(0, min(height, by1))
        return PixelRect(x: cx0, y: cy0, width: max(0, cx1 - cx0), height: max(0, cy1 - cy0))
    }

    private func program(for layout: VertexLayout, fog: Bool) throws -> GLProgram {
        switch layout {
        case .ground: try ground.get()
        case .screen: try screen.get()
        case .solid: try (fog ? solidFog : solid).get()
        case .cylinder: try (fog ? cylinderFog : cylinder).get()
        case .ribbon: try (fog ? ribbonFog : ribbon).get()
        case .raster: try raster.get()
        case .convexFill: try convexFill.get()
        case .wedgeFill: try wedgeFill.get()
        }
    }

    /// Whether a raster quad's texels map one to one onto device pixels: no pitch, a bearing
    /// that is a multiple of 90°, and the quad's width in device pixels equal to its texels.
    static func isPixelExact(_ cmd: DrawCommand, image: SpriteImage, camera: Camera) -> Bool {
        guard camera.pitch == 0, camera.bearing.truncatingRemainder(dividingBy: 90) == 0 else { return false }
        let v = cmd.mesh.vertices
        guard v.count == 16 else { return false }
        // Vertices 0 and 1 are the top edge: their texture span over their device-pixel span.
        let spanPx = Double(v[4] - v[0]) * camera.worldSize * camera.pixelRatio
        let texels = Double(v[6] - v[2]) * Double(image.width)
        return abs(spanPx - texels) < 1e-3
    }

    /// Draws the sky quad (see `Shaders.skyVertex`); returns the program it left in use.
    private func drawSky(_ sky: ThreeD.Sky, height: Int, ratio: Double) throws -> GLuint {
        let skyProgram = try self.skyProgram.get()
        glUseProgram(skyProgram.id)
        let hp = Float(height)
        let (horizon, band) = sky.window(height: height, ratio: ratio)
        let bottomNDC = max(-1, min(1, (horizon - band) / hp * 2 - 1))
        glUniform1f(skyProgram.uniform("u_bottom"), bottomNDC)
        glUniform1f(skyProgram.uniform("u_horizon"), horizon)
        glUniform1f(skyProgram.uniform("u_band"), max(band, 1))
        glUniform1f(skyProgram.uniform("u_span"), max(hp * 0.6, 1))
        let z = sky.zenith.premultiplied, hz = sky.haze.premultiplied
        glUniform4f(skyProgram.uniform("u_zenith"), z.0, z.1, z.2, z.3)
        glUniform4f(skyProgram.uniform("u_haze"), hz.0, hz.1, hz.2, hz.3)
        skyQuad.draw()
        drawCalls += 1
        return skyProgram.id
    }

    /// A framebuffer with a colour texture of the frame's size, for layers whose parts are apart
    /// (made when first needed, again when the size changes).
    private func sumLayer(width: Int, height: Int) -> (framebuffer: GLuint, texture: GLuint, width: Int, height: Int) {
        if layer.framebuffer == 0 || layer.width != width || layer.height != height {
            releaseSumLayer()
            glGenTextures(1, &layer.texture)
            glBindTexture(GLenum(GL_TEXTURE_2D), layer.texture)
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0, GLenum(GL_RGBA),
                         GLenum(GL_UNSIGNED_BYTE), nil)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
            glGenFramebuffers(1, &layer.framebuffer)
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), layer.framebuffer)
            glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), layer.texture, 0)
            layer.width = width
            layer.height = height
        }
        return layer
    }

    private func releaseSumLayer() {
        if layer.framebuffer != 0 { glDeleteFramebuffers(1, &layer.framebuffer) }
        if layer.texture != 0 { glDeleteTextures(1, &layer.texture) }
        layer = (0, 0, 0, 0)
    }

    /// The texture the solids' fringes read the frame from (see `Shaders.solidFringeVertex`),
    /// the frame's size.
    private func behindTexture(width: Int, height: Int) -> GLuint {
        if behind.id == 0 || behind.width != width || behind.height != height {
            if behind.id != 0 { glDeleteTextures(1, &behind.id) }
            glGenTextures(1, &behind.id)
            glBindTexture(GLenum(GL_TEXTURE_2D), behind.id)
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0, GLenum(GL_RGBA),
                         GLenum(GL_UNSIGNED_BYTE), nil)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
            behind.width = width
            behind.height = height
        }
        return behind.id
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
        batches = batches.filter { f - $0.value.lastFrame < 8 }
    }
}

/// A run's marker: its parts' meshes and which of them are fringed shapes.
struct BatchKey: Hashable {
    var meshes: [ObjectIdentifier]
    var shapes: [Bool]
}

/// The last frame drawn, for partial redraws.
final class PreviousFrame {
    let camera: Camera
    /// The colour it was cleared to (`RenderPlan.clearColor`).
    let clearColor: Color
    let commands: [DrawCommand]
    let pixels: [UInt8]
    let width: Int, height: Int

    init(camera: Camera, clearColor: Color, commands: [DrawCommand], pixels: [UInt8], width: Int, height: Int) {
        self.camera = camera; self.clearColor = clearColor; self.commands = commands
        self.pixels = pixels; self.width = width; self.height = height
    }
}

/// Everything that decides what a command draws.
struct CommandSignature: Hashable {
    let mesh: ObjectIdentifier
    let texture: ObjectIdentifier?
    let origin: MapPoint
    let color: Color
    let numbers: [Double]
    let flags: Int

    /// Whether two commands have equal signatures (compared field by field, nothing allocated).
    static func same(_ a: DrawCommand, _ b: DrawCommand) -> Bool {
        a.mesh === b.mesh && a.texture === b.texture && a.origin == b.origin && a.color == b.color
            && a.extrudeScale == b.extrudeScale && a.dashOffset == b.dashOffset && a.fadeLength == b.fadeLength
            && a.raster.brightnessMin == b.raster.brightnessMin && a.raster.brightnessMax == b.raster.brightnessMax
            && a.raster.saturation == b.raster.saturation && a.raster.contrast == b.raster.contrast && a.dash == b.dash
            && a.blendOnce == b.blendOnce && a.widthOnGround == b.widthOnGround && a.group == b.group
    }

    init(_ c: DrawCommand) {
        mesh = ObjectIdentifier(c.mesh)
        texture = c.texture.map { ObjectIdentifier($0) }
        origin = c.origin
        color = c.color
        numbers = [c.extrudeScale, c.dashOffset, c.fadeLength, c.raster.brightnessMin, c.raster.brightnessMax, c.raster.saturation,
                   c.raster.contrast, Double(c.group?.id ?? 0), c.group?.opacity ?? 1] + c.dash
        flags = (c.blendOnce ? 1 : 0) | (c.widthOnGround ? 2 : 0)
    }
}

/// Where a mesh's vertices reach: positions in map units relative to its origin, and how far
/// their pixel offsets (extrusions, sprite corners) go.
struct MeshExtent {
    var minX = 0.0, minY = 0.0, maxX = 0.0, maxY = 0.0
    /// Largest pixel offset length (times the command's extrude scale for ground meshes).
    var reach = 0.0

    init(_ mesh: Mesh) {
        let v = mesh.vertices, stride = mesh.layout.stride
        guard v.count >= stride else { return }
        minX = .infinity; minY = .infinity; maxX = -.infinity; maxY = -.infinity
        var i = 0
        while i + stride <= v.count {
            let x = Double(v[i]), y = Double(v[i + 1]), ex = Double(v[i + 2]), ey = Double(v[i + 3])
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            reach = max(reach, (ex * ex + ey * ey).squareRoot())
            i += stride
        }
    }
}

/// A mesh's vertex array, vertex and index buffers. Holds the mesh so its identity stays unique.
private final class GPUMesh {
    let mesh: Mesh
    let arrays: GPUArrays
    var vao: GLuint { arrays.vao }
    var lastFrame: Int
    /// A ground mesh whose vertices all sit on its origin (a pixel circle or dot).
    let pointShape: Bool
    /// A screen mesh whose vertices all sit on its origin (see `ScreenBatch`), found when asked.
    lazy var anchored = mesh.isAnchored
    /// Where the vertices reach (for partial redraws), computed when first asked for.
    lazy var extent = MeshExtent(mesh)
    /// A solid's face fringes (nil for other layouts, for solids without edges and for meshes
    /// past `SolidFringe.maxTriangles`), made when first drawn.
    lazy var fringe: GPUArrays? = {
        guard mesh.layout == .solid else { return nil }
        let f = SolidFringe(mesh)
        guard !f.indices.isEmpty else { return nil }
        return GPUArrays(vertices: f.vertices, indices: f.indices, stride: SolidFringe.stride,
                         attributes: [(0, 3, 0), (1, 3, 12), (2, 3, 24), (3, 3, 36), (4, 2, 48), (5, 4, 56)])
    }()

    init(_ mesh: Mesh, frame: Int) {
        self.mesh = mesh
        lastFrame = frame
        pointShape = ThreeD.isPointShape(mesh)
        let attributes: [(GLuint, GLint, Int)]
        switch mesh.layout {
        case .ground: attributes = [(0, 2, 0), (1, 2, 8), (2, 1, 16), (3, 1, 20)]
        case .screen: attributes = [(0, 2, 0), (1, 2, 8), (2, 2, 16)]
        case .solid: attributes = [(0, 3, 0), (1, 3, 12)]
        case .cylinder: attributes = [(0, 2, 0), (1, 4, 8)]
        case .ribbon: attributes = [(0, 3, 0), (1, 3, 12), (2, 3, 24), (3, 1, 36), (4, 4, 40)]
        case .raster: attributes = [(0, 2, 0), (1, 2, 8)]
        case .convexFill: attributes = [(0, 4, 0), (1, 4, 16), (2, 1, 32)]
        case .wedgeFill: attributes = [(0, 4, 0), (1, 4, 16), (2, 4, 32), (3, 4, 48), (4, 4, 64)]
        }
        arrays = GPUArrays(vertices: mesh.vertices, indices: mesh.indices, stride: mesh.layout.stride, attributes: attributes)
    }
}

/// A vertex array over interleaved float vertices and 32-bit indices, uploaded once.
final class GPUArrays {
    private(set) var vao: GLuint = 0
    private var buffers: [GLuint] = [0, 0]
    let indexCount: Int

    /// `stride` in floats; each attribute is (location, components, byte offset).
    init(vertices: [Float], indices: [UInt32], stride: Int, attributes: [(GLuint, GLint, Int)]) {
        indexCount = indices.count
        glGenVertexArrays(1, &vao)
        glGenBuffers(2, &buffers)
        glBindVertexArray(vao)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffers[0])
        vertices.withUnsafeBytes {
            glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW))
        }
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), buffers[1])
        indices.withUnsafeBytes {
            glBufferData(GLenum(GL_ELEMENT_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW))
        }
        for (loc, n, offset) in attributes {
            glEnableVertexAttribArray(loc)
            glVertexAttribPointer(loc, n, GLenum(GL_FLOAT), GLboolean(GL_FALSE), GLsizei(stride * 4),
                                  UnsafeRawPointer(bitPattern: offset))
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
