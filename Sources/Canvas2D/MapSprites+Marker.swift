import Foundation

extension MapSprites {
    /// The default marker: a filled dot of `diameter` logical px in `color`, inside a white ring
    /// `ringWidth` wide, edged by a faint dark line so the ring shows on light maps. The anchor is
    /// the dot's centre. With the defaults (12 px, 2 px ring) the dot covers radius 0–6 px, the
    /// ring 6–8 px and the edge 8–9 px; the bitmap is 19 logical px square with the centre at
    /// (9.5, 9.5) logical px — a pixel centre at scale 1, so the dot is symmetric on the pixel grid
    /// when the renderer puts that pixel on the marker's pixel.
    public static func markerDot(
        color: RGBAColor, scale: Double = 1, diameter: Double = 12, ringWidth: Double = 2,
        ringColor: RGBAColor = .white
    ) throws(CanvasError) -> AnchoredBitmap {
        try positive(diameter, "diameter")
        guard ringWidth.isFinite, ringWidth >= 0, ringWidth <= 100 else {
            throw .invalidArgument("ringWidth", "\(ringWidth) is not in [0, 100]")
        }
        let r = diameter / 2
        let outer = r + ringWidth
        let edge = 1.0
        let half = (outer + edge).rounded(.up) + 0.5  // half a logical px of margin for antialiasing
        let canvas = try canvas(width: 2 * half, height: 2 * half, scale: scale)
        let c = CanvasPoint(x: half, y: half)
        canvas.fill(.circle(center: c, radius: outer + edge), color: RGBAColor.black.withAlpha(0.28))
        canvas.fill(.circle(center: c, radius: outer), color: ringColor)
        canvas.fill(.circle(center: c, radius: r), color: color)
        return AnchoredBitmap(
            bitmap: try canvas.makeBitmap(), anchor: CanvasPoint(x: half * scale, y: half * scale),
            scale: scale)
    }

    /// A map pin: a teardrop of `height` logical px in `color` with a white outline and a white
    /// dot in its head, anchored at the tip of its point (bottom centre).
    public static func markerPin(color: RGBAColor, scale: Double = 1, height: Double = 30) throws(CanvasError)
        -> AnchoredBitmap
    {
        try positive(height, "height")
        // Head: a circle of radius r centred r + margin below the top; tip at distance d below the
        // centre. The sides are the tangents from the tip to the circle, touching it at ±acos(r/d)
        // from the downward direction (right triangle centre–tangent point–tip).
        let outline = max(1, height / 20)
        let margin = outline + 1
        let r = height * 0.34
        let d = height - r
        let width = 2 * (r + margin).rounded(.up) + 1  // odd: the tip on a pixel centre at 1x
        let canvas = try canvas(width: width, height: height + 2 * margin, scale: scale)
        let c = CanvasPoint(x: width / 2, y: margin + r)
        let tip = CanvasPoint(x: c.x, y: c.y + d)
        let alpha = acos((r / d).clamped(to: -1...1))
        let down = Double.pi / 2
        var pin = CanvasPath()
        pin.move(to: tip)
        pin.addArc(center: c, radius: r, startAngle: down + alpha, endAngle: down - alpha + 2 * .pi)
        pin.closeSubpath()
        canvas.stroke(
            pin, color: RGBAColor.black.withAlpha(0.3),
            style: StrokeStyle(width: 2 * outline + 1, join: .round))
        canvas.stroke(pin, color: .white, style: StrokeStyle(width: 2 * outline, join: .round))
        canvas.fill(pin, color: color)
        canvas.fill(.circle(center: c, radius: r * 0.38), color: .white)
        return AnchoredBitmap(
            bitmap: try canvas.makeBitmap(), anchor: CanvasPoint(x: tip.x * scale, y: tip.y * scale),
            scale: scale)
    }
}

extension Double {
    func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(range.upperBound, Swift.max(range.lowerBound, self))
    }
}
