import CameraCore

extension RawCalibration {
    /// Electrons a V4L2 sensor's pixel holds at its white level at gain ×1: V4L2 does not say, so
    /// the low end of small-pixel (1–2 µm) webcam and phone sensors, 4,000–10,000. The low end
    /// errs towards more shot noise than the sensor has, so that merging a bracket takes noise
    /// for noise rather than for motion.
    static let v4l2FullWellElectrons = 4000.0
    /// A V4L2 sensor's read noise (electrons, RMS) before quantisation: the high end of such
    /// sensors' 1.5–3, for the same reason.
    static let v4l2ReadNoiseElectrons = 3.0

    /// The calibration of a V4L2 camera's unpacked Bayer frames of `bits` significant bits, none
    /// of which V4L2 reports, so each is an assumption:
    /// - black level 0: V4L2 has no standard black-level control; a sensor whose driver leaves a
    ///   pedestal in (64 at 10 bits on some) comes out with its blacks that much lifted;
    /// - white level 2^bits − 1, the largest sample;
    /// - colour matrix the identity, as for the simulated camera: the filters' primaries are
    ///   unknown, so camera RGB is taken as linear Rec. 709 (D65);
    /// - noise estimated, not measured: `v4l2FullWellElectrons` at the white level, and read
    ///   noise of `v4l2ReadNoiseElectrons` with the bit depth's quantisation (one step / √12) added.
    static func v4l2(significantBits bits: Int) -> RawCalibration {
        let whiteLevel = (1 << bits) - 1
        let step = v4l2FullWellElectrons / Double(whiteLevel)
        let readNoise = (v4l2ReadNoiseElectrons * v4l2ReadNoiseElectrons + step * step / 12).squareRoot()
        return RawCalibration(blackLevel: 0, whiteLevel: whiteLevel,
                              noise: SensorNoise(fullWellElectrons: v4l2FullWellElectrons, readNoiseElectrons: readNoise))
    }
}
