import CameraCore
@testable import CameraEvaluation
import CameraTestSupport
import Foundation
import Testing

/// enfuse and OpenCV's Mertens fusion run on a synthetic −2/0/+2 EV bracket, scored with MEF-SSIM.
@Suite struct BracketFusionPeersTests {
    @Test("Each peer's fusion of a three-frame bracket scores above every frame of it, and above 0.85")
    func peersBeatEachExposure() async throws {
        let bracket = try SyntheticBracket.frames(width: 192, height: 160)
        let outputs = try await onOwnThread { try BracketFusionPeers().fuse(bracket) }
        #expect(outputs.map(\.name) == BracketFusionPeers.names)
        let singles = try bracket.map { try MEFSSIM.score(sources: bracket, fused: $0).quality }
        for output in outputs {
            #expect(output.image.width == 192 && output.image.height == 160, "\(output.name)")
            let score = try MEFSSIM.score(sources: bracket, fused: output.image)
            #expect(score.quality > 0.85, "\(output.name): \(score)")
            #expect(singles.allSatisfy { score.quality > $0 + 0.03 }, "\(output.name): \(score) against the frames' \(singles)")
            #expect(output.milliseconds > 0 && output.milliseconds.isFinite, "\(output.name): \(output.milliseconds) ms")
        }
    }

    @Test("A bracket of one frame, or of frames of two sizes, is refused naming the frame and its size")
    func mismatchedBracket() throws {
        let large = try SyntheticBracket.frame(width: 64, height: 48, ev: 0)
        let small = try SyntheticBracket.frame(width: 48, height: 48, ev: 2)
        let cases: [([PixelBuffer], String)] = [
            ([large], "bracket fusion: 1 frame(s) — give a bracket of two or more exposures"),
            ([large, large, small], "bracket fusion: frame 3 is 48x48 but frame 1 is 64x48 — give the bracket's frames at one size"),
        ]
        for (bracket, message) in cases {
            let error = #expect(throws: BracketFusionPeers.Failure.self) { try BracketFusionPeers().fuse(bracket) }
            #expect(error?.message == message)
        }
    }

    @Test("A missing enfuse binary is an error naming the path and make deps")
    func missingEnfuse() throws {
        try withScratchDirectory { folder in
            let path = folder.appendingPathComponent("enfuse").path
            let bracket = try SyntheticBracket.frames(width: 64, height: 48)
            let error = #expect(throws: BracketFusionPeers.Failure.self) { try BracketFusionPeers(enfuse: path).fuse(bracket) }
            #expect(error?.message == "enfuse peer unavailable: no enfuse at \(path) — run make deps (installs enfuse)")
        }
    }

    @Test("A Python without cv2 is an error naming it and make deps")
    func missingOpenCV() throws {
        try withScratchDirectory { folder in
            let python = try StandInPython.withoutSitePackages(in: folder)
            let bracket = try SyntheticBracket.frames(width: 64, height: 48)
            let error = #expect(throws: BracketFusionPeers.Failure.self) { try BracketFusionPeers(python: python).fuse(bracket) }
            #expect(error?.message == "OpenCV Mertens fusion unavailable: \(python) cannot import cv2 — run make deps (installs python3-opencv)")
        }
    }
}
