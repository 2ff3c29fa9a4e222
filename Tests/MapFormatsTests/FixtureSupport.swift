import Foundation
import Testing
@testable import MapFormats

/// Fixtures live in Tests/MapFormatsTests/Fixtures (copied into the bundle as `Fixtures/`).
func fixtureURL(_ relative: String) throws -> URL {
    let root = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    return root.appendingPathComponent(relative)
}

/// Reads a fixture through `TrackReader.read(_:name:)`, named by its relative path, so
/// error messages start with that path.
func readFixture(_ relative: String, options: TrackReadOptions = TrackReadOptions()) throws -> Track {
    let bytes = try [UInt8](Data(contentsOf: fixtureURL(relative)))
    return try TrackReader.read(bytes, name: relative, options: options)
}

/// The error reading a fixture gives, or nil when it reads.
func fixtureError(_ relative: String, options: TrackReadOptions = TrackReadOptions()) throws -> FormatError? {
    let bytes = try [UInt8](Data(contentsOf: fixtureURL(relative)))
    do {
        _ = try TrackReader.read(bytes, name: relative, options: options)
        return nil
    } catch {
        return error
    }
}

/// Reads text in memory as `name` (the extension picks the format).
func readText(_ text: String, name: String, options: TrackReadOptions = TrackReadOptions()) throws(FormatError) -> Track
{
    try TrackReader.read(Array(text.utf8), name: name, options: options)
}

/// The error reading text in memory gives, or nil.
func textError(_ text: String, name: String, options: TrackReadOptions = TrackReadOptions()) -> FormatError? {
    do {
        _ = try readText(text, name: name, options: options)
        return nil
    } catch {
        return error
    }
}

/// The latitude/longitude pairs of a part.
func coordinates(_ part: TrackPart) -> [[Double]] {
    part.points.map { [$0.coordinate.lat, $0.coordinate.lon] }
}
