
/// A fixed number of same-sized pixel buffers, reused frame after frame.
///
/// A buffer handed out by `makeBuffer()` returns to the pool by itself when its last reference goes.
/// When every buffer is out, `makeBuffer()` throws `BufferPoolError.outOfBuffers` at once: the pool
/// never grows and never blocks, so a slow consumer costs dropped frames, not memory.
public final class BufferPool: Sendable {
    public let format: PixelFormat
    public let width: Int
    public let height: Int
    public let capacity: Int
    private let planes: [PixelBuffer.Plane]
    private let shelf: Shelf

    /// A pool of `capacity` buffers of `width`×`height` in `format`; memory is allocated lazily.
    public init(format: PixelFormat, width: Int, height: Int, capacity: Int) throws(PixelBufferError) {
        precondition(capacity > 0, "a buffer pool needs a capacity of at least 1")
        self.format = format
        self.width = width
        self.height = height
        self.capacity = capacity
        planes = try PixelBuffer.layout(format: format, width: width, height: height)
        shelf = Shelf(capacity: capacity)
    }

    /// A buffer from the pool (its previous contents are not cleared), or `.outOfBuffers` when
    /// all `capacity` buffers are in use.
    public func makeBuffer() throws(BufferPoolError) -> PixelBuffer {
        guard let reused = shelf.take() else { throw .outOfBuffers(capacity: capacity) }
        let storage = reused ?? PixelStorage(byteCount: PixelBuffer.byteCount(planes))
        let shelf = self.shelf
        return PixelBuffer(format: format, width: width, height: height, planes: planes,
                           storage: storage, recycle: { shelf.put($0) })
    }

    /// How many buffers are handed out and still referenced.
    public var buffersInUse: Int { shelf.inUse }

    /// The free buffers and the count of those handed out, behind a mutex.
    private final class Shelf: Sendable {
        private struct State {
            var free: [PixelStorage] = []
            var inUse = 0
        }

        private let capacity: Int
        private let state = Locked(State())

        init(capacity: Int) {
            self.capacity = capacity
        }

        var inUse: Int { state.withLock { $0.inUse } }

        /// nil when exhausted; `.some(nil)` when a new storage may be allocated.
        func take() -> PixelStorage?? {
            state.withLock { state in
                guard state.inUse < capacity else { return nil }
                state.inUse += 1
                return .some(state.free.popLast())
            }
        }

        func put(_ storage: PixelStorage) {
            state.withLock { state in
                state.inUse -= 1
                state.free.append(storage)
            }
        }
    }
}

/// Why a pool could not hand out a buffer.
public enum BufferPoolError: Error, Equatable, CustomStringConvertible {
    /// Every buffer is still referenced by a consumer.
    case outOfBuffers(capacity: Int)

    public var description: String {
        switch self {
        case .outOfBuffers(let capacity):
            "out of buffers: all \(capacity) buffers of the pool are still in use — release frames sooner or drop late frames"
        }
    }
}
