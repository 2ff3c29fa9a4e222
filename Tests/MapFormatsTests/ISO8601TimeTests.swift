import Foundation
import Testing
@testable import MapFormats

@Suite struct ISO8601TimeTests {
    /// Expected seconds from Python: datetime.fromisoformat(text).timestamp().
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0), ("1969-12-31T23:59:59Z", -1), ("2000-02-29T23:59:59Z", 951_868_799),
        ("2024-05-01T10:00:00Z", 1_714_557_600), ("2024-05-01T12:00:00+02:00", 1_714_557_600),
        ("2024-05-01T05:30:00-0430", 1_714_557_600), ("2024-05-01 10:00:00.25z", 1_714_557_600.25),
        ("2024-05-01", 1_714_521_600), ("2024-05-01T10:00", 1_714_557_600), ("1900-03-01T00:00:00Z", -2_203_891_200),
    ])
    func parses(_ text: String, _ seconds: Double) {
        let bytes = Array(text.utf8)
        let d = bytes.withUnsafeBufferPointer { ISO8601Time.parse($0, 0, $0.count) }
        #expect(d?.timeIntervalSince1970 == seconds)
    }

    @Test(arguments: [
        "", "2024", "2024-13-01", "2023-02-29", "2024-04-31T00:00:00Z", "2024-05-01T24:00:00Z",
        "2024-05-01T10:60:00Z", "2024-05-01T10:00:00Q", "2024-05-01T10:00:00.Z", "20240501T100000Z",
    ])
    func rejects(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBufferPointer { ISO8601Time.parse($0, 0, $0.count) } == nil)
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"), (1_714_557_600.25, "2024-05-01T10:00:00.25Z"),
        (951_868_799, "2000-02-29T23:59:59Z"),
    ])
    func formats(_ seconds: Double, _ text: String) {
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: seconds)) == text)
    }
}
