import GeoKit

/// The projective map of the unit square onto a quadrilateral (corners in the order (0,0),
/// (1,0), (1,1), (0,1)), after Heckbert's "Fundamentals of Texture Mapping and Image Warping"
/// (1989), §2.2.3: square-to-quadrilateral.
struct Homography {
    let a, b, c, d, e, f, g, h: Double

    init(square q: [MapPoint]) {
        let (x0, y0, x1, y1, x2, y2, x3, y3) = (q[0].x, q[0].y, q[1].x, q[1].y, q[2].x, q[2].y, q[3].x, q[3].y)
        let sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3
        if abs(sx) < 1e-15 && abs(sy) < 1e-15 {
            a = x1 - x0; b = x2 - x1; c = x0; d = y1 - y0; e = y2 - y1; f = y0; g = 0; h = 0
        } else {
            let dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2
            let den = dx1 * dy2 - dx2 * dy1
            let gg = den != 0 ? (sx * dy2 - dx2 * sy) / den : 0
            let hh = den != 0 ? (dx1 * sy - sx * dy1) / den : 0
            g = gg; h = hh
            a = x1 - x0 + gg * x1; b = x3 - x0 + hh * x3; c = x0
            d = y1 - y0 + gg * y1; e = y3 - y0 + hh * y3; f = y0
        }
    }

    /// The point for square coordinates (s, t).
    func map(_ s: Double, _ t: Double) -> MapPoint {
        let w = g * s + h * t + 1
        // In the affine branch b and e hold the (1,1)−(1,0) edge, which for a parallelogram is the (0,1)−(0,0) edge.
        return MapPoint(x: (a * s + b * t + c) / w, y: (d * s + e * t + f) / w)
    }
}
