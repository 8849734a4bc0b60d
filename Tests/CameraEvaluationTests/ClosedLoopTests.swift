import CameraCore
@testable import CameraEvaluation
import CameraExposure
import CameraSimulated
import Foundation
import Testing

/// The exposure algorithms in closed loop on the simulated camera, judged against ground truth.
@Suite("Closed-loop auto-exposure")
struct ClosedLoopTests {
    let evaluation = ClosedLoopEvaluation(frameCount: 45, size: PixelSize(width: 160, height: 90))

    @Test("The sun-aware AE puts the subject in the natural band of its intent in the output with no more than 2% clipped; it settles and does not oscillate",
          arguments: [SimulatedScene.grayCard, .backlitPortrait, .snowSun, .windowInterior, .nightStreet, .panIntoSun])
    func sunAware(scene: SimulatedScene) async throws {
        let evaluation = ClosedLoopEvaluation(frameCount: scene.pan == nil ? 45 : 100, size: PixelSize(width: 160, height: 90))
        let result = try await evaluation.run(scene, algorithm: SunAwareExposure())
        #expect(result.verdict == .withinBand, "\(scene.name): subject ΔEV \(result.subjectEvError), \(result.clippedFraction) clipped")
        #expect(result.oscillations == 0)
        #expect(result.convergeFrames <= (scene.pan == nil ? 10 : 90))
    }

    @Test("No halo on the backlit portrait: beside the head, away from the sun, the output sky within 16 px of the outline is within 0.15 EV of the sky 64 px off")
    func noHaloBesideTheSubject() async throws {
        let size = PixelSize(width: 1280, height: 720)
        let result = try await ClosedLoopEvaluation(frameCount: 20, size: size).run(.backlitPortrait, algorithm: SunAwareExposure())
        let output = try #require(result.output), truth = try #require(result.truth)
        #expect(result.renderGainEV > 3, "the subject is lifted \(result.renderGainEV) EV: the test needs a strong lift")
        let reader = try #require(output.pixelReader())
        func luminance(_ x: Int, _ y: Int) -> Double {
            let pixel = reader.pixel(x: x, y: y)
            return ColorTemperature.luminance(SIMD3(SRGB.decode(Double(pixel.red) / 255), SRGB.decode(Double(pixel.green) / 255),
                                             SRGB.decode(Double(pixel.blue) / 255)))
        }
        var rows = 0
        // Rows through the head; the first subject pixel from the left is its outline, the sun on its right.
        for y in stride(from: size.height * 30 / 100, through: size.height * 42 / 100, by: 8) {
            guard let edge = (0..<size.width).first(where: { truth.subjectMask[y * size.width + $0] > 0 }), edge > 64 else { continue }
            rows += 1
            let far = luminance(edge - 64, y)
            for distance in 1...16 {
                let near = luminance(edge - distance, y)
                #expect(abs(log2(near / far)) <= 0.15, "row \(y), \(distance) px from the outline: \(near) against \(far) 64 px off")
            }
        }
        #expect(rows > 10)
    }

    @Test("Two parts: on the backlit portrait the sensor keeps the sky and the render gain lifts the subject 4 EV; the grey card needs no lift")
    func twoPartExposure() async throws {
        let backlit = try await evaluation.run(.backlitPortrait, algorithm: SunAwareExposure())
        #expect(backlit.renderGainEV > 3.5 && backlit.renderGainEV < 5, "\(backlit.renderGainEV) EV")
        #expect(backlit.clippedFraction <= SunAwareExposure.highlightBudget)
        let card = try await evaluation.run(.grayCard, algorithm: SunAwareExposure())
        #expect(card.renderGainEV < 0, "the card is the brightest thing in view: the sensor takes it to the ceiling, the render brings it down")
    }

    @Test("On a sensor with a tenth of the full well the highlights still win: the sky is kept, the lift stops at the noise floor")
    func highlightsBeatTheNoiseFloor() async throws {
        let noisy = SensorModel(fullWellElectrons: 600)
        let settled = try await evaluation.run(.backlitPortrait, algorithm: SunAwareExposure())
        let result = try await ClosedLoopEvaluation(frameCount: 45, size: PixelSize(width: 160, height: 90), sensor: noisy)
            .run(.backlitPortrait, algorithm: SunAwareExposure())
        #expect(abs(result.sensorExposureEV - settled.sensorExposureEV) < 0.5,
                "sensor at \(result.sensorExposureEV) EV, \(settled.sensorExposureEV) on the usual sensor")
        #expect(result.clippedFraction <= SunAwareExposure.highlightBudget)
        // The floor at 600 e⁻ lies log2(10) ≈ 3.3 EV higher in the frame; the subject sits about 1 EV under it.
        #expect(result.renderGainEV < settled.renderGainEV - 0.5, "lift \(result.renderGainEV) EV, \(settled.renderGainEV) on the usual sensor")
        #expect(result.subjectEvError < settled.subjectEvError - 0.5, "the subject darker: \(result.subjectEvError) against \(settled.subjectEvError)")
    }

    @Test("With the plain global curve the subject still reaches its intent: the render gain does the work, the local tone mapper the contrast")
    func globalCurve() async throws {
        let result = try await ClosedLoopEvaluation(frameCount: 45, size: PixelSize(width: 160, height: 90), toneMapping: .global)
            .run(.backlitPortrait, algorithm: SunAwareExposure())
        #expect(ExposureVerdict.band.contains(result.subjectEvError), "\(result.subjectEvError)")
    }

    @Test("TMQI is measured on a 320x180 run's output and left out below TMQI's window")
    func tmqi() async throws {
        let large = try await ClosedLoopEvaluation(frameCount: 12, size: PixelSize(width: 320, height: 180)).run(.backlitPortrait, algorithm: SunAwareExposure())
        #expect((large.tmqi ?? 0) > 0.5 && (large.tmqi ?? 1) <= 1)
        let small = try await evaluation.run(.grayCard, algorithm: SunAwareExposure())
        #expect(small.tmqi == nil)
    }

    @Test("OpenCV's tone mappers tone-map the sun AE's last frame and are judged as the runs are")
    func peers() async throws {
        let run = try await evaluation.run(.backlitPortrait, algorithm: SunAwareExposure())
        let peers = try evaluation.peers(of: run, scene: .backlitPortrait)
        #expect(peers.map(\.algorithm) == OpenCVToneMappers.names)
        for peer in peers {
            #expect(peer.scene == run.scene && peer.sensorExposureEV == run.sensorExposureEV)
            #expect(peer.subjectEvError.isFinite && peer.subjectEvError < 0, "\(peer.algorithm): \(peer.subjectEvError) — global operators leave a backlit subject dark")
        }
    }

    @Test("Another noise seed gives other frames but the same verdict: the backlit portrait in the natural band, still")
    func otherSeed() async throws {
        var runs: [ClosedLoopEvaluation.Result] = []
        for seed: UInt64 in [1, 2] {
            runs.append(try await ClosedLoopEvaluation(frameCount: 45, size: PixelSize(width: 160, height: 90), seed: seed)
                .run(.backlitPortrait, algorithm: SunAwareExposure()))
        }
        #expect(runs[0].samples.map(\.subjectEV) != runs[1].samples.map(\.subjectEV), "the seed reaches the sensor noise")
        for run in runs {
            #expect(ExposureVerdict.band.contains(run.subjectEvError) && run.oscillations == 0, "subject ΔEV \(run.subjectEvError)")
        }
    }

    @Test("The seed's loop leaves a backlit subject and a room before a window at least 1.5 EV dark",
          arguments: [SimulatedScene.backlitPortrait, .windowInterior])
    func naiveFails(scene: SimulatedScene) async throws {
        let result = try await evaluation.run(scene, algorithm: SeedExposureLoop(centerCrop: false))
        #expect(result.subjectEvError <= -1.5, "\(scene.name): \(result.subjectEvError)")
    }

    @Test("After each 4 EV step the sun-aware AE settles within 6 frames, without oscillating")
    func stepChange() async throws {
        let run = try await ClosedLoopEvaluation(frameCount: 90, size: PixelSize(width: 160, height: 90))
            .run(.stepChange, algorithm: SunAwareExposure())
        let exposure = run.samples.map(\.exposureEV)
        // Light steps up at frame 30 (t = 1 s at 30 fps) and down at frame 60.
        for (step, settledRange) in [(30, 50..<60), (60, 80..<90)] {
            let settled = exposure[settledRange].sorted()[settledRange.count / 2]
            let lastOff = (step..<settledRange.upperBound).last { abs(exposure[$0] - settled) > 1.0 / 6 }
            let frames = lastOff.map { $0 + 1 - step } ?? 0
            #expect(frames <= 6, "step at frame \(step): settled after \(frames) frames")
            #expect(abs(settled - exposure[step - 1] + (step == 30 ? 4 : -4)) < 0.25, "the exposure moved by the step")
        }
        #expect(run.oscillations == 0)
        #expect(ExposureVerdict.band.contains(run.subjectEvError))
    }

    @Test("Settled, no frame's sensor or output exposure is a quarter stop from the frame before where the scene does not jump: across the pan into the sun, between the light steps")
    func smoothWhileSettled() async throws {
        let evaluation = ClosedLoopEvaluation(frameCount: 200, size: PixelSize(width: 160, height: 90))
        // Frames that may jump: the first second's convergence, and 6 frames after each of the step-change scene's light steps.
        for (scene, jumps) in [(SimulatedScene.panIntoSun, [Range<Int>]()), (.stepChange, [30..<36, 60..<66])] {
            let samples = try await evaluation.run(scene, algorithm: SunAwareExposure()).samples
            for index in 31..<samples.count where !jumps.contains(where: { $0.contains(index) }) {
                let (before, frame) = (samples[index - 1], samples[index])
                let sensor = frame.exposureEV - before.exposureEV
                let output = sensor + frame.renderGainEV - before.renderGainEV
                #expect(abs(sensor) <= SunAwareExposure.smoothStep + 1e-9 && abs(output) <= SunAwareExposure.smoothStep + 1e-9,
                        "\(scene.name) frame \(index): sensor \(sensor) EV, output \(output) EV")
            }
        }
    }

    @Test("The report's reference frame shows the subject at its intent: the grey card at mid-grey, 0.18 linear, sRGB 118")
    func referenceThumbnail() async throws {
        let thumbnail = try await evaluation.referenceThumbnail(.grayCard)
        #expect(thumbnail.width == 160 && thumbnail.height == 90)
        let green = Int(thumbnail[plane: 0, x: 80 * 4 + 1, y: 45])
        #expect(abs(green - 118) <= 6, "centre green \(green)")
    }

    @Test("The judge counts convergence and oscillations from the samples")
    func judge() {
        let evs = [0.0, -2, -3.4, -2.85, -3.1, -3, -3, -3, -3, -3, -3, -3]
        let samples = evs.enumerated().map { ClosedLoopEvaluation.Sample(frame: $0.offset, time: Double($0.offset) / 30, exposureEV: $0.element, renderGainEV: 0, subjectEV: 0, clippedFraction: 0, crushedFraction: 0) }
        let result = ClosedLoopEvaluation.judge(samples, scene: "s", algorithm: "a")
        #expect(result.convergeFrames == 3)
        #expect(result.oscillations == 0)
        // Ringing after first reaching the target: −0.5, +0.5, −0.5 EV is two changes of sign.
        let ringing = [0.0, -3, -3.5, -2.5, -3.5, -3, -3, -3, -3, -3, -3, -3].enumerated().map {
            ClosedLoopEvaluation.Sample(frame: $0.offset, time: Double($0.offset) / 30, exposureEV: $0.element, renderGainEV: 0, subjectEV: 0, clippedFraction: 0, crushedFraction: 0)
        }
        #expect(ClosedLoopEvaluation.judge(ringing, scene: "s", algorithm: "a").oscillations == 2)
        // Settled, then cycling between two exposures 0.4 EV apart, two frames at each, to the end:
        // it converges only at the last of its low frames.
        let cycling = ([0.0, -3, -3, -3] + (0..<5).flatMap { _ in [-3.4, -3.4, -3, -3] }).enumerated().map {
            ClosedLoopEvaluation.Sample(frame: $0.offset, time: Double($0.offset) / 30, exposureEV: $0.element, renderGainEV: 0, subjectEV: 0, clippedFraction: 0, crushedFraction: 0)
        }
        let cycled = ClosedLoopEvaluation.judge(cycling, scene: "s", algorithm: "a")
        #expect(cycled.convergeFrames == cycling.count - 2 && cycled.oscillations == 0)
    }
}

/// What the local tone mapping adds over the global curve on the same frame and render gain.
@Suite("Local against global tone mapping")
struct LocalToneMappingTests {
    /// The standard deviation of log2 luminance over the rows above the head (the sky, the sun
    /// left out) of a bgra8 picture.
    static func skyContrast(_ picture: PixelBuffer, truth: SimulatedGroundTruth) throws -> Double {
        let rgb = picture.rgb8(), linear = SRGB.linearOf8Bit
        var levels: [Double] = []
        for y in 0..<(picture.height * 25 / 100) {
            for x in 0..<picture.width where truth.sunMask[y * picture.width + x] == 0 && truth.subjectMask[y * picture.width + x] == 0 {
                let i = (y * picture.width + x) * 3
                let luminance = Double(BT709.redWeight * linear[Int(rgb[i])] + BT709.greenWeight * linear[Int(rgb[i + 1])]
                                       + BT709.blueWeight * linear[Int(rgb[i + 2])])
                levels.append(log2(max(luminance, 1e-4)))
            }
        }
        let mean = levels.reduce(0, +) / Double(levels.count)
        return (levels.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(levels.count)).squareRoot()
    }

    @Test("On backlit-portrait's sky the local tone mapping keeps more of the sky's gradation than the global curve on the same frame")
    func skyKeepsItsGradation() async throws {
        let result = try await ClosedLoopEvaluation(frameCount: 30, size: PixelSize(width: 320, height: 180)).run(.backlitPortrait, algorithm: SunAwareExposure())
        let local = try #require(result.output), global = try #require(result.globalThumbnail), truth = try #require(result.truth)
        #expect(global.width == local.width && global.height == local.height)
        let (localContrast, globalContrast) = (try Self.skyContrast(local, truth: truth), try Self.skyContrast(global, truth: truth))
        // Today both keep 0.082 EV: the sky is a smooth gradient the guided filter's base follows, so
        // the detail the local mapper keeps is nil there (issue 35's local curves are still to come).
        withKnownIssue("the local part does not show on the sky yet") {
            #expect(localContrast > globalContrast * 1.1, "local \(localContrast) EV, global \(globalContrast) EV")
        }
    }
}
