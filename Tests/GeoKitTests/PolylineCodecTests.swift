import GeoKit
import Testing

@Suite struct PolylineCodecTests {
    /// Google's published example: developers.google.com/maps/documentation/utilities/polylinealgorithm
    /// ("Points: (38.5, -120.2), (40.7, -120.95), (43.252, -126.453)").
    static let google = [
        LatLng(lat: 38.5, lon: -120.2), LatLng(lat: 40.7, lon: -120.95), LatLng(lat: 43.252, lon: -126.453),
    ]
    static let googleEncoded = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"

    @Test func encodesGoogleExample() throws {
        #expect(try PolylineCodec.encode(Self.google) == Self.googleEncoded)
    }

    /// Decoded values are k / 1e5 exactly, so they compare equal to the decimal literals.
    @Test func decodesGoogleExample() throws {
        #expect(try PolylineCodec.decode(Self.googleEncoded) == Self.google)
    }

    /// The worked example in Google's document: -179.9832104 encodes as `` `~oia@ ``.
    @Test func encodesGoogleSingleValueExample() throws {
        let s = try PolylineCodec.encode([LatLng(lat: 0, lon: -179.9832104)])
        #expect(s == "?" + "`~oia@")
    }

    /// Precision 6 (OSRM/Valhalla): the same integers, a factor 10 finer. Hand-derived: the
    /// Google example's points scaled by 1/10 encode to the same characters at precision 6
    /// as the originals at precision 5, and round trip exactly.
    @Test func precisionSix() throws {
        let tenth = Self.google.map { LatLng(lat: $0.lat / 10, lon: $0.lon / 10) }
        #expect(try PolylineCodec.encode(tenth, precision: 6) == Self.googleEncoded)
        let decoded = try PolylineCodec.decode(Self.googleEncoded, precision: 6)
        for (d, e) in zip(decoded, tenth) {
            #expect(abs(d.lat - e.lat) <= 1e-12 && abs(d.lon - e.lon) <= 1e-12)
        }
    }

    /// Round trips at precision 6: every value comes back within half a unit of 1e-6 degrees.
    @Test(arguments: [5, 6])
    func roundTrip(_ precision: Int) throws {
        var points: [LatLng] = []
        var x: UInt64 = 12345
        for _ in 0..<500 {
            x = x &* 6364136223846793005 &+ 1442695040888963407
            let lat = Double(x >> 11) / Double(1 << 53) * 180 - 90
            x = x &* 6364136223846793005 &+ 1442695040888963407
            let lon = Double(x >> 11) / Double(1 << 53) * 360 - 180
            points.append(LatLng(lat: lat, lon: lon))
        }
        points += [LatLng(lat: 90, lon: 180), LatLng(lat: -90, lon: -180), LatLng(lat: 0, lon: 0)]
        let decoded = try PolylineCodec.decode(PolylineCodec.encode(points, precision: precision), precision: precision)
        #expect(decoded.count == points.count)
        let half = 0.5 / (precision == 5 ? 1e5 : 1e6) + 1e-12
        for (d, p) in zip(decoded, points) {
            #expect(abs(d.lat - p.lat) <= half && abs(d.lon - p.lon) <= half)
        }
    }

    @Test(arguments: [
        ("_p~iF~ps|U_ulLnnqC_mqNvxq`", "character 27: the encoded string ends in the middle of a value"),
        ("_p~iF", "character 6: the encoded string ends in the middle of a value"),
        ("_p~iF~ps|U _ulL", "character 11: ' ' is not a polyline character (expected '?' to '~')"),
        ("~~~~~~~~~~~~~~~~?", "character 13: value too large"),
        // `_mljP` is 9100000 (91°) zig-zagged to 18200000 and cut in 5-bit chunks; `?` is 0.
        ("_mljP?", "character 1: decoded latitude 91.0 is outside [-90, 90]"),
    ])
    func decodeErrors(_ text: String, _ expected: String) {
        do {
            _ = try PolylineCodec.decode(text)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func encodeRejectsNonFinite() {
        #expect(throws: PolylineCodec.Error.self) { try PolylineCodec.encode([LatLng(lat: .nan, lon: 0)]) }
        #expect(throws: PolylineCodec.Error.self) { try PolylineCodec.encode([LatLng(lat: 91, lon: 0)]) }
        #expect(throws: PolylineCodec.Error.self) { try PolylineCodec.encode([LatLng(lat: 0, lon: 1e300)]) }
        #expect(throws: PolylineCodec.Error.self) { try PolylineCodec.encode([LatLng(lat: 0, lon: 0)], precision: 11) }
    }
}
