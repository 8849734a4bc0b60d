import CameraCapture
import CameraCodecs
import CameraCore
import CameraSystem

/// One stream of a V4L2 node, from open to close, opened as a straight run of small steps and
/// closed by one path — by `close()` when the camera stops, and on every failure on the way:
///
/// ```
///  open ─► QUERYCAP ─► S_FMT ─► S_PARM ─► S_CTRL (manual modes, driven values) ─► G_CTRL (the rest)
///       ─► REQBUFS ─► QUERYBUF + mmap (each buffer) ─► QBUF (each) ─► STREAMON
///  close: STREAMOFF ─► munmap (each buffer) ─► close
/// ```
///
/// Frames are read on the stream's one reader thread (`V4L2FrameReader`), started after
/// STREAMON and stopped by close. The node and its mapped buffers live behind a lock; waiting for
/// a frame (poll) happens outside it, taking one (DQBUF, copy, QBUF) inside.
final class V4L2Stream: Sendable {
    /// A frame copied out of the driver's buffer, with that buffer's facts.
    struct TakenFrame: Sendable {
        var buffer: PixelBuffer
        var filled: V4L2FilledBuffer
    }

    /// What a stream is opened with.
    struct Plan {
        var format: DeviceFormat
        /// The code the node delivers `format` in.
        var code: FourCC
        var frameRate: Double
        /// Values to set after the manual modes, e.g. the sensor controls the 3A engine asked for.
        var controls: [V4L2ControlID: Int32]
        var controlSet: V4L2ControlSet
        var bufferCount: Int
    }

    /// The node and its buffers while the stream is open, and the decoder of a JPEG stream.
    private struct Resources {
        var node: (any V4L2Node)?
        var buffers: [any V4L2MappedBuffer] = []
        var isStreaming = false
        var decoder: JPEGDecoder?

        /// Copies the frame in `bytes` into `buffer`, or decodes it when it is a JPEG; false when
        /// it is less than a whole frame or does not decode.
        func fill(_ buffer: PixelBuffer, from bytes: UnsafeRawBufferPointer, format: V4L2ImageFormat) -> Bool {
            guard let decoder else { return V4L2FrameCopy.copy(bytes, format: format, into: buffer) }
            return (try? decoder.decode(bytes, into: buffer)) != nil
        }

        /// STREAMOFF when streaming, then munmap of each buffer in turn and REQBUFS 0, then close.
        /// REQBUFS 0 gives the buffers back at once: the reader thread's last poll may hold the
        /// node open a moment longer, and a new stream on the node must not find them taken.
        mutating func release() {
            if isStreaming, let node { _ = try? node.streamOff() }
            isStreaming = false
            let hadBuffers = !buffers.isEmpty
            while !buffers.isEmpty { buffers.removeFirst() }
            if hadBuffers, let node { _ = try? node.requestBuffers(0) }
            node = nil
        }
    }

    let path: String
    /// The format the driver delivers.
    let format: V4L2ImageFormat
    let pool: BufferPool
    /// The driven controls' values when the stream started.
    let initialControls: [V4L2ControlID: Int32]
    private let resources: Locked<Resources>
    private let reader = V4L2FrameReader()

    /// How long one poll(2) waits for a frame before the reader checks that one is still wanted.
    static let pollTimeoutMilliseconds: Int32 = 1000

    private init(path: String, format: V4L2ImageFormat, pool: BufferPool, initialControls: [V4L2ControlID: Int32],
                 resources: consuming sending Resources) {
        self.path = path
        self.format = format
        self.pool = pool
        self.initialControls = initialControls
        self.resources = Locked(resources)
    }

    // MARK: Opening

    /// Opens `path` with `driver` and starts streaming as `plan` says.
    static func open(_ path: String, driver: any V4L2Driver, plan: Plan) throws(CaptureError) -> V4L2Stream {
        var resources = Resources()
        do throws(CaptureError) {
            let node = try kernel { () throws(SystemCallError) in try driver.open(path) }
            resources.node = node
            try requireStreamingCapture(node)
            let format = try setFormat(plan.format, code: plan.code, on: node)
            let pool = try makePool(plan.format, bufferCount: plan.bufferCount, path: path)
            resources.decoder = try makeDecoder(for: plan.code, path: path)
            _ = try kernel { () throws(SystemCallError) in try node.setFrameInterval(V4L2Fraction(frameRate: plan.frameRate)) }
            let controls = try setControls(plan, on: node)
            resources.buffers = try mapBuffers(plan.bufferCount, of: node)
            try queueAll(resources.buffers.count, on: node)
            try kernel { () throws(SystemCallError) in try node.streamOn() }
            resources.isStreaming = true
            let stream = V4L2Stream(path: path, format: format, pool: pool, initialControls: controls, resources: resources)
            let threadName = "v4l2:" + (path.split(separator: "/").last.map(String.init) ?? path)
            stream.reader.start(name: threadName) { [weak stream] isWanted in stream?.read(while: isWanted) }
            return stream
        } catch {
            resources.release()
            throw error
        }
    }

    /// QUERYCAP: the node must capture video with streaming I/O.
    @discardableResult
    static func requireStreamingCapture(_ node: any V4L2Node) throws(CaptureError) -> V4L2Capabilities {
        let capabilities: V4L2Capabilities
        do {
            capabilities = try node.queryCapabilities()
        } catch where error.errno == .inappropriateControl {
            // ENOTTY: the file answers no V4L2 request at all.
            throw .invalidConfiguration("\(node.path) is not a video device (it answers no V4L2 request) — give a camera's node, "
                + "e.g. v4l2:/dev/video0; camerasun devices lists them")
        } catch {
            throw .v4l2(error)
        }
        guard capabilities.isStreamingCapture else {
            throw .invalidConfiguration("\(node.path) (\(capabilities.card), driver \(capabilities.driver)) is not a video capture device "
                + "with streaming I/O — choose another /dev/video node")
        }
        return capabilities
    }

    /// S_FMT: the driver must take the size and code as asked, with rows long enough (a JPEG has none).
    private static func setFormat(_ wanted: DeviceFormat, code: FourCC, on node: any V4L2Node) throws(CaptureError) -> V4L2ImageFormat {
        let answer = try kernel { () throws(SystemCallError) in try node.setFormat(V4L2ImageFormat(size: wanted.size, code: code)) }
        let rowLength = wanted.size.width * code.bytesPerPixel
        guard answer.size == wanted.size, answer.code == code, answer.bytesPerLine >= rowLength else {
            throw .invalidConfiguration("\(node.path) offers \(wanted.size) \(code) but set \(answer.size) \(answer.code) "
                + "with rows of \(answer.bytesPerLine) bytes — choose another of its formats")
        }
        return answer
    }

    /// S_CTRL of the manual modes, then of the planned values; G_CTRL of the other driven
    /// controls and of those the driver refused, so that frame metadata tells their values from
    /// the first frame. Returns them. A refused control stays as the camera has it.
    private static func setControls(_ plan: Plan, on node: any V4L2Node) throws(CaptureError) -> [V4L2ControlID: Int32] {
        for (id, value) in plan.controlSet.manualModes {
            _ = try unlessRefused { () throws(SystemCallError) in try node.setControl(id, to: value) }
        }
        var values: [V4L2ControlID: Int32] = [:]
        for id in plan.controlSet.driven {
            if let value = plan.controls[id], try unlessRefused({ () throws(SystemCallError) in try node.setControl(id, to: value) }) != nil {
                values[id] = value
            } else {
                values[id] = try unlessRefused { () throws(SystemCallError) in try node.control(id) }
            }
        }
        return values
    }

    /// REQBUFS, then QUERYBUF and mmap of each buffer the driver allocated.
    private static func mapBuffers(_ count: Int, of node: any V4L2Node) throws(CaptureError) -> [any V4L2MappedBuffer] {
        let allocated = try kernel { () throws(SystemCallError) in try node.requestBuffers(count) }
        guard allocated > 0 else {
            throw .deviceFailure(device: node.path,
                                 detail: "the driver allocated no buffers for \(count) requested — close other programs using it")
        }
        var buffers: [any V4L2MappedBuffer] = []
        for index in 0..<allocated {
            let location = try kernel { () throws(SystemCallError) in try node.queryBuffer(index) }
            buffers.append(try kernel { () throws(SystemCallError) in try node.map(location) })
        }
        return buffers
    }

    /// QBUF of every buffer, so that the driver can fill them.
    private static func queueAll(_ count: Int, on node: any V4L2Node) throws(CaptureError) {
        for index in 0..<count {
            try kernel { () throws(SystemCallError) in try node.queueBuffer(index) }
        }
    }

    private static func makePool(_ format: DeviceFormat, bufferCount: Int, path: String) throws(CaptureError) -> BufferPool {
        do {
            return try BufferPool(format: format.pixelFormat, width: format.size.width, height: format.size.height, capacity: bufferCount)
        } catch {
            throw .invalidConfiguration("\(path): \(error)")
        }
    }

    /// libjpeg-turbo's decompressor for a JPEG code, else nil.
    private static func makeDecoder(for code: FourCC, path: String) throws(CaptureError) -> JPEGDecoder? {
        guard code.isJPEG else { return nil }
        do {
            return try JPEGDecoder()
        } catch {
            throw .deviceFailure(device: path, detail: error.description)
        }
    }

    // MARK: Streaming

    /// The next frame, read on the reader thread. Throws what reading it threw (`.frameDropped`,
    /// `.interrupted`), `CancellationError` at once when the task is cancelled, and
    /// `.streamNotStarted` once the stream is closed.
    func nextFrame() async throws -> TakenFrame {
        try await reader.next()
    }

    /// The reader thread's work for one waiting `nextFrame`: poll and take until a frame comes
    /// or a request fails, or nil once `isWanted` says nobody waits any more.
    private func read(while isWanted: () -> Bool) -> V4L2FrameReader.Delivery? {
        while isWanted() {
            do throws(CaptureError) {
                let events = try waitForFrame(timeoutMilliseconds: Self.pollTimeoutMilliseconds)
                guard !events.isEmpty, let frame = try takeFrame() else { continue }
                return .success(frame)
            } catch {
                return .failure(error)
            }
        }
        return nil
    }

    /// Waits up to `timeoutMilliseconds` for a frame (poll); empty on a timeout or a signal
    /// (EINTR: wait again). Blocks the reader thread.
    private func waitForFrame(timeoutMilliseconds: Int32) throws(CaptureError) -> PollEvents {
        guard let node = resources.withLock({ $0.node }) else { throw .streamNotStarted(path) }
        do throws(SystemCallError) {
            return try node.poll(timeoutMilliseconds: timeoutMilliseconds)
        } catch where error.errno == .interrupted {
            return []
        } catch {
            throw .v4l2(error)
        }
    }

    /// DQBUF, copy (or decode) into a pool buffer, QBUF: the next frame with the driver's buffer
    /// facts, or nil when none is ready yet (EAGAIN, EINTR: wait again). A frame the driver marks
    /// as corrupt, shorter than a whole frame or a JPEG that does not decode (truncated, empty)
    /// is given back and dropped (`.damaged`); a frame with no pool buffer free is given back and
    /// dropped (`.outOfBuffers`).
    private func takeFrame() throws(CaptureError) -> TakenFrame? {
        try resources.withLock { (resources) throws(CaptureError) -> TakenFrame? in
            guard let node = resources.node else { throw .streamNotStarted(path) }
            let filled: V4L2FilledBuffer
            do throws(SystemCallError) {
                filled = try node.dequeueBuffer()
            } catch where error.errno == .wouldBlock || error.errno == .interrupted {
                return nil
            } catch {
                throw .v4l2(error)
            }
            defer { _ = try? node.queueBuffer(filled.index) }
            guard !filled.hasError, resources.buffers.indices.contains(filled.index) else { throw .frameDropped(.damaged) }
            guard let buffer = try? pool.makeBuffer() else { throw .frameDropped(.outOfBuffers) }
            let bytes = UnsafeRawBufferPointer(rebasing: resources.buffers[filled.index].bytes.prefix(filled.bytesUsed))
            guard resources.fill(buffer, from: bytes, format: format) else { throw .frameDropped(.damaged) }
            return TakenFrame(buffer: buffer, filled: filled)
        }
    }

    /// S_CTRL on the open stream.
    func setControl(_ id: V4L2ControlID, to value: Int32) throws(CaptureError) {
        try resources.withLock { (resources) throws(CaptureError) in
            guard let node = resources.node else { throw .streamNotStarted(path) }
            try kernel { () throws(SystemCallError) in try node.setControl(id, to: value) }
        }
    }

    /// Stops the reader, then STREAMOFF, munmap of each buffer, close. Idempotent.
    func close() {
        reader.stop(failing: .streamNotStarted(path))
        resources.withLock { $0.release() }
    }

    /// A stream let go while open (its camera released) closes by the same path.
    deinit {
        close()
    }
}
