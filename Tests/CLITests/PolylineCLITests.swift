import Testing
@testable import mapwright
