import CameraCodecs
import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// Issue 23's acceptance on a V4L2 camera: the release `camerasun` against the LD_PRELOAD fake
/// /dev/video0 (`FakeV4L2Camera`), a webcam whose sensor applies each control a frame after the
/// one being exposed, as real ones do. What the process did to the camera is read from the
/// shim's log: each open and close, each S_CTRL, the scene's level as the sensor made it.
@Suite("V4L2 end to end on the fake /dev/video0", .serialized,
       .enabled(if: ServeProcess.releaseBinary != nil, "needs CAMERASUN_RELEASE_BINARY (make test sets it)"))
struct V4L2EndToEndTests {
    static let source = ["--source", "v4l2:/dev/video0"]
    /// How near the target the picture's brightness settles: 0.01 of full scale.
    static let brightnessTolerance = 0.01
    /// Frames with no S_CTRL that make the exposure settled.
    static let settledFrames = 30.0

    @Test("serve streams 640×480 JPEGs from the camera; the AE moves exposure_time_absolute until the sensor's level settles at the target",
          arguments: [("MJPG", "bgra8"), ("YUYV", "yuyv422")])
    func serveSettles(format: String, bufferFormat: String) async throws {
        let camera = try await FakeV4L2Camera(formats: format)
        let server = try await ServeProcess.start(binary: ServeProcess.releaseBinary, Self.source, environment: camera.environment)
        let connection = try server.connect()
        // Settled: a stretch of frames with no S_CTRL, after which the picture is at the target.
        var controlsSet = -1, quietSince = 0.0, settled: [String: Any] = [:]
        let quiet = try await eventually {
            settled = try await connection.json("GET", "/state").object
            let count = try camera.log().filter { $0.hasPrefix("S_CTRL") }.count, frame = jsonNumber(settled["frame"]) ?? 0
            if count != controlsSet { (controlsSet, quietSince) = (count, frame) }
            return frame >= quietSince + Self.settledFrames
        }
        #expect(quiet, "S_CTRL \(controlsSet) times, the last at frame \(quietSince); \(settled["frame"] ?? "no") frames")
        #expect(settled["aeState"] as? String == "converged", "\(settled["aeState"] ?? "none")")
        #expect(try #require(Self.brightnessError(settled)) < Self.brightnessTolerance,
                "brightness \(settled["brightness"] ?? "none"), target \(settled["targetBrightness"] ?? "none")")
        #expect(settled["device"] as? String == "/dev/video0")
        #expect((settled["format"] as? String)?.hasPrefix("640x480 \(bufferFormat) @ 30 fps") == true, "\(settled["format"] ?? "none")")

        // The scene the camera starts on is clipped: the AE takes several steps down to a level below it.
        let exposures = try camera.values(setting: "exposure_time_absolute")
        #expect(Set(exposures).count >= 3, "exposure_time_absolute set to \(exposures)")
        #expect(abs((jsonNumber(settled["exposureTime"]) ?? 0) - Double(try #require(exposures.last)) / 10_000) < 1e-9,
                "\(settled["exposureTime"] ?? "none")")
        let levels = try camera.levels()
        #expect(levels.first?.level == 255 && (levels.last?.level ?? 255) < 255, "the scene's levels: \(levels)")

        let stream = try server.connect()
        let response = try await stream.openStream("/stream")
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("multipart/x-mixed-replace") == true, "\(response.headers)")
        let decoder = try JPEGDecoder()
        for _ in 0..<3 {
            let picture = try decoder.decode([UInt8](try await stream.nextPart().body))
            #expect(picture.width == 640 && picture.height == 480)
            let mean = Self.meanGreen(picture)
            #expect(abs(mean - (jsonNumber(settled["brightness"]) ?? 0)) < 0.03,
                    "a /stream picture's mean \(mean), /state's brightness \(settled["brightness"] ?? "none")")
        }
        #expect(try await server.interrupt() == 0)
        try Self.expectReleased(camera.log())
    }

    @Test("unplugged: /state says deviceRemoved, which the page shows as the camera disconnected; plugged back in, frames flow again in the same process")
    func unplugAndReturn() async throws {
        let camera = try await FakeV4L2Camera()
        let server = try await ServeProcess.start(binary: ServeProcess.releaseBinary, Self.source, environment: camera.environment)
        let connection = try server.connect()
        let streaming = try await connection.state { (jsonNumber($0["frame"]) ?? 0) >= 10 }
        #expect((jsonNumber(streaming["frame"]) ?? 0) >= 10 && streaming["interruption"] is NSNull, "\(streaming)")

        try camera.unplug()
        let removed = try await connection.state { $0["interruption"] as? String == "deviceRemoved" }
        #expect(removed["interruption"] as? String == "deviceRemoved", "\(removed["interruption"] ?? "none")")
        let page = try await connection.request("GET", "/")
        #expect(page.text.contains("deviceRemoved: text.cameraRemoved"), "the page maps deviceRemoved to its phrase")
        #expect(page.text.contains("The camera was disconnected — waiting for it to return"), "the page's phrase table")
        let unplugged = try camera.log()
        let unplugAt = try #require(unplugged.firstIndex(of: "unplugged"))
        #expect(unplugged[unplugAt...].contains { $0.hasPrefix("close fd=") }, "the dead node was closed: \(unplugged[unplugAt...])")
        let lastFrame = try #require(jsonNumber(removed["frame"]))

        try camera.plug()
        let back = try await connection.state { $0["interruption"] is NSNull && (jsonNumber($0["frame"]) ?? 0) > lastFrame + 10 }
        #expect(back["interruption"] is NSNull, "\(back["interruption"] ?? "none")")
        #expect((jsonNumber(back["frame"]) ?? 0) > lastFrame + 10, "frames \(lastFrame) before the unplug, \(back["frame"] ?? "none") after")
        #expect(server.isRunning)
        let replugged = try camera.log()
        let plugAt = try #require(replugged.firstIndex(of: "plugged"))
        #expect(Array(replugged[plugAt...].prefix(3)).map { $0.prefix(5) } == ["plugg", "open ", "S_CTR"],
                "after the replug: \(replugged[plugAt...].prefix(6))")
        #expect(replugged[plugAt...].contains("STREAMON"))
        #expect(try await server.interrupt() == 0)
    }

    @Test("photo lands in the library with EXIF ExposureTime and ISO from settings the camera's controls held")
    func photo() async throws {
        let camera = try await FakeV4L2Camera(light: FakeV4L2Camera.dimLight)
        try await withScratchDirectory { library in
            let asset = try await Self.photo(on: camera, into: library)
            let path = try #require(asset["path"] as? String)
            let tags = try #require(try await exiftool([path])[path])

            // The photo's frame was taken with settings the camera held, in 100 µs units and gain
            // steps of ×1 + 15/255 from ISO 100; the dim scene needs gain, so the ISO is above the base.
            let seconds = try #require(jsonNumber(tags["ExposureTime"])), iso = try #require(jsonNumber(tags["ISO"]))
            let held = try camera.settingsHeld(["exposure_time_absolute", "gain"])
            let photographed = held.first { settings in
                abs(Double(settings["exposure_time_absolute"] ?? 0) / 10_000 - seconds) < 1e-6
                    && (100 * (1 + 15 * Double(settings["gain"] ?? 0) / 255)).rounded() == iso
            }
            #expect(photographed != nil, "EXIF ExposureTime \(seconds) s, ISO \(iso); the camera held \(held)")
            #expect(iso > 100)
            #expect(abs((jsonNumber(asset["exposureTime"]) ?? 0) - seconds) < 1e-6 && jsonNumber(asset["iso"]) == iso, "\(asset)")
        }
        try Self.expectReleased(camera.log())
    }

    @Test("devices --json lists the fake /dev/video0 with its formats and control ranges, and leaves it out once unplugged")
    func devices() async throws {
        let camera = try await FakeV4L2Camera()
        let result = try await CameraSunBinary.run(["devices", "--json"], environment: camera.environment)
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        let devices = try #require(try result.jsonObject()["devices"] as? [[String: Any]])
        let device = try #require(devices.first)
        #expect(device["id"] as? String == "/dev/video0")
        #expect(device["name"] as? String == "Fake V4L2 Camera (/dev/video0)")
        let formats = try #require(device["formats"] as? [[String: Any]])
        #expect(Set(formats.compactMap { $0["pixelFormat"] as? String }) == ["yuyv422", "bgra8"], "\(formats)")
        for format in formats {
            #expect(jsonNumber(format["width"]) == 640 && jsonNumber(format["height"]) == 480)
            #expect((format["frameRates"] as? [[Double]]) == [[30, 30], [15, 15]], "\(format)")
        }
        let controls = try #require(device["controls"] as? [String: Any])
        #expect(controls["exposureDuration"] as? [Double] == [0.0001, 0.5])
        #expect(controls["gain"] as? [Double] == [1, 16])
        #expect(controls["iso"] as? [Double] == [100, 1600])
        let log = try camera.log()
        #expect(log.filter { $0.hasPrefix("open") }.count == log.filter { $0.hasPrefix("close") }.count, "every open node closed: \(log)")

        try camera.unplug()
        let unplugged = try await CameraSunBinary.run(["devices", "--json"], environment: camera.environment)
        let ids = (try unplugged.jsonObject()["devices"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(ids?.contains("/dev/video0") == false, "\(unplugged)")
    }

    @Test("a camera offering only RG10 Bayer: devices --json lists it as bayer16-rggb10, and photo develops its raw frames into a 640×480 photo")
    func rawBayer() async throws {
        let camera = try await FakeV4L2Camera(formats: "RG10", light: FakeV4L2Camera.dimLight)
        let listed = try await CameraSunBinary.run(["devices", "--json"], environment: camera.environment)
        let device = try #require((try listed.jsonObject()["devices"] as? [[String: Any]])?.first, "\(listed)")
        let formats = try #require(device["formats"] as? [[String: Any]])
        #expect(formats.compactMap { $0["pixelFormat"] as? String } == ["bayer16-rggb10"], "\(formats)")
        try await withScratchDirectory { library in _ = try await Self.photo(on: camera, into: library) }
        try Self.expectReleased(camera.log())
    }

    @Test("without --source, serve opens the first V4L2 camera that opens; with none there, the simulated camera")
    func defaultSource() async throws {
        let camera = try await FakeV4L2Camera()
        for (plugged, device) in [(true, "/dev/video0"), (false, "sim:backlit-portrait")] {
            if !plugged { try camera.unplug() }
            let server = try await ServeProcess.start(binary: ServeProcess.releaseBinary, environment: camera.environment)
            let state = try await server.connect().json("GET", "/state").object
            #expect(state["device"] as? String == device, "plugged \(plugged): \(state["device"] ?? "none")")
            #expect(try await server.interrupt() == 0)
        }
    }

    /// That the process let its stream go as it ended: STREAMOFF, then every buffer it mapped
    /// unmapped, then nothing but the node's close — which the reader thread's last poll may
    /// leave to the process's exit, and so to the kernel.
    /// `camerasun photo --json` on the fake camera into `library`: its one asset, checked to be 640×480.
    private static func photo(on camera: FakeV4L2Camera, into library: URL) async throws -> [String: Any] {
        let result = try await CameraSunBinary.run(["photo"] + source + ["--library", library.path, "--json"], environment: camera.environment)
        #expect(result.exitCode == 0, "\(result)")
        let asset = try #require((try result.jsonObject()["assets"] as? [[String: Any]])?.first, "\(result)")
        #expect(jsonNumber(asset["width"]) == 640 && jsonNumber(asset["height"]) == 480)
        return asset
    }

    private static func expectReleased(_ log: [String]) throws {
        let streamOff = try #require(log.lastIndex(of: "STREAMOFF"), "no STREAMOFF: the log ends \(log.suffix(6))")
        let after = log[(streamOff + 1)...]
        let mapped = Set(log.filter { $0.hasPrefix("mmap ") }.map { $0.dropFirst("mmap ".count) })
        #expect(!mapped.isEmpty && Set(after.filter { $0.hasPrefix("munmap ") }.map { $0.dropFirst("munmap ".count) }) == mapped,
                "mapped \(mapped.sorted()), after STREAMOFF: \(Array(after))")
        #expect(after.allSatisfy { $0.hasPrefix("munmap ") || $0.hasPrefix("close fd=") }, "after STREAMOFF: \(Array(after))")
        #expect(!log.contains { $0.contains("still mapped") }, "a node closed with buffers mapped: \(log.filter { $0.hasPrefix("close") })")
    }

    /// How far `/state`'s brightness lies from its target.
    private static func brightnessError(_ state: [String: Any]) -> Double? {
        guard let brightness = jsonNumber(state["brightness"]), let target = jsonNumber(state["targetBrightness"]) else { return nil }
        return abs(brightness - target)
    }

    /// The mean of a bgra8 picture's green channel, 0…1 (the scene is grey).
    private static func meanGreen(_ picture: PixelBuffer) -> Double {
        let bytes = picture.bytes(plane: 0)
        var sum = 0
        for index in stride(from: 1, to: bytes.count, by: 4) { sum += Int(bytes[index]) }
        return Double(sum) / Double(bytes.count / 4) / 255
    }
}
