import Testing
@testable import MapCamera

@Suite struct MapCameraTestsPlaceholder {
    @Test func moduleLinks() {}
}
