import CameraCapture
import CameraCore

extension SimulatedCamera {
    /// The formats the simulated sensor offers: five modes, each in every pixel format.
    public static let standardFormats: [DeviceFormat] = {
        let modes: [(PixelSize, FrameRateRange)] = [
            (PixelSize(width: 640, height: 480), FrameRateRange(minimum: 1, maximum: 120)),
            (PixelSize(width: 1280, height: 720), FrameRateRange(minimum: 1, maximum: 60)),
            (PixelSize(width: 1920, height: 1080), FrameRateRange(minimum: 1, maximum: 30)),
            (PixelSize(width: 1920, height: 1080), FrameRateRange(minimum: 30, maximum: 60)),
            (PixelSize(width: 3840, height: 2160), FrameRateRange(minimum: 1, maximum: 30)),
        ]
        return modes.flatMap { size, rates in
            PixelFormat.all.map { DeviceFormat(size: size, pixelFormat: $0, frameRateRanges: [rates]) }
        }
    }()

    /// The formats the camera offers a user who asks for `size`: the standard modes, and `size`
    /// itself in every pixel format when it is not one of them but fits in one (the sensor scales
    /// it from the smallest mode that holds it, at that mode's frame rates). A size larger than
    /// every mode is not offered: format selection then falls back to the nearest mode.
    public static func formats(offering size: PixelSize?) -> [DeviceFormat] {
        guard let size, !standardFormats.contains(where: { $0.size == size }) else { return standardFormats }
        let holding = standardFormats.filter { $0.size.width >= size.width && $0.size.height >= size.height }
        guard let smallest = holding.map(\.size).min(by: { $0.pixelCount < $1.pixelCount }) else { return standardFormats }
        let rates = holding.filter { $0.size == smallest && $0.pixelFormat == .bgra8 }.flatMap(\.frameRateRanges)
        return standardFormats + PixelFormat.all.map { DeviceFormat(size: size, pixelFormat: $0, frameRateRanges: rates) }
    }

    /// 1920x1080 bgra8 at up to 30 fps.
    public static let defaultFormat = DeviceFormat(
        size: PixelSize(width: 1920, height: 1080), pixelFormat: .bgra8,
        frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])

    /// The control ranges of the simulated sensor and lens; durations in whole microseconds
    /// (`exposureTime(seconds:)`), so a bracket's exposures are set on them.
    public static let standardCapabilities = DeviceCapabilities(
        exposureDuration: (1.0 / 50_000)...(1.0 / 4), analogueGain: 1...64, digitalGain: 1...16, baseISO: 50,
        exposureBias: -8...8, zoomFactor: 1...10, lensPosition: 0...1, hasTorch: true, hasFlash: true, exposureDurationStep: 1e-6)

    /// White-balance gains accepted by the simulated processing.
    public static let whiteBalanceGainRange: ClosedRange<Double> = 0.25...16

    /// The sensor's exposure time for `seconds`: exact for whole fractions of a second such as
    /// 1/30 (so a `--shutter 1/30` frame reports exactly that), else to the microsecond.
    static func exposureTime(seconds: Double) -> MediaTime {
        let reciprocal = (1 / seconds).rounded()
        if abs(1 / seconds - reciprocal) <= 1e-9 * reciprocal, let timescale = Int32(exactly: reciprocal) {
            return MediaTime(value: 1, timescale: timescale)
        }
        return MediaTime(seconds: seconds, preferredTimescale: 1_000_000)
    }

    /// The aperture that makes the sensor model's sensitivity (0.1 of full scale per cd/m²·s at
    /// gain 1) agree with ISO 50 by the meter equation: N² = 0.18 · 50 / (12.5 · 0.1).
    public static let fNumber = (0.18 * 50 / (12.5 * 0.1)).squareRoot()

    /// Radiance the torch adds to a white surface 1 m away at full power, in cd/m².
    static let torchRadiance: Float = 300

    /// The exposure the flash adds, at full power, to a white surface 1 m away, in cd·s/m²: a
    /// pulse, so unlike the continuous torch it does not grow with the exposure time. Like the
    /// torch it falls off with the square of depth and lights only what has an albedo (an HDR
    /// image has none, so the flash changes nothing there).
    ///
    /// 10 cd·s/m² is what a phone's LED flash gives: on its own it puts an 18% grey card 1 m away
    /// at mid-grey at the base ISO (0.18 × 10 cd·s/m² × sensitivity 0.1 per cd·s/m² = 0.18 of full
    /// scale) whatever the shutter — a guide number of 2.7 m at ISO 50 at this f/2.7 lens (3.8 m at
    /// ISO 100) — and as much as the full torch gives in 1/30 s.
    public static let flashEnergy: Float = 10
}
