import Testing
@testable import MapScene

@Suite struct MapSceneTestsPlaceholder {
    @Test func moduleLinks() {}
}
