import CameraCapture
import CameraCodecs
import CameraCore
import CameraExposure
import CameraMetering
import CameraSimulated
import CameraStills
import CameraTestSupport
import Foundation
import Testing

/// Flash photos through a session on the simulated camera: pre-flash metering, power, auto in
/// low light, EXIF, overlapping requests.
@Suite("Flash photos on the simulated camera")
struct FlashPhotoTests {
    /// The grey card 0.8 m away before its wall, in a room 1000 times darker than `gray-card`'s:
    /// 1 cd/m², a room lit by a candle.
    static let candlelitCard = SimulatedScene(
        name: "gray-card-candlelit", summary: "gray-card at a thousandth of its light", subjectIntent: 0
    ) { size in
        var image = SimulatedScene.grayCard.render(viewSize: size)
        image.radiance.samples = image.radiance.samples.map { $0 / 1000 }
        return image
    }

    /// Small frames, so that a debug build renders them quickly.
    static let format = DeviceFormat(size: PixelSize(width: 160, height: 90), pixelFormat: .bgra8,
                                     frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])

    /// A running session on `scene` with a photo output and a frame output, once auto-exposure
    /// has converged at `bias`. The lens stays at infinity unless `focusMode` says otherwise
    /// (sharp enough at this size, and not re-rendered each frame as autofocus would make it).
    /// `frameWait` is the photo output's.
    static func withSettledCamera(_ scene: SimulatedScene, format: DeviceFormat = format, bias: Double = 0, focusMode: FocusMode = .locked,
                                  meteringMode: MeteringMode = .sunAware, frameWait: Duration = .seconds(2),
                                  _ body: (SimulatedCamera, PhotoOutput, VideoDataOutput) async throws -> Void) async throws {
        let camera = try SimulatedCamera(scene: scene, format: format)
        try camera.configure { $0.meteringMode = meteringMode }
        try await withSettledSession(camera, bias: bias, focusMode: focusMode, frameWait: frameWait) { photos, frames in
            try await body(camera, photos, frames)
        }
    }

    /// A running session on `camera` with a photo output and a frame output, once auto-exposure
    /// has converged at `bias`, `focusMode` set and `frameWait` the photo output's.
    static func withSettledSession(_ camera: some CaptureDevice, bias: Double = 0, focusMode: FocusMode = .locked,
                                   frameWait: Duration = .seconds(2),
                                   _ body: (PhotoOutput, VideoDataOutput) async throws -> Void) async throws {
        try camera.configure { settings in
            settings.exposureBias = bias
            settings.focusMode = focusMode
        }
        let photos = PhotoOutput(frameWait: frameWait), frames = VideoDataOutput()
        let session = CaptureSession()
        try await session.configure { config in
            try config.add(DeviceInput(camera))
            try config.add(photos)
            try config.add(frames)
        }
        try await session.start()
        for await frame in frames.frames {
            if frame.threeA.exposureState == .converged && frame.metadata.exposureBias == bias { break }
            try #require(frame.sequenceNumber < 300, "auto-exposure did not settle on \(camera.localizedName)")
        }
        do {
            try await body(photos, frames)
        } catch {
            await session.stop()
            throw error
        }
        await session.stop()
    }

    /// The photo's subject (the scene's ground truth) in EV from mid-grey shifted by `bias`, read
    /// from the JPEG.
    static func subjectError(of photo: CapturedPhoto, camera: SimulatedCamera, bias: Double) throws -> Double {
        let image = try JPEGDecoder().decode(photo.data)
        let frame = Frame(buffer: image, presentationTime: photo.presentationTime, sequenceNumber: photo.sequenceNumber,
                          metadata: photo.metadata)
        let reading = GroundTruthReading(image, truth: camera.groundTruth(for: frame))
        return log2(reading.subjectLinearMean / (Meter.midGray * pow(2, bias)))
    }

    /// The card, 0.8 m away, is auto-exposure's subject: the picture without flash already lifts it
    /// to its target, and even the least power lights it more than the ambient light does.
    @Test("Flash on in a candle-lit room: the card lands where the picture without flash puts it", arguments: [0.0, 1.0])
    func subjectLandsAtTarget(bias: Double) async throws {
        try await Self.withSettledCamera(Self.candlelitCard, bias: bias) { camera, photos, _ in
            let ambient = try await photos.capture(PhotoSettings(flashMode: .off))
            let photo = try await photos.capture(PhotoSettings(flashMode: .on))
            let exposure = try #require(photo.flash.exposure)
            #expect(photo.flash.fired && photo.flash.isAvailable)
            #expect(photo.metadata.flashPower == exposure.power, "the photo is the frame the main flash lit")
            #expect(exposure.power < 1 && !exposure.isOutOfReach)
            #expect(photo.metadata.iso * photo.metadata.digitalGain <= 400 + 1e-6, "the ambient exposure is held at ISO 400 at most")
            #expect(try #require(photo.sequenceAtRequest) < photo.sequenceNumber, "never zero shutter lag")
            let without = try Self.subjectError(of: ambient, camera: camera, bias: bias)
            let with = try Self.subjectError(of: photo, camera: camera, bias: bias)
            #expect(abs(with - without) < 1.0 / 3, "the card is at \(with) EV with the flash at \(exposure.power), \(without) without")
        }
    }

    @Test("From the ambient frame to the flash's frame exposure, white balance and lens hold, though autofocus searches meanwhile")
    func threeAHoldsThroughTheSequence() async throws {
        try await Self.withSettledCamera(Self.candlelitCard, focusMode: .continuous) { camera, photos, frames in
            let seen = Locked<[(sequence: UInt64, metadata: FrameMetadata)]>([])
            let (sequences, arrival) = AsyncStream.makeStream(of: UInt64.self)
            frames.alwaysDiscardsLateFrames = false
            frames.setHandler { frame in
                seen.withLock { $0.append((frame.sequenceNumber, frame.metadata)) }
                arrival.yield(frame.sequenceNumber)
            }
            try camera.configure { $0.focusPoint = NormalizedPoint(x: 0.3, y: 0.7) }   // autofocus searches there
            let photo = try await photos.capture(PhotoSettings(flashMode: .on))
            for await sequence in sequences where sequence > photo.sequenceNumber + 8 { break }
            frames.setHandler(nil)
            arrival.finish()
            let recorded = seen.withLock { $0 }
            let flash = try #require(recorded.firstIndex { $0.sequence == photo.sequenceNumber })
            try #require(flash >= 2 && recorded[flash - 2].sequence + 2 == photo.sequenceNumber, "no frame lost before the flash")
            let (ambient, preFlash) = (recorded[flash - 2].metadata, recorded[flash - 1].metadata)
            #expect(ambient.flashPower == nil && preFlash.flashPower == FlashExposure.preFlashPower)
            for frame in [ambient, preFlash] {
                #expect(frame.exposureDuration == photo.metadata.exposureDuration && frame.analogueGain == photo.metadata.analogueGain)
                #expect(frame.whiteBalanceGains == photo.metadata.whiteBalanceGains && frame.lensPosition == photo.metadata.lensPosition)
            }
            let metadata = recorded.map(\.metadata)
            #expect(Set(metadata.map(\.lensPosition)).count > 1, "autofocus moved the lens after the flash photo")
        }
    }

    /// A flash mode in a scene, what the flash must do, and the EXIF Flash code exiftool must read:
    /// bit 0 fired, bits 3–4 the mode (1 on, 2 off, 3 auto).
    struct FlashCase: Sendable, CustomTestStringConvertible {
        let scene: SimulatedScene
        let mode: PhotoSettings.FlashMode
        let fires: Bool
        let exifFlash: Int
        var testDescription: String { "\(mode) in \(scene.name): \(fires ? "fires" : "does not fire"), EXIF Flash \(exifFlash)" }
    }

    @Test("Auto fires in low light and not in good light; exiftool reads the mode and whether it fired", arguments: [
        FlashCase(scene: candlelitCard, mode: .auto, fires: true, exifFlash: 0x19),
        FlashCase(scene: .nightStreet, mode: .auto, fires: true, exifFlash: 0x19),
        FlashCase(scene: .grayCard, mode: .auto, fires: false, exifFlash: 0x18),
        FlashCase(scene: candlelitCard, mode: .on, fires: true, exifFlash: 0x09),
        FlashCase(scene: candlelitCard, mode: .off, fires: false, exifFlash: 0x10),
    ])
    func autoAndExif(_ flash: FlashCase) async throws {
        try await Self.withSettledCamera(flash.scene) { _, photos, _ in
            let photo = try await photos.capture(PhotoSettings(flashMode: flash.mode))
            #expect(photo.flash.mode == flash.mode && photo.flash.fired == flash.fires)
            #expect((photo.metadata.flashPower != nil) == flash.fires)
            #expect(photo.flash.power == photo.metadata.flashPower)
            #expect(try await ExifTool.read(photo.data)["Flash"] as? Int == flash.exifFlash)
        }
    }

    @Test("Overlapping flash requests each get their own pre-flash and flash frame, every stage once; a photo without flash gets an unlit frame")
    func overlapping() async throws {
        try await Self.withSettledCamera(Self.candlelitCard) { _, photos, _ in
            let modes: [PhotoSettings.FlashMode] = [.on, .auto, .on, .off]
            let logs = modes.map { _ in PhotoStageLog() }
            let taken = try await withThrowingTaskGroup(of: CapturedPhoto.self) { group in
                for (mode, log) in zip(modes, logs) {
                    group.addTask { try await photos.capture(PhotoSettings(flashMode: mode), events: log.record) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let lit = taken.filter { $0.settings.flashMode != .off }
            #expect(lit.allSatisfy { $0.flash.fired && $0.metadata.flashPower == $0.flash.power })
            #expect(Set(lit.map(\.sequenceNumber)).count == 3, "\(lit.map(\.sequenceNumber))")
            let unlit = try #require(taken.first { $0.settings.flashMode == .off })
            #expect(unlit.metadata.flashPower == nil && !unlit.flash.fired)
            #expect(logs.allSatisfy { $0.all == PhotoStageLog.stages }, "\(logs.map(\.all))")
        }
    }
}
