import CameraCore
import Foundation

/// A camera sensor and its processing: photons to electrons to 12-bit numbers to an 8-bit image.
///
/// At analogue gain 1 the sensor reaches full scale at `1 / sensitivity` cd/m²·s, so mid-grey
/// (0.18 of full scale) needs `0.18 / (sensitivity × luminance)` seconds — about ISO 50 at f/2.7.
/// Each channel's signal carries photon shot noise (variance equal to the electron count) and read
/// noise, clips at the full-scale value, and is quantised to 12 bits. White-balance and digital
/// gains and the tone curve are then applied as 8-bit lookup tables.
public struct SensorModel: Sendable, Hashable {
    /// Electrons at full scale at analogue gain 1.
    public var fullWellElectrons: Double = 6000
    /// Read noise in electrons (RMS).
    public var readNoiseElectrons: Double = 2.5
    /// Fraction of full scale per cd/m² per second at analogue gain 1.
    public var sensitivity: Double = 0.1
    /// The curve from linear values to the 8-bit output.
    public var toneCurve: ToneCurve = .sRGB

    /// The largest raw value (12 bits).
    public static let whiteLevel = 4095
    /// The raw value of no light in the Bayer read-out (12 bits): a pedestal, as real sensors add
    /// (256 on the Raspberry Pi HQ camera's 12-bit mode), so that read noise in the dark is kept
    /// rather than clipped at zero. The processed formats, whose tables start at black, have none.
    public static let blackLevel = 256

    /// How the Bayer read-out's `bits`-bit samples become linear colour, and how noisy they are.
    /// The simulated filters see Rec. 709's primaries, so the colour matrix is the identity.
    public func rawCalibration(significantBits bits: Int) -> RawCalibration {
        let shift = 12 - bits
        return RawCalibration(blackLevel: Self.blackLevel >> shift, whiteLevel: Self.whiteLevel >> shift,
                              noise: SensorNoise(fullWellElectrons: fullWellElectrons, readNoiseElectrons: readNoiseElectrons))
    }

    public init(fullWellElectrons: Double = 6000, readNoiseElectrons: Double = 2.5, sensitivity: Double = 0.1,
                toneCurve: ToneCurve = .sRGB) {
        self.fullWellElectrons = fullWellElectrons
        self.readNoiseElectrons = readNoiseElectrons
        self.sensitivity = sensitivity
        self.toneCurve = toneCurve
    }

    /// The same sensor without shot or read noise: the frame its noisy frames scatter around, for
    /// measuring how much noise a picture shows (`ae-eval`'s output noise).
    public var noiseFree: SensorModel {
        var sensor = self
        sensor.fullWellElectrons = .infinity
        sensor.readNoiseElectrons = 0
        return sensor
    }

    /// The mean raw value (before noise and clipping) of radiance `luminance` cd/m², over the black
    /// level: `fullScale` is what full scale reads (the white level, less the black level where there is one).
    public func meanRawValue(luminance: Double, exposure: Double, gain: Double, fullScale: Int = SensorModel.whiteLevel) -> Double {
        luminance * sensitivity * exposure * gain * Double(fullScale)
    }

    /// The shot and read noise at analogue gain `gain`: σ² = k·mean + (k·read)², k = raw units
    /// per electron.
    /// `fullScale` is the raw value of full scale: the white level, less the black level where
    /// there is one.
    func noiseModel(gain: Double, fullScale: Int = SensorModel.whiteLevel) -> NoiseModel {
        let rawPerElectron = gain * Double(fullScale) / fullWellElectrons
        let readNoise = rawPerElectron * readNoiseElectrons
        return NoiseModel(rawPerElectron: Float(rawPerElectron), readVariance: Float(readNoise * readNoise))
    }

    /// For each channel, the 8-bit output of each raw value: white balance, digital gain, clipping
    /// to white and the tone curve. Three tables of 4096 entries: red, green, blue.
    func outputTable(whiteBalance: WhiteBalanceGains, digitalGain: Double) -> [UInt8] {
        let gains = [whiteBalance.red, whiteBalance.green, whiteBalance.blue]
        let white = Double(SensorModel.whiteLevel)
        return gains.flatMap { gain in
            (0...SensorModel.whiteLevel).map { raw in
                UInt8((toneCurve.encode(Double(raw) * gain * digitalGain / white) * 255).rounded())
            }
        }
    }
}
