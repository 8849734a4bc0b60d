import Foundation
import CameraCore
import Testing
@testable import CameraSimulated

/// The sensor model behaves like a sensor: linear until it clips, with shot noise whose variance
/// grows with the signal.
@Suite struct SensorPhysicsTests {
    /// Mean raw value of the grey card (the ground-truth subject) at an exposure.
    private func cardMean(seconds: Double, gain: Double = 1) async throws -> Double {
        let camera = try rawCamera(.grayCard, seconds: seconds, gain: gain)
        let frame = try await camera.nextFrame()
        return mean(rawValues(frame, mask: camera.groundTruth(for: frame).subjectMask))
    }

    @Test func meanSignalMatchesTheSensitivity() async throws {
        // The card is 1000 cd/m²; at 1 ms and gain 1 it should read 0.1 × 1000 × 0.001 = 10% of full scale.
        let measured = try await cardMean(seconds: 0.001)
        #expect(abs(measured - 0.1 * rawFullScale) < 4)
    }

    @Test(arguments: [2.0, 4.0, 8.0])
    func signalScalesWithExposureTime(factor: Double) async throws {
        let base = try await cardMean(seconds: 0.0005)
        let longer = try await cardMean(seconds: 0.0005 * factor)
        #expect(abs(longer / base - factor) < 0.02 * factor)
    }

    @Test(arguments: [2.0, 4.0])
    func signalScalesWithGain(gain: Double) async throws {
        let base = try await cardMean(seconds: 0.0005)
        let amplified = try await cardMean(seconds: 0.0005, gain: gain)
        #expect(abs(amplified / base - gain) < 0.02 * gain)
    }

    @Test func signalClipsAtFullScale() async throws {
        // Clipped samples read the white level; the frame's calibration says so.
        let camera = try rawCamera(.grayCard, seconds: 0.05)
        let frame = try await camera.nextFrame()
        let values = rawValues(frame, mask: camera.groundTruth(for: frame).subjectMask)
        #expect(values.allSatisfy { $0 == rawFullScale })
        #expect(frame.metadata.rawCalibration == RawCalibration(blackLevel: SensorModel.blackLevel, whiteLevel: SensorModel.whiteLevel,
                                                                noise: SensorNoise(fullWellElectrons: 6000, readNoiseElectrons: 2.5)))
    }

    @Test("A 10-bit read-out scales the black and white levels with the samples")
    func tenBitCalibration() async throws {
        let camera = try SimulatedCamera(scene: .grayCard, format: smallFormat(128, 96, .bayer16(.rggb, significantBits: 10)))
        try camera.updateControls { $0.exposureDuration = 0.05 }
        try camera.startStreaming()
        let frame = try await camera.nextFrame()
        #expect(frame.metadata.rawCalibration == RawCalibration(blackLevel: 64, whiteLevel: 1023,
                                                                noise: SensorNoise(fullWellElectrons: 6000, readNoiseElectrons: 2.5)))
        #expect(frame.buffer[sample16: 64, y: 48] == 1023)
    }

    @Test("Processed frames carry no raw calibration")
    func processedFramesHaveNoCalibration() async throws {
        let camera = try streamingCamera(.grayCard)
        #expect(try await camera.nextFrame().metadata.rawCalibration == nil)
    }

    @Test("The shutter reaches 1/50,000 s, as a phone's electronic shutter does")
    func shortestShutter() async throws {
        #expect(SimulatedCamera.standardCapabilities.exposureDuration.lowerBound == 1.0 / 50_000)
        let camera = try rawCamera(.grayCard, seconds: 1.0 / 50_000)
        var frame = try await camera.nextFrame()
        for _ in 0..<4 where frame.metadata.exposureDuration.seconds != 1.0 / 50_000 { frame = try await camera.nextFrame() }
        #expect(frame.metadata.exposureDuration == MediaTime(value: 1, timescale: 50_000))
        // 1000 cd/m² × 0.1 × 20 µs = 0.2% of full scale.
        let measured = mean(rawValues(frame, mask: camera.groundTruth(for: frame).subjectMask))
        #expect(abs(measured - 0.002 * rawFullScale) < 1)
    }

    @Test func shotNoiseVarianceIsProportionalToSignal() async throws {
        let model = SensorModel()
        let rawPerElectron = rawFullScale / model.fullWellElectrons
        let readVariance = pow(rawPerElectron * model.readNoiseElectrons, 2)
        var ratios: [Double] = []
        for seconds in [0.0002, 0.0008, 0.0032] {
            let camera = try rawCamera(.grayCard, seconds: seconds)
            let frame = try await camera.nextFrame()
            let values = rawValues(frame, mask: camera.groundTruth(for: frame).subjectMask)
            // Shot-noise variance per unit of signal, in raw units: should equal raw units per electron.
            ratios.append((variance(values) - readVariance) / mean(values))
        }
        for ratio in ratios {
            #expect(abs(ratio / rawPerElectron - 1) < 0.1, "variance/signal \(ratio), expected \(rawPerElectron)")
        }
    }

    @Test func darkFrameShowsOnlyReadNoise() async throws {
        let camera = try rawCamera(.nightStreet, seconds: 1.0 / 8000)
        let frame = try await camera.nextFrame()
        let values = rawValues(frame, rows: 0..<20).filter { $0 < 50 }
        let model = SensorModel()
        let readSigma = rawFullScale / model.fullWellElectrons * model.readNoiseElectrons
        // The black level keeps the read noise below black: it averages out to no light.
        #expect(abs(mean(values)) < 1)
        #expect(variance(values).squareRoot() < readSigma * 1.5)
    }
}
