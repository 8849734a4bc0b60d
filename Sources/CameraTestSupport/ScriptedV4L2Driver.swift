import CameraCore
import CameraSystem
import CameraV4L2

/// A V4L2 driver for tests, in the kernel's place: it answers every request as the kernel
/// documents, modelled on the vivid driver — YUYV, NV12, GREY and MJPEG (real JPEGs, encoded by
/// CameraCodecs) at 640x480 and 1280x720, 30 and 15 fps, the camera controls with UVC-like
/// ranges — and films a grey card whose level follows the exposure time and gain controls; in
/// its Bayer formats (`bayerFormats`) it sends a test pattern instead (`bayerSample`). Rows
/// may be padded (`rowPadding`), as drivers that align them do.
///
/// Tests read the requests made (`log`, one line each: "VIDIOC_S_CTRL gain=32") and inject the
/// faults a real camera has: any request failing with an errno (`fail`: EBUSY or EACCES on
/// open, EAGAIN on DQBUF, EINTR on poll), a frame the driver marks corrupt (`corruptNextFrame`)
/// or cut short (`truncateNextFrame`), frames held back so that poll blocks (`holdFrames`), and
/// the camera unplugged mid-stream (`unplug`: ENODEV) and back (`replug`).
public final class ScriptedV4L2Driver: V4L2Driver {
    /// The node that is the camera.
    public let path: String
    /// Nodes that open but are not video capture (a UVC camera's metadata node).
    public let metadataNodes: Set<String>
    /// The formats, as ENUM_FMT lists them.
    public let formats: [V4L2FormatDescription]
    /// The sizes of every format, as ENUM_FRAMESIZES lists them.
    public let frameSizes: [V4L2FrameSize]
    /// The frame intervals of every size, as ENUM_FRAMEINTERVALS lists them.
    public let frameIntervals: [V4L2FrameInterval]
    let device: Locked<ScriptedV4L2Device>
    /// Whether frames are held back, and the polls blocked meanwhile: a poll waits on it.
    let frameHold = Condition(FrameHold())
    /// One: the scripted camera renders each frame as DQBUF hands it out, with the values set by then.
    public var controlLatencyFrames: UInt64 { 1 }
    /// The stamp of the last frame handed out: the scripted camera renders no frame before DQBUF asks.
    public var clockMicroseconds: Int64 {
        device.withLock { $0.clockMicroseconds - 1_000_000 * Int64($0.interval.numerator) / Int64($0.interval.denominator) }
    }

    /// vivid's formats.
    public static let standardFormats = [
        V4L2FormatDescription(code: .yuyv, name: "YUYV 4:2:2"),
        V4L2FormatDescription(code: .nv12, name: "Y/UV 4:2:0"),
        V4L2FormatDescription(code: .grey, name: "8-bit Greyscale"),
        V4L2FormatDescription(code: .mjpeg, name: "Motion-JPEG", isCompressed: true),
    ]
    /// vivid's Bayer formats in RGGB order, unpacked: 8 bits, and 10, 12 and 16 in 16-bit words.
    public static let bayerFormats = [
        V4L2FormatDescription(code: .srggb8, name: "8-bit Bayer RGRG/GBGB"),
        V4L2FormatDescription(code: .srggb10, name: "10-bit Bayer RGRG/GBGB"),
        V4L2FormatDescription(code: .srggb12, name: "12-bit Bayer RGRG/GBGB"),
        V4L2FormatDescription(code: .srggb16, name: "16-bit Bayer RGRG/GBGB"),
    ]
    /// vivid's webcam sizes.
    public static let standardSizes = [PixelSize(width: 640, height: 480), PixelSize(width: 1280, height: 720)]
    /// vivid's webcam frame intervals: 30 and 15 fps.
    public static let standardIntervals = [V4L2Fraction(numerator: 1, denominator: 30), V4L2Fraction(numerator: 1, denominator: 15)]
    /// The controls, with the ranges of a UVC webcam: its `auto_exposure` menu lists manual and
    /// aperture priority only, as most do.
    public static let standardControls = [
        V4L2ControlRange(id: .exposureAuto, minimum: 0, maximum: 3, defaultValue: 3, menu: [1, 3]),
        V4L2ControlRange(id: .exposureTimeAbsolute, minimum: 3, maximum: 2047, defaultValue: 250),
        V4L2ControlRange(id: .gain, minimum: 0, maximum: 255, defaultValue: 0),
        V4L2ControlRange(id: .whiteBalanceTemperature, minimum: 2000, maximum: 6500, defaultValue: 4000),
        V4L2ControlRange(id: .whiteBalanceAutomatic, minimum: 0, maximum: 1, defaultValue: 1),
        V4L2ControlRange(id: .focusAbsolute, minimum: 0, maximum: 250, step: 5, defaultValue: 0),
        V4L2ControlRange(id: .focusAuto, minimum: 0, maximum: 1, defaultValue: 1),
        V4L2ControlRange(id: .zoomAbsolute, minimum: 100, maximum: 500, defaultValue: 100),
        V4L2ControlRange(id: .powerLineFrequency, minimum: 0, maximum: 2, defaultValue: 1, menu: [0, 1, 2]),
    ]

    /// The kernel's names for the entries of the menu controls.
    public static let menuNames: [V4L2ControlID: [String]] = [
        .exposureAuto: ["Auto Mode", "Manual Mode", "Shutter Priority Mode", "Aperture Priority Mode"],
        .powerLineFrequency: ["Disabled", "50 Hz", "60 Hz", "Auto"],
    ]

    /// A camera at `path` with `controls` (leave some out for a camera that lacks them) in
    /// `formats`, each in `frameSizes` (small ones let debug-build session tests analyse frames
    /// quickly) at `frameIntervals`, whose rows end in `rowPadding` bytes.
    public init(path: String = "/dev/video0", controls: [V4L2ControlRange] = ScriptedV4L2Driver.standardControls,
                formats: [V4L2FormatDescription] = ScriptedV4L2Driver.standardFormats,
                frameSizes: [V4L2FrameSize] = ScriptedV4L2Driver.standardSizes.map { .discrete($0) },
                frameIntervals: [V4L2FrameInterval] = ScriptedV4L2Driver.standardIntervals.map { .discrete($0) },
                metadataNodes: Set<String> = [], rowPadding: Int = 0) {
        precondition(!formats.isEmpty && !frameSizes.isEmpty && !frameIntervals.isEmpty,
                     "a scripted V4L2 camera needs a format, a frame size and a frame interval")
        self.path = path
        self.metadataNodes = metadataNodes
        self.formats = formats
        self.frameSizes = frameSizes
        self.frameIntervals = frameIntervals
        let size = frameSizes[0].nearest(to: PixelSize(width: 640, height: 480))
        let interval = frameIntervals[0].nearest(to: V4L2Fraction(numerator: 1, denominator: 30))
        device = Locked(ScriptedV4L2Device(controls: controls, code: formats[0].code, size: size, interval: interval, rowPadding: rowPadding))
    }

    // MARK: Script

    /// Makes the next `times` requests of `request` fail with `errno`, in the order scripted.
    public func fail(_ request: V4L2Request, with errno: Errno, times: Int = 1) {
        device.withLock { $0.failures.append((request, errno, times)) }
    }

    /// Marks the next frame dequeued as corrupt (`V4L2_BUF_FLAG_ERROR`).
    public func corruptNextFrame() {
        device.withLock { $0.corruptNextFrame = true }
    }

    /// Cuts the next frame dequeued to its first `byteCount` bytes (0: an empty buffer), without
    /// the error flag, as a transfer that ended early leaves it.
    public func truncateNextFrame(to byteCount: Int) {
        device.withLock { $0.truncateNextFrame = byteCount }
    }

    /// Holds frames back: a poll blocks, as it does until a frame comes, until `releaseFrames()`.
    public func holdFrames() {
        frameHold.withLock { $0.isHeld = true }
    }

    /// Lets frames come again, and every blocked poll return.
    public func releaseFrames() {
        frameHold.withLock { $0.isHeld = false }
    }

    /// Unplugs the camera: open nodes answer ENODEV (poll reports an error), the path is gone (ENOENT).
    public func unplug() {
        device.withLock { $0.unplug() }
    }

    /// Plugs the camera back in: the path opens again.
    public func replug() {
        device.withLock { $0.isPresent = true }
    }

    // MARK: Observation

    /// Every request made, in order, failed ones included: "open /dev/video0", "VIDIOC_QUERYCAP", "mmap 0", "close".
    public var log: [String] { device.withLock { $0.log } }

    /// Forgets the requests logged so far.
    public func clearLog() {
        device.withLock { $0.log.removeAll() }
    }

    /// A control's current value.
    public func value(of id: V4L2ControlID) -> Int32? {
        device.withLock { $0.values[id] }
    }

    /// Polls blocked while frames are held back.
    public var blockedPolls: Int { frameHold.withLock { $0.blockedPolls } }

    /// Frames handed out by DQBUF since the driver was made.
    public var framesDelivered: Int { device.withLock { $0.framesDelivered } }

    /// Whether the capture queue is streaming.
    public var isStreaming: Bool { device.withLock { $0.isStreaming } }

    /// The luma of the grey card at `exposureUnits` of 100 µs and `gain` (0…255, linear from ×1
    /// to ×16): video range, mid-grey (0.18 linear) at 25 ms and gain 0, clipping at white.
    public static func luma(exposureUnits: Int32, gain: Int32) -> UInt8 {
        let linear = 0.18 * (Double(exposureUnits) / 250) * (1 + Double(gain) / 255 * 15)
        return UInt8(16 + (219 * min(linear, 1)).rounded())
    }

    /// The Bayer test pattern's sample at (`x`, `y`) in a frame of `significantBits`: a ramp,
    /// wrapped at the bit depth, that differs between neighbours across and down and sets every
    /// bit somewhere, so that a copy which shifts rows, takes their padding or loses bits shows.
    public static func bayerSample(x: Int, y: Int, significantBits: Int) -> UInt16 {
        UInt16((x * 7 + y * 131) & ((1 << significantBits) - 1))
    }

    // MARK: V4L2Driver

    public func open(_ path: String) throws(SystemCallError) -> any V4L2Node {
        try device.withLock { (device) throws(SystemCallError) in
            try device.attempt(.open, "open \(path)", path: path)
            guard device.isPresent, path == self.path || metadataNodes.contains(path) else {
                throw SystemCallError(operation: V4L2Request.open.operation, path: path, errno: .noSuchFileOrDirectory)
            }
        }
        return ScriptedV4L2Node(driver: self, path: path, isCapture: path == self.path)
    }
}
