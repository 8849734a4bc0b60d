internal import CV4L2
import CameraCore
import CameraSystem

/// An open video node of the real kernel: each request fills the kernel's C struct, sends it
/// with one ioctl through CameraSystem and reads the answer back into CameraV4L2's Swift values.
final class KernelNode: V4L2Node {
    let descriptor: FileDescriptor
    var path: String { descriptor.path }

    init(_ descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    private static let captureType = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
    private static let mmapMemory = V4L2_MEMORY_MMAP.rawValue

    private func send<Argument>(_ request: UInt, _ argument: inout Argument, _ kind: V4L2Request) throws(SystemCallError) {
        try descriptor.control(request, &argument, operation: kind.operation)
    }

    func queryCapabilities() throws(SystemCallError) -> V4L2Capabilities {
        var answer = v4l2_capability()
        try send(cv4l2_querycap, &answer, .queryCapabilities)
        let perNode = answer.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0
        return V4L2Capabilities(driver: Self.text(answer.driver), card: Self.text(answer.card), busInfo: Self.text(answer.bus_info),
                                flags: V4L2Capabilities.Flags(rawValue: perNode ? answer.device_caps : answer.capabilities))
    }

    func formatDescription(at index: Int) throws(SystemCallError) -> V4L2FormatDescription {
        var answer = v4l2_fmtdesc()
        answer.index = UInt32(index)
        answer.type = Self.captureType
        try send(cv4l2_enum_fmt, &answer, .enumerateFormat)
        return V4L2FormatDescription(code: FourCC(rawValue: answer.pixelformat), name: Self.text(answer.description),
                                     isCompressed: answer.flags & UInt32(V4L2_FMT_FLAG_COMPRESSED) != 0)
    }

    func frameSize(at index: Int, of code: FourCC) throws(SystemCallError) -> V4L2FrameSize {
        var answer = v4l2_frmsizeenum()
        answer.index = UInt32(index)
        answer.pixel_format = code.rawValue
        try send(cv4l2_enum_framesizes, &answer, .enumerateFrameSizes)
        if answer.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
            return .discrete(PixelSize(width: Int(answer.discrete.width), height: Int(answer.discrete.height)))
        }
        let range = answer.stepwise
        return .stepwise(minimum: PixelSize(width: Int(range.min_width), height: Int(range.min_height)),
                         maximum: PixelSize(width: Int(range.max_width), height: Int(range.max_height)),
                         step: PixelSize(width: Int(range.step_width), height: Int(range.step_height)))
    }

    func frameInterval(at index: Int, of code: FourCC, size: PixelSize) throws(SystemCallError) -> V4L2FrameInterval {
        var answer = v4l2_frmivalenum()
        answer.index = UInt32(index)
        answer.pixel_format = code.rawValue
        answer.width = UInt32(size.width)
        answer.height = UInt32(size.height)
        try send(cv4l2_enum_frameintervals, &answer, .enumerateFrameIntervals)
        if answer.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue { return .discrete(Self.fraction(answer.discrete)) }
        let range = answer.stepwise
        return .stepwise(minimum: Self.fraction(range.min), maximum: Self.fraction(range.max), step: Self.fraction(range.step))
    }

    func setFormat(_ format: V4L2ImageFormat) throws(SystemCallError) -> V4L2ImageFormat {
        var request = v4l2_format()
        request.type = Self.captureType
        request.fmt.pix.width = UInt32(format.size.width)
        request.fmt.pix.height = UInt32(format.size.height)
        request.fmt.pix.pixelformat = format.code.rawValue
        request.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        request.fmt.pix.bytesperline = UInt32(format.bytesPerLine)
        try send(cv4l2_s_fmt, &request, .setFormat)
        let answer = request.fmt.pix
        return V4L2ImageFormat(size: PixelSize(width: Int(answer.width), height: Int(answer.height)), code: FourCC(rawValue: answer.pixelformat),
                               bytesPerLine: Int(answer.bytesperline), imageByteCount: Int(answer.sizeimage))
    }

    func setFrameInterval(_ interval: V4L2Fraction) throws(SystemCallError) -> V4L2Fraction {
        var request = v4l2_streamparm()
        request.type = Self.captureType
        request.parm.capture.timeperframe = v4l2_fract(numerator: interval.numerator, denominator: interval.denominator)
        try send(cv4l2_s_parm, &request, .setStreamParameters)
        return Self.fraction(request.parm.capture.timeperframe)
    }

    func requestBuffers(_ count: Int) throws(SystemCallError) -> Int {
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = Self.captureType
        request.memory = Self.mmapMemory
        try send(cv4l2_reqbufs, &request, .requestBuffers)
        return Int(request.count)
    }

    func queryBuffer(_ index: Int) throws(SystemCallError) -> V4L2BufferLocation {
        var buffer = Self.buffer(index)
        try send(cv4l2_querybuf, &buffer, .queryBuffer)
        return V4L2BufferLocation(index: index, offset: Int64(buffer.m.offset), length: Int(buffer.length))
    }

    func map(_ buffer: V4L2BufferLocation) throws(SystemCallError) -> any V4L2MappedBuffer {
        KernelMapping(region: try MappedRegion(descriptor, length: buffer.length, offset: buffer.offset), node: self)
    }

    func queueBuffer(_ index: Int) throws(SystemCallError) {
        var buffer = Self.buffer(index)
        try send(cv4l2_qbuf, &buffer, .queueBuffer)
    }

    func dequeueBuffer() throws(SystemCallError) -> V4L2FilledBuffer {
        var buffer = Self.buffer(0)
        try send(cv4l2_dqbuf, &buffer, .dequeueBuffer)
        return V4L2FilledBuffer(index: Int(buffer.index), bytesUsed: Int(buffer.bytesused), sequence: buffer.sequence,
                                timestampMicroseconds: Int64(buffer.timestamp.tv_sec) * 1_000_000 + Int64(buffer.timestamp.tv_usec),
                                hasError: buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0)
    }

    func streamOn() throws(SystemCallError) {
        var type = Int32(Self.captureType)
        try send(cv4l2_streamon, &type, .streamOn)
    }

    func streamOff() throws(SystemCallError) {
        var type = Int32(Self.captureType)
        try send(cv4l2_streamoff, &type, .streamOff)
    }

    func poll(timeoutMilliseconds: Int32) throws(SystemCallError) -> PollEvents {
        try descriptor.poll(for: .readable, timeoutMilliseconds: timeoutMilliseconds)
    }

    func queryControl(_ id: V4L2ControlID) throws(SystemCallError) -> V4L2ControlRange {
        var answer = v4l2_queryctrl()
        answer.id = id.rawValue
        try send(cv4l2_queryctrl, &answer, .queryControl)
        return V4L2ControlRange(id: id, minimum: answer.minimum, maximum: answer.maximum, step: answer.step,
                                defaultValue: answer.default_value, isDisabled: answer.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) != 0,
                                menu: answer.type == V4L2_CTRL_TYPE_MENU.rawValue ? [] : nil)
    }

    func menuEntry(_ id: V4L2ControlID, at index: Int32) throws(SystemCallError) -> String {
        var answer = v4l2_querymenu()
        answer.id = id.rawValue
        answer.index = UInt32(bitPattern: index)
        try send(cv4l2_querymenu, &answer, .queryMenu)
        return Self.text(answer.name)
    }

    func control(_ id: V4L2ControlID) throws(SystemCallError) -> Int32 {
        var control = v4l2_control(id: id.rawValue, value: 0)
        try send(cv4l2_g_ctrl, &control, .getControl)
        return control.value
    }

    func setControl(_ id: V4L2ControlID, to value: Int32) throws(SystemCallError) {
        var control = v4l2_control(id: id.rawValue, value: value)
        try send(cv4l2_s_ctrl, &control, .setControl)
    }

    /// A `v4l2_buffer` naming mmap buffer `index` of the capture queue.
    private static func buffer(_ index: Int) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = UInt32(index)
        buffer.type = captureType
        buffer.memory = mmapMemory
        return buffer
    }

    private static func fraction(_ value: v4l2_fract) -> V4L2Fraction {
        V4L2Fraction(numerator: value.numerator, denominator: value.denominator)
    }

    /// A NUL-terminated C string field (a tuple of bytes) as a String.
    private static func text<Bytes>(_ field: Bytes) -> String {
        withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// A buffer of a `KernelNode` mapped into memory: unmapped when released, and holding its node
/// so that the node closes only after its last buffer is unmapped.
final class KernelMapping: V4L2MappedBuffer {
    let region: MappedRegion
    let node: KernelNode

    init(region: MappedRegion, node: KernelNode) {
        self.region = region
        self.node = node
    }

    var bytes: UnsafeMutableRawBufferPointer { region.bytes }
}
