@testable import CameraCapture
import CameraCodecs
import CameraCore
import CameraExposure
import CameraMetering
import CameraSimulated
import Foundation
import Testing

/// Auto white balance in closed loop as a capture loop runs it — raw frames developed, analysed,
/// the 3A engine's gains applied, the picture rendered — judged on the picture against what the
/// simulator knows: the light on each scene's subject and the grey surfaces it lights.
@Suite("White balance on the built-in scenes and a colour checker")
struct WhiteBalanceSceneTests {
    /// Carrots.hdr, a colour checker among vegetables under warm light (`eval/scenes`).
    static let carrotsPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../eval/scenes/Carrots.hdr").standardizedFileURL

    /// The picture of `scene` after `frames` frames of the capture loop's 3A and rendering, and
    /// the frame from which exposure and white balance stayed settled (nil if they never did).
    static func settledPicture(_ scene: SimulatedScene, size: PixelSize, frames: Int = 90) async throws
        -> (picture: Frame, camera: SimulatedCamera, settledFrom: Int?, engine: ThreeAEngine) {
        let format = DeviceFormat(size: size, pixelFormat: .bayer16(.rggb, significantBits: 12),
                                  frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera = try SimulatedCamera(scene: scene, format: format)
        try camera.startStreaming()
        var engine = try ThreeAEngine(capabilities: camera.capabilities, frameRate: 30)
        var renderer = StreamRenderer()
        var analyzer = StreamAnalyzer()
        var picture: Frame?
        var settledFrom: Int?
        for index in 0..<frames {
            let frame = try await camera.nextFrame()
            let metered = try renderer.meteringFrame(frame)
            let statistics = try analyzer.analyze(metered.buffer)
            try camera.apply(try engine.update(metered, statistics: statistics, settings: camera.settingsStore, raw: frame))
            picture = try renderer.picture(frame, gain: engine.renderGain, toneMapping: camera.settings.toneMapping)
            settledFrom = engine.status.isSettled ? settledFrom ?? index : nil
        }
        return (try #require(picture), camera, settledFrom, engine)
    }

    /// R/G and B/G of the mean linear colour of `picture`'s pixels where `mask` is 1.
    static func ratios(_ picture: PixelBuffer, mask: [UInt8]) -> (red: Double, blue: Double) {
        let rgb = picture.rgb8(), linear = SRGB.linearOf8Bit
        var sum = SIMD3<Double>.zero
        for i in mask.indices where mask[i] == 1 {
            sum += SIMD3(Double(linear[Int(rgb[i * 3])]), Double(linear[Int(rgb[i * 3 + 1])]), Double(linear[Int(rgb[i * 3 + 2])]))
        }
        return (sum.x / sum.y, sum.z / sum.y)
    }

    @Test("A grey surface in the subject's light renders within 3% of neutral; AWB settles inside its range",
          arguments: SimulatedScene.builtIn)
    func neutralSurfaceRendersNeutral(scene: SimulatedScene) async throws {
        let run = try await Self.settledPicture(scene, size: PixelSize(width: 640, height: 360))
        let truth = run.camera.groundTruth(for: run.picture)
        #expect(truth.neutralMask.reduce(0) { $0 + Int($1) } > 1000, "\(scene.name) has a grey surface in its subject's light")
        let (red, blue) = Self.ratios(run.picture.buffer, mask: truth.neutralMask)
        let light = try #require(run.picture.metadata.whiteBalanceGains.colorTemperature)
        let ideal = try #require(WhiteBalanceGains(neutralisingRGB: truth.subjectLight).colorTemperature)
        let detail = "\(scene.name): R/G \(red), B/G \(blue) at \(light) (the subject's light: \(ideal))"
        // The exposure's subject region there holds the person's sunlit surroundings as well:
        // its median colour is 6100 K where the person's light is 6450 K (B/G 1.095).
        withKnownIssue("backlit-portrait balances between the person and the sunlit ground") {
            #expect(abs(red - 1) <= 0.03 && abs(blue - 1) <= 0.03, "\(detail)")
        } when: { scene.name == SimulatedScene.backlitPortrait.name }
        let range = ColorTemperature.range
        #expect(light.kelvin > range.lowerBound * 1.05 && light.kelvin < range.upperBound * 0.95, "not at the end of the range: \(detail)")
        #expect(run.settledFrom.map { $0 <= 70 } == true, "\(scene.name): exposure and white balance settle (from frame \(String(describing: run.settledFrom)))")
    }

    @Test("Carrots.hdr: the colour checker's six neutral patches render within 3% of neutral")
    func colourCheckerNeutralPatches() async throws {
        let image = try RadianceHDRDecoder().decode(contentsOf: Self.carrotsPath)
        let size = PixelSize(width: 600, height: 400)
        let run = try await Self.settledPicture(SimulatedScene.hdrImage(image, named: "Carrots.hdr"), size: size)
        // The chart's right-hand column (x 0.62–0.65, y 0.24–0.65, white at the bottom), each patch
        // inside its edges; the 3:2 image fills the 3:2 view unscaled.
        let patches: [(name: String, top: Double, bottom: Double)] = [
            ("black", 0.245, 0.295), ("neutral 3.5", 0.315, 0.355), ("neutral 5", 0.385, 0.425),
            ("neutral 6.5", 0.46, 0.50), ("neutral 8", 0.535, 0.575), ("white", 0.605, 0.645),
        ]
        for patch in patches {
            var mask = [UInt8](repeating: 0, count: size.pixelCount)
            for y in Int(patch.top * 400)..<Int(patch.bottom * 400) { for x in 375..<387 { mask[y * size.width + x] = 1 } }
            let (red, blue) = Self.ratios(run.picture.buffer, mask: mask)
            // Neutral 5 reads B/G 0.962: the picture's tone curve bends it 1% further than the
            // file's 0.943 × the gains' 1.028.
            withKnownIssue("neutral 5 renders 3.8% short of blue") {
                #expect(abs(red - 1) <= 0.03 && abs(blue - 1) <= 0.03, "\(patch.name): R/G \(red), B/G \(blue)")
            } when: { patch.name == "neutral 5" }
        }
    }
}
