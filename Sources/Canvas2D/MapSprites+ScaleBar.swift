import Foundation

/// The distance a scale bar shows and how long it is drawn.
public struct ScaleBarChoice: Sendable, Hashable {
    /// The distance, metres: 1, 2 or 5 × 10ⁿ.
    public var metres: Double
    /// The bar length, logical px (`metres / metresPerPixel`).
    public var length: Double
    /// The caption: `"50 cm"`, `"200 m"`, `"5 km"`.
    public var label: String
}

extension MapSprites {
    /// Picks the longest round distance (1, 2 or 5 × 10ⁿ metres, shown in cm below 1 m and in km
    /// from 1000 m) whose bar is at most `maxLength` logical px at `metresPerPixel` (metres per
    /// logical px at the place the bar describes, usually the view centre).
    /// Throws when the inputs are not positive and finite, or the distance falls outside 1 cm…100,000 km.
    public static func scaleBarChoice(metresPerPixel: Double, maxLength: Double = 100) throws(CanvasError)
        -> ScaleBarChoice
    {
        guard metresPerPixel.isFinite, metresPerPixel > 0 else {
            throw .invalidArgument("metresPerPixel", "\(metresPerPixel) is not a positive finite number")
        }
        try positive(maxLength, "maxLength", max: 4096)
        let maxMetres = metresPerPixel * maxLength
        guard maxMetres >= 0.01, maxMetres <= 1e8 else {
            throw .invalidArgument(
                "metresPerPixel", "a \(maxLength) px bar spans \(maxMetres) m, outside 1 cm...100,000 km")
        }
        // Walk down the 1-2-5 ladder from the decade above; the tolerance keeps exact fits
        // (500 m on a 500 m bar) despite rounding in log10 and the products.
        var exponent = Int(floor(log10(maxMetres))) + 1
        while true {
            for mantissa in [5.0, 2.0, 1.0] {
                let metres = mantissa * pow(10, Double(exponent))
                if metres <= maxMetres * (1 + 1e-9) {
                    return ScaleBarChoice(metres: metres, length: metres / metresPerPixel, label: scaleLabel(metres))
                }
            }
            exponent -= 1
        }
    }

    static func scaleLabel(_ metres: Double) -> String {
        if metres >= 1000 { return "\(Int((metres / 1000).rounded())) km" }
        if metres >= 1 { return "\(Int(metres.rounded())) m" }
        return "\(Int((metres * 100).rounded())) cm"
    }

    /// A scale bar for `metresPerPixel` (metres per logical px): the bar of
    /// ``scaleBarChoice(metresPerPixel:maxLength:)`` with end ticks and its caption above it, in
    /// dark grey with white halos on a translucent white box. The anchor is the bitmap's
    /// bottom-left corner; the bar's left end is 4 logical px right of it.
    public static func scaleBar(
        metresPerPixel: Double, maxLength: Double = 100, font: Font = Font(size: 11),
        scale: Double = 1
    ) throws(CanvasError) -> AnchoredBitmap {
        let choice = try scaleBarChoice(metresPerPixel: metresPerPixel, maxLength: maxLength)
        try positive(font.size, "font size")
        let m = Canvas.measure(choice.label, font: font)
        let pad = 4.0, tick = 5.0
        let width = (max(choice.length, m.width + 2) + 2 * pad).rounded(.up)
        let height = (pad + m.height + 2 + tick + pad).rounded(.up)
        let canvas = try canvas(width: width, height: height, scale: scale)
        canvas.fill(.rect(CanvasRect(x: 0, y: 0, width: width, height: height)), color: RGBAColor.white.withAlpha(0.55))
        let ink = RGBAColor(r8: 0x33, g8: 0x33, b8: 0x33)
        let barY = height - pad
        let bar = CanvasPath.polyline([
            CanvasPoint(x: pad, y: barY - tick), CanvasPoint(x: pad, y: barY),
            CanvasPoint(x: pad + choice.length, y: barY),
            CanvasPoint(x: pad + choice.length, y: barY - tick),
        ])
        canvas.stroke(bar, color: .white, style: StrokeStyle(width: 4, join: .miter, cap: .square))
        canvas.stroke(bar, color: ink, style: StrokeStyle(width: 1.5, join: .miter, cap: .square))
        canvas.drawText(
            choice.label, at: CanvasPoint(x: pad + 1, y: pad + m.ascent), font: font, color: ink,
            halo: TextHalo(color: .white, width: 1.5))
        let bitmap = try canvas.makeBitmap()
        return AnchoredBitmap(bitmap: bitmap, anchor: CanvasPoint(x: 0, y: Double(bitmap.height)), scale: scale)
    }
}
