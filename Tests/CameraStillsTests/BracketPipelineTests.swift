@testable import CameraCapture
import CameraCore
@testable import CameraSimulated
@testable import CameraStills
import Foundation
import Testing

/// A bracket's exposures held one per frame on the simulated camera, whose controls queue per
/// frame: they land on consecutive frames. A device that loses one exposure's controls gets it held
/// again, or fails the bracket within its bound, saying which exposure never came.
@Suite("Bracket exposures pipelined on the simulated camera", .serialized)
struct BracketPipelineTests {
    static let offsets = [-2.0, 0, 2]

    @Test("Driven frame by frame, the bracket's last frame comes the exposure latency plus one frame per further exposure after it starts")
    func pipelinedOnTheSensor() async throws {
        let camera = try SimulatedCamera(scene: .backlitPortrait, format: BracketPhotoTests.format)
        try camera.startStreaming()
        var frame = try await camera.nextFrame()
        let start = frame.sequenceNumber
        var sequence = try BracketSequence(offsets: Self.offsets, base: camera.requestedControls, renderGain: .none,
                                           capabilities: camera.capabilities)
        while true {
            switch sequence.advance(frame) {
            case .wait: break
            case .expose(let controls): try camera.updateControls { $0.hold(controls) }
            case .captured(let frames):
                // Held one after another until each frame came, they would land `latency` frames apart instead.
                let latency = ControlPipeline.exposureLatency, count = UInt64(Self.offsets.count)
                #expect(frames.map(\.sequenceNumber) == Array(start + latency..<start + latency + count))
                return
            case .failed(let message):
                Issue.record("the bracket failed: \(message)")
                return
            }
            frame = try await camera.nextFrame()
        }
    }

    @Test("Through a session, the bracket's frames are consecutive, each made with its offset's exposure")
    func consecutiveInASession() async throws {
        try await Self.withSession(ExposureDroppingCamera(try SimulatedCamera(scene: .backlitPortrait, format: BracketPhotoTests.format))) {
            _, photos in
            let bracket = try await photos.shootBracket(Self.offsets)
            let numbers = bracket.frames.map(\.sequenceNumber)
            #expect(numbers == Array(numbers[0]..<numbers[0] + UInt64(Self.offsets.count)), "\(numbers)")
            Self.expectExposures(bracket)
        }
    }

    @Test("A device that loses one exposure's controls once still gets the bracket: the exposure is held again",
          arguments: [1, 2])
    func lostControlHeldAgain(change: Int) async throws {
        try await Self.withSession(ExposureDroppingCamera(try SimulatedCamera(scene: .backlitPortrait, format: BracketPhotoTests.format))) {
            camera, photos in
            camera.arm(droppingChange: change, times: 1)
            let bracket = try await photos.shootBracket(Self.offsets)
            Self.expectExposures(bracket)
            // Held again, the lost exposure's frame and those after it come later than consecutive frames would.
            let numbers = bracket.frames.map(\.sequenceNumber)
            #expect(numbers.last! - numbers.first! > UInt64(Self.offsets.count - 1), "\(numbers)")
        }
    }

    @Test("A device that never takes one exposure's controls fails the bracket within its bound, naming that exposure")
    func lostControlFails() async throws {
        try await Self.withSession(ExposureDroppingCamera(try SimulatedCamera(scene: .backlitPortrait, format: BracketPhotoTests.format))) {
            camera, photos in
            camera.arm(droppingChange: 2, times: .max)
            let error = await #expect(throws: PhotoCaptureError.self) { try await photos.shootBracket(Self.offsets) }
            guard case .bracketFailed(let message) = error else { Issue.record("not a bracket failure: \(String(describing: error))"); return }
            #expect(message.contains("no frame came at the bracket's exposure 2 of 3 (+0.0 EV")
                && message.contains("in \(BracketSequence.framesPerExposure) frames"), "\(message)")
        }
    }

    @Test("Brackets asked for together are each taken around the exposure auto-exposure holds, not around the last one's held exposure")
    func backToBack() async throws {
        let camera = try SimulatedCamera(scene: .backlitPortrait, format: BracketPhotoTests.format, frameRate: 30, pacing: .realtime)
        try await Self.withSession(ExposureDroppingCamera(camera)) { _, photos in
            async let first = photos.capture(PhotoSettings(bracket: Self.offsets))
            async let second = photos.capture(PhotoSettings(bracket: Self.offsets))
            // Each photo's frame is its +2 EV one.
            let (one, two) = try await (first.metadata.totalExposure, second.metadata.totalExposure)
            #expect(abs(log2(two / one)) < 0.25, "+2 EV at \(one) s, then at \(two) s")
        }
    }

    /// Each frame's exposure is its offset's from the base (the 0 EV frame's).
    static func expectExposures(_ bracket: BracketCapture) {
        let base = bracket.frames[1].metadata.totalExposure
        for (offset, frame) in zip(offsets, bracket.frames) {
            #expect(abs(log2(frame.metadata.totalExposure / base) - offset) < 0.02, "\(offset) EV: \(frame.metadata)")
        }
    }

    /// A running session on `camera` with a photo output, once auto-exposure has converged.
    static func withSession(_ camera: ExposureDroppingCamera,
                            _ body: (ExposureDroppingCamera, PhotoOutput) async throws -> Void) async throws {
        try await FlashPhotoTests.withSettledSession(camera) { photos, _ in try await body(camera, photos) }
    }
}
