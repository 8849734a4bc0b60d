import CameraCapture
import CameraCore
import CameraTestSupport
import Testing

@Suite("PreviewOutput: scaled once, shared, rate-capped, newest-only per viewer")
struct PreviewOutputTests {
    @Test("Previews fit the bound with the source's aspect ratio, never upscaled", arguments: [
        (PixelSize(width: 16, height: 16), PixelSize(width: 16, height: 12)),
        (PixelSize(width: 960, height: 540), PixelSize(width: 32, height: 24)),
    ])
    func fittedSize(bound: PixelSize, expected: PixelSize) async throws {
        try await withDeadline {
            let device = ScriptedDevice(frameBudget: 1)
            let preview = try PreviewOutput(maximumSize: bound)
            let session = CaptureSession()
            try await session.configure { config in
                try config.add(DeviceInput(device))
                try config.add(preview)
            }
            var viewer = preview.frames().makeAsyncIterator()
            try await session.start()
            let frame = try #require(await viewer.next())
            #expect(PixelSize(width: frame.image.width, height: frame.image.height) == expected)
            #expect(frame.image.format == .bgra8)
            await session.stop()
        }
    }

    @Test("At most 30 previews a second from a 60 fps camera; every viewer shares each scaled image; a slow viewer gets only the newest")
    func sharedCappedNewest() async throws {
        try await withDeadline {
            let device = ScriptedDevice(frameBudget: 0)
            let preview = try PreviewOutput(maximumSize: PixelSize(width: 16, height: 16))
            let session = CaptureSession()
            try await session.configure { config in
                try config.add(DeviceInput(device))
                let connection = try config.add(preview)
                connection.rotation = .degrees180
            }
            var fast = preview.frames().makeAsyncIterator(), other = preview.frames().makeAsyncIterator()
            var slow = preview.frames().makeAsyncIterator()
            try await session.start()
            var sequence: [UInt64] = []
            for _ in 0..<5 {
                // Two frames at 60 fps make one preview at 30 fps.
                device.allowFrames(2)
                let frame = try #require(await fast.next())
                let shared = try #require(await other.next())
                #expect(frame.image === shared.image, "scaled once, shared by every viewer")
                #expect(frame.rotation == .degrees180)
                sequence.append(frame.sequenceNumber)
            }
            #expect(sequence == [0, 2, 4, 6, 8])
            #expect(try #require(await slow.next()).sequenceNumber == 8, "a slow viewer keeps only the newest preview")
            await session.stop()
        }
    }

    @Test("Bounds and rates out of range are refused, naming the value")
    func invalidParameters() {
        #expect(throws: ValueOutOfRangeError(setting: "preview width", value: 1, range: 2...16384, unit: "pixels")) {
            try PreviewOutput(maximumSize: PixelSize(width: 1, height: 540))
        }
        #expect(throws: ValueOutOfRangeError(setting: "preview frame rate", value: 0, range: 0.1...240, unit: "fps")) {
            try PreviewOutput(maximumFrameRate: 0)
        }
    }
}
