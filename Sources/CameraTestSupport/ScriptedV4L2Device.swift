import CameraCodecs
import CameraCore
import CameraSystem
import CameraV4L2

/// Frames held back by `ScriptedV4L2Driver.holdFrames()`, and the polls blocked until they come.
struct FrameHold {
    var isHeld = false
    var blockedPolls = 0
}

/// The state of the camera behind `ScriptedV4L2Driver`, shared by its open nodes as a device's
/// state is in the kernel: format, controls, buffers and their queue, the requests logged and
/// the faults scripted.
struct ScriptedV4L2Device: @unchecked Sendable {
    // @unchecked for the buffers' raw memory: the device lives behind the driver's lock, and the
    // camera reads a buffer only after DQBUF has filled it and handed it out.
    var controls: [V4L2ControlID: V4L2ControlRange]
    var values: [V4L2ControlID: Int32]
    var failures: [(request: V4L2Request, errno: Errno, remaining: Int)] = []
    var log: [String] = []
    /// Whether the camera is plugged in; `connection` counts the plug-ins, so a node opened
    /// before an unplug stays dead after the replug.
    var isPresent = true
    var connection = 0
    /// Bytes after each row's pixels, as drivers whose rows are aligned have.
    let rowPadding: Int
    var format: V4L2ImageFormat
    var interval: V4L2Fraction
    /// The driver's buffers, allocated by REQBUFS for the node that owns them.
    var buffers: [UnsafeMutableRawBufferPointer] = []
    var bufferOwner: ObjectIdentifier?
    var queued: [Int] = []
    var isStreaming = false
    var sequence: UInt32 = 0
    /// The monotonic clock frames are stamped with: it advances a frame interval per frame and
    /// goes on across streams, as the kernel's does.
    var clockMicroseconds: Int64 = 0
    var framesDelivered = 0
    var corruptNextFrame = false
    /// The bytes the next frame is cut to, as a USB transfer that lost its end leaves it.
    var truncateNextFrame: Int?
    /// The last MJPEG frame encoded, kept while the card's level and the size stay.
    private var jpeg: (luma: UInt8, size: PixelSize, bytes: [UInt8])?

    /// The byte a row's padding holds, so that a copy taking it shows.
    static let paddingByte: UInt8 = 0xEE

    init(controls: [V4L2ControlRange], code: FourCC, size: PixelSize, interval: V4L2Fraction, rowPadding: Int) {
        self.interval = interval
        self.controls = Dictionary(uniqueKeysWithValues: controls.map { ($0.id, $0) })
        values = self.controls.mapValues(\.defaultValue)
        self.rowPadding = rowPadding
        format = Self.imageFormat(size, code, rowPadding: rowPadding)
    }

    /// Logs `line` and throws the failure scripted for `request`, if any.
    mutating func attempt(_ request: V4L2Request, _ line: String, path: String) throws(SystemCallError) {
        log.append(line)
        guard let index = failures.firstIndex(where: { $0.request == request && $0.remaining > 0 }) else { return }
        failures[index].remaining -= 1
        throw SystemCallError(operation: request.operation, path: path, errno: failures[index].errno)
    }

    /// The error a request answers with `errno`.
    func error(_ request: V4L2Request, _ errno: Errno, path: String) -> SystemCallError {
        SystemCallError(operation: request.operation, path: path, errno: errno)
    }

    mutating func unplug() {
        isPresent = false
        connection += 1
        isStreaming = false
        queued.removeAll()
    }

    /// Frees the buffers and stops the stream, as closing the node that owns them does.
    mutating func releaseBuffers() {
        for buffer in buffers { buffer.deallocate() }
        buffers.removeAll()
        queued.removeAll()
        isStreaming = false
        bufferOwner = nil
    }

    /// The offset QUERYBUF gives buffer `index` to map it at: buffers lie a page-rounded frame apart.
    func offset(of index: Int) -> Int64 {
        Int64(index * ((format.imageByteCount + 4095) / 4096 * 4096))
    }

    /// The answer S_FMT gives for `size` in `code`: rows of the pixels and `rowPadding` bytes
    /// (NV12's chroma rows as long as its luma rows); MJPEG, compressed, has no rows and room
    /// for any JPEG of the size, as UVC's `sizeimage` gives.
    static func imageFormat(_ size: PixelSize, _ code: FourCC, rowPadding: Int) -> V4L2ImageFormat {
        guard !code.isJPEG else {
            return V4L2ImageFormat(size: size, code: code, bytesPerLine: 0, imageByteCount: size.width * size.height * 2)
        }
        let bytesPerLine = size.width * code.bytesPerPixel + rowPadding
        let rows = code == .nv12 ? size.height * 3 / 2 : size.height
        return V4L2ImageFormat(size: size, code: code, bytesPerLine: bytesPerLine, imageByteCount: bytesPerLine * rows)
    }

    /// Fills buffer `index` with a frame of the grey card as the exposure and gain now make it,
    /// and returns the bytes it used, cut as `truncateNextFrame` asks: luma, chroma at 128
    /// (grey), the padding at `paddingByte`; for MJPEG a 4:2:0 JPEG whose every channel is the luma.
    mutating func render(into index: Int) -> Int {
        let luma = ScriptedV4L2Driver.luma(exposureUnits: values[.exposureTimeAbsolute] ?? 250, gain: values[.gain] ?? 0)
        let bytes = buffers[index]
        let used = format.code.isJPEG ? renderJPEG(luma, into: bytes) : renderRows(luma, into: bytes)
        defer { truncateNextFrame = nil }
        return min(used, truncateNextFrame ?? used)
    }

    /// A JPEG of the card at `luma`, encoded by CameraCodecs when the level or size changed.
    private mutating func renderJPEG(_ luma: UInt8, into bytes: UnsafeMutableRawBufferPointer) -> Int {
        if jpeg?.luma != luma || jpeg?.size != format.size {
            let card = try! PixelBuffer(format: .bgra8, width: format.size.width, height: format.size.height)
            card.baseAddress(plane: 0).initializeMemory(as: UInt8.self, repeating: luma, count: card.planes[0].bytesPerRow * card.height)
            jpeg = (luma, format.size, try! JPEGEncoder().encode(card, quality: 90))
        }
        let encoded = jpeg!.bytes
        precondition(encoded.count <= bytes.count, "a \(encoded.count)-byte JPEG does not fit the \(bytes.count)-byte buffer")
        encoded.withUnsafeBytes { bytes.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return encoded.count
    }

    /// Rows of YUYV, NV12 or GREY, or Bayer's test pattern; returns the whole frame's bytes.
    private func renderRows(_ luma: UInt8, into bytes: UnsafeMutableRawBufferPointer) -> Int {
        bytes.initializeMemory(as: UInt8.self, repeating: Self.paddingByte)
        let (width, height, bytesPerLine) = (format.size.width, format.size.height, format.bytesPerLine)
        if case .bayer16(_, let bits) = format.code.pixelFormat {
            for y in 0..<height {
                let row = (0..<width).flatMap { x in
                    let sample = ScriptedV4L2Driver.bayerSample(x: x, y: y, significantBits: bits)
                    return bits == 8 ? [UInt8(sample)] : [UInt8(truncatingIfNeeded: sample), UInt8(sample >> 8)]
                }
                row.withUnsafeBytes { (bytes.baseAddress! + y * bytesPerLine).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            }
            return format.imageByteCount
        }
        func fillRows(_ rows: Range<Int>, _ row: [UInt8]) {
            row.withUnsafeBytes { row in
                for index in rows { (bytes.baseAddress! + index * bytesPerLine).copyMemory(from: row.baseAddress!, byteCount: row.count) }
            }
        }
        switch format.code {
        case .yuyv: fillRows(0..<height, (0..<(width / 2)).flatMap { _ in [luma, 128, luma, 128] })
        case .nv12:
            fillRows(0..<height, [UInt8](repeating: luma, count: width))
            fillRows(height..<(height * 3 / 2), [UInt8](repeating: 128, count: width))
        default: fillRows(0..<height, [UInt8](repeating: luma, count: width))
        }
        return format.imageByteCount
    }
}
