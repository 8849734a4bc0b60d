import CameraCore
import Testing

@Suite("BufferPool")
struct BufferPoolTests {
    @Test("Buffers from the pool have the pool's format, size and layout")
    func buffersMatchThePool() throws {
        let pool = try BufferPool(format: .nv12(.video), width: 100, height: 50, capacity: 2)
        let buffer = try pool.makeBuffer()
        let reference = try PixelBuffer(format: .nv12(.video), width: 100, height: 50)
        #expect(buffer.format == .nv12(.video))
        #expect(buffer.width == 100 && buffer.height == 50)
        #expect(buffer.planes == reference.planes)
        #expect(pool.format == .nv12(.video) && pool.width == 100 && pool.height == 50 && pool.capacity == 2)
    }

    @Test("A pool for an impossible size throws the pixel buffer error")
    func invalidPoolDimensions() {
        #expect(throws: PixelBufferError.self) {
            try BufferPool(format: .nv12(.video), width: 101, height: 50, capacity: 2)
        }
    }

    @Test("The pool hands out at most capacity buffers, then throws outOfBuffers", arguments: [1, 3, 8])
    func exhaustion(capacity: Int) throws {
        let pool = try BufferPool(format: .gray8, width: 16, height: 16, capacity: capacity)
        var held: [PixelBuffer] = []
        for taken in 1...capacity {
            held.append(try pool.makeBuffer())
            #expect(pool.buffersInUse == taken)
        }
        #expect(throws: BufferPoolError.outOfBuffers(capacity: capacity)) {
            try pool.makeBuffer()
        }
        // Refusing does not count as a buffer in use, and the pool keeps refusing: it never grows.
        #expect(pool.buffersInUse == capacity)
        #expect(throws: BufferPoolError.outOfBuffers(capacity: capacity)) {
            try pool.makeBuffer()
        }
        #expect(held.count == capacity)
    }

    @Test("outOfBuffers explains what happened and what to do")
    func outOfBuffersDescription() throws {
        let pool = try BufferPool(format: .bgra8, width: 8, height: 8, capacity: 3)
        let held = try (0..<3).map { _ in try pool.makeBuffer() }
        let error = try #require(throws: BufferPoolError.self) { try pool.makeBuffer() }
        #expect(error == .outOfBuffers(capacity: 3))
        #expect(error.description
            == "out of buffers: all 3 buffers of the pool are still in use — release frames sooner or drop late frames")
        #expect(held.count == 3)
    }

    @Test("Dropping the last reference to a buffer makes one available again")
    func releasingReturnsBuffer() throws {
        let pool = try BufferPool(format: .gray8, width: 16, height: 16, capacity: 2)
        var first: PixelBuffer? = try pool.makeBuffer()
        let second = try pool.makeBuffer()
        #expect(throws: BufferPoolError.self) { try pool.makeBuffer() }

        var extraReference = first
        first = nil
        #expect(pool.buffersInUse == 2)   // still referenced elsewhere
        #expect(extraReference != nil)
        extraReference = nil
        #expect(pool.buffersInUse == 1)

        let third = try pool.makeBuffer()
        #expect(pool.buffersInUse == 2)
        #expect(third !== second)
    }

    @Test("A returned buffer's memory is reused, not reallocated")
    func memoryIsReused() throws {
        let pool = try BufferPool(format: .bgra8, width: 32, height: 8, capacity: 2)
        var first: PixelBuffer? = try pool.makeBuffer()
        let second = try pool.makeBuffer()
        let firstAddress = try #require(first).baseAddress(plane: 0)
        first?[plane: 0, x: 5, y: 3] = 77
        first = nil

        let reused = try pool.makeBuffer()
        #expect(reused.baseAddress(plane: 0) == firstAddress)
        #expect(reused.baseAddress(plane: 0) != second.baseAddress(plane: 0))
        #expect(reused[plane: 0, x: 5, y: 3] == 77)   // documented: contents are not cleared
    }

    @Test("Buffers out at the same time have distinct memory")
    func simultaneousBuffersAreDistinct() throws {
        let pool = try BufferPool(format: .gray8, width: 64, height: 4, capacity: 5)
        var held = try (0..<5).map { _ in try pool.makeBuffer() }
        held.removeSubrange(1...2)
        held += try (0..<2).map { _ in try pool.makeBuffer() }
        let addresses = Set(held.map { Int(bitPattern: $0.baseAddress(plane: 0)) })
        #expect(addresses.count == 5)
        #expect(addresses.allSatisfy { $0 % 64 == 0 })
    }

    @Test("A copy of a pooled buffer does not hold a pool slot")
    func copiesAreNotPooled() throws {
        let pool = try BufferPool(format: .gray8, width: 8, height: 8, capacity: 1)
        var original: PixelBuffer? = try pool.makeBuffer()
        original?[plane: 0, x: 1, y: 1] = 9
        let copy = try #require(original?.copy())
        original = nil
        #expect(pool.buffersInUse == 0)
        #expect(copy[plane: 0, x: 1, y: 1] == 9)
        let next = try pool.makeBuffer()
        #expect(next.baseAddress(plane: 0) != copy.baseAddress(plane: 0))
    }

    @Test("A buffer held by a frame stays in use until the frame goes")
    func framesHoldBuffers() throws {
        let pool = try BufferPool(format: .gray8, width: 8, height: 8, capacity: 1)
        var frames: [Frame] = [Frame(buffer: try pool.makeBuffer(), presentationTime: .zero, sequenceNumber: 0,
                                     metadata: FrameMetadata(exposureDuration: MediaTime(value: 1, timescale: 100),
                                                             analogueGain: 1, baseISO: 50))]
        #expect(pool.buffersInUse == 1)
        #expect(throws: BufferPoolError.outOfBuffers(capacity: 1)) { try pool.makeBuffer() }
        frames.removeAll()
        #expect(pool.buffersInUse == 0)
        _ = try pool.makeBuffer()
    }

    @Test("Buffers outliving their pool object still return cleanly")
    func buffersOutlivePool() throws {
        var pool: BufferPool? = try BufferPool(format: .gray8, width: 8, height: 8, capacity: 2)
        var buffer: PixelBuffer? = try pool?.makeBuffer()
        pool = nil
        buffer?[plane: 0, x: 0, y: 0] = 1
        #expect(buffer?[plane: 0, x: 0, y: 0] == 1)
        buffer = nil
        #expect(buffer == nil)
    }

    @Test("Concurrent take and release from 8 tasks never exceeds capacity and ends with nothing in use")
    func concurrentHammering() async throws {
        let capacity = 4
        let pool = try BufferPool(format: .gray8, width: 64, height: 4, capacity: capacity)

        struct Tally: Sendable {
            var taken = 0
            var refused = 0
            var maxInUse = 0
            var corrupted = 0
        }

        let tallies = await withTaskGroup(of: Tally.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var tally = Tally()
                    let marker = UInt8(task + 1)
                    for iteration in 0..<1000 {
                        let buffer: PixelBuffer
                        do throws(BufferPoolError) {
                            buffer = try pool.makeBuffer()
                        } catch {
                            #expect(error == .outOfBuffers(capacity: capacity))
                            tally.refused += 1
                            tally.maxInUse = max(tally.maxInUse, pool.buffersInUse)
                            continue
                        }
                        tally.taken += 1
                        tally.maxInUse = max(tally.maxInUse, pool.buffersInUse)
                        // Nobody else may hold this memory while we do: fill it, let others run, check it.
                        buffer.withUnsafeMutableBytes(plane: 0) { _ = $0.initializeMemory(as: UInt8.self, repeating: marker) }
                        if iteration % 8 == 0 { await Task.yield() }
                        tally.maxInUse = max(tally.maxInUse, pool.buffersInUse)
                        let intact = buffer.withUnsafeBytes(plane: 0) { bytes in bytes.allSatisfy { $0 == marker } }
                        if !intact { tally.corrupted += 1 }
                    }
                    return tally
                }
            }
            var all: [Tally] = []
            for await tally in group { all.append(tally) }
            return all
        }

        let taken = tallies.reduce(0) { $0 + $1.taken }
        let refused = tallies.reduce(0) { $0 + $1.refused }
        let corrupted = tallies.reduce(0) { $0 + $1.corrupted }
        let maxInUse = tallies.reduce(0) { max($0, $1.maxInUse) }
        #expect(tallies.count == 8)
        #expect(taken + refused == 8000)
        #expect(taken >= 1000)
        #expect(maxInUse >= 1 && maxInUse <= capacity)
        #expect(corrupted == 0)
        #expect(pool.buffersInUse == 0)

        // Every slot came back: the pool can hand out its full capacity again.
        let held = try (0..<capacity).map { _ in try pool.makeBuffer() }
        // Held to the end: an optimized build may release an array after its last use.
        withExtendedLifetime(held) {
            #expect(Set(held.map { Int(bitPattern: $0.baseAddress(plane: 0)) }).count == capacity)
            #expect(throws: BufferPoolError.outOfBuffers(capacity: capacity)) { try pool.makeBuffer() }
        }
    }
}
