import CameraCore

/// What kind of video a session wants; the session picks the device format that fits it when a
/// configuration is committed (AVCaptureSession.Preset).
public enum SessionPreset: String, Sendable, Hashable, CaseIterable {
    /// The device's largest format, for stills.
    case photo
    /// The largest format that reaches 30 fps (the largest of all when none does).
    case high
    case hd1280x720
    case hd1920x1080
    case uhd3840x2160
    /// Keep the device's own active format and frame rate, as set with `device.configure`.
    case inputPriority

    /// The exact frame size the preset needs, if it names one.
    public var size: PixelSize? {
        switch self {
        case .hd1280x720: PixelSize(width: 1280, height: 720)
        case .hd1920x1080: PixelSize(width: 1920, height: 1080)
        case .uhd3840x2160: PixelSize(width: 3840, height: 2160)
        case .photo, .high, .inputPriority: nil
        }
    }

    /// The format and frame rate for this preset on a device offering `formats` whose settings are
    /// now `current`; nil for `inputPriority`. Throws naming the preset and what the device offers
    /// when no format fits.
    ///
    /// Among the formats of the right size it prefers the device's current pixel format, then the
    /// highest frame rate. The frame rate is the
    /// supported one nearest the current rate.
    func choice(among formats: [DeviceFormat], current: DeviceSettings, device: String) throws(CaptureError)
        -> (format: DeviceFormat, frameRate: Double)? {
        let candidates: [DeviceFormat]
        switch self {
        case .inputPriority:
            return nil
        case .photo:
            let largest = formats.map(\.size.pixelCount).max()
            candidates = formats.filter { $0.size.pixelCount == largest }
        case .high:
            let smooth = formats.filter { $0.maximumFrameRate >= 30 }
            let pool = smooth.isEmpty ? formats : smooth
            let largest = pool.map(\.size.pixelCount).max()
            candidates = pool.filter { $0.size.pixelCount == largest }
        case .hd1280x720, .hd1920x1080, .uhd3840x2160:
            candidates = formats.filter { $0.size == size }
        }
        guard let best = candidates.max(by: { preference($0, current) < preference($1, current) }) else {
            let offered = Set(formats.map(\.size.description)).sorted().joined(separator: ", ")
            throw .invalidConfiguration("preset \(rawValue) needs a \(size?.description ?? "video") format, but \(device) offers "
                + "\(offered.isEmpty ? "none" : offered) — choose a preset the device supports, or .inputPriority to keep its format")
        }
        return (best, Self.nearestRate(to: current.frameRate, in: best))
    }

    /// Orders candidates: the current pixel format, then faster.
    private func preference(_ format: DeviceFormat, _ current: DeviceSettings) -> (Int, Double) {
        (format.pixelFormat == current.activeFormat.pixelFormat ? 1 : 0, format.maximumFrameRate)
    }

    /// The frame rate `format` supports that is nearest to `rate`.
    static func nearestRate(to rate: Double, in format: DeviceFormat) -> Double {
        let clamped = format.frameRateRanges.map { min(max(rate, $0.minimum), $0.maximum) }
        return clamped.min { abs($0 - rate) < abs($1 - rate) } ?? rate
    }
}
