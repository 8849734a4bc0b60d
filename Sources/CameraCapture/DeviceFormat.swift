import CameraCore

/// A closed range of frame rates a format supports, in frames per second.
public struct FrameRateRange: Sendable, Hashable {
    public let minimum: Double
    public let maximum: Double

    public init(minimum: Double, maximum: Double) {
        precondition(minimum > 0 && minimum <= maximum, "invalid frame-rate range \(minimum)…\(maximum)")
        self.minimum = minimum
        self.maximum = maximum
    }

    public func contains(_ rate: Double) -> Bool { rate >= minimum && rate <= maximum }

    /// A frame rate as people write it: "30", "29.97".
    static func text(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String((rate * 1000).rounded() / 1000)
    }
}

/// One way a device can deliver frames: a size, a pixel format and the frame rates possible.
public struct DeviceFormat: Sendable, Hashable, CustomStringConvertible {
    public let size: PixelSize
    public let pixelFormat: PixelFormat
    public let frameRateRanges: [FrameRateRange]

    public init(size: PixelSize, pixelFormat: PixelFormat, frameRateRanges: [FrameRateRange]) {
        self.size = size
        self.pixelFormat = pixelFormat
        self.frameRateRanges = frameRateRanges
    }

    /// The highest frame rate any of the format's ranges allows.
    public var maximumFrameRate: Double { frameRateRanges.map(\.maximum).max() ?? 0 }

    public func supports(frameRate: Double) -> Bool { frameRateRanges.contains { $0.contains(frameRate) } }

    /// Whether the frames are raw Bayer (bayer16), developed by the image pipeline.
    public var isRaw: Bool {
        if case .bayer16 = pixelFormat { return true }
        return false
    }

    /// The format of the pictures the session's outputs get from this format: itself, or for raw
    /// Bayer the `StreamRenderer.pictureFormat` the image pipeline renders it into.
    public var pictures: DeviceFormat {
        guard isRaw else { return self }
        return DeviceFormat(size: size, pixelFormat: StreamRenderer.pictureFormat, frameRateRanges: frameRateRanges)
    }

    /// e.g. "1920x1080 bgra8 @ 1–30 fps".
    public var description: String {
        let rates = frameRateRanges.map { "\(FrameRateRange.text($0.minimum))–\(FrameRateRange.text($0.maximum))" }
        return "\(size) \(pixelFormat) @ \(rates.joined(separator: ", ")) fps"
    }
}

extension MediaTime {
    /// The duration of one frame at `rate` frames per second: exact for whole rates and for
    /// rational NTSC rates such as 29.97 (30000/1001) while their timescale fits, else to the
    /// nanosecond. A rate that is not positive and finite has no frame duration (`.invalid`).
    public static func frameDuration(forRate rate: Double) -> MediaTime {
        guard rate > 0, rate.isFinite else { return .invalid }
        let ntsc = (rate * 1.001).rounded()
        if abs(rate - ntsc / 1.001) < 1e-6, ntsc != rate, let timescale = Int32(exactly: ntsc * 1000) {
            return MediaTime(value: 1001, timescale: timescale)
        }
        if let timescale = Int32(exactly: rate) { return MediaTime(value: 1, timescale: timescale) }
        return MediaTime(seconds: 1 / rate, preferredTimescale: 1_000_000_000)
    }
}
