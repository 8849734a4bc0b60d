import CameraCore
import Foundation

/// The darkest level (linear, of full scale) a frame holds a picture at: where a pixel's
/// signal-to-noise ratio reaches `minimumSNR`, counting its electrons' shot noise and the sensor's
/// read noise at the frame's gain. The render gain lifts no subject from below it — the noise would
/// show — and a sensor exposure that leaves the subject under it falls short (`ExposureConstraints`).
enum NoiseFloor {
    /// SNR 3 (9.5 dB) before denoising: on the simulated sensor at base ISO (6000 e⁻ full well,
    /// 2.5 e⁻ read noise) the floor is 13 electrons, 0.0022 of full scale, about 6 EV under a
    /// subject's aim; the ISP's denoiser adds 7.5–12.5 dB there (BENCHMARKS.md, output noise).
    static let minimumSNR = 3.0

    /// A frame with no sensor noise model (a processed 8-bit frame) read as one with the noise of
    /// its own sRGB steps: σ² ≈ (2.2/255)²·L in linear light (the encoding's slope), which is the
    /// shot noise of (255/2.2)² ≈ 13,400 electrons at full scale, plus the linear segment's
    /// 1/(255 × 12.92) near black, 4.1 of those electrons.
    static let eightBitSteps = SensorNoise(fullWellElectrons: (255 / 2.2) * (255 / 2.2),
                                           readNoiseElectrons: (255 / 2.2) * (255 / 2.2) / (255 * 12.92))

    /// The floor of a frame made as `metadata` says: full scale holds the full well's electrons
    /// over the frame's analogue and digital gain.
    static func level(_ metadata: FrameMetadata) -> Double {
        let known = metadata.rawCalibration?.noise
        let noise = known ?? eightBitSteps
        let gain = known == nil ? 1 : max(metadata.analogueGain * metadata.digitalGain, 1)
        let fullScale = noise.fullWellElectrons / gain
        guard fullScale.isFinite else { return 0 }
        // SNR² = e² / (e + r²) = k²  ⇒  e = (k² + √(k⁴ + 4k²r²)) / 2.
        let k2 = minimumSNR * minimumSNR, r2 = noise.readNoiseElectrons * noise.readNoiseElectrons
        return (k2 + (k2 * k2 + 4 * k2 * r2).squareRoot()) / 2 / fullScale
    }
}
