// swift-tools-version:6.0
import PackageDescription

/// CameraSun: a camera engine and app whose auto-exposure handles the sun in frame.
/// Layers (see ARCHITECTURE.md): CameraCore ← CameraMetering ← CameraExposure ← CameraCapture ← CameraSimulated,
/// C libraries wrapped by one target each and imported only by the module that owns them.
let package = Package(
    name: "CameraSun",
    products: [
        .executable(name: "camerasun", targets: ["camerasun"]),
        // `camerasun bench`'s suites, a program of their own so that camerasun links no peer or test double.
        .executable(name: "camerasun-bench", targets: ["camerasun-bench"]),
        // The modules the fuzz harnesses (Fuzz/Package.swift) feed arbitrary bytes to.
        .library(name: "CameraCodecs", targets: ["CameraCodecs"]),
        .library(name: "PhotoLibrary", targets: ["PhotoLibrary"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "Viewfinder", targets: ["Viewfinder"]),
    ],
    targets: [
        // C libraries
        .target(name: "CStb", path: "Sources/CStb"),
        .target(name: "CBenchPeers", path: "Sources/CBenchPeers"),
        .systemLibrary(
            name: "CSQLite3", path: "Sources/CSQLite3",
            pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CExif", path: "Sources/CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CTIFF", path: "Sources/CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev", "fonts-dejavu-core"])]),
        .systemLibrary(
            name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),

        // Swift modules, bottom layer first
        .systemLibrary(
            name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat",
            providers: [.apt(["libavcodec-dev", "libavformat-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"])]
        ),
        .systemLibrary(name: "CV4L2", path: "Sources/CV4L2", providers: [.apt(["linux-libc-dev"])]),
        .systemLibrary(name: "CALSA", path: "Sources/CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .target(name: "CameraSystem", dependencies: ["CMalloc"]),
        .target(name: "CameraCore"),
        .target(name: "CameraMetering", dependencies: ["CameraCore"]),
        .target(name: "CameraISP", dependencies: ["CameraCore"]),
        .target(name: "CameraExposure", dependencies: ["CameraCore", "CameraMetering"]),
        .target(name: "CameraCapture", dependencies: ["CameraCore", "CameraMetering", "CameraExposure", "CameraISP"]),
        .target(name: "CameraStills", dependencies: ["CameraCore", "CameraMetering", "CameraExposure", "CameraISP", "CameraCapture", "CameraCodecs"]),
        .target(name: "CameraRecording", dependencies: ["CameraCore", "CameraCapture", "CameraCodecs", "CameraMovie", "CameraAudio", "CameraFilters"]),
        .target(name: "CameraVideoFile", dependencies: ["CameraCore", "CameraCapture", "CameraMovie"]),
        .target(name: "CameraCodecs", dependencies: ["CameraCore", "CameraSystem", "CStb", "CTurboJPEG", "CExif", "CTIFF"]),
        .target(name: "CameraSimulated", dependencies: ["CameraCore", "CameraCapture"]),
        .target(name: "CameraV4L2", dependencies: ["CameraCore", "CameraSystem", "CameraExposure", "CameraCapture", "CameraCodecs", "CV4L2"]),
        .target(
            name: "CameraEvaluation",
            dependencies: ["CameraCore", "CameraMetering", "CameraExposure", "CameraISP", "CameraCapture", "CameraCodecs", "CameraSimulated"]
        ),
        .target(name: "CameraFilters", dependencies: ["CameraCore", "CFreeType"]),
        .target(name: "CameraAudio", dependencies: ["CameraCore", "CALSA"]),
        .target(name: "CameraMovie", dependencies: ["CameraCore", "CameraSystem", "CFFmpeg"]),
        .target(name: "PhotoLibrary", dependencies: ["CameraCore", "CameraSystem", "CSQLite3"]),
        .target(name: "HTTPServer", dependencies: ["CameraCore", "CMicroHTTPD"]),
        .target(name: "CameraPhotos", dependencies: ["CameraCore", "CameraMetering", "CameraExposure", "CameraCapture", "CameraStills", "CameraRecording", "CameraMovie", "CameraFilters", "PhotoLibrary"]),
        .target(
            name: "Viewfinder",
            dependencies: [
                "CameraCore", "CameraMetering", "CameraExposure", "CameraCapture", "CameraStills", "CameraRecording", "CameraCodecs", "CameraMovie",
                "CameraAudio", "CameraFilters", "PhotoLibrary", "CameraPhotos", "HTTPServer",
            ]
        ),
        .target(
            name: "CameraBenchmarks",
            dependencies: [
                "CameraCore", "CameraMetering", "CameraCapture", "CameraStills", "CameraExposure", "CameraISP", "CameraCodecs", "CameraSimulated",
                "CameraEvaluation", "PhotoLibrary", "CameraPhotos", "HTTPServer", "Viewfinder", "CBenchPeers", "CameraTestSupport",
                "CameraMovie", "CameraAudio", "CameraFilters", "CameraRecording",
            ]
        ),
        .target(
            name: "CameraSunCLI",
            dependencies: [
                "CameraCore", "CameraMetering", "CameraCapture", "CameraStills", "CameraExposure", "CameraISP", "CameraCodecs", "CameraSimulated",
                "CameraEvaluation", "PhotoLibrary", "CameraPhotos", "HTTPServer", "Viewfinder", "CameraMovie",
                "CameraAudio", "CameraFilters", "CameraRecording", "CameraVideoFile", "CameraV4L2", "CameraSystem",
            ]
        ),
        .executableTarget(name: "camerasun", dependencies: ["CameraSunCLI"]),
        .executableTarget(name: "camerasun-bench", dependencies: ["CameraSunCLI", "CameraBenchmarks", "CameraSystem"]),
        .target(name: "CameraTestSupport", dependencies: ["CameraCore", "CameraAudio", "CameraCapture", "CameraCodecs", "CameraSimulated", "CameraSystem",
                                                   "CameraV4L2"]),

        .testTarget(name: "CameraSystemTests", dependencies: ["CameraSystem"]),
        .testTarget(name: "CameraCoreTests", dependencies: ["CameraCore"]),
        .testTarget(name: "CameraISPTests", dependencies: ["CameraISP"]),
        .testTarget(name: "CameraMeteringTests", dependencies: ["CameraMetering", "CameraSimulated"]),
        .testTarget(name: "CameraCodecsTests", dependencies: ["CameraCodecs", "CameraTestSupport"]),
        .testTarget(name: "CameraExposureTests", dependencies: ["CameraExposure", "CameraSimulated"]),
        .testTarget(name: "CameraCaptureTests", dependencies: ["CameraCapture", "CameraSimulated", "CameraTestSupport"]),
        .testTarget(name: "CameraStillsTests", dependencies: ["CameraStills", "CameraSimulated", "CameraTestSupport"]),
        .testTarget(name: "CameraSimulatedTests", dependencies: ["CameraSimulated", "CameraCodecs", "CameraTestSupport"]),
        .testTarget(
            name: "CameraEvaluationTests",
            dependencies: ["CameraEvaluation", "CameraCore", "CameraExposure", "CameraCodecs", "CameraSimulated", "CameraTestSupport"]
        ),
        .testTarget(name: "CameraSunCLITests", dependencies: ["CameraSunCLI", "CameraBenchmarks", "CameraCore", "CameraCodecs", "CameraEvaluation", "CameraISP", "PhotoLibrary",
                                                             "CameraPhotos", "CameraStills", "CameraTestSupport", "CameraFilters", "CameraSystem",
                                                             "CameraRecording"]),
        .testTarget(name: "CameraFiltersTests", dependencies: ["CameraFilters", "CameraCore"]),
        .testTarget(name: "CameraAudioTests", dependencies: ["CameraAudio", "CameraCore"]),
        .testTarget(name: "CameraMovieTests", dependencies: ["CameraMovie", "CameraAudio", "CameraCore", "CameraCapture", "CameraSimulated", "CameraTestSupport"]),
        .testTarget(name: "CameraRecordingTests", dependencies: ["CameraRecording", "CameraStills", "CameraMovie", "CameraAudio", "CameraCore", "CameraCapture",
                                                         "CameraSimulated", "CameraTestSupport", "CameraFilters"]),
        .testTarget(name: "CameraVideoFileTests", dependencies: ["CameraVideoFile", "CameraCapture", "CameraCore", "CameraTestSupport"]),
        .testTarget(name: "CameraPhotosTests", dependencies: ["CameraPhotos", "CameraStills", "CameraSimulated"]),
        .testTarget(name: "CameraBenchmarksTests", dependencies: ["CameraBenchmarks", "CameraCore", "CameraEvaluation", "CameraTestSupport"]),
        .testTarget(name: "PhotoLibraryTests", dependencies: ["PhotoLibrary", "CameraSystem", "CameraTestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "CameraCore", "CameraTestSupport"]),
        .testTarget(name: "ViewfinderTests", dependencies: ["Viewfinder", "CameraStills", "HTTPServer", "CameraTestSupport", "CameraFilters", "CameraSimulated"]),
        .testTarget(name: "CameraSessionTests", dependencies: ["CameraCapture", "CameraSimulated", "CameraTestSupport"]),
        .testTarget(name: "CameraV4L2Tests", dependencies: ["CameraV4L2", "CameraCapture", "CameraCodecs", "CameraCore", "CameraISP", "CameraSystem",
                                                       "CameraTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
