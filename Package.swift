// swift-tools-version:6.0
import PackageDescription

/// CameraSun: a camera engine and app whose auto-exposure handles the sun in frame.
/// Layers (see ARCHITECTURE.md): CameraCore ← CameraMetering ← CameraExposure ← CameraCapture ← CameraSimulated,
/// C libraries wrapped by one target each and imported only by the module that owns them.
let package = Package(
    name: "CameraSun",
    products: [
        .executable(name: "camerasun", targets: ["camerasun"]),
    ],
    targets: [
        // C libraries
        .target(name: "CStb", path: "Sources/CStb"),
        .target(name: "CBenchPeers", path: "Sources/CBenchPeers"),

        // Swift modules, bottom layer first
        .target(name: "CameraCore"),
        .target(
            name: "CameraMetering", dependencies: ["CameraCore"],
            swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]
        ),
        .target(name: "CameraExposure", dependencies: ["CameraCore", "CameraMetering"]),
        .target(
            name: "CameraCapture", dependencies: ["CameraCore", "CameraMetering", "CameraExposure"],
            // MERGE: PreviewOutput.swift needs CameraCore.PreviewScaler (on main); drop this exclude when merged.
            exclude: ["PreviewOutput.swift"]
        ),
        .target(name: "CameraCodecs", dependencies: ["CameraCore", "CStb"]),
        .target(
            name: "CameraSimulated", dependencies: ["CameraCore", "CameraCapture"],
            swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]
        ),
        .target(
            name: "CameraSunCLI",
            dependencies: ["CameraCore", "CameraMetering", "CameraCapture", "CameraExposure", "CameraCodecs", "CameraSimulated", "CBenchPeers"]
        ),
        .executableTarget(name: "camerasun", dependencies: ["CameraSunCLI"]),
        .target(name: "CameraTestSupport", dependencies: ["CameraCore", "CameraCapture"]),

        .testTarget(name: "CameraCoreTests", dependencies: ["CameraCore"]),
        .testTarget(name: "CameraMeteringTests", dependencies: ["CameraMetering", "CameraSimulated"]),
        .testTarget(name: "CameraCodecsTests", dependencies: ["CameraCodecs"]),
        .testTarget(name: "CameraExposureTests", dependencies: ["CameraExposure", "CameraSimulated"]),
        .testTarget(name: "CameraSimulatedTests", dependencies: ["CameraSimulated", "CameraCodecs"]),
        .testTarget(name: "CameraSunCLITests", dependencies: ["CameraSunCLI"]),
        .testTarget(
            name: "CameraSessionTests", dependencies: ["CameraCapture", "CameraTestSupport"],
            // MERGE: tests PreviewOutput, which needs CameraCore.PreviewScaler (on main); drop this exclude when merged.
            exclude: ["PreviewOutputTests.swift"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
