import Testing
@testable import MapRender

@Suite struct MapRenderTestsPlaceholder {
    @Test func moduleLinks() {}
}
