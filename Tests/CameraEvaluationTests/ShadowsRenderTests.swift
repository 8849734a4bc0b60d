import CameraCore
@testable import CameraEvaluation
import CameraExposure
import CameraSimulated
import Foundation
import Testing

/// The shadows control on the picture: the backlit portrait rendered in closed loop at −2, 0 and +2.
@Suite("The shadows control, rendered")
struct ShadowsRenderTests {
    /// The settled picture of the backlit portrait with `shadows`, tone-mapped locally (`hdr`) or globally.
    static func render(shadows: Double, hdr: Bool) async throws -> ClosedLoopEvaluation.Result {
        var algorithm = SunAwareExposure()
        algorithm.shadows = shadows
        return try await ClosedLoopEvaluation(frameCount: 20, size: PixelSize(width: 320, height: 180), toneMapping: hdr ? .local : .global)
            .run(.backlitPortrait, algorithm: algorithm)
    }

    /// Each pixel's linear luminance.
    static func luminance(_ buffer: PixelBuffer) throws -> [Double] {
        let reader = try #require(buffer.pixelReader())
        return (0..<buffer.height).flatMap { y in
            (0..<buffer.width).map { x in
                let pixel = reader.pixel(x: x, y: y)
                return ColorTemperature.luminance(SIMD3(SRGB.decode(Double(pixel.red) / 255), SRGB.decode(Double(pixel.green) / 255),
                                                        SRGB.decode(Double(pixel.blue) / 255)))
            }
        }
    }

    /// With the global curve: the slope below the subject is all that renders the shadows. (The
    /// local tone mapping keeps the texture of small shadows whole, and moves only their base.)
    @Test("+2 renders the darkest tenth of the picture brighter than 0, −2 darker; the subject stays within 0.25 EV")
    func shadowsMoveTheDarkestTenth() async throws {
        let deep = try await Self.render(shadows: -2, hdr: false)
        let neutral = try await Self.render(shadows: 0, hdr: false)
        let open = try await Self.render(shadows: 2, hdr: false)
        let levels = try [deep, neutral, open].map { try Self.luminance(try #require($0.output)) }
        // The shadow region: the darkest tenth of the neutral picture.
        let threshold = levels[1].sorted()[levels[1].count / 10]
        let region = levels[1].indices.filter { levels[1][$0] <= threshold }
        let means = levels.map { level in region.map { level[$0] }.reduce(0, +) / Double(region.count) }
        let (down, up) = (log2(means[0] / means[1]), log2(means[2] / means[1]))
        // Measured: +0.059 and −0.053 EV: a slope 0.2 apart, the darkest tenth ~0.3 EV under the subject.
        #expect(up > 0.03, "+2 lifts the shadows \(up) EV")
        #expect(down < -0.03, "−2 deepens the shadows \(down) EV")
        for result in [deep, open] {
            #expect(abs(result.subjectEvError - neutral.subjectEvError) < 0.25,
                    "the subject at \(result.subjectEvError) against \(neutral.subjectEvError) EV")
        }
    }
}
