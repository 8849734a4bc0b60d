import Testing
@testable import CameraExposure
import CameraSimulated
import CameraMetering
import CameraCore
import CameraCapture

/// Contrast autofocus driven in closed loop against a real `SimulatedCamera`, plus unit tests of the
/// state machine on synthetic sharpness curves.
@Suite struct AutoFocusTests {
    static let viewSize = PixelSize(width: 320, height: 180)
    /// The backlit portrait's torso (the striped shirt), 1.5 m away.
    static let torso = NormalizedRect(x: 0.3, y: 0.6, width: 0.25, height: 0.35)
    /// The lens position that focuses 1.5 m: 1 − (1/1.5)/10.
    static let portraitFocus = 1 - (1 / 1.5) / 10

    // MARK: Closed loop

    @Test(arguments: [0.0, 1.0])
    func autoOnceFocusesOnThePortraitSubject(from start: Double) async throws {
        let camera = try Self.camera(.backlitPortrait)
        var focus = try AutoFocus(mode: .autoOnce)
        let run = try await Self.focus(&focus, camera: camera, region: Self.torso, from: start)
        #expect(focus.state == .focused)
        #expect(abs(run.lensPosition - Self.portraitFocus) <= 0.02, "ended at \(run.lensPosition) after \(run.frames) frames")
        #expect(run.frames <= 16)

        // The focus region is the subject (the torso at 1.5 m) in the ground truth.
        let truth = camera.groundTruth(for: run.frame)
        let bounds = Self.torso.pixelBounds(in: truth.size)
        let subject = bounds.rows.reduce(0) { sum, y in
            sum + bounds.columns.reduce(0) { $0 + Int(truth.subjectMask[y * truth.size.width + $1]) }
        }
        #expect(Double(subject) / Double(bounds.rows.count * bounds.columns.count) > 0.9)

        // Auto-once then holds: more frames move nothing.
        let frame = try await camera.nextFrame()
        #expect(focus.update(sharpness: try Sharpness.measure(frame.buffer, region: Self.torso), lensPosition: frame.metadata.lensPosition) == .done)
    }

    @Test func texturelessCardFailsAndReturnsTheLens() async throws {
        // The card spans u 0.25…0.75, v 0.2…0.8 at any frame height; half height renders faster.
        let camera = try Self.camera(.grayCard, size: PixelSize(width: 320, height: 90))
        let card = NormalizedRect(x: 0.3, y: 0.3, width: 0.4, height: 0.4)
        var focus = try AutoFocus(mode: .autoOnce)
        let run = try await Self.focus(&focus, camera: camera, region: card, from: 0.5)
        #expect(focus.state == .failed)
        #expect(run.lensPosition == 0.5)
        #expect(focus.samples.count >= 11, "the whole range was scanned")
    }

    @Test func lockedModeNeverMovesTheLens() async throws {
        let camera = try Self.camera(.backlitPortrait)
        try camera.updateControls { $0.lensPosition = 0.3 }
        var focus = try AutoFocus(mode: .locked)
        #expect(focus.state == .locked)
        for _ in 0..<3 {
            let frame = try await camera.nextFrame()
            #expect(frame.metadata.lensPosition == 0.3)
            let sharpness = try Sharpness.measure(frame.buffer, region: Self.torso)
            #expect(focus.update(sharpness: sharpness, lensPosition: frame.metadata.lensPosition) == .done)
        }
        #expect(focus.state == .locked)
        #expect(focus.requestedLensPosition == nil)
    }

    @Test func continuousSearchesAgainWhenTheSubjectMoves() async throws {
        // A striped target at 1.5 m, then (another camera) the same target at 0.5 m: lens 0.8.
        // Defocus blur scales with the width only, so half-height frames render in half the time.
        let size = PixelSize(width: 320, height: 90)
        let far = try Self.camera(Self.stripes(depth: 1.5), size: size), near = try Self.camera(Self.stripes(depth: 0.5), size: size)
        let centre = NormalizedRect(x: 0.3, y: 0.3, width: 0.4, height: 0.4)
        var focus = try AutoFocus(mode: .continuous)
        let first = try await Self.focus(&focus, camera: far, region: centre, from: 1)
        #expect(focus.state == .focused)
        #expect(abs(first.lensPosition - Self.portraitFocus) <= 0.02)

        // Steady scene: no new search.
        for _ in 0..<2 {
            let frame = try await far.nextFrame()
            #expect(focus.update(sharpness: try Sharpness.measure(frame.buffer, region: centre), lensPosition: frame.metadata.lensPosition) == .done)
        }

        // The subject comes closer: after `refocusFrames` blurred frames the search starts again.
        try near.updateControls { $0.lensPosition = first.lensPosition }
        var searchBegan: Int?, finalPosition: Double?
        for frames in 1...30 {
            let frame = try await near.nextFrame()
            let sharpness = try Sharpness.measure(frame.buffer, region: centre)
            switch focus.update(sharpness: sharpness, lensPosition: frame.metadata.lensPosition) {
            case .moveLens(let position):
                searchBegan = searchBegan ?? frames
                try near.updateControls { $0.lensPosition = position }
            case .done:
                #expect(searchBegan == nil || focus.state == .focused)
                if searchBegan != nil { finalPosition = frame.metadata.lensPosition }
            }
            if finalPosition != nil { break }
        }
        #expect(searchBegan == focus.configuration.refocusFrames)
        #expect(focus.state == .focused)
        #expect(abs((finalPosition ?? -1) - 0.8) <= 0.02, "ended at \(String(describing: finalPosition))")
    }

    // MARK: Manual mode

    @Test func manualRejectsPositionsOutsideTheRange() throws {
        let error = #expect(throws: ValueOutOfRangeError.self) { try AutoFocus(mode: .manual(lensPosition: 1.2)) }
        #expect(error?.description.contains("0…1") == true, "\(String(describing: error))")
        var focus = try AutoFocus(mode: .autoOnce)
        #expect(throws: ValueOutOfRangeError(setting: "lens position", value: 1.2, range: 0...1)) {
            try focus.setMode(.manual(lensPosition: 1.2))
        }
        #expect(focus.mode == .autoOnce, "a rejected mode changes nothing")
        #expect(throws: ValueOutOfRangeError.self) { try FocusMode.manual(at: -0.1) }
    }

    @Test func manualMovesTheLensThereAndHolds() throws {
        var focus = try AutoFocus(mode: .manual(at: 0.7))
        #expect(focus.state == .locked)
        #expect(focus.update(sharpness: 100, lensPosition: 0.2) == .moveLens(to: 0.7))
        #expect(focus.update(sharpness: 50, lensPosition: 0.7) == .done)
        #expect(focus.update(sharpness: 10, lensPosition: 0.7) == .done)
    }

    // MARK: Synthetic curves

    @Test(arguments: [0.0, 0.25, 0.5, 0.8, 1.0])
    func findsASmoothPeak(from start: Double) throws {
        var focus = try AutoFocus(mode: .autoOnce)
        let run = Self.drive(&focus, from: start) { Self.peakCurve($0, peak: 0.437) }
        #expect(focus.state == .focused)
        #expect(abs(run.lensPosition - 0.437) < 0.005, "ended at \(run.lensPosition)")
        #expect(run.frames <= 20)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func findsANoisyPeak(seed: UInt64) throws {
        var noise = SplitMix64(seed: seed)
        var focus = try AutoFocus(mode: .autoOnce)
        let peak = 0.1 + 0.8 * Double(seed) / 9
        let run = Self.drive(&focus, from: seed.isMultiple(of: 2) ? 0 : 1) { position in
            Self.peakCurve(position, peak: peak) * (1 + 0.02 * noise.nextSigned())
        }
        #expect(focus.state == .focused)
        #expect(abs(run.lensPosition - peak) <= 0.02, "peak \(peak), ended at \(run.lensPosition)")
    }

    @Test func peakAtInfinityEndsAtTheEnd() throws {
        var focus = try AutoFocus(mode: .autoOnce)
        let run = Self.drive(&focus, from: 0.3) { Self.peakCurve($0, peak: 1) }
        #expect(focus.state == .focused)
        // The top (samples within the noise tolerance of the best) is 0.975…1, with no falling side
        // beyond 1: its centre.
        #expect(run.lensPosition >= 0.975, "ended at \(run.lensPosition)")
    }

    @Test func flatNoiseFails() throws {
        var noise = SplitMix64(seed: 9)
        var focus = try AutoFocus(mode: .autoOnce)
        let run = Self.drive(&focus, from: 0.62) { _ in 7 * (1 + 0.03 * noise.nextSigned()) }
        #expect(focus.state == .failed)
        #expect(run.lensPosition == 0.62)
    }

    @Test func turnsBackWhenTheFirstWayIsFlat() throws {
        // From 0.4 the search heads for infinity, where there is only noise on a slight (8 %) rise;
        // the peak is behind the start.
        var noise = SplitMix64(seed: 3)
        var focus = try AutoFocus(mode: .autoOnce)
        let run = Self.drive(&focus, from: 0.4) { position in
            let offset = (position - 0.15) / 0.05
            let bell = position < 0.3 ? 500 / (1 + offset * offset) : 0
            return (20 + 3 * position) * (1 + 0.01 * noise.nextSigned()) + bell
        }
        #expect(focus.state == .focused)
        #expect(abs(run.lensPosition - 0.15) < 0.01, "ended at \(run.lensPosition)")
    }

    @Test func waitsForASlowLens() throws {
        var focus = try AutoFocus(mode: .autoOnce)
        let run = Self.drive(&focus, from: 0, lag: 2) { Self.peakCurve($0, peak: 0.6) }
        #expect(focus.state == .focused)
        #expect(abs(run.lensPosition - 0.6) < 0.005)
        // Only readings at the requested positions were used: none from the lens in transit.
        let coarse = focus.samples.prefix(5).map(\.lensPosition)
        #expect(zip(coarse, [0, 0.1, 0.2, 0.3, 0.4]).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    @Test func continuousFollowsAMovingPeakButAutoOnceHolds() throws {
        for mode in [FocusMode.continuous, .autoOnce] {
            var focus = try AutoFocus(mode: mode)
            let first = Self.drive(&focus, from: 1) { Self.peakCurve($0, peak: 0.3) }
            #expect(abs(first.lensPosition - 0.3) < 0.005)
            // The subject moves: the best position is now 0.75.
            let second = Self.drive(&focus, from: first.lensPosition, throughSearch: true) { Self.peakCurve($0, peak: 0.75) }
            #expect(focus.state == .focused)
            if mode == .continuous {
                #expect(abs(second.lensPosition - 0.75) < 0.005)
                #expect(second.searchBegan == focus.configuration.refocusFrames)
            } else {
                #expect(second.searchBegan == nil)
                #expect(second.lensPosition == first.lensPosition)
            }
        }
    }

    @Test func smallSharpnessDipsDoNotRestartContinuous() throws {
        var focus = try AutoFocus(mode: .continuous)
        let run = Self.drive(&focus, from: 0) { Self.peakCurve($0, peak: 0.5) }
        let focused = Self.peakCurve(run.lensPosition, peak: 0.5)
        // Two deep dips (fewer than refocusFrames in a row), then shallow ones: no search.
        for factor in [0.5, 0.5, 1, 0.5, 0.5, 0.9, 0.85, 0.9, 0.8] {
            #expect(focus.update(sharpness: focused * factor, lensPosition: run.lensPosition) == .done)
        }
        #expect(focus.state == .focused)
    }

    @Test func parabolaVertexOfThreeSamples() {
        func sample(_ x: Double) -> FocusSample { FocusSample(lensPosition: x, sharpness: 5 - 3 * (x - 0.41) * (x - 0.41)) }
        #expect(abs(AutoFocus.parabolaVertex(sample(0.3), sample(0.4), sample(0.55)) - 0.41) < 1e-9)
        let flat = FocusSample(lensPosition: 0.5, sharpness: 1)
        #expect(AutoFocus.parabolaVertex(FocusSample(lensPosition: 0.4, sharpness: 1), flat, FocusSample(lensPosition: 0.6, sharpness: 1)) == 0.5)
    }

    // MARK: Helpers

    /// A streaming camera on `scene` (320×180 unless told), exposed at the scene's reference
    /// exposure from the first frame.
    static func camera(_ scene: SimulatedScene, size: PixelSize = viewSize) throws -> SimulatedCamera {
        let format = DeviceFormat(size: size, pixelFormat: .bgra8, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera = try SimulatedCamera(scene: scene, format: format)
        let exposure = scene.referenceExposure(viewSize: size)
        try camera.updateControls { $0.exposureDuration = exposure }
        try camera.startStreaming()
        return camera
    }

    /// Fine vertical stripes (4 px at 320 wide) filling the view, all at `depth` metres.
    static func stripes(depth: Float) -> SimulatedScene {
        SimulatedScene(name: "stripes-\(depth)m", summary: "Stripes at \(depth) m.", subjectIntent: 0) { size in
            SceneImage(width: size.width, height: size.height) { u, _ in
                let rho: Float = Int(u * 80) % 2 == 0 ? 0.1 : 0.3
                return .init(radiance: SIMD3(repeating: rho * 1000), albedo: rho, depth: depth, isSubject: true)
            }
        }
    }

    /// Runs `focus` against `camera` from lens position `start` until it answers `done`: the frames
    /// captured, the lens position of the last one, and the last frame.
    static func focus(_ focus: inout AutoFocus, camera: SimulatedCamera, region: NormalizedRect,
                      from start: Double) async throws -> (frames: Int, lensPosition: Double, frame: Frame) {
        try camera.updateControls { $0.lensPosition = start }
        var frames = 0
        while true {
            let frame = try await camera.nextFrame()
            frames += 1
            let sharpness = try Sharpness.measure(frame.buffer, region: region)
            switch focus.update(sharpness: sharpness, lensPosition: frame.metadata.lensPosition) {
            case .moveLens(let position):
                try #require(frames < 40, "autofocus did not finish in 40 frames")
                try camera.updateControls { $0.lensPosition = position }
            case .done:
                return (frames, frame.metadata.lensPosition, frame)
            }
        }
    }

    /// Runs `focus` against a synthetic device whose sharpness at each lens position is `curve` and
    /// whose lens arrives `lag` frames after it is asked to move, until `focus` answers `done` —
    /// or, `throughSearch`, until it answers `done` after a search (at most 50 frames of waiting).
    /// Returns the frames, the final lens position and the frame whose answer began the search.
    static func drive(_ focus: inout AutoFocus, from start: Double, lag: Int = 0, throughSearch: Bool = false,
                      curve: (Double) -> Double) -> (frames: Int, lensPosition: Double, searchBegan: Int?) {
        var lens = start
        var pending: [(frame: Int, position: Double)] = []
        var searchBegan: Int?
        for frame in 1...100 {
            while let first = pending.first, first.frame <= frame {
                lens = first.position
                pending.removeFirst()
            }
            switch focus.update(sharpness: curve(lens), lensPosition: lens) {
            case .moveLens(let position):
                searchBegan = searchBegan ?? frame
                pending.append((frame + 1 + lag, position))
            case .done:
                if !throughSearch || searchBegan != nil || frame == 50 { return (frame, lens, searchBegan) }
            }
        }
        Issue.record("autofocus did not finish in 100 frames")
        return (100, -1, searchBegan)
    }

    /// A smooth focus curve: a noise floor plus a bell whose half-width is 0.12 of the lens range.
    static func peakCurve(_ position: Double, peak: Double) -> Double {
        let offset = (position - peak) / 0.12
        return 20 + 500 / (1 + offset * offset)
    }
}

extension SplitMix64 {
    /// Uniform in −1…1, for test noise.
    mutating func nextSigned() -> Double {
        Double(next() >> 11) / Double(1 << 52) - 1
    }
}
