import CameraCore

/// What a session or a user asks of a device's format; a nil field means "any".
public struct FormatRequest: Sendable, Hashable {
    /// Which part of the request to keep when the device cannot meet all of it.
    public enum Priority: Sendable, Hashable {
        /// Keep the size (or the nearest size), lower or raise the frame rate.
        case size
        /// Keep the frame rate when some size can deliver it, taking the nearest such size.
        case frameRate
    }

    public var size: PixelSize?
    /// Frames per second.
    public var frameRate: Double?
    /// A hard requirement: a format in another pixel format is never chosen.
    public var pixelFormat: PixelFormat?
    public var priority: Priority

    public init(size: PixelSize? = nil, frameRate: Double? = nil, pixelFormat: PixelFormat? = nil, priority: Priority = .size) {
        self.size = size
        self.frameRate = frameRate
        self.pixelFormat = pixelFormat
        self.priority = priority
    }
}

/// The format and frame rate chosen for a `FormatRequest`, and why, when it is not what was asked.
public struct FormatChoice: Sendable, Hashable {
    public let format: DeviceFormat
    public let frameRate: Double
    /// nil when the request was met exactly; otherwise what was changed, e.g. "60 fps is not
    /// available at 3840x2160 (up to 30 fps); using 30 fps".
    public let fallbackReason: String?

    public init(format: DeviceFormat, frameRate: Double, fallbackReason: String?) {
        self.format = format
        self.frameRate = frameRate
        self.fallbackReason = fallbackReason
    }
}

/// Picks the device format that best meets a request, so a preset such as "1080p at 60" works on
/// any camera and says plainly what it got instead.
///
/// The rules, in order:
/// 1. The pixel format, when given, must match; nothing else is a fallback for it.
/// 2. The size: the requested one when the device has it, else the nearest — the size whose pixel
///    count is closest by ratio (ties go to the larger size, which can be scaled down). With
///    `priority: .frameRate` only sizes that can deliver the requested rate compete, as long as
///    any can. Without a size: the largest that can deliver the rate (or the largest of all).
/// 3. The frame rate at that size: the requested one when a format there supports it, else the
///    nearest rate a format there supports; without a rate, the highest.
///
/// Asking 3840x2160 at 60 fps of the simulated camera (4K up to 30) gives 3840x2160 at 30 fps
/// with the reason "60 fps is not available at 3840x2160 (up to 30 fps); using 30 fps"; with
/// `priority: .frameRate` it gives 1920x1080 at 60.
public enum FormatSelection {
    /// The best of `formats` for `request`. Throws `CaptureError.invalidConfiguration` when no
    /// format fits at all (no formats, or none in the requested pixel format), listing what the
    /// device offers.
    public static func best(for request: FormatRequest, in formats: [DeviceFormat]) throws(CaptureError) -> FormatChoice {
        try validate(request)
        guard !formats.isEmpty else { throw .invalidConfiguration("the device offers no formats") }
        var candidates = formats
        if let pixelFormat = request.pixelFormat {
            candidates = formats.filter { $0.pixelFormat == pixelFormat }
            guard !candidates.isEmpty else {
                var offered: [String] = []
                for name in formats.map(\.pixelFormat.name) where !offered.contains(name) { offered.append(name) }
                throw .invalidConfiguration("the device has no \(pixelFormat) format — choose one of: \(offered.joined(separator: ", "))")
            }
        }
        var reasons: [String] = []
        let size = chooseSize(for: request, among: candidates, reasons: &reasons)
        let atSize = candidates.filter { $0.size == size }
        let (format, rate) = chooseRate(request.frameRate, among: atSize, size: size, reasons: &reasons)
        return FormatChoice(format: format, frameRate: rate, fallbackReason: reasons.isEmpty ? nil : reasons.joined(separator: "; "))
    }

    /// The frame rates `formats` can deliver at any size, from the lowest minimum to the highest
    /// maximum: a rate outside it is not a fallback but a mistake (nil when there are no formats).
    public static func frameRateSpan(of formats: [DeviceFormat]) -> ClosedRange<Double>? {
        let ranges = formats.flatMap(\.frameRateRanges)
        guard let minimum = ranges.map(\.minimum).min(), let maximum = ranges.map(\.maximum).max() else { return nil }
        return minimum...maximum
    }

    /// Throws for a request no device could meet: a size or frame rate that is not positive.
    private static func validate(_ request: FormatRequest) throws(CaptureError) {
        if let size = request.size, size.width <= 0 || size.height <= 0 {
            throw .invalidConfiguration("the requested size \(size) is empty — ask for a width and height of at least 1")
        }
        if let rate = request.frameRate, !(rate > 0 && rate.isFinite) {
            throw .invalidConfiguration("the requested frame rate \(fps(rate)) fps is not a positive number of frames per second")
        }
    }

    /// The size to use (rule 2), adding a reason when it is not the one requested.
    private static func chooseSize(for request: FormatRequest, among candidates: [DeviceFormat], reasons: inout [String]) -> PixelSize {
        let sizes = Set(candidates.map(\.size))
        var fitting = sizes
        // The rate decides which sizes compete when it has priority or no size is asked for.
        var limitingRate: Double?
        if let rate = request.frameRate, request.priority == .frameRate || request.size == nil {
            let withRate = Set(candidates.filter { $0.supports(frameRate: rate) }.map(\.size))
            if !withRate.isEmpty && withRate != sizes {
                fitting = withRate
                limitingRate = rate
            }
        }
        guard let wanted = request.size else {
            return fitting.max { ($0.pixelCount, $0.width) < ($1.pixelCount, $1.width) }!
        }
        if fitting.contains(wanted) { return wanted }
        let nearest = nearestSize(to: wanted, in: fitting)
        if let rate = limitingRate {
            let problem = sizes.contains(wanted) ? "cannot run at \(fps(rate)) fps" : "is not available"
            reasons.append("\(wanted) \(problem); using \(nearest), the nearest size that can run at \(fps(rate)) fps")
        } else {
            reasons.append("\(wanted) is not available; using \(nearest), the nearest size")
        }
        return nearest
    }

    /// The size whose pixel count is closest to `wanted`'s by ratio; ties go to the larger.
    private static func nearestSize(to wanted: PixelSize, in sizes: Set<PixelSize>) -> PixelSize {
        func distance(_ size: PixelSize) -> Double {
            let ratio = Double(size.pixelCount) / Double(wanted.pixelCount)
            return max(ratio, 1 / ratio)
        }
        return sizes.min { a, b in
            (distance(a), -a.pixelCount, -a.width) < (distance(b), -b.pixelCount, -b.width)
        }!
    }

    /// The format at `size` and the rate to use (rule 3), adding a reason when the rate is not
    /// the one requested.
    private static func chooseRate(_ wanted: Double?, among formats: [DeviceFormat], size: PixelSize,
                                   reasons: inout [String]) -> (DeviceFormat, Double) {
        guard let wanted else {
            let fastest = formats.max { $0.maximumFrameRate < $1.maximumFrameRate }!
            return (fastest, fastest.maximumFrameRate)
        }
        if let exact = formats.first(where: { $0.supports(frameRate: wanted) }) { return (exact, wanted) }
        let options = formats.flatMap { format in
            format.frameRateRanges.map { (format, min(max(wanted, $0.minimum), $0.maximum)) }
        }
        let (format, rate) = options.min { a, b in
            (abs(a.1 - wanted), -a.1) < (abs(b.1 - wanted), -b.1)
        }!
        reasons.append("\(fps(wanted)) fps is not available at \(size) (\(describeRates(of: formats, around: wanted))); using \(fps(rate)) fps")
        return (format, rate)
    }

    /// The rates `formats` support, as the reason for missing `wanted` needs them: "up to 30
    /// fps", "at least 5 fps", or every range, e.g. "1–15, 30–60 fps".
    private static func describeRates(of formats: [DeviceFormat], around wanted: Double) -> String {
        let ranges = formats.flatMap(\.frameRateRanges)
        let maximum = ranges.map(\.maximum).max() ?? 0, minimum = ranges.map(\.minimum).min() ?? 0
        if wanted > maximum { return "up to \(fps(maximum)) fps" }
        if wanted < minimum { return "at least \(fps(minimum)) fps" }
        var spans: [String] = []
        for range in ranges.sorted(by: { ($0.minimum, $0.maximum) < ($1.minimum, $1.maximum) }) {
            let span = "\(fps(range.minimum))–\(fps(range.maximum))"
            if !spans.contains(span) { spans.append(span) }
        }
        return spans.joined(separator: ", ") + " fps"
    }

    private static func fps(_ rate: Double) -> String { FrameRateRange.text(rate) }
}
