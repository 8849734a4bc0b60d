import CameraCore
@testable import CameraExposure
import CameraMetering
import CameraSimulated
import Testing

@Suite("Anti-flicker in auto-exposure")
struct AntiFlickerTests {
    /// The flicker each of `frames` closed-loop frames of `scene` showed the engine, with anti-flicker
    /// on auto, and the engine after them.
    private static func detections(_ scene: SimulatedScene, frames: Int = 90) async throws -> (seen: [Double?], engine: AutoExposure) {
        let camera = try AutoExposureTests.camera(scene)
        var engine = AutoExposureTests.engine(for: camera)
        engine.setFlicker(.auto)
        var analyzer = StreamAnalyzer()
        var seen: [Double?] = []
        for _ in 0..<frames {
            let frame = try await camera.nextFrame()
            let settings = engine.update(try analyzer.analyze(frame.buffer), metadata: frame.metadata, frameInterval: 1.0 / 30)
            seen.append(engine.detectedFlicker)
            try camera.updateControls { $0.setExposure(settings) }
        }
        return (seen, engine)
    }

    @Test("No built-in scene without mains light is seen to flicker, not even while the exposure changes",
          arguments: SimulatedScene.builtIn.map(\.name).filter { $0 != SimulatedScene.flickerOffice.name })
    func noFalseFlicker(name: String) async throws {
        let scene = try #require(SimulatedScene.named(name))
        let (seen, engine) = try await Self.detections(scene)
        let frames = seen.indices.filter { seen[$0] != nil }
        #expect(frames.isEmpty, "\(scene.name): flicker reported on frames \(frames)")
        #expect(engine.program.flickerPeriod == nil, "\(scene.name)")
    }

    @Test("Under a 100 Hz office light, auto anti-flicker settles on whole flicker periods")
    func officeSettlesFlickerSafe() async throws {
        let (seen, engine) = try await Self.detections(.flickerOffice)
        #expect(seen.contains(100))
        #expect(engine.program.flickerPeriod == 1.0 / 100)
    }
}
