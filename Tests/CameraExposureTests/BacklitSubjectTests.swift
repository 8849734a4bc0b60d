@testable import CameraExposure
import CameraCore
import CameraMetering
import Foundation
import Testing

/// What the backlit subject's region takes in and what of it is metered: the subject's sunlit side
/// belongs to it; a wall above it, lit brighter by the window, does not.
@Suite("Backlit subject")
struct BacklitSubjectTests {
    static let width = 192, height = 144

    /// A gray8 frame of the linear luminance `linear(x, y)` (normalised coordinates), sRGB-encoded,
    /// with the linear mean of its pixels where `measured(x, y)` holds.
    static func frame(_ linear: (Double, Double) -> Double, measured: (Double, Double) -> Bool) throws -> (FrameStatistics, Double) {
        let buffer = try PixelBuffer(format: .gray8, width: width, height: height)
        var sum = 0.0, count = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let nx = (Double(x) + 0.5) / Double(width), ny = (Double(y) + 0.5) / Double(height)
                let code = UInt8((SRGB.encode(linear(nx, ny)) * 255).rounded())
                buffer[plane: 0, x: x, y: y] = code
                if measured(nx, ny) {
                    sum += Double(SRGB.linearOf8Bit[Int(code)])
                    count += 1
                }
            }
        }
        return (try FrameAnalyzer().analyze(buffer), sum / count)
    }

    @Test("The ground's sunlit side, 2.25 EV over its shade, is metered with it")
    func sunlitSideJoins() throws {
        // Clipped sky over ground whose left third is in shade and right third in sun, 2.25 EV
        // brighter, with a gentle gradient between (no edge). Under a 2 EV limit the sunlit third
        // was left out and the shade metered alone: 0.84 EV under the ground's mean.
        let (statistics, ground) = try Self.frame({ x, y in
            y < 0.45 ? 1 : 0.05 * pow(2, 2.25 * min(max((x - 0.35) / 0.3, 0), 1))
        }, measured: { _, y in y >= 0.45 })
        let metered = try #require(BacklitSubject(statistics).metered()).linear
        #expect(abs(log2(metered / ground)) < 0.1, "metered \(metered), the ground's mean \(ground)")
    }

    @Test("A wall brightening up towards the ceiling is not metered: the region is metered in the frame's lower half")
    func wallAboveIsNotMetered() throws {
        // A dark floor (the lower 40%), a wall above it that brightens 1.8 EV towards the ceiling
        // with no edge, and a clipped window at the right. The region grows up the whole wall;
        // metered whole, it read the subject 0.59 EV brighter than the lower half.
        let (statistics, lowerHalf) = try Self.frame({ x, y in
            if (0.6...0.9).contains(x) && (0.1...0.5).contains(y) { return 1 }
            return y >= 0.6 ? 0.04 : 0.04 * pow(2, 1.8 * (0.6 - y) / 0.6)
        }, measured: { _, y in y >= 0.5 })
        let metered = try #require(BacklitSubject(statistics).metered()).linear
        #expect(abs(log2(metered / lowerHalf)) < 0.1, "metered \(metered), the lower half's mean \(lowerHalf)")
    }
}
