import CameraCapture
import CameraCore
@testable import CameraSimulated
import Testing

/// `moving-subject` is `backlit-portrait` plus a rolling ball: rendered with the same seed and
/// exposure, the two frames' pixels differ exactly where the ball is, so each frame's ball is
/// measured from the rendered pixels alone.
@Suite("moving-subject: a ball that moves between frames where the ground truth says")
struct MovingSubjectTests {
    static let size = PixelSize(width: 192, height: 108)
    static let ball = SimulatedScene.movingSubject.movingObject!

    /// Frames `0..<count` of `scene` at 30 fps, 1/2000 s at gain 1, seed 1, in bgra8.
    static func frames(_ scene: SimulatedScene, count: Int) async throws -> (camera: SimulatedCamera, frames: [Frame]) {
        let camera = try SimulatedCamera(scene: scene, format: smallFormat(size.width, size.height), frameRate: 30, bufferCount: count + 1)
        try camera.updateControls {
            $0.exposureDuration = 1.0 / 2000
            $0.analogueGain = 1
        }
        try camera.startStreaming()
        var frames: [Frame] = []
        for _ in 0..<count { frames.append(try await camera.nextFrame()) }
        return (camera, frames)
    }

    /// 1 where the two frames' pixels differ in any channel.
    static func difference(_ a: Frame, _ b: Frame) -> [UInt8] {
        let (left, right) = (a.buffer.rgb8(), b.buffer.rgb8())
        return (0..<(left.count / 3)).map { i in left[i * 3..<i * 3 + 3] == right[i * 3..<i * 3 + 3] ? 0 : 1 }
    }

    /// The mean column and row (pixel centres) of a mask's pixels.
    static func centroid(_ mask: [UInt8]) -> (x: Double, y: Double) {
        var sumX = 0.0, sumY = 0.0, count = 0.0
        for (i, value) in mask.enumerated() where value == 1 {
            sumX += Double(i % size.width) + 0.5
            sumY += Double(i / size.width) + 0.5
            count += 1
        }
        return (sumX / count, sumY / count)
    }

    @Test("Each frame differs from backlit-portrait's, rendered with the same noise, exactly on the ground truth's object mask")
    func ballIsWhereTheGroundTruthSays() async throws {
        let moving = try await Self.frames(.movingSubject, count: 6)
        let still = try await Self.frames(.backlitPortrait, count: 6)
        for (frame, background) in zip(moving.frames, still.frames) {
            let truth = moving.camera.groundTruth(for: frame)
            let measured = Self.difference(frame, background)
            let time = frame.presentationTime.seconds
            #expect(measured == truth.objectMask, "frame \(frame.sequenceNumber)")
            #expect(measured == Self.ball.mask(at: time, imageSize: Self.size))
            #expect(measured.filter { $0 == 1 }.count > 100, "the ball covers about π·6.5² pixels")
            // The measured centroid lies on the API's centre.
            let centre = Self.ball.centre(at: time, imageSize: Self.size)
            let (x, y) = Self.centroid(measured)
            #expect(abs(x - centre.x * Double(Self.size.width)) < 0.5, "x \(x) against \(centre.x * Double(Self.size.width))")
            #expect(abs(y - centre.y * Double(Self.size.height)) < 0.5, "y \(y) against \(centre.y * Double(Self.size.height))")
            // The ball hides what it passes in front of: never subject, and the subject shrinks by what it covers.
            let stillTruth = still.camera.groundTruth(for: background)
            let covered = zip(stillTruth.subjectMask, truth.objectMask).filter { $0 == 1 && $1 == 1 }.count
            #expect(zip(truth.subjectMask, truth.objectMask).allSatisfy { !($0 == 1 && $1 == 1) })
            #expect(truth.subjectMask.filter { $0 == 1 }.count == stillTruth.subjectMask.filter { $0 == 1 }.count - covered)
        }
    }

    @Test("Between consecutive frames at 30 fps the measured ball moves 5% of the frame width, as the API says")
    func ballMovesBetweenConsecutiveFrames() async throws {
        let moving = try await Self.frames(.movingSubject, count: 6)
        let still = try await Self.frames(.backlitPortrait, count: 6)
        let centroids = zip(moving.frames, still.frames).map { Self.centroid(Self.difference($0, $1)) }
        let width = Double(Self.size.width)
        for (index, pair) in zip(centroids, centroids.dropFirst()).enumerated() {
            let measured = (pair.1.x - pair.0.x) / width
            let times = (moving.frames[index].presentationTime.seconds, moving.frames[index + 1].presentationTime.seconds)
            let expected = Self.ball.centre(at: times.1, imageSize: Self.size).x - Self.ball.centre(at: times.0, imageSize: Self.size).x
            #expect(abs(expected - 0.05) < 1e-9, "1.5 widths a second over 1/30 s, frames \(index)→\(index + 1)")
            #expect(abs(measured - expected) < 0.5 / width, "measured \(measured) of the width, expected \(expected)")
            #expect(abs(pair.1.y - pair.0.y) < 0.5, "it rolls along one row")
        }
    }

    @Test("Two renders of the same frame time are identical to the byte, and frames at other times are not")
    func rendersAreDeterministic() async throws {
        let first = try await Self.frames(.movingSubject, count: 4)
        let second = try await Self.frames(.movingSubject, count: 4)
        for (a, b) in zip(first.frames, second.frames) {
            #expect(a.presentationTime == b.presentationTime)
            #expect(a.buffer.rgb8() == b.buffer.rgb8(), "frame \(a.sequenceNumber)")
        }
        #expect(first.frames[2].buffer.rgb8() != first.frames[3].buffer.rgb8())
    }

    @Test("Over ten seconds at 30 fps the ball stays in frame, crosses it, and moves 5% of the width each frame but where it bounces")
    func ballStaysInFrame() {
        let size = PixelSize(width: 1920, height: 1080)
        let positions = (0...300).map { Self.ball.bounds(at: Double($0) / 30, imageSize: size) }
        #expect(positions.allSatisfy { $0.x >= -1e-9 && $0.x + $0.width <= 1 + 1e-9 && $0.y >= 0 && $0.y + $0.height <= 1 })
        #expect(positions.map(\.x).min()! < 0.03 && positions.map { $0.x + $0.width }.max()! > 0.97, "it reaches both edges (within one step)")
        let steps = zip(positions, positions.dropFirst()).map { abs($1.x - $0.x) }
        #expect(steps.allSatisfy { $0 <= 0.05 + 1e-9 })
        let full = steps.filter { abs($0 - 0.05) < 1e-9 }.count
        #expect(full >= 270, "\(full) of 300 steps are a full 5% (the others straddle a bounce)")
    }

    @Test("moving-subject is found by name but is not one of the contract's built-in scenes")
    func foundByName() throws {
        let scene = try #require(SimulatedScene.named("moving-subject"))
        #expect(scene.movingObject == Self.ball)
        #expect(!SimulatedScene.builtIn.contains { $0.name == "moving-subject" })
        #expect(SimulatedScene.builtIn.allSatisfy { $0.movingObject == nil })
    }
}
