import CameraCapture
import CameraCore
import CameraTestSupport
import Testing

@Suite("Interruptions: reported once, recovered automatically")
struct InterruptionTests {
    @Test("Busy, then removed: interrupted and interruptionEnded for each, in order")
    func busyThenRemoved() async throws {
        let device = ScriptedDevice()
        let remaining = try await withStartedSession(device) { session, iterator in
            #expect(await iterator.next() == .started)
            for (availability, reason) in [(ScriptedDevice.Availability.busy, InterruptionReason.deviceInUseByAnotherClient),
                                           (.removed, .deviceRemoved)] {
                device.setAvailability(availability)
                #expect(await iterator.next() == .interrupted(reason))
                #expect(await session.isInterrupted)
                #expect(await session.isRunning)
                let frames = device.framesCaptured
                device.setAvailability(.available)
                #expect(await iterator.next() == .interruptionEnded)
                #expect(await !session.isInterrupted)
                try await waitUntil { device.framesCaptured > frames }
            }
            await session.stop()
        }
        #expect(remaining == [.stopped])
        #expect(device.streamStarts == 3)
    }

    @Test("A device busy at start: started, interrupted, and frames once it is free")
    func busyAtStart() async throws {
        let device = ScriptedDevice()
        device.setAvailability(.busy)
        _ = try await withStartedSession(device) { session, iterator in
            #expect(await iterator.next() == .started)
            #expect(await iterator.next() == .interrupted(.deviceInUseByAnotherClient))
            #expect(device.framesCaptured == 0)
            device.setAvailability(.available)
            #expect(await iterator.next() == .interruptionEnded)
            try await waitUntil { device.framesCaptured > 0 }
            await session.stop()
            #expect(await iterator.next() == .stopped)
        }
    }

    @Test("Stopping while interrupted stops at once, with no interruptionEnded")
    func stopWhileInterrupted() async throws {
        let device = ScriptedDevice()
        let remaining = try await withStartedSession(device) { session, iterator in
            device.setAvailability(.removed)
            #expect(await iterator.next() == .started)
            #expect(await iterator.next() == .interrupted(.deviceRemoved))
            await session.stop()
            #expect(await !session.isInterrupted)
            #expect(!device.isStreaming)
        }
        #expect(remaining == [.stopped])
    }

    @Test("Frames lost during an interruption are reported as a discontinuity and show as one long interval")
    func discontinuity() async throws {
        let device = ScriptedDevice(poolCapacity: 16, frameBudget: 5, framesLostPerInterruption: 3)
        let output = VideoDataOutput(alwaysDiscardsLateFrames: false)
        let session = try await makeSession(device, outputs: [output])
        let events = session.events(), drops = output.drops()
        try await withDeadline {
            var frames = output.frames.makeAsyncIterator()
            var eventIterator = events.makeAsyncIterator()
            var sequence: [UInt64] = []
            try await session.start()
            for _ in 0..<5 { sequence.append(try #require(await frames.next()).sequenceNumber) }
            device.setAvailability(.busy)
            #expect(await eventIterator.next() == .started)
            #expect(await eventIterator.next() == .interrupted(.deviceInUseByAnotherClient))
            device.setAvailability(.available)
            #expect(await eventIterator.next() == .interruptionEnded)
            device.allowFrames(5)
            for _ in 0..<5 { sequence.append(try #require(await frames.next()).sequenceNumber) }
            #expect(sequence == [0, 1, 2, 3, 4, 8, 9, 10, 11, 12])
            var dropIterator = drops.makeAsyncIterator()
            var dropped: [DroppedFrame] = []
            for _ in 0..<3 { dropped.append(try #require(await dropIterator.next())) }
            #expect(dropped == [5, 6, 7].map { DroppedFrame(reason: .discontinuity, sequenceNumber: $0) })
            await session.stop()
        }
        let statistics = output.statistics
        #expect(statistics.framesDelivered == 10)
        #expect(statistics.dropped(.discontinuity) == 3 && statistics.totalDropped == 3)
        // 60 fps: eight intervals of one frame and one of four.
        #expect(statistics.intervalCount == 9)
        #expect(statistics.longIntervals == 1)
        #expect(abs(statistics.maximumInterval - 4.0 / 60) < 1e-12)
        #expect(abs(statistics.meanInterval - 12.0 / 60 / 9) < 1e-12)
    }

    /// Starts a session on `device` and runs `body` with it and an iterator over its events (none
    /// read yet), within the deadline; then lets the session go and returns the events not read.
    private func withStartedSession(
        _ device: ScriptedDevice,
        _ body: @escaping @Sendable (CaptureSession, inout AsyncStream<SessionEvent>.Iterator) async throws -> Void
    ) async throws -> [SessionEvent] {
        var session: CaptureSession? = try await makeSession(device)
        let events = session!.events()
        try await withDeadline { [session] in
            var iterator = events.makeAsyncIterator()
            try await session!.start()
            try await body(session!, &iterator)
        }
        session = nil
        return await allEvents(events)
    }
}
