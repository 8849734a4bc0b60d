import CameraCapture
import CameraCore
import CameraExposure
import CameraMetering
import CameraTestSupport
import Foundation
import Testing

/// The 3A engine driven through a running session: the user only configures the device.
@Suite("3A through the session")
struct ThreeAThroughSessionTests {
    /// Stops of difference between the mean linear level of a frame's picture (what the outputs
    /// show: the sensor's frame through the render gain) and `target` at the AE's aim under it.
    static func stops(_ frame: CapturedFrame, from target: Double) throws -> Double {
        abs(log2(try FrameAnalyzer().analyze(frame.frame.buffer).linearMean / target) - SunAwareExposure.aim)
    }

    /// A session on a scripted camera filming 1000 cd/m² (over-exposed by 3.3 EV at the start),
    /// with one output; `body` gets the device, the session and the output's frames. The pool has
    /// room for the five frames a test keeps to compare, besides the one waiting and the one captured.
    static func run(_ body: @escaping @Sendable (ScriptedDevice, CaptureSession, inout VideoDataOutput.Frames.Iterator) async throws -> Void)
        async throws {
        try await withDeadline {
            let device = ScriptedDevice(poolCapacity: 8, sceneLuminance: 1000, frameBudget: 0)
            let output = VideoDataOutput()
            let session = try await makeSession(device, outputs: [output])
            var frames = output.frames.makeAsyncIterator()
            try await session.start()
            try await body(device, session, &frames)
            await session.stop()
        }
    }

    /// Lets the device capture `count` more frames and returns the last of them.
    static func advance(_ device: ScriptedDevice, _ frames: inout VideoDataOutput.Frames.Iterator, by count: Int,
                        after last: CapturedFrame?) async throws -> CapturedFrame {
        device.allowFrames(count)
        return try await frames.frame(numbered: (last.map { $0.sequenceNumber + 1 } ?? 0) + UInt64(count) - 1)
    }

    @Test("Auto-exposure converges on its aim under mid-grey, and again after a 3 EV step in the scene")
    func convergesAndFollowsStep() async throws {
        try await Self.run { device, _, frames in
            let first = try await Self.advance(device, &frames, by: 1, after: nil)
            #expect(first.statistics.linearMean > 0.9, "the scene starts clipped")
            let settled = try await Self.advance(device, &frames, by: 30, after: first)
            #expect(settled.threeA.exposureState == .converged)
            #expect(try Self.stops(settled, from: 0.18) < 1.0 / 6)
            let highlights = SRGB.decode(settled.statistics.histogram.percentile(1 - SunAwareExposure.highlightBudget))
            let sensor = log2(highlights / SunAwareExposure.highlightCeiling)
            #expect(abs(sensor) < 1.0 / 6, "the sensor is exposed for the highlights, \(sensor) EV from the ceiling")
            device.setSceneLuminance(1000.0 / 8)
            let stepped = try await Self.advance(device, &frames, by: 30, after: settled)
            #expect(stepped.threeA.exposureState == .converged)
            #expect(try Self.stops(stepped, from: 0.18) < 1.0 / 6)
            let ratio = stepped.metadata.totalExposure / settled.metadata.totalExposure
            #expect(abs(log2(ratio) - 3) < 1.0 / 6, "exposure should rise 3 EV, rose \(log2(ratio))")
        }
    }

    @Test("An exposure bias ramps at 4 EV/s and brightens the converged frame by its EV")
    func bias() async throws {
        try await Self.run { device, session, frames in
            let settled = try await Self.advance(device, &frames, by: 30, after: nil)
            try device.configure { $0.exposureBias = 1 }
            // At 60 fps the ramp moves 4/60 EV per frame: five frames reach 1/3 EV.
            let ramping = try await Self.advance(device, &frames, by: 5, after: settled)
            #expect(abs(ramping.threeA.exposureBias - 5 * 4.0 / 60) < 1e-9)
            let biased = try await Self.advance(device, &frames, by: 40, after: ramping)
            #expect(biased.threeA.exposureBias == 1)
            #expect(biased.metadata.exposureBias == 1)
            #expect(biased.threeA.exposureState == .converged)
            #expect(try Self.stops(biased, from: 0.36) < 1.0 / 6)
            #expect(device.appliedControls?.exposureBias == 1)
            #expect(await session.isRunning)
        }
    }

    @Test("A locked exposure holds when the scene changes; its bias still applies; unlocking re-converges")
    func lockHolds() async throws {
        try await Self.run { device, _, frames in
            let settled = try await Self.advance(device, &frames, by: 30, after: nil)
            try device.configure { $0.exposureMode = .locked }
            let locked = try await Self.advance(device, &frames, by: 2, after: settled)
            #expect(locked.threeA.exposureState == .locked)
            let held = locked.metadata.totalExposure
            device.setSceneLuminance(500)
            let darker = try await Self.advance(device, &frames, by: 20, after: locked)
            #expect(abs(darker.metadata.totalExposure / held - 1) < 1e-6, "a locked exposure must not follow the scene")
            #expect(try Self.stops(darker, from: 0.09) < 1.0 / 6)
            try device.configure { $0.exposureBias = 1 }
            let biased = try await Self.advance(device, &frames, by: 30, after: darker)
            #expect(abs(biased.metadata.totalExposure / held - 2) < 1e-6, "bias applies in locked mode")
            #expect(try Self.stops(biased, from: 0.18) < 1.0 / 6)
            #expect(biased.threeA.exposureState == .locked)
            try device.configure { $0.exposureMode = .continuousAuto }
            let unlocked = try await Self.advance(device, &frames, by: 30, after: biased)
            #expect(unlocked.threeA.exposureState == .converged)
            #expect(try Self.stops(unlocked, from: 0.36) < 1.0 / 6)
        }
    }

    @Test("Manual focus, manual white balance, zoom and flicker reach the device")
    func manualSettingsReachDevice() async throws {
        try await Self.run { device, _, frames in
            let gains = WhiteBalanceGains(red: 2, green: 1, blue: 1.5)
            try device.configure { settings in
                settings.focusMode = .manual(lensPosition: 0.3)
                settings.whiteBalanceMode = .manualGains(gains)
                settings.zoomFactor = 2
                settings.flicker = .hz50
            }
            let frame = try await Self.advance(device, &frames, by: 2, after: nil)
            let applied = try #require(device.appliedControls)
            #expect(applied.lensPosition == 0.3)
            #expect(applied.whiteBalance == gains)
            #expect(applied.zoomFactor == 2)
            #expect(applied.flicker == .hz50)
            #expect(frame.metadata.lensPosition == 0.3 && frame.metadata.whiteBalanceGains == gains)
            #expect(frame.threeA.focusState == .locked && frame.threeA.whiteBalanceState == .locked)
        }
    }

    @Test("A custom exposure longer than a frame is shortened to the frame")
    func customExposureWithinFrame() async throws {
        try await Self.run { device, _, frames in
            try device.configure { $0.exposureMode = .custom(duration: 0.2, gain: 2) }
            _ = try await Self.advance(device, &frames, by: 2, after: nil)
            let applied = try #require(device.appliedControls)
            #expect(applied.exposureDuration == 1.0 / 60)
            #expect(applied.analogueGain == 2)
        }
    }
}
