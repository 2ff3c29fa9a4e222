import Foundation

/// The repository's root directory (this file is `Sources/MapTestSupport/RepositoryRoot.swift`),
/// for tests that read its documentation, scripts or oracles.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
