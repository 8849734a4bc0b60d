import CameraCore
import CameraMetering
@testable import CameraExposure
import Foundation
import Testing

@Suite("Exposure program: duration first, then analogue, then digital gain")
struct ExposureProgramTests {
    let program = ExposureProgram(durationRange: (1.0 / 8000)...(1.0 / 30), analogueGainRange: 1...64, maximumDigitalGain: 16)

    @Test("Short totals are all duration at gain 1", arguments: [1.0 / 4000, 1.0 / 500, 1.0 / 60])
    func durationFirst(total: Double) {
        let settings = program.split(total)
        #expect(abs(settings.duration - total) < 1e-12)
        #expect(settings.analogueGain == 1)
        #expect(settings.digitalGain == 1)
    }

    @Test("Past the longest duration the gain makes up the rest, analogue before digital")
    func gainAfterDuration() {
        let settings = program.split(1.0 / 30 * 10)
        #expect(settings.duration == 1.0 / 30)
        #expect(abs(settings.analogueGain - 10) < 1e-9)
        let beyond = program.split(1.0 / 30 * 64 * 4)
        #expect(beyond.analogueGain == 64)
        #expect(abs(beyond.digitalGain - 4) < 1e-9)
        #expect(abs(beyond.total - 1.0 / 30 * 256) < 1e-9)
    }

    @Test("Totals outside the program clamp to its limits")
    func clamps() {
        #expect(program.split(1e-9).total == program.minimumTotal)
        #expect(abs(program.split(1e9).total - program.maximumTotal) < 1e-9)
    }

    @Test("Under 50 Hz mains light durations are whole multiples of 10 ms, the gain keeps the total",
          arguments: [0.012, 0.025, 0.033, 0.1])
    func flickerSafe(total: Double) {
        var flickerSafe = program
        flickerSafe.flickerPeriod = 1.0 / 100
        let settings = flickerSafe.split(total)
        let periods = settings.duration * 100
        #expect(abs(periods - periods.rounded()) < 1e-9, "duration \(settings.duration)")
        #expect(abs(settings.total - total) < 1e-9)
    }

    @Test("Under flicker, just under a period becomes one period; far under is left alone")
    func shortUnderFlicker() {
        var flickerSafe = program
        flickerSafe.flickerPeriod = 1.0 / 100
        #expect(abs(flickerSafe.split(0.007).duration - 0.01) < 1e-12)
        #expect(abs(flickerSafe.split(0.004).duration - 0.004) < 1e-12)
    }
}

@Suite("Gain and intent")
struct GainAndIntentTests {
    @Test("Without clipping the gain is target ÷ mean")
    func plainGain() {
        let gain = clippingAwareGain([(0.09, 1), (0.09, 3)], target: 0.18)
        #expect(abs(gain - 2) < 1e-9)
    }

    @Test("Clipping values make the gain larger than target ÷ mean, solving the clipped mean")
    func clippedGain() {
        // Half the weight at 0.5 clips past gain 2; the other half at 0.05: (1 + 0.05·g) / 2 = 0.6 at g = 4.
        let values: [(value: Double, weight: Double)] = [(0.5, 1), (0.05, 1)]
        let gain = clippingAwareGain(values, target: 0.6)
        #expect(abs(gain - 4) < 1e-3)
        #expect(gain > 0.6 / 0.275)
    }

    @Test("Intent: ordinary subjects mid-grey, snow +1.7 EV",
          arguments: [(0.5, 0.0), (100.0, 0.0), (7000.0, 0.0), (20000.0, 1.7), (40000.0, 1.7)])
    func intent(luminance: Double, ev: Double) {
        #expect(abs(SubjectIntent.ev(forLuminance: luminance) - ev) < 1e-9)
    }

    @Test("Dusk stays dusk: a scene at 50 cd/m² or more is not dimmed, one at 5 or less is dimmed 1.25 EV, log-linear between",
          arguments: [(1000.0, 0.0), (50.0, 0.0), (15.811, -0.625), (5.0, -1.25), (0.5, -1.25)])
    func dimming(luminance: Double, ev: Double) {
        #expect(abs(SubjectIntent.dimming(sceneLuminance: luminance) - ev) < 1e-3)
    }

    @Test("Intent rises and dimming lifts monotonically with luminance")
    func monotonic() {
        let levels = stride(from: -2.0, through: 16.0, by: 0.25).map { pow(2, $0) }
        for values in [levels.map { SubjectIntent.ev(forLuminance: $0) }, levels.map { SubjectIntent.dimming(sceneLuminance: $0) }] {
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 + 1e-12 })
        }
    }
}
