import CameraCore
@testable import CameraISP
import Foundation
import Testing

@Suite("Merging a bracket of raw frames")
struct BracketMergeTests {
    static let (width, height) = (256, 192)

    /// Four grey patches across the frame, dark to bright: 0.003, 0.03, 0.18, 0.7 of the reference's white.
    static let patches: [Double] = [0.003, 0.03, 0.18, 0.7]
    static let patchScene: SyntheticBracket.Scene = { x, _ in patches[min(max(x, 0) / 64, 3)] }

    /// Blocks of 8×8 pixels at levels 0.02…0.5 from a hash of the block: edges everywhere, for alignment.
    static let blockScene: SyntheticBracket.Scene = { x, y in
        var random = SplitMix64(seed: UInt64(bitPattern: Int64((x >> 3) &* 7919 &+ (y >> 3) &* 104_729)))
        return 0.02 + 0.48 * Double(random.next() >> 11) / Double(1 << 53)
    }

    /// Pixels inside patch `index`, 4 pixels in from its edges.
    static func patchPixels(_ index: Int) -> [(x: Int, y: Int)] {
        (4..<(height - 4)).flatMap { y in (64 * index + 4..<64 * index + 60).map { x in (x, y) } }
    }

    @Test("a static bracket merges to the scene, the dark patch at least 6 dB less noisy than the reference alone")
    func staticScene() throws {
        let frames = try SyntheticBracket.bracket(width: Self.width, height: Self.height, scene: Self.patchScene)
        let merged = try BracketMerger().merge(frames, reference: 1)
        #expect(merged.shifts == [.zero, .zero, .zero])
        for (index, level) in Self.patches.enumerated() {
            let pixels = Self.patchPixels(index)
            let (mean, deviation) = meanAndDeviation(pixels.map { merged.value(x: $0.x, y: $0.y) })
            let standardError = deviation / Double(pixels.count).squareRoot()
            #expect(abs(mean - level) < max(4 * standardError, 0.002 * level), "patch \(level): merged mean \(mean) ± \(standardError)")
        }
        let dark = Self.patchPixels(0)
        let referenceNoise = meanAndDeviation(dark.map { SyntheticBracket.normalised(frames[1], x: $0.x, y: $0.y) }).deviation
        let mergedNoise = meanAndDeviation(dark.map { merged.value(x: $0.x, y: $0.y) }).deviation
        let gain = 20 * log10(referenceNoise / mergedNoise)
        #expect(gain >= 6, "noise \(referenceNoise) alone, \(mergedNoise) merged: \(gain) dB")
    }

    @Test("a highlight clipped in the reference comes back from the −2 EV frame", arguments: [1.5, 2.5, 3.5])
    func highlightRecovery(level: Double) throws {
        let frames = try SyntheticBracket.bracket(width: Self.width, height: Self.height) { x, _ in x < 128 ? 0.2 : level }
        let merged = try BracketMerger().merge(frames, reference: 1)
        #expect(merged.headroom == 4)
        let pixels = (8..<(Self.height - 8)).flatMap { y in (136..<248).map { x in (x, y) } }
        let values = pixels.map { merged.value(x: $0.0, y: $0.1) }
        let mean = meanAndDeviation(values).mean
        #expect(abs(mean - level) < 0.005 * level, "merged highlight \(mean) for \(level)")
        #expect(values.allSatisfy { $0 > 1 }, "lowest \(values.min()!)")
        #expect(pixels.allSatisfy { merged.contributors(x: $0.0, y: $0.1) == 0b001 })
    }

    @Test("a bracket shifted by the camera is aligned to exactly that shift and merges without doubled edges",
          arguments: [[BayerShift(x: 6, y: -4), .zero, BayerShift(x: 6, y: -4)],
                      [BayerShift(x: -12, y: 10), .zero, BayerShift(x: 30, y: -20)]])
    func shiftedBracket(shifts: [BayerShift]) throws {
        let frames = try SyntheticBracket.bracket(width: Self.width, height: Self.height, shifts: shifts,
                                                  scenes: [Self.blockScene, Self.blockScene, Self.blockScene])
        let merged = try BracketMerger().merge(frames, reference: 1)
        #expect(merged.shifts == shifts)
        #expect(merged.ghostRejectedFraction < 0.01)
        // Off by more than 6 standard deviations of the reference alone: a doubled edge (blocks differ by up to 0.48).
        var doubled = 0
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let truth = Self.blockScene(x, y)
                let deviation = SyntheticBracket.noise.variance(at: truth).squareRoot()
                if abs(merged.value(x: x, y: y) - truth) > 6 * deviation { doubled += 1 }
            }
        }
        #expect(doubled == 0)
    }

    /// A dark square on a grey background at `position`, 24 pixels across.
    static func square(at position: (x: Int, y: Int)) -> SyntheticBracket.Scene {
        { x, y in (position.x..<position.x + 24).contains(x) && (position.y..<position.y + 24).contains(y) ? 0.02 : 0.2 }
    }

    @Test("a square that moved after the reference comes from the reference alone, where it was and where it went")
    func movedSquare() throws {
        let (was, went) = ((51, 61), (141, 101))
        let frames = try SyntheticBracket.bracket(width: Self.width, height: Self.height,
                                                  scenes: [Self.square(at: went), Self.square(at: was), Self.square(at: went)])
        let merged = try BracketMerger().merge(frames, reference: 1)
        #expect(merged.shifts == [.zero, .zero, .zero])
        for origin in [was, went] {
            for y in origin.1..<origin.1 + 24 {
                for x in origin.0..<origin.0 + 24 {
                    #expect(merged.contributors(x: x, y: y) == 0b010, "(\(x), \(y))")
                    #expect(abs(merged.value(x: x, y: y) - SyntheticBracket.normalised(frames[1], x: x, y: y)) < 1e-4, "(\(x), \(y))")
                }
            }
        }
    }

    @Test("a square in a different place in each frame is left out of each frame it moved in")
    func movingSquare() throws {
        let positions = [(31, 41), (101, 61), (171, 121)]
        let frames = try SyntheticBracket.bracket(width: Self.width, height: Self.height, scenes: positions.map(Self.square(at:)))
        let merged = try BracketMerger().merge(frames, reference: 1)
        #expect(merged.shifts == [.zero, .zero, .zero])
        for (frame, origin) in positions.enumerated() {
            var bits: UInt8 = 0, values: [Double] = []
            for y in origin.1..<origin.1 + 24 {
                for x in origin.0..<origin.0 + 24 {
                    bits |= merged.contributors(x: x, y: y)
                    values.append(merged.value(x: x, y: y))
                }
            }
            let mean = meanAndDeviation(values).mean
            if frame == 1 {
                #expect(bits == 0b010)
                #expect(abs(mean - 0.02) < 0.002, "the reference's square: \(mean)")
            } else {
                #expect(bits & (1 << frame) == 0, "frame \(frame) contributed its square")
                #expect(abs(mean - 0.2) < 0.004, "background where frame \(frame)'s square was: \(mean)")
            }
        }
    }

    @Test("static noise alone leaves under 1% of samples out as ghosts",
          arguments: [0.002, 0.05, 0.3, 0.9])
    func falseRejections(level: Double) throws {
        let frames = try SyntheticBracket.bracket(width: Self.width, height: Self.height, seed: 7) { _, _ in level }
        let merged = try BracketMerger().merge(frames, reference: 1)
        #expect(merged.shifts == [.zero, .zero, .zero])
        #expect(merged.ghostRejectedFraction < 0.01, "\(merged.ghostRejectedFraction) rejected at \(level)")
    }

    @Test("3 standard deviations is the lowest half step that keeps false rejections of a static bracket under 1%",
          arguments: [(2.5, false), (3.0, true)])
    func ghostThreshold(threshold: Double, underOnePercent: Bool) throws {
        let frames = try SyntheticBracket.bracket(width: Self.width, height: Self.height, scene: Self.patchScene)
        let merged = try BracketMerger(ghostThreshold: threshold).merge(frames, reference: 1)
        #expect((merged.ghostRejectedFraction < 0.01) == underOnePercent, "\(merged.ghostRejectedFraction) rejected at k = \(threshold)")
        #expect(BracketMerger().ghostThreshold == 3)
    }

    @Test("the merged frame develops through the image pipeline, 1.0 at the reference's white")
    func develops() throws {
        let frames = try SyntheticBracket.bracket(width: 64, height: 64) { _, _ in 0.18 }
        let merged = try BracketMerger().merge(frames, reference: 1)
        #expect(merged.buffer.format == .bayer16(.rggb, significantBits: 16))
        #expect(merged.calibration.whiteLevel - merged.calibration.blackLevel == 16131 && merged.calibration.blackLevel == 1008)
        var pipeline = ImagePipeline()
        let metadata = FrameMetadata(exposureDuration: .zero, analogueGain: 1, baseISO: 50, rawCalibration: merged.calibration)
        try pipeline.develop(Frame(buffer: merged.buffer, presentationTime: .zero, sequenceNumber: 0, metadata: metadata))
        #expect(abs(Double(pipeline.developed[32, 32].y) - 0.18) < 0.005)
    }

    @Test("a noise profile from the sensor: gain / full well per unit of signal, (gain · read noise / full well)² at none",
          arguments: [1.0, 4.0])
    func noiseProfile(gain: Double) {
        let profile = NoiseProfile(fullWellElectrons: 6000, readNoiseElectrons: 2.5, analogueGain: gain)
        let readDeviation: Double = gain * 2.5 / 6000
        #expect(abs(profile.scale - gain / 6000) < 1e-15)
        #expect(abs(profile.offset - readDeviation * readDeviation) < 1e-15)
    }
}
