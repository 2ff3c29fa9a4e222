import Foundation
import MapTestSupport
import Testing
@testable import MapTiles

/// CIE 1976 ΔE between two opaque sRGB colours (sRGB → linear → XYZ (D65) → L*a*b*), with the
/// matrices and constants of IEC 61966-2-1 and CIE 15.
func deltaE76(_ a: BasemapColor, _ b: BasemapColor) -> Double {
    func lab(_ c: BasemapColor) -> (Double, Double, Double) {
        func lin(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        let r = lin(c.r), g = lin(c.g), b = lin(c.b)
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        func f(_ t: Double) -> Double { t > pow(6.0 / 29, 3) ? cbrt(t) : t / (3 * pow(6.0 / 29, 2)) + 4.0 / 29 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }
    let p = lab(a), q = lab(b)
    return ((p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)).squareRoot()
}

@Suite struct BasemapStyleTests {
    /// WCAG 2.x contrast ratios published by WebAIM's contrast checker: black on white 21:1,
    /// #777777 on white 4.48:1, #0000FF on white 8.59:1. Tolerance 0.01.
    @Test func contrastRatioMatchesWCAG() {
        let white = BasemapColor(rgb: 0xFFFFFF)
        expectNear(BasemapColor(rgb: 0x000000).contrastRatio(to: white), 21, tolerance: 0.01)
        expectNear(BasemapColor(rgb: 0x777777).contrastRatio(to: white), 4.48, tolerance: 0.01)
        expectNear(BasemapColor(rgb: 0x0000FF).contrastRatio(to: white), 8.59, tolerance: 0.01)
    }

    /// Land and ocean clearly different (ΔE76 ≥ 20: "different colours" at a glance), borders
    /// visible on land (contrast ≥ 2), labels legible (text on halo ≥ 7:1, WCAG AAA).
    @Test(arguments: [BasemapStyle.light, .dark])
    func legible(style: BasemapStyle) {
        #expect(
            deltaE76(style.land, style.ocean) >= 20, "\(style.name) land/ocean ΔE \(deltaE76(style.land, style.ocean))")
        #expect(deltaE76(style.land, style.lake) >= 20)
        #expect(style.border.contrastRatio(to: style.land) >= 2)
        #expect(style.labelText.contrastRatio(to: style.labelHalo) >= 7)
        #expect(style.labelText.contrastRatio(to: style.land) >= 4.5)
        #expect(style.borderWidth(atZoom: 0) > 0 && style.borderWidth(atZoom: 10) >= style.borderWidth(atZoom: 0))
        #expect(style.borderWidth(atZoom: .nan) == style.borderWidth)
    }

    @Test func namedStyles() {
        #expect(BasemapStyle.named("Light") == .light)
        #expect(BasemapStyle.named("dark") == .dark)
        #expect(BasemapStyle.named("sepia") == nil)
    }

    @Test func labelSizesShrinkWithRank() throws {
        let places = try EmbeddedBasemap.shared().features(in: .world, zoom: 8).places.filter { !$0.isCountry }
        let style = BasemapStyle.light
        for (a, b) in zip(places, places.dropFirst()) where a.rank < b.rank && a.isCapital == b.isCapital {
            #expect(style.labelSize(for: a) >= style.labelSize(for: b))
        }
        #expect(places.allSatisfy { (10...15).contains(style.labelSize(for: $0)) })
    }
}
