// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for every reader and decoder of Mapwright (issue 13). One executable holds
// them all; MAPWRIGHT_FUZZ_TARGET picks one. Built by scripts/fuzz.sh with
//   swift build --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
// (libFuzzer supplies main; address sanitizer on everything, C helpers included).
let package = Package(
    name: "MapwrightFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Mapwright", path: "..")],
    targets: [
        .executableTarget(
            name: "mapwright-fuzz",
            dependencies: [
                .product(name: "GeoKit", package: "Mapwright"),
                .product(name: "MapFormats", package: "Mapwright"),
                .product(name: "MapImage", package: "Mapwright"),
                .product(name: "MapTiles", package: "Mapwright"),
                .product(name: "MapSnapshot", package: "Mapwright"),
                .product(name: "MapServer", package: "Mapwright"),
                .product(name: "MapViewer", package: "Mapwright"),
            ],
            path: "Sources/mapwright-fuzz"
        ),
    ],
    swiftLanguageModes: [.v6]
)
