import CameraCore
@testable import CameraExposure
import CameraMetering
import Testing

/// The highlight budget's decision: keep the highlights unless that costs the subject more than
/// 1 EV, judged on the least it could cost.
@Suite("Highlight budget")
struct HighlightBudgetTests {
    /// 128×96 gray8: the top eighth at sRGB `highlight` (unclipped), the rest at `ground`.
    private func frame(highlight: UInt8, ground: UInt8) throws -> FrameStatistics {
        let buffer = try PixelBuffer(format: .gray8, width: 128, height: 96)
        for y in 0..<96 { for x in 0..<128 { buffer[plane: 0, x: x, y: y] = y < 12 ? highlight : ground } }
        return try FrameAnalyzer(configuration: AnalysisConfiguration(sampleStep: 4)).analyze(buffer)
    }

    /// The offset asked for a subject reading the ground's level, aimed at mid-grey.
    private func offset(highlight: UInt8, ground: UInt8) throws -> Double {
        var budget = HighlightBudget()
        return budget.offset(try frame(highlight: highlight, ground: ground), subjectMetered: SRGB.decode(Double(ground) / 255),
                             target: Meter.midGray, exposure: 1)
    }

    @Test("Highlights 2.65 EV over a subject: kept at the ceiling, the subject 0.50 EV under its target")
    func keptUnderTheCeiling() throws {
        // log2(0.871 / 0.138) + log2(0.18 / 0.8) = 0.50.
        #expect(abs(try offset(highlight: 240, ground: 104) + 0.50) < 0.01)
    }

    @Test("Highlights that need 1.15 EV to sit under the ceiling but 0.82 EV to reach full scale: the subject goes 1 EV under, and no more")
    func decidedOnTheLeastCost() throws {
        // Deciding on the ceiling's margin, the subject won here and the highlights clipped.
        #expect(try offset(highlight: 240, ground: 84) == -1)
    }

    @Test("Highlights that would cost the subject more than 1 EV even up to full scale: the subject wins")
    func subjectWins() throws {
        // log2(0.871 / 0.0452) + log2(0.18) = 1.80 EV.
        #expect(try offset(highlight: 240, ground: 60) == 0)
    }
}
