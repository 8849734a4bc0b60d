import CameraCore

/// White-balance gains from and to a light's colour temperature and tint, with the model of
/// `ColorTemperature` (Planckian locus; RGB relative to 6500 K).
///
/// Gains are the inverse of the light's RGB, normalised so the smallest is 1 (gains only ever
/// amplify, as on a sensor) and clamped to `1…maximumGain`.
///
/// ```swift
/// let halogen = try WhiteBalanceGains(temperature: 3500)    // ≈ (1, 1.65, 3.83): lifts blue
/// halogen.colorTemperature?.kelvin                         // ≈ 3500
///
/// The simulated sensor has Rec. 709 primaries, which see warm light as very short of blue:
/// below about 2900 K neutralising it needs more than 8× on blue (8.6× at 2800 K), so the
/// default `maximumGain` leaves such light slightly warm.
/// ```
extension WhiteBalanceGains {
    /// The largest gain a channel gets unless told otherwise.
    public static let defaultMaximumGain = 16.0

    /// The gains that make a grey surface neutral under light of `temperature` kelvin and `tint`
    /// (thousandths of Δuv, positive greener). Throws, naming the range, for a temperature outside
    /// `ColorTemperature.range` (2000…12000 K) or a tint outside `ColorTemperature.tintRange`.
    public init(temperature: Double, tint: Double = 0, maximumGain: Double = WhiteBalanceGains.defaultMaximumGain) throws(ValueOutOfRangeError) {
        let kelvin = try ValueOutOfRangeError.check(temperature, in: ColorTemperature.range, setting: "white-balance temperature", unit: "K")
        let tint = try ValueOutOfRangeError.check(tint, in: ColorTemperature.tintRange, setting: "white-balance tint")
        self.init(neutralising: ColorTemperature(kelvin, tint: tint), maximumGain: maximumGain)
    }

    /// The gains that make a grey surface neutral under `light` (not range-checked).
    public init(neutralising light: ColorTemperature, maximumGain: Double = WhiteBalanceGains.defaultMaximumGain) {
        self.init(neutralisingRGB: light.relativeRGB, maximumGain: maximumGain)
    }

    /// The gains that make light of linear RGB `rgb` (any positive scale) neutral.
    public init(neutralisingRGB rgb: SIMD3<Double>, maximumGain: Double = WhiteBalanceGains.defaultMaximumGain) {
        let floored = rgb.replacing(with: 1e-6, where: .!(rgb .> 1e-6))
        let inverse = 1 / floored
        self = WhiteBalanceGains(red: inverse.x, green: inverse.y, blue: inverse.z).normalised(maximumGain: maximumGain)
    }

    /// These gains scaled so the smallest is 1, each then clamped to `1…maximumGain`.
    public func normalised(maximumGain: Double = WhiteBalanceGains.defaultMaximumGain) -> WhiteBalanceGains {
        precondition(maximumGain >= 1, "the maximum white-balance gain must be at least 1")
        let gains = vector
        let smallest = gains.min()
        guard smallest > 0, smallest.isFinite else { return .unity }
        let scaled = (gains / smallest).clamped(lowerBound: SIMD3(repeating: 1), upperBound: SIMD3(repeating: maximumGain))
        return WhiteBalanceGains(scaled)
    }

    /// The light these gains make neutral (temperature clamped to `ColorTemperature.range`),
    /// or nil if a gain is not positive.
    public var colorTemperature: ColorTemperature? {
        let gains = vector
        guard gains.min() > 0 else { return nil }
        return ColorTemperature(relativeRGB: 1 / gains)
    }

    /// Red, green, blue as a vector.
    var vector: SIMD3<Double> { SIMD3(red, green, blue) }

    init(_ vector: SIMD3<Double>) {
        self.init(red: vector.x, green: vector.y, blue: vector.z)
    }
}
