import Foundation

/// The fake /dev/video0 of `Tests/FakeV4L2` (fake_v4l2.c says what it does), an LD_PRELOAD shim that a real
/// `camerasun` process takes for a V4L2 webcam: for end-to-end tests of the V4L2 back-end on a
/// machine with no camera. Each camera has a folder of its own, removed with it, where the shim
/// is compiled (with the toolchain's clang, so that `swift test` alone needs no build step), and
/// where its control file (plugged in or not) and its log (what the process did to it) live.
///
/// ```swift
/// let camera = try await FakeV4L2Camera(formats: "MJPG")
/// let result = try await CameraSunBinary.run(["photo", "--source", "v4l2:/dev/video0"], environment: camera.environment)
/// #expect(try camera.values(setting: "exposure_time_absolute").count > 1)
/// ```
public final class FakeV4L2Camera: Sendable {
    /// The node it fakes.
    public let path: String
    /// LD_PRELOAD and the shim's settings, for the process under test.
    public let environment: [String: String]
    private let folder: URL
    private let controlFile: URL
    private let logFile: URL

    /// The shim's sources, in the package's Tests folder.
    static let sourceFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/FakeV4L2")

    /// A mean scene light (`FAKE_V4L2_LIGHT`) that needs the longest exposure at 30 fps and some
    /// gain; the default scene is one the camera's default exposure clips.
    public static let dimLight = 0.0016

    /// A camera at `path` offering `formats` (any of "YUYV", "MJPG" and "RG10" comma-separated, in the
    /// order ENUM_FMT lists them), filming a scene of `light` (nil: the shim's default), plugged in.
    public init(path: String = "/dev/video0", formats: String = "YUYV,MJPG", light: Double? = nil) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("fake-v4l2-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        controlFile = folder.appendingPathComponent("control")
        logFile = folder.appendingPathComponent("log")
        self.path = path
        let shim = folder.appendingPathComponent("fake_v4l2.so")
        do {
            try await Self.compile(to: shim)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        var environment = ["LD_PRELOAD": shim.path, "FAKE_V4L2_PATH": path, "FAKE_V4L2_FORMATS": formats,
                           "FAKE_V4L2_CONTROL": controlFile.path, "FAKE_V4L2_LOG": logFile.path]
        if let light { environment["FAKE_V4L2_LIGHT"] = String(light) }
        self.environment = environment
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Unplugs the camera: the process's open nodes fail with ENODEV, and the path is gone.
    public func unplug() throws {
        try "unplugged\n".write(to: controlFile, atomically: true, encoding: .utf8)
    }

    /// Plugs the camera back in, as new: it opens again, with its default format and controls.
    public func plug() throws {
        try "plugged\n".write(to: controlFile, atomically: true, encoding: .utf8)
    }

    /// The shim's log so far, a line per event (see fake_v4l2.c): "open fd=7", "S_CTRL gain 12",
    /// "level 200 frame 31", "unplugged" …
    public func log() throws -> [String] {
        guard FileManager.default.fileExists(atPath: logFile.path) else { return [] }
        return try String(contentsOf: logFile, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The values S_CTRL set `control` to (v4l2-ctl's name, e.g. "exposure_time_absolute"), in order.
    public func values(setting control: String) throws -> [Int32] {
        try log().compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 3, words[0] == "S_CTRL", words[1] == control else { return nil }
            return Int32(words[2])
        }
    }

    /// The values `controls` held together after each S_CTRL of one of them, from the first on
    /// which every one of them had been set: the settings the camera's frames were taken with.
    public func settingsHeld(_ controls: [String]) throws -> [[String: Int32]] {
        var values: [String: Int32] = [:], held: [[String: Int32]] = []
        for line in try log() {
            let words = line.split(separator: " ")
            guard words.count == 3, words[0] == "S_CTRL", controls.contains(String(words[1])), let value = Int32(words[2]) else { continue }
            values[String(words[1])] = value
            if values.count == controls.count { held.append(values) }
        }
        return held
    }

    /// The scene's level (the 8-bit code of its mean light) and the frame it held from, each time it changed.
    public func levels() throws -> [(level: Int, frame: Int)] {
        try log().compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 4, words[0] == "level", words[2] == "frame", let level = Int(words[1]), let frame = Int(words[3]) else {
                return nil
            }
            return (level, frame)
        }
    }

    /// Compiles the shim into `library` with clang from the PATH or the toolchain at /opt/swift.
    private static func compile(to library: URL) async throws {
        let searched = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/clang" } + ["/opt/swift/usr/bin/clang"]
        guard let clang = searched.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Failure(description: "no clang on the PATH or at /opt/swift/usr/bin — put the Swift toolchain's usr/bin on the PATH")
        }
        let sources = try FileManager.default.contentsOfDirectory(atPath: sourceFolder.path).filter { $0.hasSuffix(".c") }.sorted()
            .map { sourceFolder.appendingPathComponent($0).path }
        // Hidden symbols: the process sees only the libc calls the shim replaces.
        let built = try await runTool(clang, ["-shared", "-fPIC", "-O2", "-fvisibility=hidden", "-Wall", "-Wextra", "-Werror"] + sources
            + ["-o", library.path, "-ldl", "-lm", "-lturbojpeg", "-lpthread"])
        guard built.status == 0 else {
            throw Failure(description: "\(clang) could not build the shim in \(sourceFolder.path) (status \(built.status)): \(built.errors)"
                + " — make deps installs libturbojpeg0-dev and linux-libc-dev")
        }
    }

    /// The shim could not be built; the message says what to do.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }
}
