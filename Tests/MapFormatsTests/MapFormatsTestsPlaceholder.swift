import Testing
@testable import MapFormats

@Suite struct MapFormatsTestsPlaceholder {
    @Test func moduleLinks() {}
}
