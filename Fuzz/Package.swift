// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for every reader and decoder of Mapwright (issue 13). One executable holds
// them all; MAPWRIGHT_FUZZ_TARGET picks one. Built by scripts/fuzz.sh with
//   swift build --package-path Fuzz --sanitize=address -Xswiftc -sanitize=fuzzer \
//     -Xswiftc -parse-as-library -Xcc -fsanitize=fuzzer-no-link
// (address sanitizer and coverage on everything, C helpers included; the entry point hands
// over to libFuzzer through LLVMFuzzerRunDriver).
let package = Package(
    name: "MapwrightFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Mapwright", path: "..")],
    targets: [
        .target(name: "CFuzzerDriver", path: "Sources/CFuzzerDriver"),
        .executableTarget(
            name: "mapwright-fuzz",
            dependencies: [
                "CFuzzerDriver",
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
