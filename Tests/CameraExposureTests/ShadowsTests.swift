import CameraCore
@testable import CameraExposure
import CameraMetering
import CameraSimulated
import Testing

/// The shadows control: a shift of the tone curve's slope at and below the subject
/// (`SunAwareExposure.contrast(lifting:shadows:)`), set through `AutoExposure`.
@Suite("The shadows control")
struct ShadowsTests {
    @Test("Shadows 0 leaves the contrast the lift chose", arguments: [(-1.0, 1.0), (0, 1), (2, 0.8), (3.5, 0.65), (6, 0.65)])
    func zeroLeavesTheAutomaticContrast(lift: Double, contrast: Double) {
        #expect(abs(SunAwareExposure.contrast(lifting: lift, shadows: 0) - contrast) < 1e-12)
        #expect(SunAwareExposure.contrast(lifting: lift, shadows: 0) == SunAwareExposure.contrast(lifting: lift))
    }

    @Test("Each step of shadows takes 0.1 off the contrast (positive) or gives it back, within 0.4…1", arguments: [
        (2.0, 1.0, 0.7), (2, 2, 0.6), (2, -1, 0.9), (2, -2, 1.0), (2, 0.5, 0.75),
        (0, -2, 1.0), (0, 2, 0.8), (6, 2, 0.45), (6, -2, 0.85),
    ])
    func stepsMoveTheContrast(lift: Double, shadows: Double, contrast: Double) {
        #expect(abs(SunAwareExposure.contrast(lifting: lift, shadows: shadows) - contrast) < 1e-12)
    }

    @Test("The contrast stays within 0.4…1 and falls as the shadows rise, for any lift")
    func clampedAndMonotonic() {
        for lift in stride(from: -2.0, through: 8, by: 0.5) {
            let contrasts = stride(from: -2.0, through: 2, by: 0.25).map { SunAwareExposure.contrast(lifting: lift, shadows: $0) }
            #expect(contrasts.allSatisfy { SunAwareExposure.shadowsContrastRange.contains($0) }, "lift \(lift): \(contrasts)")
            #expect(zip(contrasts, contrasts.dropFirst()).allSatisfy { $0 >= $1 }, "lift \(lift): \(contrasts)")
        }
        #expect(SunAwareExposure.contrast(lifting: 20, shadows: 2) >= 0.4)
    }

    @Test("Outside −2…2 the shadows throw, naming the range")
    func range() {
        var engine = AutoExposure(program: ExposureProgram(durationRange: 0.0001...0.033, analogueGainRange: 1...16, maximumDigitalGain: 4))
        let error = #expect(throws: ValueOutOfRangeError.self) { try engine.setShadows(2.5) }
        #expect(error?.description == "shadows 2.5 is outside the supported range -2…2 — choose a value in that range")
        #expect(throws: ValueOutOfRangeError.self) { try engine.setShadows(.nan) }
        #expect(engine.shadows == 0)
    }

    @Test("On the backlit portrait +2 lowers the rendered contrast by 0.2 and −2 raises it, the exposure unchanged; average metering ignores it")
    func closedLoop() async throws {
        func settle(shadows: Double, metering: MeteringMode = .sunAware) async throws -> (total: Double, gain: RenderGain) {
            let camera = try AutoExposureTests.camera(.backlitPortrait)
            var engine = AutoExposureTests.engine(for: camera)
            try engine.setShadows(shadows)
            engine.setMeteringMode(metering)
            let last = try await AutoExposureTests.run(&engine, camera, frames: 30).last!
            return (last.sensor, engine.renderGain)
        }
        let neutral = try await settle(shadows: 0), open = try await settle(shadows: 2), deep = try await settle(shadows: -2)
        #expect(neutral.gain.ev > 3, "the test needs a lifted subject: \(neutral.gain.ev) EV")
        #expect(abs(open.gain.contrast - (neutral.gain.contrast - 0.2)) < 1e-9, "\(open.gain.contrast) against \(neutral.gain.contrast)")
        #expect(abs(deep.gain.contrast - (neutral.gain.contrast + 0.2)) < 1e-9, "\(deep.gain.contrast) against \(neutral.gain.contrast)")
        #expect(open.total == neutral.total && deep.total == neutral.total && open.gain.ev == neutral.gain.ev, "the shadows move the render only")
        #expect(try await settle(shadows: 2, metering: .average).gain == .none)
    }

    @Test("A locked exposure's picture takes a new shadows setting at once")
    func locked() async throws {
        let camera = try AutoExposureTests.camera(.backlitPortrait)
        var engine = AutoExposureTests.engine(for: camera)
        _ = try await AutoExposureTests.run(&engine, camera, frames: 20) { index, engine in
            if index == 15 { try engine.setMode(.locked) }
        }
        let before = engine.renderGain
        try engine.setShadows(1)
        #expect(abs(engine.renderGain.contrast - (before.contrast - 0.1)) < 1e-9 && engine.renderGain.ev == before.ev)
    }
}
