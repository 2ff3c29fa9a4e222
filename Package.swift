// swift-tools-version: 6.1
import PackageDescription

// Module layout and import direction: see Documentation/ARCHITECTURE.md.
// Pure modules (GeoKit, MapFormats, MapCamera, MapScene, MapRender) import no C library.

let package = Package(
    name: "Mapwright",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "GeoKit", targets: ["GeoKit"]),
        .library(name: "MapFormats", targets: ["MapFormats"]),
        .library(name: "MapCamera", targets: ["MapCamera"]),
        .library(name: "MapScene", targets: ["MapScene"]),
        .library(name: "MapMotion", targets: ["MapMotion"]),
        .library(name: "MapGestures", targets: ["MapGestures"]),
        .library(name: "MapRender", targets: ["MapRender"]),
        .library(name: "MapRenderGL", targets: ["MapRenderGL"]),
        .library(name: "Canvas2D", targets: ["Canvas2D"]),
        .library(name: "MapImage", targets: ["MapImage"]),
        .library(name: "MapTiles", targets: ["MapTiles"]),
        .library(name: "MapSnapshot", targets: ["MapSnapshot"]),
        .library(name: "MapViewer", targets: ["MapViewer"]),
        .library(name: "MapServer", targets: ["MapServer"]),
        .executable(name: "mapwright", targets: ["mapwright"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // HTTP field names for the server's headers (Hummingbird's own dependency, declared for our import).
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
    ],
    targets: [
        // System libraries (module maps only).
        .systemLibrary(name: "CEGL", pkgConfig: "egl", providers: [.apt(["libegl-dev", "libgles-dev", "libegl-mesa0", "libgl1-mesa-dri"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CSDL2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGif", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // Pure Swift core.
        .target(name: "GeoKit"),
        .target(name: "MapFormats", dependencies: ["GeoKit"]),
        .target(name: "MapCamera", dependencies: ["GeoKit"]),
        .target(name: "MapScene", dependencies: ["GeoKit", "MapCamera", "MapFormats"]),
        .target(name: "MapRender", dependencies: ["GeoKit", "MapCamera", "MapScene"]),
        // Time: animated values, pulses, route progress, moving markers, live tracks, follow cameras.
        .target(name: "MapMotion", dependencies: ["GeoKit", "MapCamera", "MapScene"]),
        // Input events → camera changes, inertia as a pure step (no window system).
        .target(name: "MapGestures", dependencies: ["GeoKit", "MapCamera"]),

        // System-backed modules.
        // libpng calls (and their setjmp) stay in C: a longjmp must never cross Swift frames.
        // Deflate: Intel ISA-L (igzip) at the fast levels, zlib otherwise (libisal-dev, zlib1g-dev).
        .target(name: "CPNGHelpers", dependencies: ["CPNG"], linkerSettings: [
            .linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("isal"),
        ]),
        .target(name: "MapImage", dependencies: ["CPNGHelpers", "CTurboJPEG", "CWebP", "CGif", "MapFormats"]),
        .target(name: "Canvas2D", dependencies: ["CCairo", "MapImage", "MapFormats"]),
        .target(name: "MapRenderGL", dependencies: ["MapRender", "CEGL"]),
        .target(name: "MapTiles", dependencies: [
            "GeoKit", "MapImage", "CSQLite", .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        ], resources: [.copy("Resources")]),
        // Everything together: scene files → images (used by the CLI, the demo and the benchmark).
        .target(name: "MapSnapshot", dependencies: [
            "GeoKit", "MapFormats", "MapCamera", "MapScene", "MapMotion", "MapRender", "MapRenderGL", "Canvas2D", "MapImage", "MapTiles",
        ]),

        // The live map: a session (gestures, compass, picking, measuring, followed files) and its SDL2 window.
        .target(name: "MapViewer", dependencies: [
            "GeoKit", "MapCamera", "MapFormats", "MapGestures", "MapScene", "MapMotion", "MapRender", "MapSnapshot", "MapImage", "Canvas2D",
            "CSDL2",
        ]),

        // The map server: static maps (Google and Mapbox URL grammars, scene JSON), tiles, archives, metrics.
        .target(name: "MapServer", dependencies: [
            "GeoKit", "MapFormats", "MapCamera", "MapScene", "MapSnapshot", "MapImage", "MapTiles",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),

        // Examples of the public extension points (the spinning box of `--spinning-box`).
        .target(name: "MapExamples", dependencies: ["GeoKit", "MapRenderGL", "CEGL"]),

        .executableTarget(
            name: "mapwright",
            dependencies: [
                "GeoKit", "MapFormats", "MapCamera", "MapScene", "MapMotion", "MapRender", "MapRenderGL",
                "Canvas2D", "MapImage", "MapTiles", "MapSnapshot", "MapViewer", "MapGestures", "MapExamples", "MapServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Benchmarks that need the library (scripts/bench/motion.sh).
        .executableTarget(name: "mapwright-bench", dependencies: ["GeoKit", "MapCamera", "MapFormats", "MapMotion", "MapScene", "MapSnapshot", "MapRenderGL"]),

        // Test support: domain assertions shared by the test targets.
        .target(name: "MapTestSupport", dependencies: ["GeoKit"], path: "Sources/MapTestSupport"),

        .testTarget(name: "GeoKitTests", dependencies: ["GeoKit", "MapTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "MapFormatsTests", dependencies: ["MapFormats", "MapTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "MapCameraTests", dependencies: ["MapCamera", "MapTestSupport"]),
        .testTarget(name: "MapSceneTests", dependencies: ["MapScene", "MapTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "MapRenderTests", dependencies: ["MapRender", "MapTestSupport"]),
        .testTarget(name: "MapGesturesTests", dependencies: ["MapGestures", "MapTestSupport"]),
        .testTarget(name: "MapMotionTests", dependencies: ["MapMotion", "MapRender", "MapTestSupport"]),
        .testTarget(name: "MapRenderGLTests", dependencies: ["MapRenderGL", "MapImage", "Canvas2D", "MapTestSupport"], exclude: ["References", "Fixtures"]),
        .testTarget(name: "MapTilesTests", dependencies: ["MapTiles", "MapImage", "MapTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "MapImageTests", dependencies: ["MapImage", "MapTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "Canvas2DTests", dependencies: ["Canvas2D", "MapTestSupport"], exclude: ["References"]),
        .testTarget(name: "MapViewerTests", dependencies: ["MapViewer", "MapSnapshot", "MapGestures", "MapScene", "MapTestSupport"]),
        .testTarget(name: "MapSnapshotTests", dependencies: ["MapSnapshot", "MapFormats", "MapScene", "Canvas2D", "MapTestSupport"]),
        .testTarget(name: "MapServerTests", dependencies: [
            "MapServer", "MapImage", "MapCamera", "GeoKit", "MapTestSupport",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
        .testTarget(name: "CLITests", dependencies: ["mapwright", "MapTestSupport", "MapImage", "MapCamera", "GeoKit"], exclude: ["Oracles"]),
    ],
    swiftLanguageModes: [.v6]
)
