import GeoKit
import Testing

/// Expects `actual` within `tolerance` of `expected`, naming both in the failure.
public func expectNear(
    _ actual: Double, _ expected: Double, tolerance: Double, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let ok = abs(actual - expected) <= tolerance || (actual.isNaN && expected.isNaN)
    #expect(ok, "\(actual) is not within \(tolerance) of \(expected)\(comment.map { ": \($0)" } ?? "")",
            sourceLocation: sourceLocation)
}

/// Expects two positions to agree within `tolerance` degrees in latitude and longitude.
public func expectNear(
    _ actual: LatLng, _ expected: LatLng, tolerance: Double, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectNear(actual.lat, expected.lat, tolerance: tolerance, comment, sourceLocation: sourceLocation)
    var dlon = (actual.lon - expected.lon).truncatingRemainder(dividingBy: 360)
    if dlon > 180 { dlon -= 360 }
    if dlon < -180 { dlon += 360 }
    expectNear(dlon, 0, tolerance: tolerance, comment, sourceLocation: sourceLocation)
}
