import Testing
@testable import MapTiles

@Suite struct MapTilesTestsPlaceholder {
    @Test func moduleLinks() {}
}
