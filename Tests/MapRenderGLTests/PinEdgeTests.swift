import Foundation
import GeoKit
import MapCamera
import MapRenderGL
import MapScene
import Testing

/// A pin drawn with shader antialiasing against its exact coverage, computed here from its
/// geometry (`Marker.pinHeight` 30: a white head of radius 9 centred 21 px above the tip with
/// its tangents to the tip, a body of radius 7.5 whose tangents meet 2.2 px above the tip, a
/// white dot of radius 3), 16 × 16 samples a device pixel, the parts laid over each other in
/// order on white. The edge is one device pixel wide at every pixel ratio, as MSAA's is. When
/// written: edge pixels off by 1.4 on average (10 at worst) at ratio 1, 2.1 (11) at ratio 2 and
/// 2.2 (13) at ratio 3; with the fringe one logical pixel wide, as it was (two device pixels at
/// ratio 2), 18.7 (58) at ratio 2 and 23.5 (74) at ratio 3.
@Suite struct PinEdgeTests {
    /// Whether (x, y) (logical px, y down, tip at the origin) is inside the hull of the circle
    /// of radius `r` centred `c` px above the tip and the point `tip` px below the centre line.
    static func inside(_ x: Double, _ y: Double, radius r: Double, tip: Double, centre c: Double) -> Bool {
        let dx = x, dy = y - c
        if dx * dx + dy * dy <= r * r { return true }
        let d = tip - c  // from the centre down to the tip
        guard d > r, y <= tip, y >= c else { return false }
        // Between the two tangents from the tip: |x| ≤ the tangent line's x at this y.
        let half = acos(r / d)
        let tx = r * sin(half), ty = c + r * cos(half)  // the right tangent point
        guard y >= ty else { return false }
        return abs(x) <= tx * (tip - y) / (tip - ty)
    }

    @Test(arguments: [1.0, 2.0, 3.0]) func pinEdgeIsOneDevicePixel(ratio: Double) throws {
        let renderer = try MapRenderer(samples: 0)
        let size = 80.0
        let cam = Camera(center: LatLng(lat: 0, lon: 0), zoom: 10, size: ScreenSize(width: size, height: size), pixelRatio: ratio)
        var scene = Scene(background: .white)
        let body = Color(rgb: 0x1F6FEB)
        scene.add(.marker(try Marker(position: LatLng(lat: 0, lon: 0), style: .pin, color: body)))
        let frame = try renderer.render(scene: scene, camera: cam)
        // The tip lands on the view's centre (40, 40), a pixel corner at every ratio.
        let n = Int(size * ratio), tipX = Double(n) / 2, tipY = Double(n) / 2
        let h = Marker.pinHeight
        let parts: [(radius: Double, tip: Double, colour: (Double, Double, Double))] = [
            (9, 0, (255, 255, 255)), (7.5, -2.2, (Double(body.r), Double(body.g), Double(body.b))), (3, -(h - 9) + 3, (255, 255, 255)),
        ]
        var total = 0.0, worst = 0.0, count = 0
        let k = 16
        for py in Int(tipY - 32 * ratio) ..< Int(tipY + 2 * ratio) {
            for px in Int(tipX - 11 * ratio) ..< Int(tipX + 11 * ratio) {
                var cov = [0.0, 0.0, 0.0]
                for sy in 0 ..< k {
                    for sx in 0 ..< k {
                        let x = (Double(px) + (Double(sx) + 0.5) / Double(k) - tipX) / ratio
                        let y = (Double(py) + (Double(sy) + 0.5) / Double(k) - tipY) / ratio
                        for (i, p) in parts.enumerated() where Self.inside(x, y, radius: p.radius, tip: p.tip, centre: -(h - 9)) {
                            cov[i] += 1
                        }
                    }
                }
                var c = (255.0, 255.0, 255.0)
                for (i, p) in parts.enumerated() {
                    let a = cov[i] / Double(k * k)
                    c = (c.0 * (1 - a) + p.colour.0 * a, c.1 * (1 - a) + p.colour.1 * a, c.2 * (1 - a) + p.colour.2 * a)
                }
                guard let got = frame.pixel(x: px, y: py) else {
                    Issue.record("pixel (\(px), \(py)) is outside the frame")
                    continue
                }
                let d = max(abs(Double(got.r) - c.0), abs(Double(got.g) - c.1), abs(Double(got.b) - c.2))
                // Only pixels on an edge count (the rest are exact either way).
                guard cov.contains(where: { $0 > 0 && $0 < Double(k * k) }) else { continue }
                total += d; worst = max(worst, d); count += 1
            }
        }
        let mean = total / Double(max(count, 1))
        #expect(count > 50)
        #expect(mean <= 4 && worst <= 24, "ratio \(ratio): edge pixels off by \(mean) on average, \(worst) at worst")
    }
}
