@testable import CameraCapture
import CameraCore
import CameraTestSupport
import Testing

@Suite("VideoDataOutput: order, late frames, drops, bounded memory")
struct VideoDataOutputTests {
    @Test("A busy consumer gets the newest frame; each frame it missed is reported once as late")
    func lateFrames() async throws {
        let produced = 100
        let device = ScriptedDevice(poolCapacity: 8, frameBudget: produced)
        let output = VideoDataOutput()
        let session = try await makeSession(device, outputs: [output])
        let drops = output.drops()
        let delivered = try await withDeadline { () -> [UInt64] in
            var frames = output.frames.makeAsyncIterator()
            try await session.start()
            // The consumer takes a frame and stays busy with it while the device captures the rest.
            let first = try #require(await frames.next())
            try await waitUntil { device.framesCaptured == produced }
            await session.stop()
            var delivered = [first.sequenceNumber]
            while output.framesWaiting > 0 { delivered.append(try #require(await frames.next()).sequenceNumber) }
            return delivered
        }
        #expect(delivered.count == 2)
        #expect(delivered.last == UInt64(produced - 1))
        let statistics = output.statistics
        #expect(statistics.framesDelivered == 2)
        #expect(statistics.dropped(.late) == produced - 2)
        #expect(statistics.totalDropped == produced - 2)
        let lateNumbers = try await withDeadline {
            var iterator = drops.makeAsyncIterator()
            var numbers: [UInt64] = []
            for _ in 0..<(produced - 2) {
                let drop = try #require(await iterator.next())
                #expect(drop.reason == .late)
                numbers.append(try #require(drop.sequenceNumber))
            }
            return numbers
        }
        #expect(Set(lateNumbers).count == lateNumbers.count)
        #expect(Set(lateNumbers).union(delivered) == Set(0..<UInt64(produced)))
        // Held by the consumer, waiting in the slot, being captured: never more, however many frames.
        #expect(device.peakBuffersInUse <= 3)
        #expect(device.framesLostForBuffers == 0)
        #expect(device.buffersInUse == 0)
    }

    @Test("A disabled connection's output gets no frame and no drop; enabled again, frames flow from the next one")
    func disabledConnection() async throws {
        let device = ScriptedDevice(poolCapacity: 8, frameBudget: 40)
        let held = VideoDataOutput(alwaysDiscardsLateFrames: false), watcher = VideoDataOutput(alwaysDiscardsLateFrames: false)
        let session = try await makeSession(device, outputs: [held, watcher])
        let connection = try #require(await session.connection(for: held))
        connection.isEnabled = false
        try await withDeadline {
            var watched = watcher.frames.makeAsyncIterator()
            try await session.start()
            for _ in 0..<10 { _ = try #require(await watched.next()) }
            #expect(held.framesWaiting == 0 && held.statistics.totalDropped == 0)
            connection.isEnabled = true
            var frames = held.frames.makeAsyncIterator()
            let first = try #require(await frames.next())
            #expect(first.sequenceNumber >= 10, "the first frame after enabling is \(first.sequenceNumber)")
            await session.stop()
        }
    }

    @Test("Without discarding, frames queue until the pool runs out; the device's drops are reported as outOfBuffers")
    func outOfBuffers() async throws {
        let device = ScriptedDevice(poolCapacity: 4, frameBudget: 20)
        // A fixed exposure has no render gain: the outputs get the device's own buffers.
        try device.configure { $0.exposureMode = .custom(duration: 1.0 / 60, gain: 1) }
        let output = VideoDataOutput(alwaysDiscardsLateFrames: false)
        let session = try await makeSession(device, outputs: [output])
        let drops = output.drops()
        let delivered = try await withDeadline { () -> [UInt64] in
            var frames = output.frames.makeAsyncIterator()
            try await session.start()
            try await waitUntil { device.framesCaptured + device.framesLostForBuffers == 20 && output.statistics.totalDropped == 16 }
            #expect(output.framesWaiting == 4)
            #expect(device.buffersInUse == 4)
            var delivered: [UInt64] = []
            for _ in 0..<4 { delivered.append(try #require(await frames.next()).sequenceNumber) }
            device.allowFrames(5)
            for _ in 0..<5 { delivered.append(try #require(await frames.next()).sequenceNumber) }
            await session.stop()
            return delivered
        }
        #expect(delivered == [0, 1, 2, 3, 20, 21, 22, 23, 24])
        let statistics = output.statistics
        #expect(statistics.dropped(.outOfBuffers) == 16)
        #expect(statistics.dropped(.discontinuity) == 0, "the gap 4…19 is the device's reported drops, not a discontinuity")
        #expect(statistics.framesDelivered + statistics.totalDropped == device.framesCaptured + device.framesLostForBuffers)
        // 60 fps: seven intervals of one frame and the gap of seventeen.
        #expect(statistics.intervalCount == 8 && statistics.longIntervals == 1)
        #expect(abs(statistics.maximumInterval - 17.0 / 60) < 1e-12)
        #expect(abs(statistics.meanInterval - 24.0 / 60 / 8) < 1e-12)
        let reported = try await withDeadline {
            var iterator = drops.makeAsyncIterator()
            var reported: [DroppedFrame] = []
            for _ in 0..<16 { reported.append(try #require(await iterator.next())) }
            return reported
        }
        #expect(reported.allSatisfy { $0 == DroppedFrame(reason: .outOfBuffers, sequenceNumber: nil) })
        #expect(device.buffersInUse == 0)
    }

    @Test("Frames with a render gain become the session's own pictures: the device's buffers go back at once, and when the outputs hold every picture the frame is dropped as outOfBuffers")
    func renderedPictures() async throws {
        let device = ScriptedDevice(poolCapacity: 4, frameBudget: 10)
        let output = VideoDataOutput(alwaysDiscardsLateFrames: false)
        let session = try await makeSession(device, outputs: [output])
        let pictures = StreamRenderer.pictureCount
        try await withDeadline {
            var frames = output.frames.makeAsyncIterator()
            try await session.start()
            try await waitUntil { device.framesCaptured == 10 && output.statistics.totalDropped == 10 - pictures && device.buffersInUse == 0 }
            #expect(device.framesLostForBuffers == 0)
            #expect(output.framesWaiting == pictures)
            let first = try #require(await frames.next())
            #expect(first.sequenceNumber == 0)
            #expect(first.frame.buffer.format == device.activeFormat.pixelFormat)
            await session.stop()
        }
        #expect(output.statistics.dropped(.outOfBuffers) == 10 - pictures)
    }

    @Test("A handler gets every frame it does not miss in order, on its own task")
    func handlerOrder() async throws {
        let produced = 300
        let device = ScriptedDevice(poolCapacity: 6, frameBudget: produced)
        let output = VideoDataOutput()
        let received = Locked<[UInt64]>([])
        output.setHandler { frame in
            received.withLock { $0.append(frame.sequenceNumber) }
            await Task.yield()
        }
        let session = try await makeSession(device, outputs: [output])
        try await withDeadline {
            try await session.start()
            try await waitUntil {
                let statistics = output.statistics
                return statistics.framesDelivered + statistics.totalDropped == produced
            }
            await session.stop()
            // The handler records a frame just after taking it.
            try await waitUntil { received.withLock { $0.count } == output.statistics.framesDelivered }
        }
        output.setHandler(nil)
        let sequence = received.withLock { $0 }
        #expect(sequence.count == output.statistics.framesDelivered)
        #expect(zip(sequence, sequence.dropFirst()).allSatisfy { $0 < $1 }, "delivered out of order: \(sequence)")
        #expect(sequence.last == UInt64(produced - 1))
        #expect(output.statistics.totalDropped == output.statistics.dropped(.late))
    }

    @Test("Cancelling a consumer ends its loop, not the output")
    func cancelledConsumer() async throws {
        let device = ScriptedDevice(frameBudget: 0)
        let output = VideoDataOutput()
        let session = try await makeSession(device, outputs: [output])
        try await withDeadline {
            try await session.start()
            let consumer = Task {
                var frames = output.frames.makeAsyncIterator()
                return await frames.next()
            }
            consumer.cancel()
            #expect(await consumer.value == nil)
            device.allowFrames(1)
            var frames = output.frames.makeAsyncIterator()
            #expect(try #require(await frames.next()).sequenceNumber == 0)
            await session.stop()
        }
    }

    @Test("Every output gets each frame, with the same buffer and statistics")
    func sharedAnalysis() async throws {
        let device = ScriptedDevice(frameBudget: 1)
        let first = VideoDataOutput(), second = VideoDataOutput()
        let session = try await makeSession(device, outputs: [first, second])
        try await withDeadline {
            var a = first.frames.makeAsyncIterator(), b = second.frames.makeAsyncIterator()
            try await session.start()
            let frameA = try #require(await a.next()), frameB = try #require(await b.next())
            #expect(frameA.sequenceNumber == frameB.sequenceNumber)
            #expect(frameA.buffer === frameB.buffer)
            #expect(frameA.statistics.histogram.counts == frameB.statistics.histogram.counts)
            #expect(frameA.statistics.brightness == frameB.statistics.brightness && frameA.statistics.brightness > 0)
            await session.stop()
        }
    }
}
