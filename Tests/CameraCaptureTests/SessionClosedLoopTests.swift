import CameraCapture
import CameraCore
import CameraSimulated
import Foundation
import Testing

/// The 3A engine through a real session on the simulated camera: the user only configures the
/// device; the session meters every frame and drives the sensor.
@Suite("Auto-exposure through a session on the simulated camera")
struct SessionClosedLoopTests {
    /// Runs `frames` frames of `scene` through a session and returns each frame's total exposure in EV.
    static func exposures(_ scene: SimulatedScene, frames: Int, configure: (inout DeviceSettings) -> Void = { _ in }) async throws -> [Double] {
        try await run(scene, frames: frames, configure: configure).map { log2($0.metadata.totalExposure) }
    }

    /// Runs `frames` frames of `scene` through a session and returns each frame's metadata and 3A status.
    static func run(_ scene: SimulatedScene, frames: Int, size: PixelSize = PixelSize(width: 160, height: 90),
                    configure: (inout DeviceSettings) -> Void = { _ in }) async throws -> [(metadata: FrameMetadata, threeA: ThreeAStatus)] {
        let format = DeviceFormat(size: size, pixelFormat: .bgra8,
                                  frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera = try SimulatedCamera(scene: scene, format: format)
        try camera.configure(configure)
        let output = VideoDataOutput(alwaysDiscardsLateFrames: false)
        let session = CaptureSession()
        try await session.configure { config in
            try config.add(DeviceInput(camera))
            try config.add(output)
        }
        try await session.start()
        var seen: [(metadata: FrameMetadata, threeA: ThreeAStatus)] = []
        for await frame in output.frames {
            #expect(frame.sequenceNumber == UInt64(seen.count), "frames arrive in order, none dropped")
            seen.append((frame.metadata, frame.threeA))
            if seen.count == frames { break }
        }
        await session.stop()
        #expect(output.statistics.totalDropped == 0)
        return seen
    }

    @Test("step-change: after each 4 EV step the exposure follows within 6 frames, settled to ±⅙ EV")
    func stepChange() async throws {
        let exposure = try await Self.exposures(.stepChange, frames: 90)
        // The light steps up at frame 30 (t = 1 s at 30 fps) and down at frame 60.
        for (step, settledRange) in [(30, 50..<60), (60, 80..<90)] {
            let settled = exposure[settledRange].sorted()[settledRange.count / 2]
            let lastOff = (step..<settledRange.upperBound).last { abs(exposure[$0] - settled) > 1.0 / 6 }
            #expect((lastOff.map { $0 + 1 - step } ?? 0) <= 6, "step at frame \(step)")
            #expect(abs(settled - exposure[step - 1] + (step == 30 ? 4 : -4)) < 0.25, "the exposure moved by the step")
        }
    }

    @Test("Locked through the session: the exposure holds through the step; +1 EV bias still applies")
    func lockedHoldsThroughStep() async throws {
        let exposure = try await Self.exposures(.stepChange, frames: 60) { $0.exposureMode = .locked }
        #expect(exposure[20...].allSatisfy { abs($0 - exposure[20]) < 0.01 })
        let biased = try await Self.exposures(.stepChange, frames: 60) { settings in
            settings.exposureMode = .locked
            settings.exposureBias = 1
        }
        #expect(abs(biased[59] - exposure[59] - 1) < 0.05)
    }

    @Test("Mains flicker comes with the 3A status: seen with anti-flicker off, and with auto (the default) still reported once its exposures are whole periods")
    func flickerInStatus() async throws {
        let size = PixelSize(width: 96, height: 120)
        let off = try await Self.run(.flickerOffice, frames: 30, size: size) { $0.flicker = .off }
        let seenOff = off.filter { $0.threeA.flicker == 100 }.count
        #expect(seenOff >= 27, "100 Hz seen in \(seenOff) of 30 frames with anti-flicker off")
        #expect(off.allSatisfy { $0.threeA.flicker == nil || $0.threeA.flicker == 100 })

        let auto = try await Self.run(.flickerOffice, frames: 45, size: size)
        let first = try #require(auto.firstIndex { $0.threeA.flicker == 100 }, "auto sees the flicker")
        #expect(first <= 2)
        let safe = auto[35...].allSatisfy { frame in
            let periods = frame.metadata.exposureDuration.seconds * 100
            return abs(periods - periods.rounded()) < 1e-4
        }
        #expect(safe, "exposures are whole 10 ms periods by the end")
        // No bands are left to see, but the light still flickers: the status keeps saying so (the page showed null).
        #expect(auto[35...].allSatisfy { $0.threeA.flicker == 100 }, "the flicker the safe exposures are held for stays reported")
    }
}
