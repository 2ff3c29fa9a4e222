/// How far (levels, the largest channel) the farthest of `pixels` (RGB, 0…255) lies from the
/// colours between `a` and `b`: two translucent colours that meet with neither a seam (one
/// blended again over the other) nor a gap (the ground showing through) mix on that line,
/// pixel by pixel. Each pixel is measured against its nearest point of the segment a–b.
public func farthestFromMixingLine(_ a: [Double], _ b: [Double], pixels: some Sequence<[Double]>) -> Double {
    let ab = zip(b, a).map { $0 - $1 }
    let len2 = ab.reduce(0) { $0 + $1 * $1 }
    var worst = 0.0
    for c in pixels {
        let t = min(1, max(0, zip(zip(c, a).map { $0 - $1 }, ab).reduce(0) { $0 + $1.0 * $1.1 } / len2))
        worst = max(worst, (0 ..< 3).map { abs(c[$0] - (a[$0] + t * ab[$0])) }.max()!)
    }
    return worst
}
