import CameraCore

/// One raw frame of a bracket, with what the merge needs to put it on the reference's scale: its
/// levels, its total exposure and its noise.
public struct BracketFrame: Sendable {
    /// The mosaic: bayer16, one sample per pixel.
    public var buffer: PixelBuffer
    /// The frame's black and white levels (its colour matrix is not used by the merge).
    public var calibration: RawCalibration
    /// Exposure time × analogue gain × digital gain (`FrameMetadata.totalExposure`): the merge
    /// divides each frame by it, so only the ratios between frames matter.
    public var exposure: Double
    /// The noise of the frame's normalised samples.
    public var noise: NoiseProfile

    public init(buffer: PixelBuffer, calibration: RawCalibration, exposure: Double, noise: NoiseProfile) {
        self.buffer = buffer
        self.calibration = calibration
        self.exposure = exposure
        self.noise = noise
    }

    /// A camera's raw frame, its calibration, total exposure and noise (at its analogue gain) from
    /// its metadata; nil when the camera gives no noise for it.
    public init?(_ frame: Frame) throws(ISPError) {
        guard let calibration = frame.metadata.rawCalibration else { throw .missingRawCalibration(frame.buffer.format) }
        guard let noise = calibration.noise else { return nil }
        self.init(buffer: frame.buffer, calibration: calibration, exposure: frame.metadata.totalExposure,
                  noise: NoiseProfile(fullWellElectrons: noise.fullWellElectrons, readNoiseElectrons: noise.readNoiseElectrons,
                                      analogueGain: frame.metadata.analogueGain))
    }
}
