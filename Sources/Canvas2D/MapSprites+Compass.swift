import Foundation

extension MapSprites {
    /// The colour of the compass's north half, #D32F2F.
    public static let compassNorthColor = RGBAColor(r8: 0xD3, g8: 0x2F, b8: 0x2F)

    /// A compass rose already turned for the camera: a disc of `size` logical px with a needle whose
    /// red half points to north on screen, and an upright "N" just beyond its tip.
    ///
    /// `bearing` is the camera bearing in degrees clockwise from north (bearing 90 puts east at the
    /// top, so north points left). `pitch` (degrees, 0 = looking straight down) tilts the rose
    /// onto the ground plane: its vertical axis is foreshortened by cos(pitch), floored at 0.3 so
    /// it stays readable. So north on screen is the unit direction (−sin b, −cos b · max(cos p, 0.3))
    /// before normalising (x right, y down). The anchor is the disc centre. The needle's north tip
    /// lies 0.6 × radius from the centre along that direction (radius = size / 2 − 1).
    public static func compass(
        bearing: Double, pitch: Double = 0, size: Double = 48,
        scale: Double = 1
    ) throws(CanvasError) -> AnchoredBitmap {
        guard bearing.isFinite else { throw .invalidArgument("bearing", "\(bearing) is not a finite angle") }
        guard pitch.isFinite, pitch >= 0, pitch <= 90 else {
            throw .invalidArgument("pitch", "\(pitch) is not in 0...90 degrees")
        }
        try positive(size, "size")
        let canvas = try canvas(width: size, height: size, scale: scale)
        let r = size / 2 - 1
        let squash = compassSquash(pitch: pitch)
        let b = bearing * .pi / 180
        canvas.save()
        canvas.translate(x: size / 2, y: size / 2)
        canvas.scale(x: 1, y: squash)
        canvas.rotate(by: -b)
        let centre = CanvasPoint.zero
        canvas.fill(.circle(center: centre, radius: r), color: RGBAColor.white.withAlpha(0.9))
        canvas.stroke(
            .circle(center: centre, radius: r - 0.5), color: RGBAColor.black.withAlpha(0.3),
            style: StrokeStyle(width: 1))
        // Ticks at east, south and west; north is the letter.
        let grey = RGBAColor(r8: 0x75, g8: 0x75, b8: 0x75)
        for k in 1...3 {
            let a = Double(k) * .pi / 2
            let (s, c) = (sin(a), -cos(a))  // direction of heading a, screen coordinates
            canvas.stroke(
                .polyline([
                    CanvasPoint(x: s * 0.78 * r, y: c * 0.78 * r),
                    CanvasPoint(x: s * 0.93 * r, y: c * 0.93 * r),
                ]),
                color: grey, style: StrokeStyle(width: max(1, r / 16)))
        }
        let tip = 0.6 * r, half = 0.22 * r
        var north = CanvasPath()
        north.move(to: CanvasPoint(x: 0, y: -tip))
        north.addLine(to: CanvasPoint(x: half, y: 0))
        north.addLine(to: CanvasPoint(x: -half, y: 0))
        north.closeSubpath()
        var south = CanvasPath()
        south.move(to: CanvasPoint(x: 0, y: tip))
        south.addLine(to: CanvasPoint(x: half, y: 0))
        south.addLine(to: CanvasPoint(x: -half, y: 0))
        south.closeSubpath()
        canvas.fill(south, color: RGBAColor(r8: 0xE0, g8: 0xE0, b8: 0xE0))
        canvas.stroke(south, color: grey, style: StrokeStyle(width: max(0.75, r / 24), join: .round))
        canvas.fill(north, color: compassNorthColor)
        canvas.fill(.circle(center: centre, radius: max(1, 0.07 * r)), color: RGBAColor(r8: 0x42, g8: 0x42, b8: 0x42))
        canvas.restore()
        // The "N", upright, centred on the north point at 0.76 r (just beyond the needle tip at 0.6 r).
        let font = Font(size: max(6, 0.38 * r), weight: .bold)
        let m = canvas.measure("N", font: font)
        let nx = size / 2 - sin(b) * 0.76 * r
        let ny = size / 2 - cos(b) * 0.76 * r * squash
        canvas.drawText(
            "N",
            at: CanvasPoint(
                x: nx - m.inkBounds.x - m.inkBounds.width / 2,
                y: ny - m.inkBounds.y - m.inkBounds.height / 2),
            font: font, color: RGBAColor(r8: 0x21, g8: 0x21, b8: 0x21),
            halo: TextHalo(color: RGBAColor.white.withAlpha(0.9), width: 1))
        return AnchoredBitmap(
            bitmap: try canvas.makeBitmap(), anchor: CanvasPoint(x: size / 2 * scale, y: size / 2 * scale),
            scale: scale)
    }

    /// The vertical foreshortening of the compass at `pitch` degrees: max(cos(pitch), 0.3).
    public static func compassSquash(pitch: Double) -> Double {
        max(cos(pitch * .pi / 180), 0.3)
    }
}
