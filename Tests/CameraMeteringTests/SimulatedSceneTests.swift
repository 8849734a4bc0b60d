import CameraCore
@testable import CameraMetering
import CameraSimulated
import Foundation
import Testing

@Suite("Statistics of simulated scenes")
struct SimulatedSceneTests {
    @Test("The sampled histogram keeps the 2nd, 50th and 98th percentiles within one bin of the full frame",
          arguments: [SimulatedScene.backlitPortrait, .grayCard, .nightStreet, .snowSun])
    func sampledPercentiles(scene: SimulatedScene) async throws {
        let frame = try await referenceFrame(scene)
        let sampled = try stepFour.analyze(frame.buffer)
        let full = try FrameAnalyzer(configuration: AnalysisConfiguration(sampleStep: 1)).analyze(frame.buffer)
        #expect(sampled.histogram.total == 120 * 68)
        #expect(full.histogram.total == 480 * 270)
        for fraction in [0.02, 0.5, 0.98] {
            let a = Int((sampled.histogram.percentile(fraction) * 255).rounded())
            let b = Int((full.histogram.percentile(fraction) * 255).rounded())
            if abs(a - b) <= 1 { continue }
            // Further apart only where the percentile is ill-conditioned: the full frame holds
            // (almost) nothing between the two, so a rank difference far below the sampling error
            // moves the percentile across a gap (snow-sun's median lies between sky and snow).
            let between = full.histogram.fraction(in: (min(a, b) + 1)...(max(a, b) - 1))
            #expect(between <= 0.005, "\(scene.name) p\(Int(fraction * 100)): sampled \(a), full \(b), \(between) of the frame between")
        }
        // Brightness reads every pixel whatever the step.
        #expect(sampled.brightness == full.brightness)
        #expect(abs(sampled.linearMean / full.linearMean - 1) <= 0.05, "\(scene.name): \(sampled.linearMean) vs \(full.linearMean)")
    }

    @Test("The automatic step aims at about 40 000 samples: every pixel of small frames, 1/49 at 1080p",
          arguments: [(160, 120, 1), (480, 270, 1), (1280, 720, 4), (1920, 1080, 7), (3840, 2160, 14)])
    func automaticStep(width: Int, height: Int, step: Int) {
        #expect(AnalysisConfiguration().step(forPixels: width * height) == step)
    }

    @Test("At 1080p the automatic step keeps the percentiles within one bin of the full frame",
          arguments: [SimulatedScene.backlitPortrait, .nightStreet])
    func automaticStepPercentiles(scene: SimulatedScene) async throws {
        let frame = try await referenceFrame(scene, format: smallFormat(1920, 1080))
        let sampled = try FrameAnalyzer().analyze(frame.buffer)
        let full = try FrameAnalyzer(configuration: AnalysisConfiguration(sampleStep: 1)).analyze(frame.buffer)
        #expect(sampled.sampleStep == 7)
        for fraction in [0.02, 0.5, 0.98] {
            let a = sampled.histogram.percentile(fraction) * 255, b = full.histogram.percentile(fraction) * 255
            #expect(abs(a - b) <= 1, "\(scene.name) p\(Int(fraction * 100)): sampled \(a), full \(b)")
        }
    }

    @Test("The backlit portrait at its reference exposure is backlit; the grey card is not")
    func backlit() async throws {
        let portrait = try stepFour.analyze(try await referenceFrame(.backlitPortrait).buffer)
        let portraitFlags = SceneFlags(statistics: portrait, metadata: nil)
        #expect(portraitFlags.backlit, "contrast \(portraitFlags.backlitContrast)")
        #expect(portraitFlags.backlitContrast >= SceneFlags.backlitThreshold)
        let card = try stepFour.analyze(try await referenceFrame(.grayCard).buffer)
        let cardFlags = SceneFlags(statistics: card, metadata: nil)
        #expect(!cardFlags.backlit, "contrast \(cardFlags.backlitContrast)")
        #expect(abs(cardFlags.backlitContrast) < 1)
    }

    @Test("The night street is low light by its exposure; the grey card is not")
    func lowLight() async throws {
        let night = try await referenceFrame(.nightStreet)
        let nightFlags = SceneFlags(statistics: try stepFour.analyze(night.buffer), metadata: night.metadata)
        let nightLuminance = try #require(nightFlags.sceneLuminance)
        #expect(nightLuminance < SceneFlags.lowLightLuminance)
        #expect(nightFlags.lowLight, "scene luminance \(nightLuminance) cd/m²")
        let card = try await referenceFrame(.grayCard)
        let cardFlags = SceneFlags(statistics: try stepFour.analyze(card.buffer), metadata: card.metadata)
        let cardLuminance = try #require(cardFlags.sceneLuminance)
        #expect(cardLuminance > 100)
        #expect(!cardFlags.lowLight, "scene luminance \(cardLuminance) cd/m²")
        // Without metadata nothing is known about the light.
        let unknown = SceneFlags(statistics: try stepFour.analyze(night.buffer), metadata: nil)
        #expect(unknown.sceneLuminance == nil && !unknown.lowLight)
    }

    @Test("Scene luminance follows the meter equation from the frame's exposure")
    func sceneLuminance() async throws {
        let card = try await referenceFrame(.grayCard)
        let statistics = try stepFour.analyze(card.buffer)
        let flags = SceneFlags(statistics: statistics, metadata: card.metadata)
        let m = card.metadata
        let expected = 12.5 * m.fNumber * m.fNumber * (statistics.linearMean / 0.18) / (m.exposureDuration.seconds * m.iso * m.digitalGain)
        #expect(relativelyClose(try #require(flags.sceneLuminance), expected, 1e-12))
    }

    @Test("Dynamic range: a half-black, half-white frame spans log2(255 × 12.92) stops; a flat frame none")
    func dynamicRange() throws {
        let halves = try stepFour.analyze(try buffer(.gray8, width: 64, height: 48) { x, _ in x < 32 ? 0 : 255 })
        let flags = SceneFlags(statistics: halves, metadata: nil)
        // The black end is floored at one 8-bit step: 1/255 encoded = 1/(255·12.92) linear.
        #expect(abs(flags.dynamicRange - log2(255 * 12.92)) <= 1e-5, "\(flags.dynamicRange)")
        #expect(flags.dynamicRange == halves.dynamicRange)
        let flat = try stepFour.analyze(try buffer(.gray8, width: 64, height: 48) { _, _ in 128 })
        #expect(flat.dynamicRange == 0)
        // Two mid levels a known number of stops apart in linear light.
        let twoLevels = try stepFour.analyze(try buffer(.gray8, width: 64, height: 48) { x, _ in x < 32 ? 60 : 200 })
        #expect(abs(twoLevels.dynamicRange - log2(linear(200) / linear(60))) <= 1e-9)
    }

    @Test("A grey card exposed for mid-grey reads about 0.46 and 0.18 linear in every format",
          arguments: [PixelFormat.bgra8, .nv12(.full), .nv12(.video), .yuyv422])
    func grayCardIsMidGray(format: PixelFormat) async throws {
        let frame = try await referenceFrame(.grayCard, format: smallFormat(64, 48, format))
        let statistics = try stepFour.analyze(frame.buffer)
        #expect(abs(statistics.brightness - 0.46) <= 0.05, "brightness \(statistics.brightness)")
        #expect(abs(statistics.linearMean - 0.18) <= 0.04, "linear \(statistics.linearMean)")
        #expect(statistics.clippedFraction < 0.01)
        #expect(statistics.crushedFraction < 0.01)
        let centre = Meter.meter(statistics, mode: .spot(.center, radius: 0.2))
        #expect(abs(centre.evError) < 0.3, "the card meters near mid-grey: \(centre.evError) EV")
    }

    @Test("Doubling the exposure raises the linear mean about twofold")
    func exposureMonotonic() async throws {
        let format = smallFormat(64, 48)
        let seconds = SimulatedScene.grayCard.referenceExposure(viewSize: format.size)
        var means: [Double] = []
        for factor in [0.5, 1, 2] {
            let camera = try simulatedCamera(.grayCard, seconds: seconds * factor, format: format, seed: 3)
            means.append(try stepFour.analyze(try await camera.nextFrame().buffer).linearMean)
        }
        #expect(abs(means[1] / means[0] - 2) < 0.3 && abs(means[2] / means[1] - 2) < 0.3, "\(means)")
    }
}

@Suite("Sharpness")
struct SharpnessTests {
    /// A 64×64 checkerboard of 4-pixel squares, optionally box-blurred with radius `blur`.
    private func checkerboard(blur: Int) throws -> PixelBuffer {
        func sharp(_ x: Int, _ y: Int) -> Double { (x / 4 + y / 4).isMultiple(of: 2) ? 230 : 25 }
        return try buffer(.gray8, width: 64, height: 64) { x, y in
            guard blur > 0 else { return UInt8(sharp(x, y)) }
            var sum = 0.0, count = 0.0
            for dy in -blur...blur {
                for dx in -blur...blur {
                    sum += sharp(min(max(x + dx, 0), 63), min(max(y + dy, 0), 63))
                    count += 1
                }
            }
            return UInt8((sum / count).rounded())
        }
    }

    @Test("A sharp checkerboard measures sharper than the same board smoothed, and smoothing more lowers it further")
    func sharpBeatsSmooth() throws {
        let sharp = try Sharpness.measure(try checkerboard(blur: 0))
        let soft = try Sharpness.measure(try checkerboard(blur: 1))
        let softer = try Sharpness.measure(try checkerboard(blur: 2))
        #expect(sharp > 2 * soft, "sharp \(sharp), soft \(soft)")
        #expect(soft > softer, "soft \(soft), softer \(softer)")
        #expect(softer > 0)
    }

    @Test("Sharpness is the mean squared neighbour difference")
    func exactValues() throws {
        // Alternate columns 0 / 255: every horizontal difference is 255, every vertical one 0.
        let stripes = try buffer(.gray8, width: 16, height: 8) { x, _ in x.isMultiple(of: 2) ? 0 : 255 }
        #expect(try Sharpness.measure(stripes) == 255 * 255)
        // Alternate rows: every vertical difference is 255.
        let rows = try buffer(.gray8, width: 16, height: 8) { _, y in y.isMultiple(of: 2) ? 0 : 255 }
        #expect(try Sharpness.measure(rows) == 255 * 255)
        // A one-pixel checkerboard differs both ways.
        let board = try buffer(.gray8, width: 16, height: 8) { x, y in (x + y).isMultiple(of: 2) ? 0 : 255 }
        #expect(try Sharpness.measure(board) == 2 * 255 * 255)
        let flat = try buffer(.gray8, width: 16, height: 8) { _, _ in 77 }
        #expect(try Sharpness.measure(flat) == 0)
        // A region over the flat left half of a half-striped frame measures 0.
        let half = try buffer(.gray8, width: 32, height: 8) { x, _ in x < 16 ? 50 : (x.isMultiple(of: 2) ? 0 : 255) }
        #expect(try Sharpness.measure(half, region: NormalizedRect(x: 0, y: 0, width: 0.5, height: 1)) == 0)
        #expect(try Sharpness.measure(half) > 0)
    }

    @Test("bayer16 buffers are rejected with advice to demosaic")
    func rejectsBayer() throws {
        let raw = try PixelBuffer(format: .bayer16(.rggb, significantBits: 10), width: 8, height: 8)
        let error = #expect(throws: MeteringError.self) { try Sharpness.measure(raw) }
        #expect(error == .unsupportedFormat(.bayer16(.rggb, significantBits: 10)))
        #expect(error?.description.contains("demosaic raw frames first") == true)
    }
}
