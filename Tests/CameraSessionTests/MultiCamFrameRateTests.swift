import CameraCapture
import CameraCore
import CameraSimulated
import CameraTestSupport
import Testing

@Suite("Two realtime simulated cameras at 640x480, 30 fps each, in one session")
struct MultiCamFrameRateTests {
    /// The frames `output` delivers until they span `seconds` of media time, after `warmUp` frames
    /// (while auto-exposure finds the scene): their sequence numbers and presentation times.
    private static func frames(of output: VideoDataOutput, spanning seconds: Double, after warmUp: Int = 10)
        async throws -> [(sequence: UInt64, time: Double)] {
        var frames = output.frames.makeAsyncIterator()
        for _ in 0..<warmUp { _ = await frames.next() }
        var taken: [(sequence: UInt64, time: Double)] = []
        while let frame = await frames.next() {
            taken.append((frame.sequenceNumber, frame.presentationTime.seconds))
            if frame.presentationTime.seconds - taken[0].time >= seconds { return taken }
        }
        throw CancellationError()
    }

    @Test("Both streams deliver at least 28 frames per second of their own media time, each frame once and in order")
    func bothStreamsAtThirtyFPS() async throws {
        try await withDeadline {
            let format = try #require(SimulatedCamera.standardFormats.first {
                $0.size == PixelSize(width: 640, height: 480) && $0.pixelFormat == .bayer16(.rggb, significantBits: 12)
            })
            let back = try SimulatedCamera(scene: .backlitPortrait, format: format, frameRate: 30, pacing: .realtime)
            let front = try SimulatedCamera(scene: .grayCard, format: format, frameRate: 30, pacing: .realtime, position: .front)
            let fromBack = VideoDataOutput(), fromFront = VideoDataOutput(), session = CaptureSession()
            try await session.configure { config in
                for camera in [back, front] { try config.add(DeviceInput(camera as any CaptureDevice)) }
                try config.add(fromBack, from: DeviceInput(back))
                try config.add(fromFront, from: DeviceInput(front))
            }
            try await session.start()
            async let backFrames = Self.frames(of: fromBack, spanning: 3)
            async let frontFrames = Self.frames(of: fromFront, spanning: 3)
            let streams = try await [("back", backFrames), ("front", frontFrames)]
            await session.stop()
            for (name, frames) in streams {
                let span = frames[frames.count - 1].time - frames[0].time
                let rate = Double(frames.count - 1) / span
                #expect(rate >= 28, "the \(name) camera delivered \(frames.count) frames over \(span) s of media time: \(rate) fps")
                let inOrder = zip(frames.dropFirst(), frames).allSatisfy { $0.sequence > $1.sequence }
                #expect(inOrder, "the \(name) camera's frames come once each and in order")
            }
        }
    }
}
