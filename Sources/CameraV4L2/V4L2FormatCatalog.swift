import CameraCapture
import CameraCore
import CameraSystem

/// The formats a node offers, as CameraSun's `DeviceFormat`s: every pixel format CameraSun can
/// take (VIDIOC_ENUM_FMT), in each size (VIDIOC_ENUM_FRAMESIZES), at each frame rate
/// (VIDIOC_ENUM_FRAMEINTERVALS), with the code each comes from. Codes CameraSun cannot take (H.264,
/// packed Bayer) are skipped, and so are sizes without a frame rate and a second code that becomes the
/// same buffer format (JPEG after MJPEG).
struct V4L2FormatCatalog: Sendable, Hashable {
    /// The node's formats in the driver's order.
    let formats: [DeviceFormat]
    /// The code the node delivers each buffer format in.
    let codes: [PixelFormat: FourCC]

    /// The formats of `node`.
    init(of node: any V4L2Node) throws(CaptureError) {
        var formats: [DeviceFormat] = []
        var codes: [PixelFormat: FourCC] = [:]
        for description in try enumerate({ (index) throws(SystemCallError) in try node.formatDescription(at: index) }) {
            guard let pixelFormat = description.code.pixelFormat, codes[pixelFormat] == nil else { continue }
            codes[pixelFormat] = description.code
            let sizes = try enumerate { (index) throws(SystemCallError) in try node.frameSize(at: index, of: description.code) }
            for size in sizes.flatMap(\.offeredSizes) {
                let intervals = try enumerate { (index) throws(SystemCallError) in
                    try node.frameInterval(at: index, of: description.code, size: size)
                }
                let rates = intervals.compactMap(\.frameRates).sorted { $0.maximum > $1.maximum }
                guard !rates.isEmpty else { continue }
                formats.append(DeviceFormat(size: size, pixelFormat: pixelFormat, frameRateRanges: rates))
            }
        }
        self.formats = formats
        self.codes = codes
    }

    /// The format a camera starts in: the largest that reaches 30 fps, else the largest; of two
    /// that large, one copied rather than decoded from JPEG, and either rather than raw Bayer
    /// (developed frame by frame, and not recorded).
    var preferred: DeviceFormat? {
        let fluent = formats.filter { $0.maximumFrameRate >= 30 }
        return (fluent.isEmpty ? formats : fluent).max { lower, higher in
            (lower.size.pixelCount, rank(lower)) < (higher.size.pixelCount, rank(higher))
        }
    }

    /// How a format of the same size ranks to start in: copied 2, decoded from JPEG 1, raw 0.
    private func rank(_ format: DeviceFormat) -> Int {
        if case .bayer16 = format.pixelFormat { return 0 }
        return codes[format.pixelFormat]?.isJPEG == true ? 1 : 2
    }
}
