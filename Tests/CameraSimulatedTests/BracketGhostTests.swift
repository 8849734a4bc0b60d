import CameraCapture
import CameraCore
import CameraISP
import CameraSimulated
import Foundation
import Testing

/// A bracket of `moving-subject`'s raw frames merged: the ball, somewhere else in each frame, comes
/// from the reference frame alone, and where another frame saw it that frame gives nothing — no
/// ghost, no smear.
@Suite("Bracket merge of a moving subject")
struct BracketGhostTests {
    @Test("−2/0/+2 EV of the rolling ball: its pixels come from the 0 EV frame alone; where the others saw it, they give nothing")
    func noGhost() async throws {
        let format = DeviceFormat(size: PixelSize(width: 320, height: 180), pixelFormat: .bayer16(.rggb, significantBits: 12),
                                  frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera = try SimulatedCamera(scene: .movingSubject, format: format)
        try camera.startStreaming()
        var frames: [Frame] = []
        for offset in [-2.0, 0, 2] {
            frames.append(try await camera.nextFrame(madeWith: SensorControls(exposureDuration: pow(2, offset) / 2000, analogueGain: 1)))
        }
        camera.stopStreaming()
        let merged = try BracketMerger().merge(try frames.map { try #require(try BracketFrame($0)) }, reference: 1)
        #expect(merged.shifts.allSatisfy { $0 == .zero }, "a tripod bracket: \(merged.shifts)")
        let balls = frames.map { camera.groundTruth(for: $0).objectMask }
        // Where the 0 EV frame saw the ball, the ball comes from it alone.
        let reference = balls[1].indices.filter { balls[1][$0] == 1 }
        let referenceOnly = reference.filter { merged.provenance[$0] == 0b010 }.count
        #expect(reference.count > 100 && Double(referenceOnly) >= 0.99 * Double(reference.count),
                "\(referenceOnly) of the \(reference.count) pixels of the reference's ball come from it alone")
        // Where the −2 or +2 frame saw the ball (and the reference saw the scene behind it), that frame gave nothing: no ghost.
        for other in [0, 2] {
            let ghost = balls[other].indices.filter { balls[other][$0] == 1 && balls[1][$0] == 0 }
            let contributed = ghost.filter { merged.provenance[$0] & (1 << other) != 0 }.count
            #expect(ghost.count > 100 && Double(contributed) <= 0.01 * Double(ghost.count),
                    "frame \(other) gave \(contributed) of the \(ghost.count) pixels where it saw the ball")
        }
        // The still scene around it keeps every frame's light.
        let still = balls[0].indices.filter { balls[0][$0] == 0 && balls[1][$0] == 0 && balls[2][$0] == 0 }
        let merged3 = still.filter { merged.provenance[$0] == 0b111 }.count
        #expect(Double(merged3) > 0.5 * Double(still.count), "\(merged3) of \(still.count) still pixels merge all three frames")
    }
}
