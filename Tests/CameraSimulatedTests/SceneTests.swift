import CameraCore
import Foundation
import Testing
@testable import CameraSimulated

/// Scenes carry the ground truth the exposure engine is judged on, and their time behaviour
/// (flicker, steps, pans) reaches the sensor.
@Suite struct SceneTests {
    @Test func builtInScenesAreTheEightOfTheContract() {
        #expect(SimulatedScene.builtIn.map(\.name) == [
            "gray-card", "backlit-portrait", "snow-sun", "window-interior", "night-street", "step-change",
            "flicker-office", "pan-into-sun",
        ])
        #expect(SimulatedScene.snowSun.subjectIntent == 1.7)
    }

    @Test(arguments: SimulatedScene.builtIn.map(\.name))
    func everySceneHasASubject(name: String) throws {
        let scene = try #require(SimulatedScene.named(name))
        let image = scene.render(viewSize: PixelSize(width: 96, height: 54))
        #expect(image.subjectMask.contains(1))
        #expect(image.radiance.samples.allSatisfy { $0.isFinite && $0 >= 0 })
    }

    @Test("Mean over median: 0 EV on one surface; a quarter of the subject 16× brighter lifts the mean 2.25 EV")
    func subjectMeanOverMedian() {
        // A flat (not 2:1) HDR image is scaled to the view as it is: the top quarter bright.
        var image = RadianceImage(width: 32, height: 32)
        for y in 0..<32 { for x in 0..<32 { image[x, y] = SIMD3(repeating: y < 8 ? 16 : 1) } }
        let size = PixelSize(width: 32, height: 32)
        let whole = SimulatedScene.hdrImage(image, named: "t.hdr", subject: NormalizedRect(x: 0, y: 0, width: 1, height: 1))
        #expect(abs(whole.subjectMeanOverMedian(viewSize: size) - log2(0.25 * 16 + 0.75)) < 0.05)
        let lower = SimulatedScene.hdrImage(image, named: "t.hdr", subject: NormalizedRect(x: 0, y: 0.5, width: 1, height: 0.5))
        #expect(abs(lower.subjectMeanOverMedian(viewSize: size)) < 1e-6)
    }

    @Test func backlitPortraitIsSixStopsUnderTheSkyWithTheSunSixteenAbove() {
        let image = SimulatedScene.backlitPortrait.render(viewSize: PixelSize(width: 192, height: 108))
        var subject: [Float] = [], sky: [Float] = [], sun: [Float] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = y * image.width + x, luminance = image.radiance.luminance(x: x, y: y)
                if image.subjectMask[i] == 1 { subject.append(luminance) }
                else if image.sunMask[i] == 1 { sun.append(luminance) }
                else if y < image.height / 2 { sky.append(luminance) }
            }
        }
        let subjectMean = subject.reduce(0, +) / Float(subject.count)
        let skyMean = sky.reduce(0, +) / Float(sky.count)
        #expect(abs(log2(skyMean / subjectMean) - 6) < 0.7)
        #expect(log2(sun.max()! / subjectMean) >= 16)
    }

    @Test func flickerBandsAppearAt1_250AndVanishAt1_100() async throws {
        func rowProfileSpread(seconds: Double) async throws -> Double {
            let camera = try rawCamera(.flickerOffice, seconds: seconds, width: 64, height: 96)
            let a = try await camera.nextFrame(), b = try await camera.nextFrame()
            // The desk fills the bottom rows; frame-to-frame ratios cancel the content, keeping the light.
            let ratios = (60..<96).map { row in log(mean(rawValues(a, rows: row..<(row + 1))) / mean(rawValues(b, rows: row..<(row + 1)))) }
            return variance(ratios).squareRoot()
        }
        let banded = try await rowProfileSpread(seconds: 1.0 / 250)
        let clean = try await rowProfileSpread(seconds: 1.0 / 100)
        #expect(banded > 0.1, "1/250 s should show bands, spread \(banded)")
        #expect(clean < 0.02, "1/100 s should not, spread \(clean)")
    }

    @Test func stepChangeRaisesTheLightFourStopsBetweenOneAndTwoSeconds() {
        let light = SimulatedScene.stepChange.illumination
        #expect(abs(light.meanFactor(from: 0.5, duration: 0.01) - 1) < 1e-9)
        #expect(abs(light.meanFactor(from: 1.5, duration: 0.01) - 16) < 1e-9)
        #expect(abs(light.meanFactor(from: 2.5, duration: 0.01) - 1) < 1e-9)
        #expect(abs(light.meanFactor(from: 0.995, duration: 0.01) - 8.5) < 1e-9)   // half the window each side
    }

    @Test func sunEntersThePanAfterTwoSeconds() async throws {
        let camera = try streamingCamera(.panIntoSun, format: smallFormat(96, 54))
        var sunFractionByTime: [(Double, Double)] = []
        for _ in 0..<75 {
            let frame = try await camera.nextFrame()
            let truth = camera.groundTruth(for: frame)
            let fraction = Double(truth.sunMask.filter { $0 == 1 }.count) / Double(truth.sunMask.count)
            sunFractionByTime.append((frame.presentationTime.seconds, fraction))
        }
        #expect(sunFractionByTime.filter { $0.0 < 1.8 }.allSatisfy { $0.1 == 0 })
        #expect(sunFractionByTime.filter { $0.0 > 2.3 }.allSatisfy { $0.1 > 0 })
    }

    @Test("A pan held still at a time keeps that view: the sun in it from the first frame on")
    func heldStillKeepsTheView() async throws {
        let held = SimulatedScene.panIntoSun.heldStill(at: 3)
        #expect(held.pan?.speed == 0)
        for time in [0.0, 3, 10] {
            #expect(held.viewOrigin(at: time, imageWidth: 192, viewWidth: 96)
                    == SimulatedScene.panIntoSun.viewOrigin(at: 3, imageWidth: 192, viewWidth: 96))
        }
        let camera = try streamingCamera(held, format: smallFormat(96, 54))
        let truth = camera.groundTruth(for: try await camera.nextFrame())
        #expect(truth.sunMask.contains(1), "at 3 s the sun is in view (it enters after 2 s)")
    }

    @Test func zoomCropsTheCenter() async throws {
        let camera = try streamingCamera(.grayCard, format: smallFormat(64, 48))
        let wide = try await camera.nextFrame()
        try camera.updateControls { $0.zoomFactor = 2 }
        let zoomed = try await camera.nextFrame()
        func cardFraction(_ frame: Frame) -> Double {
            let mask = camera.groundTruth(for: frame).subjectMask
            return Double(mask.filter { $0 == 1 }.count) / Double(mask.count)
        }
        #expect(abs(cardFraction(wide) - 0.3) < 0.05)
        #expect(cardFraction(zoomed) == 1)
        #expect(zoomed.metadata.zoomFactor == 2)
    }

    @Test func focusingOnTheSubjectSharpensIt() async throws {
        func subjectDetail(lensPosition: Double) async throws -> Double {
            let camera = try rawCamera(.backlitPortrait, seconds: 0.004, width: 192, height: 108)
            try camera.updateControls { $0.lensPosition = lensPosition }
            let frame = try await camera.nextFrame()
            let mask = camera.groundTruth(for: frame).subjectMask
            var energy = 0.0
            // Only pixels well inside the subject, so light bleeding in from the sky does not count.
            func inside(_ x: Int, _ y: Int) -> Bool {
                (-6...6).allSatisfy { d in mask[(y + d) * 192 + x] == 1 && mask[y * 192 + x + d] == 1 }
            }
            for y in 6..<(108 - 6) {
                for x in 6..<(192 - 8) where inside(x, y) && inside(x + 2, y) {
                    energy += abs(Double(frame.buffer[sample16: x + 2, y: y]) - Double(frame.buffer[sample16: x, y: y]))
                }
            }
            return energy
        }
        // The subject stands 1.5 m away: 0.667 dioptres, lens position 1 − 0.667/10.
        let focused = try await subjectDetail(lensPosition: 1 - 0.667 / 10)
        let nearest = try await subjectDetail(lensPosition: 0)
        #expect(focused > nearest * 1.3)
    }
}
