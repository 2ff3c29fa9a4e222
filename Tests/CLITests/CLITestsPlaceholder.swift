import Testing
@testable import mapwright

@Suite struct CLITestsPlaceholder {
    @Test func moduleLinks() {}
}
