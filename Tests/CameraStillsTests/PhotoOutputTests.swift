import CameraCapture
import CameraCore
import CameraStills
import CameraTestSupport
import Foundation
import Testing

/// Photos from a running session: stages, overlapping requests, zero shutter lag, EXIF.
@Suite("Photo output")
struct PhotoOutputTests {
    /// A running session on a scripted 64x48 bgra8 camera with a photo output and a frame output
    /// (to see which frames have arrived). Frames come only as `allowFrames` lets them.
    static func run(photos: PhotoOutput = PhotoOutput(),
                    _ body: @escaping @Sendable (ScriptedDevice, PhotoOutput, VideoDataOutput, CaptureSession) async throws -> Void) async throws {
        try await withDeadline {
            let device = ScriptedDevice(formats: [ScriptedDevice.standardFormats[1]], poolCapacity: 8, frameBudget: 0)
            let frames = VideoDataOutput(alwaysDiscardsLateFrames: false)
            let session = CaptureSession(interruptionRetryInterval: .milliseconds(1))
            try await session.configure { config in
                try config.add(DeviceInput(device))
                try config.add(photos)
                try config.add(frames)
            }
            try await session.start()
            try await body(device, photos, frames, session)
            await session.stop()
        }
    }

    /// Lets `count` frames through and returns the last one's number once the photo output has it
    /// (the session hands each frame to the photo output before the frame output).
    static func deliver(_ count: Int, _ device: ScriptedDevice, _ frames: VideoDataOutput) async throws -> UInt64 {
        device.allowFrames(count)
        var iterator = frames.frames.makeAsyncIterator()
        var last: UInt64?
        for _ in 0..<count { last = await iterator.next()?.sequenceNumber }
        return try #require(last)
    }

    @Test("100 overlapping requests: 100 photos, unique ids, every stage exactly once and in order")
    func overlapping() async throws {
        try await Self.run(photos: PhotoOutput(maximumInFlight: 8)) { device, photos, frames, _ in
            _ = try await Self.deliver(1, device, frames)
            device.allowFrames(1_000)
            frames.alwaysDiscardsLateFrames = true
            let logs = (0..<100).map { _ in PhotoStageLog() }
            let photosTaken = try await withThrowingTaskGroup(of: CapturedPhoto.self) { group in
                for log in logs {
                    group.addTask { try await photos.capture(PhotoSettings(), events: log.record) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(photosTaken.count == 100)
            #expect(Set(photosTaken.map(\.settings.uniqueID)).count == 100)
            #expect(logs.allSatisfy { $0.all == PhotoStageLog.stages }, "\(logs.map(\.all).first { $0 != PhotoStageLog.stages } ?? [])")
            for photo in photosTaken {
                #expect(Array(photo.data.prefix(2)) == [0xFF, 0xD8] && Array(photo.data.suffix(2)) == [0xFF, 0xD9])
                #expect(photo.size == PixelSize(width: 64, height: 48))
            }
            #expect(photos.readiness == .ready)
        }
    }

    @Test("Zero shutter lag takes the frame current at the request; without it, a later frame")
    func zeroShutterLag() async throws {
        try await Self.run { device, photos, frames, _ in
            let current = try await Self.deliver(5, device, frames)
            let instant = try await photos.capture(PhotoSettings(zeroShutterLag: true))
            #expect(instant.sequenceNumber == current && instant.sequenceAtRequest == current)

            let later = Task { try await photos.capture(PhotoSettings(zeroShutterLag: false)) }
            try await waitUntil { photos.pendingFrameRequests == 1 }
            let next = try await Self.deliver(1, device, frames)
            let photo = try await later.value
            #expect(photo.sequenceAtRequest == current)
            #expect(photo.sequenceNumber == next && next > current)
        }
    }

    @Test("Reusing settings is an error before any stage; bad settings fail with a message naming the value")
    func reusedSettings() async throws {
        try await Self.run { device, photos, frames, _ in
            _ = try await Self.deliver(1, device, frames)
            let settings = PhotoSettings()
            _ = try await photos.capture(settings)
            let log = PhotoStageLog()
            await #expect(throws: PhotoCaptureError.reusedSettings(uniqueID: settings.uniqueID)) {
                try await photos.capture(settings, events: log.record)
            }
            #expect(log.all.isEmpty)
            let quality = await #expect(throws: PhotoCaptureError.self) { try await photos.capture(PhotoSettings(format: .jpeg(quality: 101))) }
            #expect(quality?.description.contains("JPEG quality 101 is outside 1…100") == true)
        }
    }

    @Test("Requests beyond the in-flight limit wait their turn (readiness says so) and none is lost")
    func backPressure() async throws {
        try await Self.run(photos: PhotoOutput(maximumInFlight: 2)) { device, photos, frames, _ in
            _ = try await Self.deliver(1, device, frames)
            let requests = (0..<6).map { _ in Task { try await photos.capture(PhotoSettings(zeroShutterLag: false)) } }
            try await waitUntil { photos.pendingFrameRequests == 2 }
            #expect(photos.readiness == .notReadyWaitingForProcessing)
            frames.alwaysDiscardsLateFrames = true
            device.allowFrames(50)
            var numbers: [UInt64] = []
            for request in requests { numbers.append(try await request.value.sequenceNumber) }
            #expect(numbers.count == 6)
            #expect(photos.readiness == .ready)
        }
    }

    @Test("Without frames a request fails with advice instead of waiting for ever")
    func notRunning() async throws {
        let photos = PhotoOutput(frameWait: .milliseconds(100))
        let log = PhotoStageLog()
        await #expect(throws: PhotoCaptureError.notRunning) { try await photos.capture(PhotoSettings(), events: log.record) }
        #expect(log.all == PhotoStageLog.stages)
        #expect(PhotoCaptureError.notRunning.description.contains("start the session"))
    }

    @Test("exiftool reads back the frame's exposure, the connection's orientation and the request's GPS and artist")
    func exif() async throws {
        try await Self.run { device, photos, frames, session in
            let connection = try #require(await session.connection(for: photos))
            connection.rotation = .degrees90
            _ = try await Self.deliver(2, device, frames)
            let location = GPSLocation(latitude: 48.8584, longitude: 2.2945, altitude: 35)
            let photo = try await photos.capture(PhotoSettings(location: location, artist: "Ansel"))
            let tags = try await ExifTool.read(photo.data)
            #expect(tags["ExposureTime"] as? Double == photo.metadata.exposureDuration.seconds)
            #expect(tags["ISO"] as? Int == Int((photo.metadata.iso * photo.metadata.digitalGain).rounded()))
            #expect(tags["MeteringMode"] as? Int == 255)
            #expect(tags["Orientation"] as? Int == 6)
            #expect(tags["Artist"] as? String == "Ansel")
            #expect(abs((tags["GPSLatitude"] as? Double ?? 0) - 48.8584) < 1e-6)
            #expect(tags["ExifImageWidth"] as? Int == 64)
        }
    }

    @Test("A camera without a flash: on fails naming the problem after every stage, auto in the dark and off never fire, EXIF says no flash")
    func cameraWithoutFlash() async throws {
        try await Self.run { device, photos, frames, _ in
            device.setSceneLuminance(1)
            _ = try await Self.deliver(2, device, frames)
            let log = PhotoStageLog()
            await #expect(throws: PhotoCaptureError.unsupported(
                "flash on: this camera has no flash — take the photo with flash off, or auto (which then never fires)")) {
                try await photos.capture(PhotoSettings(flashMode: .on), events: log.record)
            }
            #expect(log.all == PhotoStageLog.stages)
            for mode in [PhotoSettings.FlashMode.auto, .off] {
                let photo = try await photos.capture(PhotoSettings(flashMode: mode))
                #expect(photo.metadata.sceneLuminance(linearMean: photo.statistics.linearMean) < 10, "dark enough for auto to fire")
                #expect(!photo.flash.isAvailable && !photo.flash.fired && photo.metadata.flashPower == nil)
                #expect(try await ExifTool.read(photo.data)["Flash"] as? Int == 0x20, "EXIF: no flash function")
            }
            let refused = try #require(throws: ValueOutOfRangeError.self) {
                try device.apply(SensorControls(exposureDuration: 0.01, analogueGain: 1, flashPower: 1))
            }
            #expect(refused.description == "flash power (the camera has no flash) 1 is outside the supported range 0…0 — choose a value in that range")
        }
    }
}
