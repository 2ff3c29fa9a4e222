import Testing
@testable import MapFormats
