/// Google's encoded polyline algorithm format, in both directions.
///
/// Each coordinate is multiplied by `10^precision`, rounded to the nearest integer (halves
/// away from zero), and the difference from the previous point's rounded value is written
/// as a zig-zag signed integer in 5-bit chunks, least significant first, each chunk offset
/// by 63 and flagged with `0x20` when more chunks follow. Latitude comes before longitude.
/// Source: https://developers.google.com/maps/documentation/utilities/polylinealgorithm
/// (precision 5); precision 6 is the same scheme with a factor of 1e6 (OSRM, Valhalla).
public enum PolylineCodec {
    /// The precisions (decimal digits kept) the codec accepts.
    public static let precisions: ClosedRange<Int> = 0...10

    /// Why an encode or decode failed, and where.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// For decoding: the 0-based offset, in characters, of the offending character or of
        /// the value that is wrong. For encoding: the 0-based index of the offending point.
        public let offset: Int
        private let reason: Reason

        private enum Reason: Sendable, Equatable {
            case badPrecision(Int)
            case invalidCharacter(UInt8)
            case truncated
            case valueTooLarge
            case latitudeOutOfRange(Double)
            case notFinite(lat: Double, lon: Double)
        }

        private init(_ offset: Int, _ reason: Reason) {
            self.offset = offset
            self.reason = reason
        }

        static func badPrecision(_ p: Int) -> Error { Error(0, .badPrecision(p)) }
        static func invalidCharacter(_ offset: Int, _ byte: UInt8) -> Error { Error(offset, .invalidCharacter(byte)) }
        static func truncated(_ offset: Int) -> Error { Error(offset, .truncated) }
        static func valueTooLarge(_ offset: Int) -> Error { Error(offset, .valueTooLarge) }
        static func latitudeOutOfRange(_ offset: Int, _ lat: Double) -> Error {
            Error(offset, .latitudeOutOfRange(lat))
        }
        static func notFinite(_ index: Int, _ p: LatLng) -> Error {
            Error(index, .notFinite(lat: p.lat, lon: p.lon))
        }

        /// What went wrong, in words (without the offset).
        public var message: String {
            switch reason {
            case .badPrecision(let p):
                return "precision \(p) is not supported (use \(precisions.lowerBound)…\(precisions.upperBound))"
            case .invalidCharacter(let b):
                let shown = b >= 32 && b < 127 ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(String(b, radix: 16))"
                return "\(shown) is not a polyline character (expected '?' to '~')"
            case .truncated:
                return "the encoded string ends in the middle of a value"
            case .valueTooLarge:
                return "value too large"
            case .latitudeOutOfRange(let lat):
                return "decoded latitude \(lat) is outside [-90, 90]"
            case .notFinite(let lat, let lon):
                return "position (\(lat), \(lon)) is not finite or its latitude is outside [-90, 90]"
            }
        }

        /// `message`, prefixed with where.
        public var description: String {
            if case .badPrecision = reason { return message }
            if case .notFinite = reason { return "point \(offset + 1): \(message)" }
            return "character \(offset + 1): \(message)"
        }
    }

    /// Encodes positions (degrees) at `precision` decimal digits (5 is Google's, 6 is OSRM's).
    ///
    /// Throws when a position is not finite or its latitude is outside [-90, 90]; longitudes
    /// are encoded as given (not wrapped), up to ±10^8 degrees at precision 5.
    public static func encode(_ points: some Sequence<LatLng>, precision: Int = 5) throws(Error) -> String {
        guard precisions.contains(precision) else { throw .badPrecision(precision) }
        let factor = power10(precision)
        // 2^53: beyond this the rounded scaled value is no longer an exact integer and the
        // zig-zag shift could overflow; far outside any real coordinate.
        let limit = 9_007_199_254_740_992.0 / 4
        var out: [UInt8] = []
        var prevLat = 0, prevLon = 0
        for (i, p) in points.enumerated() {
            guard p.isValid else { throw .notFinite(i, p) }
            let sLat = (p.lat * factor).rounded(.toNearestOrAwayFromZero)
            let sLon = (p.lon * factor).rounded(.toNearestOrAwayFromZero)
            guard abs(sLon) < limit, abs(sLat) < limit else { throw .notFinite(i, p) }
            let lat = Int(sLat), lon = Int(sLon)
            appendValue(lat - prevLat, to: &out)
            appendValue(lon - prevLon, to: &out)
            prevLat = lat
            prevLon = lon
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes an encoded polyline into positions (degrees) at `precision` decimal digits.
    ///
    /// Surrounding whitespace is not accepted here; trim it first. Throws with the offset
    /// of the offending character for characters outside '?'…'~', a string that ends in
    /// the middle of a value, values that overflow, or latitudes outside [-90, 90].
    public static func decode(_ encoded: some StringProtocol, precision: Int = 5) throws(Error) -> [LatLng] {
        guard precisions.contains(precision) else { throw .badPrecision(precision) }
        let factor = power10(precision)
        var result: [LatLng] = []
        var error: Error?
        var utf8 = Array(encoded.utf8)
        utf8.withUnsafeMutableBufferPointer { bytes in
            var i = 0
            var lat = 0, lon = 0
            let n = bytes.count
            result.reserveCapacity(n / 4)
            while i < n {
                let latStart = i
                guard let dLat = readValue(bytes, &i, &error) else { return }
                let lonStart = i
                if i >= n {
                    error = .truncated(i)
                    return
                }
                guard let dLon = readValue(bytes, &i, &error) else { return }
                let (nLat, o1) = lat.addingReportingOverflow(dLat)
                let (nLon, o2) = lon.addingReportingOverflow(dLon)
                if o1 {
                    error = .valueTooLarge(latStart)
                    return
                }
                if o2 {
                    error = .valueTooLarge(lonStart)
                    return
                }
                lat = nLat
                lon = nLon
                let p = LatLng(lat: Double(lat) / factor, lon: Double(lon) / factor)
                guard p.lat >= -90 && p.lat <= 90 else {
                    error = .latitudeOutOfRange(latStart, p.lat)
                    return
                }
                result.append(p)
            }
        }
        if let error { throw error }
        return result
    }

    /// Reads one zig-zag value starting at `i`; on failure sets `error` and returns nil.
    private static func readValue(
        _ bytes: UnsafeMutableBufferPointer<UInt8>, _ i: inout Int,
        _ error: inout Error?
    ) -> Int? {
        var result = 0
        var shift = 0
        let n = bytes.count
        while true {
            guard i < n else {
                error = .truncated(i)
                return nil
            }
            let b = bytes[i]
            guard b >= 63 && b <= 126 else {
                error = .invalidCharacter(i, b)
                return nil
            }
            let chunk = Int(b - 63)
            // 12 chunks are 60 bits: more than any real coordinate, and still no overflow.
            guard shift <= 55 else {
                error = .valueTooLarge(i)
                return nil
            }
            result |= (chunk & 0x1f) << shift
            shift += 5
            i += 1
            if chunk < 0x20 { break }
        }
        return (result & 1) != 0 ? ~(result >> 1) : (result >> 1)
    }

    private static func appendValue(_ value: Int, to out: inout [UInt8]) {
        var v = value < 0 ? ~(value << 1) : (value << 1)
        while v >= 0x20 {
            out.append(UInt8((0x20 | (v & 0x1f)) + 63))
            v >>= 5
        }
        out.append(UInt8(v + 63))
    }

    private static func power10(_ p: Int) -> Double {
        var f = 1.0
        for _ in 0..<p { f *= 10 }
        return f
    }
}
