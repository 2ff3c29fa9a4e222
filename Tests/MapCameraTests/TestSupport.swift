import MapTestSupport
import Foundation
import GeoKit
@testable import MapCamera

/// A camera described the way the fixture generator writes it.
struct Cam: Sendable, CustomStringConvertible {
    var lat, lon, zoom, bearing, pitch, width, height: Double
    /// top, left, bottom, right
    var padding: [Double]

    var camera: Camera {
        Camera(
            center: LatLng(lat: lat, lon: lon), zoom: zoom, bearing: bearing, pitch: pitch,
            size: ScreenSize(width: width, height: height),
            padding: EdgeInsets(top: padding[0], left: padding[1], bottom: padding[2], right: padding[3]))
    }

    var description: String { "\(lat),\(lon) z\(zoom) b\(bearing) p\(pitch) \(width)x\(height)" }
}

struct ProjectCase: Sendable, CustomStringConvertible {
    var name: String
    var camera: Cam
    var lat, lon, height: Double
    var expected: (Double, Double)?
    var description: String { "\(name): \(lat),\(lon) h\(height)" }
}

struct UnprojectCase: Sendable, CustomStringConvertible {
    var name: String
    var camera: Cam
    var x, y: Double
    var expected: (Double, Double)?
    var description: String { "\(name): \(x),\(y)" }
}

/// Seeded random sweeps (SplitMix64, from MapTestSupport).
typealias SeededRandom = SplitMix64

/// Normalised Web Mercator y written out from the textbook formula
/// y = 1/2 − ln(tan(π/4 + φ/2)) / (2π), independent of the code under test.
func mercY(_ latDeg: Double) -> Double {
    0.5 - log(tan(.pi / 4 + latDeg * .pi / 360)) / (2 * .pi)
}

/// Inverse of `mercY`: φ = 2·atan(exp(π(1 − 2y))) − π/2, in degrees.
func latFromMercY(_ y: Double) -> Double {
    (2 * atan(exp(.pi * (1 - 2 * y))) - .pi / 2) * 180 / .pi
}

/// A random camera: any centre up to ±80°, zoom 0–20, any bearing, pitch 0–85, padding.
func randomCamera(_ rng: inout SeededRandom) -> Camera {
    let pad = EdgeInsets(
        top: .random(in: 0...100, using: &rng), left: .random(in: 0...100, using: &rng),
        bottom: .random(in: 0...100, using: &rng), right: .random(in: 0...100, using: &rng))
    return Camera(
        center: LatLng(lat: .random(in: -80...80, using: &rng), lon: .random(in: -180...180, using: &rng)),
        zoom: .random(in: 0...20, using: &rng), bearing: .random(in: -360...360, using: &rng),
        pitch: .random(in: 0...85, using: &rng),
        size: ScreenSize(
            width: .random(in: 200...2000, using: &rng),
            height: .random(in: 200...1500, using: &rng)),
        padding: pad)
}
