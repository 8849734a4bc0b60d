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

    @Test("The sun-aware AE puts the subject within ⅓ EV of its intent with no more than 2% clipped, or the subject wins; it settles and does not oscillate",
          arguments: [SimulatedScene.grayCard, .backlitPortrait, .snowSun, .windowInterior, .nightStreet, .panIntoSun])
    func sunAware(scene: SimulatedScene) async throws {
        let evaluation = ClosedLoopEvaluation(frameCount: scene.pan == nil ? 45 : 100, size: PixelSize(width: 160, height: 90))
        var result = try await evaluation.run(scene, algorithm: SunAwareExposure())
        result.highlightBudgetCost = try await evaluation.highlightBudgetCost(scene, at: result.samples.last?.time ?? 0)
        #expect(result.verdict?.meetsBound == true,
                "\(scene.name): subject ΔEV \(result.subjectEvError), \(result.clippedFraction) clipped, budget cost \(result.highlightBudgetCost ?? .nan)")
        #expect(result.oscillations == 0)
        #expect(result.convergeFrames <= (scene.pan == nil ? 10 : 90))
    }

    @Test("Another noise seed gives other frames but the same verdict: the backlit portrait within ⅓ EV, still")
    func otherSeed() async throws {
        var runs: [ClosedLoopEvaluation.Result] = []
        for seed: UInt64 in [1, 2] {
            runs.append(try await ClosedLoopEvaluation(frameCount: 45, size: PixelSize(width: 160, height: 90), seed: seed)
                .run(.backlitPortrait, algorithm: SunAwareExposure()))
        }
        #expect(runs[0].samples.map(\.subjectEV) != runs[1].samples.map(\.subjectEV), "the seed reaches the sensor noise")
        for run in runs {
            #expect(abs(run.subjectEvError) <= 1.0 / 3 && run.oscillations == 0, "subject ΔEV \(run.subjectEvError)")
        }
    }

    @Test("The seed's loop leaves a backlit subject and a room before a window at least 1.5 EV dark",
          arguments: [SimulatedScene.backlitPortrait, .windowInterior])
    func naiveFails(scene: SimulatedScene) async throws {
        let result = try await evaluation.run(scene, algorithm: SeedExposureLoop(centerCrop: false))
        #expect(result.subjectEvError <= -1.5, "\(scene.name): \(result.subjectEvError)")
    }

    @Test("On the backlit portrait the subject wins over the sky, and the clipping is reported")
    func subjectWins() async throws {
        let result = try await evaluation.run(.backlitPortrait, algorithm: SunAwareExposure())
        #expect(result.clippedFraction > 0.3)
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
        #expect(abs(run.subjectEvError) <= 1.0 / 3)
    }

    @Test("The report's reference frame shows the subject at its intent: the grey card at mid-grey, 0.18 linear, sRGB 118")
    func referenceThumbnail() async throws {
        let thumbnail = try await evaluation.referenceThumbnail(.grayCard)
        #expect(thumbnail.width == 160 && thumbnail.height == 90)
        let green = Int(thumbnail[plane: 0, x: 80 * 4 + 1, y: 45])
        #expect(abs(green - 118) <= 6, "centre green \(green)")
    }

    @Test("The highlight budget's cost, on ground truth: nothing on the grey card; the backlit portrait's sky costs its subject 4 EV")
    func highlightBudgetCost() async throws {
        #expect(try await evaluation.highlightBudgetCost(.grayCard) == 0)
        let backlit = try await evaluation.highlightBudgetCost(.backlitPortrait)
        #expect(abs(backlit - 4) < 0.25, "\(backlit) EV")
    }

    @Test("A pan's budget cost is measured on its view at the time given, held still: 4 s into the pan into the sun (a 120-frame run's end) the sky costs the subject over 1 EV")
    func panBudgetCostIsOfOneView() async throws {
        let cost = try await evaluation.highlightBudgetCost(.panIntoSun, at: 4)
        #expect(cost > SunAwareExposure.subjectWinsMargin && cost < ClosedLoopEvaluation.budgetSearchDepth, "\(cost) EV")
    }

    @Test("A pan from ground as bright as the sky to ground 8× darker: no cost at its start, 0.59 EV at its end")
    func panBudgetCostFollowsTheView() async throws {
        // Ground at 8000 cd/m² along the first half of the strip and 1000 along the second, under a
        // sky at 8000: the subject must go under its intent by log2(8 × 0.18 / 0.955) = 0.59 EV for
        // the sky not to clip once the view has reached the dark ground (after 1 s).
        let scene = SimulatedScene(name: "darkening-ground", summary: "Ground darkening under a steady sky.", subjectIntent: 0,
                                   pan: SimulatedScene.Pan(imageWidthFactor: 2, startTime: 0, speed: 1)) { size in
            SceneImage(width: size.width, height: size.height) { u, v in
                v < 0.5 ? .init(radiance: SIMD3(repeating: 8000), depth: 1000)
                    : .init(radiance: SIMD3(repeating: u < 0.5 ? 8000 : 1000), albedo: 0.18, depth: 5, isSubject: true)
            }
        }
        #expect(try await evaluation.highlightBudgetCost(scene, at: 0) == 0)
        let end = try await evaluation.highlightBudgetCost(scene, at: 2)
        #expect(abs(end - 0.59) < 0.1, "\(end) EV")
    }

    @Test("The judge counts convergence and oscillations from the samples")
    func judge() {
        let evs = [0.0, -2, -3.4, -2.85, -3.1, -3, -3, -3, -3, -3, -3, -3]
        let samples = evs.enumerated().map { ClosedLoopEvaluation.Sample(frame: $0.offset, time: Double($0.offset) / 30, exposureEV: $0.element, subjectEV: 0, clippedFraction: 0) }
        let result = ClosedLoopEvaluation.judge(samples, scene: "s", algorithm: "a")
        #expect(result.convergeFrames == 3)
        #expect(result.oscillations == 0)
        // Ringing after first reaching the target: −0.5, +0.5, −0.5 EV is two changes of sign.
        let ringing = [0.0, -3, -3.5, -2.5, -3.5, -3, -3, -3, -3, -3, -3, -3].enumerated().map {
            ClosedLoopEvaluation.Sample(frame: $0.offset, time: Double($0.offset) / 30, exposureEV: $0.element, subjectEV: 0, clippedFraction: 0)
        }
        #expect(ClosedLoopEvaluation.judge(ringing, scene: "s", algorithm: "a").oscillations == 2)
        // Settled, then cycling between two exposures 0.4 EV apart, two frames at each, to the end:
        // it converges only at the last of its low frames.
        let cycling = ([0.0, -3, -3, -3] + (0..<5).flatMap { _ in [-3.4, -3.4, -3, -3] }).enumerated().map {
            ClosedLoopEvaluation.Sample(frame: $0.offset, time: Double($0.offset) / 30, exposureEV: $0.element, subjectEV: 0, clippedFraction: 0)
        }
        let cycled = ClosedLoopEvaluation.judge(cycling, scene: "s", algorithm: "a")
        #expect(cycled.convergeFrames == cycling.count - 2 && cycled.oscillations == 0)
    }
}
