import GeoKit
import MapCamera
import MapScene

/// How a command's edges are antialiased when the backend computes coverage in its shaders
/// (no multisampling; see `VertexLayout.ground` for the coordinates each kind reads).
public enum Coverage: Sendable, Hashable {
    /// Strokes: the distance across the line (and from the centre of join and cap fans) fades
    /// the outer half pixel; the geometry is widened by half a device pixel.
    case stroke
    /// Fills: interior triangles, then a half-pixel fringe outside the edges.
    case fill
    /// Pixel discs and rings: the true circle's distance, per fragment.
    case disc
    /// Flat screen shapes (pins, arrows) with a baked fringe: texture coordinate u is coverage.
    case shape
    /// Nothing (textures, 3D solids, ribbons: they carry their own edges or none).
    case none
}

/// One draw call, backend-neutral.
///
/// Ground meshes: a vertex lands at `(origin + pos) · worldSize + extrude · extrudeScale` world
/// pixels, transformed by `camera.viewProjectionMatrix(relativeTo: origin)`. Screen meshes:
/// the anchor `origin + pos` is projected, then the pixel offset is added upright on screen.
public struct DrawCommand: Sendable {
    /// The triangles.
    public var mesh: Mesh
    /// The map point the mesh's positions are relative to.
    public var origin: MapPoint
    /// Colour (straight alpha); for textured sprites a tint (white = the image as is).
    public var color: Color
    /// Multiplier of ground extrusions in logical pixels (half the line width for strokes,
    /// 1 for shapes with baked pixel offsets, 0 for plain fills).
    public var extrudeScale: Double
    /// Dash pattern in logical pixels (on, off, …); empty for solid.
    public var dash: [Double]
    /// Texture for screen meshes (premultiplied); nil draws solid `color`.
    public var texture: SpriteImage?
    /// When true each pixel (sample) is blended at most once by this command, so translucent
    /// strokes do not darken where they overlap themselves.
    public var blendOnce: Bool
    /// When true the ground extrusion is a width on the ground (lines in metres: narrower with
    /// distance in pitched views); when false it is a width on screen (lines and rims in pixels).
    public var widthOnGround = false
    /// Logical pixels the dash pattern is shifted forwards along the line.
    public var dashOffset = 0.0
    /// Logical pixels along the line over which it fades in from transparent (at distance 0)
    /// to `color`; 0 = no fade.
    public var fadeLength = 0.0
    /// How the backend antialiases the edges without multisampling.
    public var coverage: Coverage
    /// Colour adjustments of raster meshes (their opacity is the colour's alpha).
    public var raster: RasterAdjustments = .none
    /// The layer this command is drawn in, when it belongs to one drawn at an opacity below 1
    /// (`Scene.basemapGroups`): consecutive commands of one group are drawn as they are and the
    /// result is mixed with what was under them at the group's opacity, so each pixel is faded
    /// once however many of the group's commands cover it.
    public var group: DrawGroup?
    /// Where on screen the command draws at most, when the planner knows it (a translucent
    /// set's layer): a faded layer (`group`) is mixed with what was under it only within its
    /// commands' boxes. Nil: anywhere.
    public var screenBox: ScreenBox?
    /// The ranges of `mesh.indices` to draw (whole triangles, in order), nil for all: a set's
    /// mesh drawn only where its bins reach the view (`Mesh.bins`).
    public var ranges: [Range<Int>]?

    /// Creates a command. `coverage` defaults to `.stroke` for ground meshes and `.none` otherwise.
    public init(mesh: Mesh, origin: MapPoint, color: Color, extrudeScale: Double = 0, dash: [Double] = [],
                texture: SpriteImage? = nil, blendOnce: Bool = true, coverage: Coverage? = nil) {
        self.mesh = mesh; self.origin = origin; self.color = color; self.extrudeScale = extrudeScale
        self.dash = dash; self.texture = texture; self.blendOnce = blendOnce
        self.coverage = coverage ?? (mesh.layout == .ground ? .stroke : .none)
    }
}

/// A rectangle on screen in logical pixels, from the top left.
public struct ScreenBox: Sendable, Hashable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    /// Creates a box.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    /// The smallest box holding both.
    public func union(_ o: ScreenBox) -> ScreenBox {
        ScreenBox(minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX), maxY: max(maxY, o.maxY))
    }

    /// The smallest box holding all of `boxes`; nil when there are none or one is nil (a
    /// command that may draw anywhere).
    public static func union(of boxes: some Sequence<ScreenBox?>) -> ScreenBox? {
        var all: ScreenBox?
        for box in boxes {
            guard let box else { return nil }
            all = all?.union(box) ?? box
        }
        return all
    }
}

/// A layer of commands drawn together and faded as one (see `DrawCommand.group`).
public struct DrawGroup: Sendable, Hashable {
    /// Tells groups apart (consecutive commands with the same group form one layer).
    public var id: Int
    /// 0…1.
    public var opacity: Double
    /// Whether no two of the layer's parts overlap (the sets of `Overlay.mergingAlikeRuns`'s
    /// groups): with shader coverage their coverages are then added up, to no more than the
    /// whole pixel, in a layer of its own, so that where two parts meet each one's share of an
    /// edge pixel counts, as with multisampling (false: drawn one over another, the later one's
    /// edge over the earlier one).
    public var partsApart: Bool

    /// Creates a group.
    public init(id: Int, opacity: Double, partsApart: Bool = false) {
        self.id = id; self.opacity = opacity; self.partsApart = partsApart
    }
}

/// Everything a backend needs to draw one frame, in order (first drawn first).
public struct RenderPlan: Sendable {
    /// The camera the plan was made for.
    public var camera: Camera
    /// Colour the frame is cleared to, unless `ground` is given; the sky's colours follow it.
    public var background: Color
    /// Draw calls, bottom first.
    public var commands: [DrawCommand]
    /// An opaque colour every pixel of the view has under `commands`: the fill of the polygon the
    /// planner found round the whole view where nothing had been drawn before it, left out of
    /// `commands` (see `RenderPlanner.clearsCoveredGround`). The frame is cleared to it.
    public var ground: Color?

    /// Creates a plan.
    public init(camera: Camera, background: Color, commands: [DrawCommand], ground: Color? = nil) {
        self.camera = camera; self.background = background; self.commands = commands; self.ground = ground
    }

    /// The colour the frame is cleared to: `ground`, or else `background`.
    public var clearColor: Color { ground ?? background }
}

/// A rendered image: RGBA, 8 bits per channel, straight (not premultiplied) alpha, rows top-down,
/// `width · height · 4` bytes, in output pixels (logical size × pixel ratio).
public struct Frame: Sendable {
    /// Width in output pixels.
    public let width: Int
    /// Height in output pixels.
    public let height: Int
    /// The pixels.
    public let pixels: [UInt8]

    /// Creates a frame.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width; self.height = height; self.pixels = pixels
    }

    /// The RGBA value at output pixel (x, y), top-left origin; nil outside.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

/// Something that turns a `RenderPlan` into pixels (the GL backend in `MapRenderGL`).
public protocol RenderBackend: AnyObject {
    /// Draws the plan and reads the frame back.
    func draw(_ plan: RenderPlan) throws -> Frame
}
