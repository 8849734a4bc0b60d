import CameraCapture
import CameraCore
import CameraTestSupport
import Synchronization
import Testing

@Suite("Session lifecycle: idempotent, serialised, leak-free")
struct LifecycleTests {
    @Test("start and stop are idempotent: one started, one stopped, one device start")
    func idempotent() async throws {
        let device = ScriptedDevice()
        var session: CaptureSession? = try await makeSession(device)
        let events = session!.events()
        try await withDeadline { [session] in
            try await session!.start()
            try await session!.start()
            #expect(await session!.isRunning)
            await session!.stop()
            await session!.stop()
            #expect(await !session!.isRunning)
        }
        session = nil
        #expect(await allEvents(events) == [.started, .stopped])
        #expect(device.streamStarts == 1)
        #expect(!device.isStreaming)
    }

    @Test("1000 start/stop cycles return every pool buffer and never deadlock")
    func thousandCycles() async throws {
        let device = ScriptedDevice(poolCapacity: 4)
        // A fixed exposure has no render gain: the outputs get the device's own buffers.
        try device.configure { $0.exposureMode = .custom(duration: 1.0 / 60, gain: 1) }
        let output = VideoDataOutput()
        var session: CaptureSession? = try await makeSession(device, outputs: [output])
        let events = session!.events()
        try await withDeadline { [session] in
            for cycle in 0..<1000 {
                let before = device.framesCaptured
                try await session!.start()
                try await waitUntil { device.framesCaptured > before }
                await session!.stop()
                #expect(!device.isStreaming, "cycle \(cycle)")
                // Only the newest frame may still wait in the output for its consumer.
                #expect(device.buffersInUse == output.framesWaiting, "cycle \(cycle)")
                #expect(output.framesWaiting <= 1, "cycle \(cycle)")
            }
            var frames = output.frames.makeAsyncIterator()
            while output.framesWaiting > 0 { _ = await frames.next() }
        }
        #expect(device.buffersInUse == 0)
        #expect(device.streamStarts == 1000)
        let statistics = output.statistics
        #expect(statistics.framesDelivered + statistics.dropped(.late) == device.framesCaptured)
        #expect(statistics.totalDropped == statistics.dropped(.late))
        session = nil
        let all = await allEvents(events)
        #expect(all.count == 2000)
        #expect(all == Array(repeating: [SessionEvent.started, .stopped], count: 1000).flatMap { $0 })
    }

    @Test("Concurrent starts and stops from many tasks run one at a time: events alternate")
    func concurrentTransitions() async throws {
        let device = ScriptedDevice()
        var session: CaptureSession? = try await makeSession(device)
        let events = session!.events()
        try await withDeadline { [session] in
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        if index.isMultiple(of: 2) { try? await session!.start() } else { await session!.stop() }
                    }
                }
            }
            await session!.stop()
        }
        #expect(!device.isStreaming)
        #expect(device.buffersInUse == 0)
        session = nil
        let all = await allEvents(events)
        #expect(all.count == 2 * device.streamStarts)
        for (index, event) in all.enumerated() {
            #expect(event == (index.isMultiple(of: 2) ? .started : .stopped), "event \(index)")
        }
    }

    @Test("A device failure is a runtime error, then stopped; the session can start again")
    func runtimeError() async throws {
        let device = ScriptedDevice(frameBudget: 3)
        var session: CaptureSession? = try await makeSession(device)
        let events = session!.events()
        let failure = CaptureError.deviceFailure(device: "scripted:0", detail: "VIDIOC_DQBUF: input/output error")
        try await withDeadline { [session] in
            var iterator = events.makeAsyncIterator()
            try await session!.start()
            try await waitUntil { device.framesCaptured == 3 }
            device.failNextFrame(with: failure)
            #expect(await iterator.next() == .started)
            #expect(await iterator.next() == .runtimeError(failure))
            #expect(await iterator.next() == .stopped)
            #expect(await !session!.isRunning)
            #expect(!device.isStreaming)
            try await session!.start()
            #expect(await iterator.next() == .started)
            await session!.stop()
            #expect(await iterator.next() == .stopped)
        }
        session = nil
        #expect(device.streamStarts == 2)
    }

    @Test("A device that cannot start fails start() with its error, and nothing is reported")
    func startFailure() async throws {
        let device = ScriptedDevice()
        var session: CaptureSession? = try await makeSession(device)
        let events = session!.events()
        let failure = CaptureError.notAuthorized(device: "scripted:0", remedy: "add your user to the 'video' group")
        device.failNextStart(with: failure)
        await #expect(throws: failure) { try await session!.start() }
        #expect(await !session!.isRunning)
        session = nil
        #expect(await allEvents(events) == [])
    }

    @Test("Reconfiguring a running session restarts its stream in the new format")
    func reconfigureWhileRunning() async throws {
        try await withDeadline {
            let device = ScriptedDevice(frameBudget: 1)
            let output = VideoDataOutput()
            let session = try await makeSession(device, outputs: [output])
            var frames = output.frames.makeAsyncIterator()
            try await session.start()
            #expect(try await frames.frame(numbered: 0).buffer.width == 32)
            try await session.configure { config in config.preset = .hd1280x720 }
            #expect(await session.isRunning)
            device.allowFrames(1)
            let frame = try await frames.frame(numbered: 0)
            #expect(frame.buffer.width == 1280 && frame.buffer.format == .gray8)
            #expect(device.streamStarts == 2)
            await session.stop()
        }
    }
}
