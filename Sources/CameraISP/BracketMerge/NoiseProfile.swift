/// How noisy a raw frame's samples are, in DNG's NoiseProfile form: a sample that is black-subtracted
/// and normalised so that 1 is the white level has variance `scale · x + offset` at signal `x`
/// (`scale` from photon shot noise, `offset` from read noise).
///
/// The merge weights each frame by the inverse of this variance and tests frames against each other
/// with it, so it must describe the frame as it was read out (at its analogue gain).
public struct NoiseProfile: Sendable, Hashable {
    /// Variance per unit of normalised signal (shot noise).
    public var scale: Double
    /// Variance at zero signal (read noise).
    public var offset: Double

    public init(scale: Double, offset: Double) {
        self.scale = scale
        self.offset = offset
    }

    /// The profile of a sensor that reaches its white level at `fullWellElectrons` electrons at
    /// analogue gain 1 and adds `readNoiseElectrons` (RMS) of read noise: at `analogueGain` g,
    /// x = electrons · g / full well, so var(x) = x · g / full well + (g · read / full well)².
    public init(fullWellElectrons: Double, readNoiseElectrons: Double, analogueGain: Double) {
        let perElectron = analogueGain / fullWellElectrons
        self.init(scale: perElectron, offset: perElectron * readNoiseElectrons * perElectron * readNoiseElectrons)
    }

    /// The variance of a normalised sample whose signal is `x` (negative signals count as 0).
    public func variance(at x: Double) -> Double {
        scale * max(x, 0) + offset
    }
}
