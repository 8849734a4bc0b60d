import CameraCore
import CameraSystem
import CameraV4L2

/// An open node of `ScriptedV4L2Driver`: each request is logged, may fail as scripted, fails
/// with ENODEV once the camera is unplugged, and otherwise answers as the kernel would.
final class ScriptedV4L2Node: V4L2Node {
    let driver: ScriptedV4L2Driver
    let path: String
    /// Whether this is the camera's capture node (else a metadata node).
    let isCapture: Bool
    private let connection: Int

    init(driver: ScriptedV4L2Driver, path: String, isCapture: Bool) {
        self.driver = driver
        self.path = path
        self.isCapture = isCapture
        connection = driver.device.withLock { $0.connection }
    }

    deinit {
        let identifier = ObjectIdentifier(self)
        driver.device.withLock { device in
            device.log.append("close")
            if device.bufferOwner == identifier { device.releaseBuffers() }
        }
    }

    /// Runs `answer` on the device after logging `line`, throwing a scripted failure or ENODEV first.
    private func request<Answer>(_ request: V4L2Request, _ line: String,
                                 _ answer: (inout ScriptedV4L2Device) throws(SystemCallError) -> Answer) throws(SystemCallError) -> Answer {
        try driver.device.withLock { (device) throws(SystemCallError) -> Answer in
            try device.attempt(request, line, path: path)
            guard device.isPresent, device.connection == connection else { throw device.error(request, .noDevice, path: path) }
            return try answer(&device)
        }
    }

    func queryCapabilities() throws(SystemCallError) -> V4L2Capabilities {
        let metadataCapture = V4L2Capabilities.Flags(rawValue: 0x0080_0000)
        return try request(.queryCapabilities, "VIDIOC_QUERYCAP") { _ in
            V4L2Capabilities(driver: "vivid", card: "Scripted vivid camera", busInfo: "platform:vivid-000",
                             flags: isCapture ? [.videoCapture, .streaming] : [metadataCapture, .streaming])
        }
    }

    func formatDescription(at index: Int) throws(SystemCallError) -> V4L2FormatDescription {
        try request(.enumerateFormat, "VIDIOC_ENUM_FMT \(index)") { (device) throws(SystemCallError) in
            guard driver.formats.indices.contains(index) else { throw device.error(.enumerateFormat, .invalidArgument, path: path) }
            return driver.formats[index]
        }
    }

    func frameSize(at index: Int, of code: FourCC) throws(SystemCallError) -> V4L2FrameSize {
        try request(.enumerateFrameSizes, "VIDIOC_ENUM_FRAMESIZES \(code) \(index)") { (device) throws(SystemCallError) in
            guard offers(code), driver.frameSizes.indices.contains(index) else {
                throw device.error(.enumerateFrameSizes, .invalidArgument, path: path)
            }
            return driver.frameSizes[index]
        }
    }

    func frameInterval(at index: Int, of code: FourCC, size: PixelSize) throws(SystemCallError) -> V4L2FrameInterval {
        try request(.enumerateFrameIntervals, "VIDIOC_ENUM_FRAMEINTERVALS \(code) \(size) \(index)") { (device) throws(SystemCallError) in
            guard offers(code), driver.frameSizes.contains(where: { $0.accepts(size) }), driver.frameIntervals.indices.contains(index) else {
                throw device.error(.enumerateFrameIntervals, .invalidArgument, path: path)
            }
            return driver.frameIntervals[index]
        }
    }

    /// Takes the nearest size it lists and, for a code it lacks, its first: S_FMT adjusts rather than refuses.
    func setFormat(_ format: V4L2ImageFormat) throws(SystemCallError) -> V4L2ImageFormat {
        try request(.setFormat, "VIDIOC_S_FMT \(format.size) \(format.code)") { (device) throws(SystemCallError) in
            guard device.buffers.isEmpty else { throw device.error(.setFormat, .busy, path: path) }
            let size = driver.frameSizes.map { $0.nearest(to: format.size) }
                .min { abs($0.pixelCount - format.size.pixelCount) < abs($1.pixelCount - format.size.pixelCount) }!
            let code = offers(format.code) ? format.code : driver.formats[0].code
            device.format = ScriptedV4L2Device.imageFormat(size, code, rowPadding: device.rowPadding)
            return device.format
        }
    }

    /// Takes the nearest interval it lists.
    func setFrameInterval(_ interval: V4L2Fraction) throws(SystemCallError) -> V4L2Fraction {
        try request(.setStreamParameters, "VIDIOC_S_PARM \(interval)") { device in
            device.interval = driver.frameIntervals.map { $0.nearest(to: interval) }
                .min { abs($0.frameRate - interval.frameRate) < abs($1.frameRate - interval.frameRate) }!
            return device.interval
        }
    }

    /// Allocates 2 to 8 buffers (none for 0); EBUSY while streaming or while another node owns buffers.
    func requestBuffers(_ count: Int) throws(SystemCallError) -> Int {
        try request(.requestBuffers, "VIDIOC_REQBUFS \(count)") { (device) throws(SystemCallError) in
            guard !device.isStreaming, device.bufferOwner == nil || device.bufferOwner == ObjectIdentifier(self) else {
                throw device.error(.requestBuffers, .busy, path: path)
            }
            device.releaseBuffers()
            guard count > 0 else { return 0 }
            let length = device.format.imageByteCount
            device.buffers = (0..<min(max(count, 2), 8)).map { _ in .allocate(byteCount: length, alignment: 64) }
            device.bufferOwner = ObjectIdentifier(self)
            return device.buffers.count
        }
    }

    func queryBuffer(_ index: Int) throws(SystemCallError) -> V4L2BufferLocation {
        try request(.queryBuffer, "VIDIOC_QUERYBUF \(index)") { (device) throws(SystemCallError) in
            guard device.buffers.indices.contains(index) else { throw device.error(.queryBuffer, .invalidArgument, path: path) }
            return V4L2BufferLocation(index: index, offset: device.offset(of: index), length: device.buffers[index].count)
        }
    }

    func map(_ buffer: V4L2BufferLocation) throws(SystemCallError) -> any V4L2MappedBuffer {
        try request(.mmap, "mmap \(buffer.index)") { (device) throws(SystemCallError) in
            guard let index = device.buffers.indices.first(where: { device.offset(of: $0) == buffer.offset }) else {
                throw device.error(.mmap, .invalidArgument, path: path)
            }
            return ScriptedV4L2Mapping(node: self, index: index, bytes: device.buffers[index])
        }
    }

    func queueBuffer(_ index: Int) throws(SystemCallError) {
        try request(.queueBuffer, "VIDIOC_QBUF \(index)") { (device) throws(SystemCallError) in
            guard device.buffers.indices.contains(index), !device.queued.contains(index) else {
                throw device.error(.queueBuffer, .invalidArgument, path: path)
            }
            device.queued.append(index)
        }
    }

    /// The oldest queued buffer, filled with a frame; EAGAIN when none is queued, EINVAL when not streaming.
    func dequeueBuffer() throws(SystemCallError) -> V4L2FilledBuffer {
        try request(.dequeueBuffer, "VIDIOC_DQBUF") { (device) throws(SystemCallError) in
            guard device.isStreaming else { throw device.error(.dequeueBuffer, .invalidArgument, path: path) }
            guard !device.queued.isEmpty else { throw device.error(.dequeueBuffer, .wouldBlock, path: path) }
            let index = device.queued.removeFirst()
            let bytesUsed = device.render(into: index)
            let sequence = device.sequence
            device.sequence += 1
            let corrupt = device.corruptNextFrame
            device.corruptNextFrame = false
            let timestamp = device.clockMicroseconds
            device.clockMicroseconds += 1_000_000 * Int64(device.interval.numerator) / Int64(device.interval.denominator)
            device.framesDelivered += 1
            return V4L2FilledBuffer(index: index, bytesUsed: bytesUsed, sequence: sequence,
                                    timestampMicroseconds: timestamp, hasError: corrupt)
        }
    }

    func streamOn() throws(SystemCallError) {
        try request(.streamOn, "VIDIOC_STREAMON") { (device) throws(SystemCallError) in
            guard !device.buffers.isEmpty else { throw device.error(.streamOn, .invalidArgument, path: path) }
            device.isStreaming = true
            device.sequence = 0
        }
    }

    func streamOff() throws(SystemCallError) {
        try request(.streamOff, "VIDIOC_STREAMOFF") { device in
            device.isStreaming = false
            device.queued.removeAll()
        }
    }

    /// Readable while a queued buffer can be filled; an error when not streaming or unplugged
    /// (poll itself does not fail then, as in the kernel). Blocks while frames are held back.
    func poll(timeoutMilliseconds: Int32) throws(SystemCallError) -> PollEvents {
        var isBlocked = false
        driver.frameHold.wait { (hold) -> Condition<FrameHold>.Step<Void> in
            if hold.isHeld {
                if !isBlocked { hold.blockedPolls += 1 }
                isBlocked = true
                return .waitForChange(until: nil)
            }
            if isBlocked { hold.blockedPolls -= 1 }
            return .done(())
        }
        return try driver.device.withLock { (device) throws(SystemCallError) -> PollEvents in
            try device.attempt(.poll, "poll", path: path)
            guard device.isPresent, device.connection == connection else { return [.error, .hangUp] }
            guard device.isStreaming else { return .error }
            return device.queued.isEmpty ? [] : .readable
        }
    }

    /// The control's range; a menu's entries are left for QUERYMENU, as the kernel's answer has none.
    func queryControl(_ id: V4L2ControlID) throws(SystemCallError) -> V4L2ControlRange {
        try request(.queryControl, "VIDIOC_QUERYCTRL \(id)") { (device) throws(SystemCallError) in
            guard var range = device.controls[id] else { throw device.error(.queryControl, .invalidArgument, path: path) }
            if range.menu != nil { range.menu = [] }
            return range
        }
    }

    /// The kernel's name of a listed menu entry; EINVAL for one the menu leaves out or a control that is no menu.
    func menuEntry(_ id: V4L2ControlID, at index: Int32) throws(SystemCallError) -> String {
        try request(.queryMenu, "VIDIOC_QUERYMENU \(id) \(index)") { (device) throws(SystemCallError) in
            guard device.controls[id]?.menu?.contains(index) == true, let names = ScriptedV4L2Driver.menuNames[id],
                  names.indices.contains(Int(index)) else {
                throw device.error(.queryMenu, .invalidArgument, path: path)
            }
            return names[Int(index)]
        }
    }

    func control(_ id: V4L2ControlID) throws(SystemCallError) -> Int32 {
        try request(.getControl, "VIDIOC_G_CTRL \(id)") { (device) throws(SystemCallError) in
            guard let value = device.values[id] else { throw device.error(.getControl, .invalidArgument, path: path) }
            return value
        }
    }

    /// EINVAL for a control it lacks, ERANGE for a value outside the control's range.
    func setControl(_ id: V4L2ControlID, to value: Int32) throws(SystemCallError) {
        try request(.setControl, "VIDIOC_S_CTRL \(id)=\(value)") { (device) throws(SystemCallError) in
            guard let range = device.controls[id] else { throw device.error(.setControl, .invalidArgument, path: path) }
            guard value >= range.minimum, value <= range.maximum else { throw device.error(.setControl, .outOfRange, path: path) }
            device.values[id] = value
        }
    }

    private func offers(_ code: FourCC) -> Bool {
        driver.formats.contains { $0.code == code }
    }
}

/// A buffer of a `ScriptedV4L2Node` as the camera maps it; logs its munmap when released, and
/// holds its node as a kernel mapping holds its file open.
final class ScriptedV4L2Mapping: V4L2MappedBuffer, @unchecked Sendable {
    // @unchecked: `bytes` never changes; the driver writes the memory in DQBUF, under the device's
    // lock, before it hands the buffer out, and the camera reads it only after that.
    let node: ScriptedV4L2Node
    let index: Int
    let bytes: UnsafeMutableRawBufferPointer

    init(node: ScriptedV4L2Node, index: Int, bytes: UnsafeMutableRawBufferPointer) {
        self.node = node
        self.index = index
        self.bytes = bytes
    }

    deinit {
        let index = index
        node.driver.device.withLock { $0.log.append("munmap \(index)") }
    }
}
