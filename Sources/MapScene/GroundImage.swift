import GeoKit

/// How a raster's colours are adjusted so overlays stand out (MapLibre's raster paint
/// properties, with their meanings): `saturation` and `contrast` in −1…1 (0 leaves the image
/// as is, −1 saturation is grey), `brightnessMin`/`brightnessMax` map black and white to these
/// levels (0 and 1 leave it as is; a light wash is `brightnessMin` 0.3).
public struct RasterAdjustments: Sendable, Hashable {
    public var brightnessMin: Double
    public var brightnessMax: Double
    public var saturation: Double
    public var contrast: Double

    public init(brightnessMin: Double = 0, brightnessMax: Double = 1, saturation: Double = 0, contrast: Double = 0) {
        self.brightnessMin = brightnessMin; self.brightnessMax = brightnessMax
        self.saturation = saturation; self.contrast = contrast
    }

    public static let none = RasterAdjustments()

    /// The factor applied towards the grey average (MapLibre's saturation factor).
    public var saturationFactor: Double {
        let s = max(-1, min(1, saturation.isFinite ? saturation : 0))
        return s > 0 ? 1 - 1 / (1.001 - s) : -s
    }

    /// The factor applied about mid-grey (MapLibre's contrast factor).
    public var contrastFactor: Double {
        let c = max(-1, min(0.999, contrast.isFinite ? contrast : 0))
        return c > 0 ? 1 / (1 - c) : 1 + c
    }
}

/// A bitmap laid on the ground between four corners: a raster tile, or an image overlay
/// (MapLibre's image source). The image is mapped linearly in Web Mercator between the
/// corners (projectively when they are not a parallelogram), so it stays glued through
/// bearing and pitch.
public struct GroundImage: Sendable {
    /// The corners in world units (the world is the unit square; x outside 0…1 for the copies of
    /// the world east and west): the image's top-left, top-right, bottom-right, bottom-left.
    public var corners: [MapPoint]
    /// The bitmap (premultiplied RGBA).
    public var image: SpriteImage
    /// The part of the image used, in 0…1 texture units (u0, v0, u1, v1): all of it, or the
    /// quarter of a parent tile standing in for a missing child.
    public var textureRect: (u0: Double, v0: Double, u1: Double, v1: Double)
    /// 0…1.
    public var opacity: Double
    /// Colour adjustments.
    public var adjustments: RasterAdjustments
    /// Drawing order; nil takes the default for images (under every other overlay).
    public var zIndex: Int?
    /// Drawn again in every copy of the world the view shows, east and west (true, as MapLibre's
    /// `renderWorldCopies`), or only where its coordinates put it (false: for geometry its
    /// maker already placed in each copy the view needs, like basemap features and tiles).
    public var worldCopies = true

    /// An image between four corners (top-left, top-right, bottom-right, bottom-left), world units.
    public init(corners: [MapPoint], image: SpriteImage, textureRect: (u0: Double, v0: Double, u1: Double, v1: Double) = (0, 0, 1, 1),
                opacity: Double = 1, adjustments: RasterAdjustments = .none, zIndex: Int? = nil) {
        self.corners = corners; self.image = image; self.textureRect = textureRect; self.opacity = opacity
        self.adjustments = adjustments; self.zIndex = zIndex
    }

    /// An image covering `bounds` (north up).
    public init(bounds: GeoBounds, image: SpriteImage, opacity: Double = 1, adjustments: RasterAdjustments = .none, zIndex: Int? = nil) {
        let nw = MapPoint(LatLng(lat: bounds.north, lon: bounds.west))
        var se = MapPoint(LatLng(lat: bounds.south, lon: bounds.east))
        if se.x < nw.x { se.x += 1 }  // across the antimeridian
        self.init(corners: [nw, MapPoint(x: se.x, y: nw.y), se, MapPoint(x: nw.x, y: se.y)], image: image, opacity: opacity,
                  adjustments: adjustments, zIndex: zIndex)
    }

    /// An image pinned at four positions (top-left, top-right, bottom-right, bottom-left).
    public init(corners: [LatLng], image: SpriteImage, opacity: Double = 1, adjustments: RasterAdjustments = .none, zIndex: Int? = nil) {
        var pts = corners.map { MapPoint($0) }
        // Keep the quad on one side of the antimeridian.
        if let x0 = pts.first?.x {
            for i in pts.indices { if pts[i].x - x0 > 0.5 { pts[i].x -= 1 } else if x0 - pts[i].x > 0.5 { pts[i].x += 1 } }
        }
        self.init(corners: pts, image: image, opacity: opacity, adjustments: adjustments, zIndex: zIndex)
    }

    /// Whether the corners are usable (four finite points).
    public var isValid: Bool { corners.count == 4 && corners.allSatisfy { $0.x.isFinite && $0.y.isFinite } }
}
