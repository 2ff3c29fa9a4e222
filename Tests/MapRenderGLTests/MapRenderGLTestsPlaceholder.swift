import Testing
@testable import MapRenderGL

@Suite struct MapRenderGLTestsPlaceholder {
    @Test func moduleLinks() {}
}
