import CameraCapture
import CameraCore
@testable import CameraStills
import Foundation
import Testing

/// The bracket sequence driven frame by frame: each offset's exposure, its frame found by its
/// metadata, and the errors before and during it.
@Suite("Bracket sequence")
struct BracketSequenceTests {
    static let capabilities = DeviceCapabilities(exposureDuration: 0.0001...0.5, analogueGain: 1...16, baseISO: 50, exposureBias: -8...8,
                                                 zoomFactor: 1...1, lensPosition: 0...1, hasTorch: false, hasFlash: false)
    static let base = SensorControls(exposureDuration: 0.002, analogueGain: 1)

    static func frame(_ controls: SensorControls, _ sequence: UInt64) throws -> Frame {
        Frame(buffer: try PixelBuffer(format: .bayer16(.rggb, significantBits: 12), width: 16, height: 16),
              presentationTime: MediaTime(value: Int64(sequence), timescale: 30), sequenceNumber: sequence,
              metadata: FrameMetadata(exposureDuration: MediaTime(seconds: controls.exposureDuration, preferredTimescale: 1_000_000_000), analogueGain: controls.analogueGain,
                                      baseISO: 50, digitalGain: controls.digitalGain, lensPosition: controls.lensPosition))
    }

    @Test("Each offset's exposure is the base's times 2^offset, longer or shorter before any gain",
          arguments: [[-2.0, 0, 2], [-3, 0, 3, 5], [0, 1]])
    func exposures(offsets: [Double]) throws {
        let sequence = try BracketSequence(offsets: offsets, base: Self.base, renderGain: .none, capabilities: Self.capabilities)
        for (offset, controls) in zip(offsets, sequence.exposures) {
            let total = controls.exposureDuration * controls.analogueGain * controls.digitalGain
            #expect(abs(log2(total / 0.002) - offset) < 1e-9, "\(offset) EV: \(controls)")
            // 0.002 s × 2^5 is 64 ms: within the longest duration, so no gain.
            #expect(controls.analogueGain == 1 && controls.digitalGain == 1)
        }
    }

    @Test("Past the longest duration the gain makes up the rest")
    func gainBeyondTheLongestDuration() throws {
        let sequence = try BracketSequence(offsets: [0, 10], base: Self.base, renderGain: .none, capabilities: Self.capabilities)
        let long = sequence.exposures[1]
        #expect(long.exposureDuration == 0.5 && abs(long.analogueGain - 0.002 * 1024 / 0.5) < 1e-9, "\(long)")
    }

    @Test("A frame is made with a held exposure to within 1 %",
          arguments: [(MediaTime(value: 2019, timescale: 1_000_000), true), (MediaTime(value: 2021, timescale: 1_000_000), false)])
    func madeWithRoundedExposure(reported: MediaTime, isMade: Bool) {
        let metadata = FrameMetadata(exposureDuration: reported, analogueGain: 1, baseISO: 50)
        #expect(metadata.isMade(with: SensorControls(exposureDuration: 0.002, analogueGain: 1)) == isMade)
    }

    @Test("On microsecond steps, a −2 EV frame under 99 µs is set to 25 µs, which a frame made with it reports")
    func shortExposureOnTheDevicesSteps() {
        var capabilities = Self.capabilities
        (capabilities.exposureDuration, capabilities.exposureDurationStep) = (20e-6...0.5, 1e-6)
        let held = SensorControls(exposureDuration: 99e-6, analogueGain: 1).exposing(times: 0.25, within: capabilities)
        #expect(abs(held.exposureDuration - 25e-6) < 1e-12, "\(held)")
        // Unsnapped, 24.75 µs reported to the microsecond (25 µs) is 1.01 % off: never made with it.
        let frame = FrameMetadata(exposureDuration: MediaTime(seconds: held.exposureDuration, preferredTimescale: 1_000_000),
                                  analogueGain: 1, baseISO: 50)
        #expect(frame.isMade(with: held))
        #expect(!frame.isMade(with: SensorControls(exposureDuration: 24.75e-6, analogueGain: 1)))
    }

    @Test("An offset beyond the device's reach is refused naming the offsets it can reach")
    func beyondReach() {
        let error = #expect(throws: PhotoCaptureError.self) {
            try BracketSequence(offsets: [-3, 0, 14], base: Self.base, renderGain: .none, capabilities: Self.capabilities)
        }
        #expect(error?.description.contains("+14.0 EV is beyond") == true, "\(String(describing: error))")
        // 0.0001 s at gain 1 is −4.3 EV from 2 ms; 0.5 s at gain 16 is +12.0 EV.
        #expect(error?.description.contains("-4.3…+12.0 EV") == true, "\(String(describing: error))")
    }

    @Test("Too few, too many, repeated or non-finite offsets are refused before the camera is asked",
          arguments: [[0.0], [-2, -1, 0, 1, 2, 3], [0, 0, 2], [0, .nan]])
    func badOffsets(offsets: [Double]) {
        #expect(throws: PhotoCaptureError.self) { try PhotoSettings.checkBracket(offsets) }
    }

    @Test("The exposures are held one per frame, from the frame the bracket starts on; frames are taken by their metadata")
    func takesFramesByMetadata() throws {
        var sequence = try BracketSequence(offsets: [-2, 0, 2], base: Self.base, renderGain: .none, capabilities: Self.capabilities)
        let (short, middle, long) = (sequence.exposures[0], sequence.exposures[1], sequence.exposures[2])
        guard case .expose(let first) = sequence.advance(try Self.frame(middle, 0)), first == short else {
            Issue.record("the start frame did not hold −2 EV"); return
        }
        guard case .expose(let second) = sequence.advance(try Self.frame(middle, 1)), second == middle else {
            Issue.record("a frame at 0 EV before the −2 EV one did not hold 0 EV next"); return
        }
        guard case .expose(let third) = sequence.advance(try Self.frame(short, 2)), third == long else {
            Issue.record("the −2 EV frame did not hold +2 EV next"); return
        }
        guard case .wait = sequence.frameLost() else { Issue.record("a lost frame ended the bracket"); return }
        guard case .wait = sequence.advance(try Self.frame(middle, 4)) else { Issue.record("the 0 EV frame held anything new"); return }
        guard case .captured(let frames) = sequence.advance(try Self.frame(long, 5)) else { Issue.record("the bracket did not end"); return }
        #expect(frames.map(\.sequenceNumber) == [2, 4, 5])
    }

    @Test("A frame made with a later exposure than the one awaited holds that one again, then each until its frame comes")
    func heldAgainWhenPassed() throws {
        var sequence = try BracketSequence(offsets: [-2, 0, 2], base: Self.base, renderGain: .none, capabilities: Self.capabilities)
        let (short, middle, long) = (sequence.exposures[0], sequence.exposures[1], sequence.exposures[2])
        var steps: [BracketSequence.Step] = []
        for (controls, number) in [(middle, 0), (middle, 1), (short, 2), (short, 3), (long, 4), (long, 5), (middle, 6)] as [(SensorControls, UInt64)] {
            steps.append(sequence.advance(try Self.frame(controls, number)))
        }
        let held = steps.map { step -> SensorControls? in
            if case .expose(let controls) = step { return controls }
            return nil
        }
        // 0: −2 EV, 1: 0 EV, 2: +2 EV held in turn; 3: the 0 EV frame awaited; 4: a +2 EV frame passed it, so 0 EV is held
        // again; 5: and waited for; 6: its frame holds +2 EV.
        #expect(held == [short, middle, long, nil, middle, nil, long])
        guard case .captured(let frames) = sequence.advance(try Self.frame(long, 7)) else { Issue.record("the bracket did not end"); return }
        #expect(frames.map(\.sequenceNumber) == [2, 6, 7])
    }

    @Test("A bracket whose exposure never comes fails after its frames, saying which")
    func neverComes() throws {
        var sequence = try BracketSequence(offsets: [-2, 0], base: Self.base, renderGain: .none, capabilities: Self.capabilities)
        var step = BracketSequence.Step.wait
        for index in 0...BracketSequence.framesPerExposure {
            step = sequence.advance(try Self.frame(Self.base, UInt64(index)))
        }
        guard case .failed(let message) = step else { Issue.record("no failure: \(step)"); return }
        #expect(message.contains("exposure 1 of 2 (-2.0 EV"), "\(message)")
    }

    @Test("The viewfinder renders each bracket frame as the base: the gain moves by the frame's own offset")
    func renderGainFollowsTheFrame() throws {
        let base = RenderGain(subjectLevel: 0.02, ev: 3)
        let sequence = try BracketSequence(offsets: [-2, 0, 2], base: Self.base, renderGain: base, capabilities: Self.capabilities)
        let gain = sequence.renderGain(for: try Self.frame(sequence.exposures[2], 0).metadata)
        #expect(abs(gain.subjectLevel - 0.08) < 1e-9 && abs(gain.ev - 1) < 1e-9, "\(gain)")
        #expect(abs(gain.subjectLevel * pow(2, gain.ev) - base.subjectLevel * pow(2, base.ev)) < 1e-9)
    }
}
