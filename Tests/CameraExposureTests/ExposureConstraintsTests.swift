import CameraCore
@testable import CameraExposure
import Testing

/// The sensor exposure's constraints (`ExposureConstraints`) and the noise floor the lower one
/// keeps the subject on (`NoiseFloor`).
@Suite("Exposure constraints and the noise floor")
struct ExposureConstraintsTests {
    @Test("Both hold: no shortfall", arguments: [(0.0, -3.0), (2, 2), (-1, -1.5)])
    func bothHold(upper: Double, lower: Double) {
        #expect(ExposureConstraints(upper: upper, lower: lower).shortfall == 0)
    }

    @Test("The upper wins: the shortfall is how far the lower lies above it", arguments: [(0.0, 2.5, 2.5), (-1, 0.5, 1.5)])
    func upperWins(upper: Double, lower: Double, shortfall: Double) {
        #expect(ExposureConstraints(upper: upper, lower: lower).shortfall == shortfall)
        #expect(ExposureConstraints.none.shortfall == 0)
    }

    static func metadata(gain: Double, noise: SensorNoise?) -> FrameMetadata {
        FrameMetadata(exposureDuration: MediaTime(seconds: 0.01, preferredTimescale: 1_000_000), analogueGain: gain, baseISO: 100,
                      rawCalibration: noise.map { RawCalibration(blackLevel: 256, whiteLevel: 4095, noise: $0) })
    }

    @Test("The floor of the simulated sensor at base ISO: 13 electrons of its 6000, SNR 3")
    func baseISOFloor() {
        let noise = SensorNoise(fullWellElectrons: 6000, readNoiseElectrons: 2.5)
        let floor = NoiseFloor.level(Self.metadata(gain: 1, noise: noise))
        #expect(abs(floor * 6000 - 13.2) < 0.1, "\(floor * 6000) electrons")
        let electrons = floor * 6000
        #expect(abs(electrons / (electrons + 2.5 * 2.5).squareRoot() - NoiseFloor.minimumSNR) < 1e-9)
    }

    @Test("Gain raises the floor with it: full scale holds fewer electrons")
    func gainRaisesTheFloor() {
        let noise = SensorNoise(fullWellElectrons: 6000, readNoiseElectrons: 2.5)
        let base = NoiseFloor.level(Self.metadata(gain: 1, noise: noise))
        #expect(abs(NoiseFloor.level(Self.metadata(gain: 8, noise: noise)) / base - 8) < 1e-9)
    }

    @Test("A frame without a noise model reads as its 8-bit encoding's steps, whatever its gain")
    func eightBitFrames() {
        let floor = NoiseFloor.level(Self.metadata(gain: 4, noise: nil))
        #expect(floor == NoiseFloor.level(Self.metadata(gain: 1, noise: nil)))
        #expect(floor > 0.0005 && floor < 0.002, "\(floor)")
    }
}
