import CameraCore

/// The noise a developed frame carries: the variance of its Rec. 709 luma at linear level `L` is
/// `scale · L + offset` (shot noise grows with the signal, read noise does not).
///
/// A raw frame whose calibration knows the sensor's noise has it exactly: its samples' variance at
/// its analogue gain (`NoiseProfile`), times each channel's white balance and digital gain, through
/// the colour matrix into luma, and lowered by the bilinear demosaic, whose interpolated samples
/// are means of two or four. Any other frame gets `unknown`: one 8-bit step of sRGB noise.
struct DevelopedNoise: Sendable, Equatable {
    var scale: Float
    var offset: Float

    /// What bilinear demosaic leaves of a sample's variance in a developed pixel, averaged over the
    /// mosaic: red and blue are a sample at ¼ of the sites, a mean of two at ½, of four at ¼
    /// (9/16); green a sample at ½, a mean of four at ½ (5/8). Luma is mostly green: 0.6.
    static let demosaicFactor: Float = 0.6

    /// Rec. 709 luma weights.
    static let luma = SIMD3<Float>(0.2126, 0.7152, 0.0722)

    /// Noise of one 8-bit sRGB step: σ = 1/255 in the encoded value, in linear light σ² ≈ (2.2/255)²·L
    /// (the encoding's slope) plus the linear segment's (1/255/12.92)² near black.
    static let unknown = DevelopedNoise(scale: (2.2 / 255) * (2.2 / 255), offset: 1 / (255 * 12.92) / (255 * 12.92))

    /// `offset` is kept above 10⁻¹⁰ so that no variance is ever zero.
    init(scale: Float, offset: Float) {
        self.scale = scale
        self.offset = max(offset, 1e-10)
    }

    /// The noise of `frame` once developed.
    init(of frame: Frame) {
        guard case .bayer16 = frame.buffer.format, let calibration = frame.metadata.rawCalibration,
              let sensor = calibration.noise else {
            self = .unknown
            return
        }
        let metadata = frame.metadata
        let profile = NoiseProfile(fullWellElectrons: sensor.fullWellElectrons, readNoiseElectrons: sensor.readNoiseElectrons,
                                   analogueGain: metadata.analogueGain)
        let wb = metadata.whiteBalanceGains
        let gains = SIMD3(wb.red, wb.green, wb.blue) * metadata.digitalGain
        let m = calibration.colorMatrix
        // Luma of the matrix's output as a weighting of the camera's channels.
        let weights = SIMD3(0.2126 * m[0] + 0.7152 * m[3] + 0.0722 * m[6],
                            0.2126 * m[1] + 0.7152 * m[4] + 0.0722 * m[7],
                            0.2126 * m[2] + 0.7152 * m[5] + 0.0722 * m[8])
        // A neutral pixel at level L holds L / gain of each channel's normalised signal.
        let squared = weights * weights
        let shot = (squared * gains).sum() * profile.scale
        let read = (squared * gains * gains).sum() * profile.offset
        self.init(scale: Float(shot) * Self.demosaicFactor, offset: Float(read) * Self.demosaicFactor)
    }

    /// Four read-noise deviations: what the denoiser adds to luma before dividing by it or taking
    /// its log, so that black and the noise around it stay finite and smooth.
    var floor: Float { 4 * offset.squareRoot() }

    /// The luma variance at level `level`.
    @inline(__always)
    func variance(_ level: SIMD8<Float>) -> SIMD8<Float> {
        FastMath.nonNegative(level) * scale + offset
    }
}
