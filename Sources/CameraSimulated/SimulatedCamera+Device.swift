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

    /// 1920x1080 bgra8 at up to 30 fps.
    public static let defaultFormat = DeviceFormat(
        size: PixelSize(width: 1920, height: 1080), pixelFormat: .bgra8,
        frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])

    /// The control ranges of the simulated sensor and lens.
    public static let standardCapabilities = DeviceCapabilities(
        exposureDuration: (1.0 / 8000)...(1.0 / 4), analogueGain: 1...64, digitalGain: 1...16, baseISO: 50,
        exposureBias: -8...8, zoomFactor: 1...10, lensPosition: 0...1, hasTorch: true, hasFlash: true)

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
}
