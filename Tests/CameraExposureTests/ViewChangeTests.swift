import CameraCore
@testable import CameraExposure
import CameraMetering
import Foundation
import Testing

/// A view read scene-referred, and the camera coming to rest on another one.
@Suite("View change")
struct ViewChangeTests {
    /// A 128×96 gray8 frame of a view: its top `skyRows` rows at linear `sky`, the rest at
    /// linear 0.05 (both in the view's light), taken at `exposure` (a multiplier on that light),
    /// each pixel then off by up to `noise` 8-bit steps (a pseudo-random draw from `seed`).
    static func view(sky: Double, skyRows: Int = 36, exposure: Double, noise: Int = 0, seed: UInt64 = 0) throws -> SceneSignature {
        let buffer = try PixelBuffer(format: .gray8, width: 128, height: 96)
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        for y in 0..<96 {
            let linear = min((y < skyRows ? sky : 0.05) * exposure, 1)
            let encoded = Int((SRGB.encode(linear) * 255).rounded())
            for x in 0..<128 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let offset = noise == 0 ? 0 : Int(state >> 33) % (2 * noise + 1) - noise
                buffer[plane: 0, x: x, y: y] = UInt8(clamping: encoded + offset)
            }
        }
        return SceneSignature(try FrameAnalyzer(configuration: AnalysisConfiguration(sampleStep: 2)).analyze(buffer), exposure: exposure)
    }

    @Test("One view at exposures 2 EV apart reads as the same view")
    func exposureCancelsOut() throws {
        let distance = try #require(Self.view(sky: 0.2, exposure: 1).distance(to: Self.view(sky: 0.2, exposure: 4)))
        #expect(distance < 0.05, "\(distance) EV")
    }

    @Test("A sky over a third of the view 1 EV darker is 1 EV away, though most of the view is unchanged")
    func aThirdChangedIsAnotherView() throws {
        let distance = try #require(Self.view(sky: 0.2, exposure: 1).distance(to: Self.view(sky: 0.1, exposure: 1)))
        #expect(abs(distance - 1) < 0.05, "\(distance) EV")
    }

    @Test("A sky clipped in one frame and measured in the next is as far as it must have moved: from full scale down")
    func clippedSkyBoundsItsLevel() throws {
        // At exposure 4 the sky (0.5) clips: its level is at least log2(1/4) = −2. Measured at
        // exposure 1 it is log2(0.125) = −3: at least 1 EV darker.
        let clipped = try Self.view(sky: 0.5, exposure: 4)
        let distance = try #require(clipped.distance(to: Self.view(sky: 0.125, exposure: 1)))
        #expect(abs(distance - 1) < 0.05, "\(distance) EV")
        // Measured above the bound, it may not have changed at all.
        let same = try #require(clipped.distance(to: Self.view(sky: 0.5, exposure: 1)))
        #expect(same < 0.05, "\(same) EV")
    }

    @Test("Resting on another view is told once, after a second at rest; the first rest and a moving view are not")
    func restOnAnotherView() throws {
        var change = ViewChange()
        let first = try Self.view(sky: 0.2, exposure: 1), second = try Self.view(sky: 0.05, exposure: 2)
        let toldOnFirst = (0...ViewChange.restFrames).filter { _ in change.update(first) }
        #expect(toldOnFirst.isEmpty, "the first rest only sets the view to compare with")
        // Turning: the sky dims a little every frame, 3 EV over three seconds.
        let turning = try (1...3 * ViewChange.restFrames).map { try Self.view(sky: 0.2 * pow(2, -3 * Double($0) / 90), exposure: 1) }
        #expect(turning.filter { change.update($0) }.isEmpty, "no rest while the view moves")
        let toldOnSecond = (1...3 * ViewChange.restFrames).filter { _ in change.update(second) }
        #expect(toldOnSecond.count == 1, "told at frames \(toldOnSecond)")
    }

    @Test("Under noise that moves the view more than the rest tolerance from one frame to the next, a rest on another view is still told, once")
    func restUnderNoise() throws {
        let noise = 12
        let frameToFrame = try #require(Self.view(sky: 0.2, exposure: 1, noise: noise, seed: 1)
            .distance(to: Self.view(sky: 0.2, exposure: 1, noise: noise, seed: 2)))
        #expect(frameToFrame > ViewChange.restTolerance, "the noise alone moves the view \(frameToFrame) EV")
        var change = ViewChange()
        var seed: UInt64 = 0
        func frame(sky: Double) throws -> SceneSignature {
            seed += 1
            return try Self.view(sky: sky, exposure: 1, noise: noise, seed: seed)
        }
        func told(sky: Double, frames: ClosedRange<Int>) throws -> [Int] {
            try frames.filter { _ in
                let view = try frame(sky: sky)
                return change.update(view)
            }
        }
        let toldOnFirst = try told(sky: 0.2, frames: 0...ViewChange.restFrames)
        let toldOnSecond = try told(sky: 0.05, frames: 1...3 * ViewChange.restFrames)
        #expect(toldOnFirst.isEmpty && toldOnSecond.count == 1, "told at frames \(toldOnFirst) and \(toldOnSecond)")
    }
}
