import CameraCapture
import CameraCore
import Testing

@Suite("Frame duration for a rate")
struct FrameDurationTests {
    @Test("Whole and NTSC rates are exact", arguments: [(30.0, 1, 30), (120, 1, 120), (30000.0 / 1001, 1001, 30000), (60000.0 / 1001, 1001, 60000)])
    func exactRates(rate: Double, value: Int64, timescale: Int32) {
        #expect(MediaTime.frameDuration(forRate: rate) == MediaTime(value: value, timescale: timescale))
    }

    @Test("Rates too high for an exact timescale still give a duration, never a trap", arguments: [2_147_483_647.0, 1e7, 1e12, 1e308])
    func hugeRates(rate: Double) {
        let duration = MediaTime.frameDuration(forRate: rate)
        #expect(duration.isNumeric && duration.seconds >= 0 && duration.seconds <= 1 / rate * 1.5 + 1e-9, "\(duration)")
    }

    @Test("A rate that is not positive and finite has no frame duration", arguments: [0.0, -30, .nan, .infinity])
    func invalidRates(rate: Double) {
        #expect(!MediaTime.frameDuration(forRate: rate).isValid)
    }
}
