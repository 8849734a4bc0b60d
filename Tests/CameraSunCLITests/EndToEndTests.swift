import CameraCore
import CameraTestSupport
import Foundation
import Testing

// Runs the built `camerasun` binary as a user would and checks what it prints and returns.
// The binary comes from the same products directory as the test bundle (`swift build` / `swift test`).

/// What one run of `camerasun` printed and returned.
struct CommandResult: CustomStringConvertible {
    let exitCode: Int32
    let stdout: String
    let stderr: String

    var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty() }
    var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty() }

    var description: String { "exit \(exitCode)\nstdout: \(stdout)\nstderr: \(stderr)" }

    /// stdout parsed as one JSON object.
    func jsonObject() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any], "stdout is not a JSON object: \(stdout)")
    }
}

extension [String] {
    fileprivate func dropLastIfEmpty() -> [String] {
        last == "" ? Array(dropLast()) : self
    }
}

enum CameraSunBinary {
    /// The `camerasun` executable in the products directory that holds this test bundle, or nil.
    static let url: URL? = {
        let fileManager = FileManager.default
        var starts = [Bundle.main.bundleURL, Bundle.main.executableURL]
        if let argument = CommandLine.arguments.first { starts.append(URL(fileURLWithPath: argument)) }
        for start in starts.compactMap({ $0?.standardizedFileURL }) {
            var directory = start
            for _ in 0..<5 {
                let candidate = directory.appendingPathComponent("camerasun")
                var isDirectory: ObjCBool = false
                if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   fileManager.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }()

    /// Runs `camerasun arguments` in `directory`, with `environment` added to the test's own, and
    /// waits (at most `timeout` seconds) for it to exit — on a thread of its own: waiting on the
    /// concurrency pool's two threads would starve every other test that awaits something.
    /// One runs at a time (`processes`).
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                    timeout: Double = 60) async throws -> CommandResult {
        await processes.acquire()
        defer { processes.release() }
        return try await onOwnThread { () throws -> CommandResult in
            try runWaiting(arguments, in: directory, environment: environment, timeout: timeout)
        }
    }

    /// One `run` process at a time: two cores run the tests beside it.
    private static let processes = AsyncSemaphore(1)

    /// `run`'s wait, blocking the calling thread.
    private static func runWaiting(_ arguments: [String], in directory: URL?, environment: [String: String],
                                   timeout: Double) throws -> CommandResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stdoutURL = scratch.appendingPathComponent("stdout"), stderrURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let stdout = try FileHandle(forWritingTo: stdoutURL), stderr = try FileHandle(forWritingTo: stderrURL)
        defer {
            try? stdout.close()
            try? stderr.close()
        }

        let process = try process(arguments, in: directory ?? scratch, environment: environment)
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("camerasun \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        return CommandResult(exitCode: process.terminationStatus,
                             stdout: String(decoding: try Data(contentsOf: stdoutURL), as: UTF8.self),
                             stderr: String(decoding: try Data(contentsOf: stderrURL), as: UTF8.self))
    }

    /// Starts `camerasun arguments` and returns at once, its output discarded unless
    /// `standardOutput` is given: for tests that interrupt it.
    static func launch(_ arguments: [String], standardOutput: FileHandle = .nullDevice) throws -> Process {
        let process = try process(arguments, in: FileManager.default.temporaryDirectory, environment: [:])
        process.standardOutput = standardOutput
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// A `camerasun arguments` process in `directory`, not yet started, with no input.
    private static func process(_ arguments: [String], in directory: URL, environment: [String: String]) throws -> Process {
        let binary = try #require(url, "camerasun binary not found next to the test bundle (\(Bundle.main.bundleURL.path)) — run 'swift build' first")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        process.standardInput = FileHandle.nullDevice
        return process
    }
}

private func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
private func numbers(_ value: Any?) -> [Double]? { (value as? [Any])?.compactMap { number($0) } }

@Suite("camerasun end to end")
struct EndToEndTests {
    @Test("The camerasun binary is found next to the tests")
    func binaryIsBuilt() throws {
        let url = try #require(CameraSunBinary.url, "camerasun binary not found near \(Bundle.main.bundleURL.path) — run 'swift build' first")
        #expect(url.lastPathComponent == "camerasun")
    }

    @Test("devices --json lists the simulated camera with its formats and control ranges")
    func devicesJSON() async throws {
        let result = try await CameraSunBinary.run(["devices", "--json"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdoutLines.count == 1, "one JSON object on one line")
        let devices = try #require(try result.jsonObject()["devices"] as? [[String: Any]])
        try #require(devices.count == 1)
        let device = devices[0]
        #expect(device["id"] as? String == "sim:backlit-portrait")
        #expect((device["name"] as? String)?.isEmpty == false)

        let formats = try #require(device["formats"] as? [[String: Any]])
        let fullHD = formats.filter { number($0["width"]) == 1920 && number($0["height"]) == 1080 }
        #expect(!fullHD.isEmpty, "no 1920x1080 format in \(formats)")
        let pixelFormats = Set(fullHD.compactMap { $0["pixelFormat"] as? String })
        #expect(pixelFormats.isSuperset(of: ["bgra8", "nv12", "nv12-full", "yuyv422", "gray8"]), "\(pixelFormats)")
        let fullHDRates = Set(fullHD.flatMap { ($0["frameRates"] as? [Any] ?? []).compactMap { numbers($0) } })
        #expect(fullHDRates.contains([1, 30]), "1920x1080 frame-rate ranges: \(fullHDRates)")
        for format in formats {
            let ranges = try #require((format["frameRates"] as? [Any])?.compactMap { numbers($0) })
            #expect(!ranges.isEmpty)
            #expect(ranges.allSatisfy { $0.count == 2 && $0[0] > 0 && $0[0] <= $0[1] }, "\(format)")
        }

        let controls = try #require(device["controls"] as? [String: Any])
        #expect(numbers(controls["exposureDuration"]) == [0.00002, 0.25])
        #expect(numbers(controls["gain"]) == [1, 64])
        #expect(numbers(controls["iso"]) == [50, 3200])
        #expect(numbers(controls["evBias"]) == [-8, 8])
        #expect(numbers(controls["zoom"]) == [1, 10])
    }

    @Test("devices without --json prints a human listing")
    func devicesText() async throws {
        let result = try await CameraSunBinary.run(["devices"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.hasPrefix("sim:backlit-portrait"))
        #expect(result.stdout.contains("1920x1080 bgra8 @ 1–30 fps"))
        #expect(result.stdout.contains("EV -8…+8"))
    }

    @Test("scene list --json has the eight built-in scenes with description and intent")
    func sceneList() async throws {
        let result = try await CameraSunBinary.run(["scene", "list", "--json"])
        #expect(result.exitCode == 0, "\(result)")
        let scenes = try #require(try result.jsonObject()["scenes"] as? [[String: Any]])
        #expect(scenes.compactMap { $0["name"] as? String } == [
            "gray-card", "backlit-portrait", "snow-sun", "window-interior", "night-street", "step-change", "flicker-office", "pan-into-sun",
        ])
        let intents: [String: Double] = ["snow-sun": 1.7, "night-street": -1]
        for scene in scenes {
            let name = scene["name"] as? String ?? "?"
            #expect((scene["description"] as? String)?.count ?? 0 > 10, "\(name) needs a description")
            #expect(number(scene["intent"]) == intents[name, default: 0], "\(name) intent")
        }
    }

    @Test("scene list prints one line per scene, with the intent where it is not zero")
    func sceneListText() async throws {
        let result = try await CameraSunBinary.run(["scene", "list"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdoutLines.count == 8)
        #expect(result.stdoutLines.first { $0.hasPrefix("snow-sun ") }?.hasSuffix("(intent +1.7 EV)") == true)
        #expect(result.stdoutLines.first { $0.hasPrefix("gray-card ") }?.contains("intent") == false)
    }

    @Test("scene render writes PNGs at the requested shutter; a longer shutter is brighter")
    func sceneRender() async throws {
        try await withScratchDirectory { directory in
            func render(_ shutter: String, _ name: String) async throws -> (png: Data, json: [String: Any], path: String) {
                let path = directory.appendingPathComponent(name).path
                let result = try await CameraSunBinary.run(["scene", "render", "backlit-portrait", "--shutter", shutter, "--gain", "1",
                                                            "--width", "160", "--height", "90", "--out", path, "--json"])
                #expect(result.exitCode == 0, "\(result)")
                #expect(result.stdoutLines.count == 1)
                return (try Data(contentsOf: URL(fileURLWithPath: path)), try result.jsonObject(), path)
            }
            let fast = try await render("1/1000", "a.png")
            let slow = try await render("1/30", "b.png")
            let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            for image in [fast, slow] {
                #expect(Array(image.png.prefix(8)) == signature)
                // IHDR: width and height, big-endian, at bytes 16…23.
                let header = Array(image.png.dropFirst(16).prefix(8))
                #expect(header == [0, 0, 0, 160, 0, 0, 0, 90], "IHDR size of \(image.path)")
                #expect(image.json["out"] as? String == image.path)
                #expect(image.json["scene"] as? String == "backlit-portrait")
                #expect(number(image.json["width"]) == 160 && number(image.json["height"]) == 90)
                #expect(number(image.json["gain"]) == 1)
                #expect(number(image.json["iso"]) == 50)
                #expect(number(image.json["evBias"]) == 0)
            }
            let fastTime = try #require(number(fast.json["exposureTime"]))
            let slowTime = try #require(number(slow.json["exposureTime"]))
            #expect(abs(fastTime - 0.001) < 1e-12)
            #expect(abs(slowTime - 1.0 / 30) < 1e-12)
            let fastBrightness = try #require(number(fast.json["brightness"]))
            let slowBrightness = try #require(number(slow.json["brightness"]))
            #expect((0...1).contains(fastBrightness) && (0...1).contains(slowBrightness))
            #expect(slowBrightness > fastBrightness + 0.2, "1/30 s: \(slowBrightness), 1/1000 s: \(fastBrightness)")
            #expect(number(slow.json["clippedFraction"]) ?? 0 > number(fast.json["clippedFraction"]) ?? 1)
        }
    }

    @Test("scene render without --shutter is the AE's picture: the backlit subject lifted by the render gain, HDR on unless --hdr off")
    func sceneRenderConverged() async throws {
        try await withScratchDirectory { directory in
            func render(_ extra: [String], _ name: String) async throws -> (png: Data, json: [String: Any]) {
                let path = directory.appendingPathComponent(name).path
                let result = try await CameraSunBinary.run(["scene", "render", "backlit-portrait", "--width", "320", "--height", "180",
                                                            "--out", path, "--json"] + extra)
                #expect(result.exitCode == 0, "\(result)")
                return (try Data(contentsOf: URL(fileURLWithPath: path)), try result.jsonObject())
            }
            let local = try await render([], "local.png")
            let global = try await render(["--hdr", "off"], "global.png")
            #expect(local.json["hdr"] as? Bool == true)
            #expect(global.json["hdr"] as? Bool == false)
            // The sensor is exposed for the sky, the subject 4–5 EV under it lifted in the picture.
            for picture in [local, global] {
                let lift = try #require(number(picture.json["renderGainEV"]))
                #expect((3...6).contains(lift), "render gain \(lift) EV")
            }
            #expect(number(local.json["exposureTime"]) == number(global.json["exposureTime"]))
            #expect(local.png != global.png, "the local tone mapper renders another picture than the global curve")
        }
    }

    @Test("scene render without --json says what it wrote")
    func sceneRenderText() async throws {
        try await withScratchDirectory { directory in
            let path = directory.appendingPathComponent("gray.png").path
            let result = try await CameraSunBinary.run(["scene", "render", "gray-card", "--width", "160", "--height", "90", "--out", path])
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdout.hasPrefix("wrote \(path): gray-card 160x90, "))
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }

    /// Bad usage exits 2, failures at run time exit 1; either way stderr is one line in docs/docs/CLI.md's shape.
    @Test("Errors exit 2 for usage and 1 at run time, with one 'camerasun: error: … — …' line", arguments: ErrorCase.all)
    func errors(_ error: ErrorCase) async throws {
        try await withScratchDirectory { directory in
            let result = try await CameraSunBinary.run(error.arguments, in: directory)
            #expect(result.exitCode == error.exitCode, "\(result)")
            #expect(result.stdout.isEmpty, "errors print nothing on stdout: \(result.stdout)")
            #expect(result.stderrLines.count == 1, "one line on stderr: \(result.stderr)")
            let line = result.stderrLines.first ?? ""
            #expect(line.hasPrefix("camerasun: error: "))
            #expect(line.contains(" — "), "what failed — what to do: \(line)")
            for fragment in error.mentions {
                #expect(line.contains(fragment), "'\(fragment)' missing from: \(line)")
            }
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("x.png").path))
        }
    }

    @Test("meter --frames 5 --json prints five frame objects, 1/30 s apart")
    func meterJSON() async throws {
        let result = try await CameraSunBinary.run(["meter", "--frames", "5", "--json", "--width", "160", "--height", "90"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdoutLines
        try #require(lines.count == 5, "\(result)")
        let required: Set = ["frame", "pts", "brightness", "exposureTime", "iso", "evBias", "clippedFraction", "dropped"]
        var reports: [[String: Any]] = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(Set(object.keys).isSuperset(of: required), "keys \(object.keys.sorted())")
            reports.append(object)
        }
        #expect(reports.compactMap { number($0["frame"]) } == [0, 1, 2, 3, 4])
        let pts = reports.compactMap { number($0["pts"]) }
        try #require(pts.count == 5)
        #expect(pts[0] == 0)
        for (earlier, later) in zip(pts, pts.dropFirst()) {
            #expect(abs(later - earlier - 1.0 / 30) < 1e-9, "pts \(pts)")
        }
        for report in reports {
            #expect(number(report["dropped"]) == 0)
            #expect((0...1).contains(number(report["brightness"]) ?? -1))
            #expect((0...1).contains(number(report["clippedFraction"]) ?? -1))
            #expect((0.00002...(1.0 / 30)).contains(number(report["exposureTime"]) ?? 0))
            #expect(number(report["iso"]) ?? 0 >= 50)
            #expect(number(report["evBias"]) == 0)
        }
    }

    @Test("meter runs through a session: 300 grey-card frames in order, none dropped, AE converged")
    func meterThroughSession() async throws {
        // 300 frames take about 20 s of CPU in a debug build; the limit only guards against a hang
        // and must hold on a loaded two-core machine.
        let result = try await CameraSunBinary.run(["meter", "--source", "sim:gray-card", "--frames", "300", "--json",
                                                    "--width", "160", "--height", "90"], timeout: 240)
        #expect(result.exitCode == 0, "\(result)")
        let reports = try result.stdoutLines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(reports.compactMap { number($0["frame"]) } == (0..<300).map(Double.init))
        #expect(reports.allSatisfy { number($0["dropped"]) == 0 })
        #expect(reports.last?["aeState"] as? String == "converged")
    }

    @Test("meter --ev ramps the bias in and the exposure engine follows it")
    func meterEV() async throws {
        func exposure(_ ev: String) async throws -> (time: Double, bias: Double, state: String) {
            let result = try await CameraSunBinary.run(["meter", "--frames", "30", "--json", "--width", "160", "--height", "90",
                                                        "--source", "sim:gray-card", "--ev", ev])
            #expect(result.exitCode == 0, "\(result)")
            let last = try #require(result.stdout.split(separator: "\n").last)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
            return (try #require(number(object["exposureTime"])), try #require(number(object["evBias"])),
                    try #require(object["aeState"] as? String))
        }
        let base = try await exposure("0"), darker = try await exposure("-1")
        #expect(darker.bias == -1)
        #expect(base.state == "converged" && darker.state == "converged")
        #expect(abs(darker.time / base.time - 0.5) < 0.05, "−1 EV halves the exposure: \(darker.time) vs \(base.time)")
    }

    @Test("help lists every command and exits 0")
    func help() async throws {
        for arguments in [["help"], ["--help"]] {
            let result = try await CameraSunBinary.run(arguments)
            #expect(result.exitCode == 0, "\(result)")
            for command in ["serve", "meter", "devices", "scene list", "scene render", "photo", "record", "library", "ae-eval", "bench", "help"] {
                #expect(result.stdout.contains(command), "help does not mention \(command)")
            }
        }
    }

    @Test("help COMMAND prints that command's usage", arguments: ["scene", "meter", "devices", "photo", "record", "bench", "help"])
    func helpTopic(topic: String) async throws {
        let result = try await CameraSunBinary.run(["help", topic])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.hasPrefix("usage: camerasun \(topic)"))
        #expect(result.stderr.isEmpty)
    }

    @Test("help scene documents both verbs and the shutter forms")
    func helpScene() async throws {
        let result = try await CameraSunBinary.run(["help", "scene"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains("scene list"))
        #expect(result.stdout.contains("scene render SCENE --out F.png"))
        #expect(result.stdout.contains("1/250"))
    }

    @Test("Every command an error refers to has a help page", arguments: ["serve", "meter", "devices", "scene", "photo", "library", "ae-eval", "bench"])
    func helpPage(command: String) async throws {
        let result = try await CameraSunBinary.run(["help", command])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains("usage: camerasun \(command)"), "\(result.stdout)")
    }
}

/// A command line that must fail: its exit code and what the error line must mention.
struct ErrorCase: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    let exitCode: Int32
    let mentions: [String]

    init(_ arguments: [String], exit exitCode: Int32, _ mentions: [String]) {
        self.arguments = arguments
        self.exitCode = exitCode
        self.mentions = mentions
    }

    var testDescription: String { "camerasun " + arguments.joined(separator: " ") }

    static let small = ["--width", "160", "--height", "90"]

    static let all: [ErrorCase] = [
        ErrorCase(["bogus"], exit: 2, ["unknown command 'bogus'"]),
        ErrorCase(["scene", "render", "nope", "--out", "x.png"], exit: 2, ["'nope'", "gray-card"]),
        ErrorCase(["scene", "render", "gray-card", "--ev", "9", "--out", "x.png"] + small, exit: 2, ["--ev 9", "-8…8"]),
        ErrorCase(["scene", "render", "gray-card", "--shutter", "abc", "--out", "x.png"], exit: 2, ["--shutter 'abc'"]),
        ErrorCase(["scene", "render", "gray-card", "--shutter", "1s", "--out", "x.png"] + small, exit: 2,
                  ["--shutter 1 s", "2e-05…0.25"]),
        ErrorCase(["scene", "render", "gray-card"], exit: 2, ["--out"]),
        ErrorCase(["scene", "render", "gray-card", "--hdr", "on", "--shutter", "1/100", "--out", "x.png"], exit: 2,
                  ["--hdr", "--shutter/--gain"]),
        ErrorCase(["scene", "render", "gray-card", "--hdr", "maybe", "--out", "x.png"], exit: 2, ["--hdr", "maybe"]),
        ErrorCase(["scene", "render", "gray-card", "--out", "x.png", "--bogus"], exit: 2, ["'--bogus'"]),
        ErrorCase(["scene"], exit: 2, ["'list' or 'render'"]),
        ErrorCase(["scene", "paint"], exit: 2, ["'paint'"]),
        ErrorCase(["meter", "--source", "usb:0", "--frames", "1"], exit: 2, ["'usb:0'", "unknown kind 'usb'"]),
        ErrorCase(["meter", "--frames", "0"], exit: 2, ["--frames 0 is outside the supported range 1…"]),
        ErrorCase(["meter", "--source", "v4l2:/dev/video-missing", "--frames", "1"], exit: 1,
                  ["there is no /dev/video-missing", "plug the camera in or check the path"]),
        ErrorCase(["meter", "--source", "file:clip.mp4", "--frames", "1"], exit: 1, ["file:clip.mp4", "No such file or directory"]),
        ErrorCase(["serve", "--source", "sim:gray-card,syncmarks"], exit: 2, ["serve does not take syncmarks", "flash the viewfinder"]),
        ErrorCase(["meter", "--source", "sim:hdr=/nonexistent-dir/sky.hdr", "--frames", "1"], exit: 1, ["/nonexistent-dir/sky.hdr"]),
        ErrorCase(["scene", "render", "gray-card", "--out", "/nonexistent-dir/x.png"] + small, exit: 1, ["/nonexistent-dir/x.png"]),
        // Checked before the runs, which may take minutes, not after them.
        ErrorCase(["ae-eval", "--scenes", "gray-card", "--frames", "1", "--report", "/nonexistent-dir/r.html"], exit: 1,
                  ["/nonexistent-dir/r.html", "/nonexistent-dir is not a writable directory"]),
        ErrorCase(["ae-eval", "--views", "/nonexistent-dir/views.txt"], exit: 1, ["/nonexistent-dir/views.txt"]),
        ErrorCase(["hdr-eval", "--views", "/nonexistent-dir/views.txt"], exit: 1, ["/nonexistent-dir/views.txt"]),
        ErrorCase(["hdr-eval", "--bracket", "0"], exit: 2, ["--bracket", "a bracket of 1 frame"]),
        ErrorCase(["ae-eval", "--samples"], exit: 2, ["--samples", "add --json"]),
        ErrorCase(["devices", "--verbose"], exit: 2, ["'--verbose'"]),
        ErrorCase(["help", "nope"], exit: 2, ["'nope'"]),
        ErrorCase(["bench"], exit: 2, ["suite"]),
        ErrorCase(["bench", "nope"], exit: 2, ["'nope'"]),
    ]
}
