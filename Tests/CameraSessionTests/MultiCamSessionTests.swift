import CameraCapture
import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// Two scripted cameras told apart by their frames: the back one films 32x24 gray8, the front one 64x48 bgra8.
private func cameraPair(frameBudget: Int? = nil, back backLuminance: Double = 100, front frontLuminance: Double = 100)
    -> (back: ScriptedDevice, front: ScriptedDevice) {
    (ScriptedDevice(uniqueID: "scripted:back", position: .back, formats: [ScriptedDevice.standardFormats[0]],
                    sceneLuminance: backLuminance, frameBudget: frameBudget),
     ScriptedDevice(uniqueID: "scripted:front", position: .front, formats: [ScriptedDevice.standardFormats[1]],
                    sceneLuminance: frontLuminance, frameBudget: frameBudget))
}

@Suite("Two cameras in one session: each output fed by one input, each input on its own loop and 3A")
struct MultiCamSessionTests {
    @Test("Each output gets its own input's frames and mirroring; configuration names the input feeding each")
    func eachOutputFromItsInput() async throws {
        try await withDeadline {
            let (back, front) = cameraPair(frameBudget: 3)
            // Each of the three frames kept for the test: a newest-wins output drops those it is late for,
            // and with the budget spent the next frame would never come.
            let fromBack = VideoDataOutput(alwaysDiscardsLateFrames: false), fromFront = VideoDataOutput(alwaysDiscardsLateFrames: false)
            let session = CaptureSession()
            try await session.configure { config in
                try config.add(DeviceInput(back))
                try config.add(DeviceInput(front))
                try config.add(fromBack, from: DeviceInput(back))
                try config.add(fromFront, from: DeviceInput(front))
            }
            let configuration = await session.configuration
            #expect(configuration.inputs.map(\.device.uniqueID) == ["scripted:back", "scripted:front"])
            #expect(configuration.input(feeding: fromBack)?.device === back)
            #expect(configuration.input(feeding: fromFront)?.device === front)
            var backFrames = fromBack.frames.makeAsyncIterator(), frontFrames = fromFront.frames.makeAsyncIterator()
            try await session.start()
            for _ in 0..<3 {
                let backFrame = try #require(await backFrames.next()), frontFrame = try #require(await frontFrames.next())
                #expect(backFrame.buffer.width == 32 && !backFrame.isMirrored)
                #expect(frontFrame.buffer.width == 64 && frontFrame.isMirrored, "a front camera's frames are shown mirrored")
            }
            await session.stop()
            #expect(!back.isStreaming && !front.isStreaming)
        }
    }

    @Test("Each input has its own 3A engine: two scenes 3 EV apart converge 3 EV apart")
    func ownThreeA() async throws {
        try await withDeadline {
            let (back, front) = cameraPair(frameBudget: 0, back: 1000, front: 125)
            let fromBack = VideoDataOutput(), fromFront = VideoDataOutput(), session = CaptureSession()
            try await session.configure { config in
                for device in [back, front] { try config.add(DeviceInput(device)) }
                try config.add(fromBack, from: DeviceInput(back))
                try config.add(fromFront, from: DeviceInput(front))
            }
            var backFrames = fromBack.frames.makeAsyncIterator(), frontFrames = fromFront.frames.makeAsyncIterator()
            try await session.start()
            back.allowFrames(40)
            front.allowFrames(40)
            let backSettled = try await backFrames.frame(numbered: 39), frontSettled = try await frontFrames.frame(numbered: 39)
            #expect(backSettled.threeA.exposureState == .converged && frontSettled.threeA.exposureState == .converged)
            let stops = log2(frontSettled.metadata.totalExposure / backSettled.metadata.totalExposure)
            #expect(abs(stops - 3) < 1.0 / 6, "the darker scene's exposure should be 3 EV longer, it is \(stops) EV")
            await session.stop()
        }
    }

    @Test("An interruption is its camera's: the events name it, and the other camera streams on")
    func interruptionNamesItsDevice() async throws {
        try await withDeadline {
            let (back, front) = cameraPair()
            let fromBack = VideoDataOutput(), session = CaptureSession(interruptionRetryInterval: .milliseconds(1))
            try await session.configure { config in
                for device in [back, front] { try config.add(DeviceInput(device)) }
                try config.add(fromBack, from: DeviceInput(back))
            }
            var events = session.deviceEvents().makeAsyncIterator()
            var frames = fromBack.frames.makeAsyncIterator()
            try await session.start()
            #expect(await events.next() == SessionDeviceEvent(.started, device: nil))
            front.setAvailability(.removed)
            #expect(await events.next() == SessionDeviceEvent(.interrupted(.deviceRemoved), device: "scripted:front"))
            #expect(await session.isInterrupted)
            let before = try #require(await frames.next())
            let after = try await frames.frame(numbered: before.sequenceNumber + 5)
            #expect(after.buffer.width == 32, "the back camera streams on while the front one is away")
            front.setAvailability(.available)
            #expect(await events.next() == SessionDeviceEvent(.interruptionEnded, device: "scripted:front"))
            #expect(await !session.isInterrupted)
            await session.stop()
            #expect(await events.next() == SessionDeviceEvent(.stopped, device: nil))
        }
    }

    @Test("A camera that fails stops alone; the session stops with the last camera")
    func failureStopsItsCameraOnly() async throws {
        try await withDeadline {
            let (back, front) = cameraPair()
            let fromBack = VideoDataOutput(), session = CaptureSession()
            try await session.configure { config in
                for device in [back, front] { try config.add(DeviceInput(device)) }
                try config.add(fromBack, from: DeviceInput(back))
            }
            var events = session.deviceEvents().makeAsyncIterator()
            var frames = fromBack.frames.makeAsyncIterator()
            try await session.start()
            #expect(await events.next()?.event == .started)
            let failure = CaptureError.deviceFailure(device: "scripted:front", detail: "I/O error")
            front.failNextFrame(with: failure)
            #expect(await events.next() == SessionDeviceEvent(.runtimeError(failure), device: "scripted:front"))
            let before = try #require(await frames.next())
            _ = try await frames.frame(numbered: before.sequenceNumber + 3)
            #expect(await session.isRunning && !front.isStreaming)
            back.failNextFrame(with: .deviceFailure(device: "scripted:back", detail: "I/O error"))
            #expect(await events.next()?.device == "scripted:back")
            #expect(await events.next() == SessionDeviceEvent(.stopped, device: nil))
            #expect(await !session.isRunning)
        }
    }
}

@Suite("Two-camera configurations: validated as a whole, errors naming the camera")
struct MultiCamConfigurationTests {
    /// Why a new session refuses the configuration `body` makes, or nil when it takes it.
    private func refusal(_ body: @Sendable (inout SessionConfiguration) throws -> Void) async -> String? {
        await failure { try await CaptureSession().configure(body) }
    }

    @Test("An output fed by a camera that is not an input fails, naming it and what to do")
    func feederNotAnInput() async throws {
        let (back, front) = cameraPair()
        let message = try #require(await refusal { config in
            try config.add(DeviceInput(back))
            try config.add(VideoDataOutput(), from: DeviceInput(front))
        })
        #expect(message.contains("the VideoDataOutput is fed by scripted:front, which is not an input of the session"))
        #expect(message.contains("add DeviceInput(camera) in the same configuration, or connect the VideoDataOutput to one of its inputs"))
    }

    @Test("Removing the camera an output is fed by, without connecting the output elsewhere, fails and changes nothing")
    func removedFeeder() async throws {
        let (back, front) = cameraPair()
        let output = VideoDataOutput(), session = CaptureSession()
        try await session.configure { config in
            for device in [back, front] { try config.add(DeviceInput(device)) }
            try config.add(output, from: DeviceInput(front))
        }
        let message = try #require(await failure {
            try await session.configure { config in config.remove(DeviceInput(front)) }
        })
        #expect(message.contains("fed by scripted:front, which is not an input"))
        #expect(await session.configuration.inputs.count == 2)
        #expect(await session.configuration.input(feeding: output)?.device === front)
    }

    @Test("A preset one camera cannot give fails naming that camera, and neither camera's format changes")
    func presetUnsupportedByOne() async throws {
        let back = ScriptedDevice(uniqueID: "scripted:back")
        let front = ScriptedDevice(uniqueID: "scripted:front", position: .front, formats: [ScriptedDevice.standardFormats[1]])
        let message = try #require(await refusal { config in
            config.preset = .hd1280x720
            for device in [back, front] { try config.add(DeviceInput(device)) }
        })
        #expect(message.contains("preset hd1280x720 needs a 1280x720 format, but Scripted camera scripted:front (scripted:front) offers 64x48"))
        #expect(back.activeFormat == ScriptedDevice.standardFormats[0], "the camera that offers the preset is left as it was")
    }

    @Test("Each output is checked against its own camera's format")
    func compatibilityPerInput() async throws {
        let (back, front) = cameraPair()
        try await CaptureSession().configure { config in
            for device in [back, front] { try config.add(DeviceInput(device)) }
            try config.add(VideoDataOutput(pixelFormat: .bgra8), from: DeviceInput(front))
        }
        let message = try #require(await refusal { config in
            for device in [back, front] { try config.add(DeviceInput(device)) }
            try config.add(VideoDataOutput(pixelFormat: .bgra8), from: DeviceInput(back))
        })
        #expect(message.contains("wants bgra8 frames but the device delivers 32x24 gray8"))
    }

    @Test("Connecting an output that is not in the configuration fails")
    func connectUnknownOutput() async throws {
        let (back, _) = cameraPair()
        let message = try #require(await refusal { config in
            try config.add(DeviceInput(back))
            try config.connect(VideoDataOutput(), to: DeviceInput(back))
        })
        #expect(message.contains("this VideoDataOutput is not in the session — add it before connecting it to an input"))
    }
}

@Suite("Front/back switching: one input feeds the preview after every switch, and the preview runs on")
struct CameraSwitchTests {
    /// Waits for a preview frame `width` wide: one from the camera switched to.
    private static func previewFrame(width: Int, from frames: inout AsyncStream<PreviewFrame>.Iterator) async throws -> PreviewFrame {
        while let frame = await frames.next() {
            if frame.image.width == width { return frame }
        }
        throw CancellationError()
    }

    @Test("remove(old); add(new) in one configuration, 100 times: exactly one input, the preview's, mirrored when front")
    func switchByReplacingTheInput() async throws {
        try await withDeadline {
            let (back, front) = cameraPair()
            let preview = try PreviewOutput(), session = CaptureSession()
            try await session.configure { config in
                try config.add(DeviceInput(back))
                try config.add(preview)
            }
            var frames = preview.frames().makeAsyncIterator()
            try await session.start()
            _ = try await Self.previewFrame(width: 32, from: &frames)
            var current = back
            for _ in 0..<100 {
                let (old, new) = current === back ? (back, front) : (front, back)
                try await session.configure { config in
                    config.remove(DeviceInput(old))
                    try config.add(DeviceInput(new))
                }
                current = new
                let configuration = await session.configuration
                #expect(configuration.inputs.count == 1 && configuration.inputs.first?.device === new)
                #expect(configuration.input(feeding: preview)?.device === new)
                #expect(configuration.connection(for: preview)?.isVideoMirrored == (new === front))
                #expect(new.isStreaming && !old.isStreaming, "only the camera switched to streams")
            }
            #expect(await session.isRunning)
            // 100 switches end on the back camera: its frames arrive after the last one.
            let last = try await Self.previewFrame(width: 32, from: &frames)
            #expect(!last.isMirrored)
            await session.stop()
        }
    }

    @Test("Two cameras kept, preview and inset connected to the other ones, 100 times: each fed by exactly one camera")
    func switchByReconnecting() async throws {
        try await withDeadline {
            let (back, front) = cameraPair()
            let preview = try PreviewOutput(), inset = try PreviewOutput(), session = CaptureSession()
            try await session.configure { config in
                for device in [back, front] { try config.add(DeviceInput(device)) }
                try config.add(preview, from: DeviceInput(back))
                try config.add(inset, from: DeviceInput(front))
            }
            var frames = preview.frames().makeAsyncIterator()
            try await session.start()
            var main = back
            for _ in 0..<100 {
                let (newMain, newInset) = main === back ? (front, back) : (back, front)
                try await session.configure { config in
                    try config.connect(preview, to: DeviceInput(newMain))
                    try config.connect(inset, to: DeviceInput(newInset))
                }
                main = newMain
                let configuration = await session.configuration
                #expect(configuration.inputs.count == 2)
                #expect(configuration.input(feeding: preview)?.device === newMain)
                #expect(configuration.input(feeding: inset)?.device === newInset)
                #expect(configuration.connection(for: preview)?.isVideoMirrored == (newMain === front))
            }
            // One more switch makes the front camera the main one: its mirrored frames reach the preview.
            try await session.configure { config in
                try config.connect(preview, to: DeviceInput(front))
                try config.connect(inset, to: DeviceInput(back))
            }
            let last = try await Self.previewFrame(width: 64, from: &frames)
            #expect(last.isMirrored)
            await session.stop()
        }
    }
}
