// swift-tools-version:6.0
import PackageDescription

/// libFuzzer harnesses for CameraSun's parsers of untrusted bytes, one executable per harness.
/// Built apart from the main package (`make fuzz`, `make fuzz-smoke`) with
/// `-sanitize=fuzzer,address`, which instruments the modules under test as well; see Fuzz/README.md.
let package = Package(
    name: "CameraSunFuzz",
    products: [
        .executable(name: "fuzz-radiance-hdr", targets: ["FuzzRadianceHDR"]),
        .executable(name: "fuzz-request-target", targets: ["FuzzRequestTarget"]),
        .executable(name: "fuzz-control-bodies", targets: ["FuzzControlBodies"]),
        .executable(name: "fuzz-jpeg-structure", targets: ["FuzzJPEGStructure"]),
    ],
    dependencies: [.package(name: "CameraSun", path: "CameraSun")],
    targets: [
        .systemLibrary(name: "CLibFuzzer"),
        .target(name: "FuzzDriver", dependencies: ["CLibFuzzer"]),
        .target(name: "CStbReference"),
        .executableTarget(
            name: "FuzzRadianceHDR",
            dependencies: ["FuzzDriver", "CStbReference", .product(name: "CameraCodecs", package: "CameraSun")]
        ),
        .executableTarget(name: "FuzzRequestTarget", dependencies: ["FuzzDriver", .product(name: "HTTPServer", package: "CameraSun")]),
        .executableTarget(
            name: "FuzzControlBodies",
            dependencies: ["FuzzDriver", .product(name: "HTTPServer", package: "CameraSun"), .product(name: "Viewfinder", package: "CameraSun")]
        ),
        .executableTarget(name: "FuzzJPEGStructure", dependencies: ["FuzzDriver", .product(name: "PhotoLibrary", package: "CameraSun")]),
    ],
    swiftLanguageModes: [.v6]
)
