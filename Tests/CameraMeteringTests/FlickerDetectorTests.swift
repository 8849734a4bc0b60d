import CameraCore
@testable import CameraMetering
import CameraSimulated
import Foundation
import Testing

@Suite("Flicker detection")
struct FlickerDetectorTests {
    /// What a detector reports for each of `count` consecutive flicker-office frames at `seconds`.
    private func detections(seconds: Double, count: Int = 4) async throws -> [Double?] {
        let camera = try simulatedCamera(.flickerOffice, seconds: seconds, format: smallFormat(240, 136))
        var detector = FlickerDetector()
        var results: [Double?] = []
        for _ in 0..<count {
            let frame = try await camera.nextFrame()
            #expect(abs(frame.metadata.exposureDuration.seconds - seconds) < 1e-6)
            let rowMeans = try stepFour.analyze(frame.buffer).rowMeans
            results.append(detector.update(rowMeans: rowMeans, metadata: frame.metadata, frameInterval: 1.0 / 30))
        }
        return results
    }

    @Test("100 Hz flicker is found at 1/250 s, where the exposure does not span whole flicker periods")
    func flaggedAtShortExposure() async throws {
        let results = try await detections(seconds: 1.0 / 250)
        #expect(results.first! == nil, "the first frame has nothing to compare with")
        #expect(results.dropFirst().allSatisfy { $0 == 100 }, "\(results)")
    }

    @Test("No flicker is found at 1/100 s: one whole period per row", arguments: [1.0 / 100, 1.0 / 50])
    func notFlaggedAtWholePeriods(seconds: Double) async throws {
        let results = try await detections(seconds: seconds)
        #expect(results.allSatisfy { $0 == nil }, "\(results)")
    }

    /// Settings of a frame read out at `rowReadoutTime` seconds a row.
    private static func metadata(_ rowReadoutTime: Double, exposure: Double = 1.0 / 250) -> FrameMetadata {
        FrameMetadata(exposureDuration: MediaTime(seconds: exposure, preferredTimescale: 1_000_000), analogueGain: 1, baseISO: 50,
                      rowReadoutTime: rowReadoutTime)
    }

    @Test("Frames made at different exposures are not compared: their rows differ by level, not by flicker")
    func changedExposureIsNotEvidence() {
        let readout = 1e-4
        func frame(phase: Double) -> [Float] {
            (0..<300).map { Float(0.4 * (1 + 0.1 * cos(2 * Double.pi * 100 * readout * Double($0) + phase))) }
        }
        var detector = FlickerDetector()
        _ = detector.update(rowMeans: frame(phase: 0), metadata: Self.metadata(readout), frameInterval: 1.0 / 30)
        #expect(detector.update(rowMeans: frame(phase: 2), metadata: Self.metadata(readout, exposure: 1.0 / 500), frameInterval: 1.0 / 30) == nil)
        #expect(detector.update(rowMeans: frame(phase: 4), metadata: Self.metadata(readout, exposure: 1.0 / 500), frameInterval: 1.0 / 30) == 100)
    }

    @Test("Bands that stand still from frame to frame are not looked for: at 30 fps, 100 Hz is found in a frame holding too little of a period to tell the two apart")
    func standingBandsAreNotCandidates() {
        // A 120-row frame read out in 1/150 s: two thirds of a 100 Hz period, four fifths of 120 Hz.
        let readout = 0.8 / 120 / 120, rows = 120
        func frame(phase: Double) -> [Float] {
            (0..<rows).map { Float(0.4 * (1 + 0.1 * cos(2 * Double.pi * 100 * readout * Double($0) + phase))) }
        }
        var detector = FlickerDetector()
        _ = detector.update(rowMeans: frame(phase: 0), metadata: Self.metadata(readout), frameInterval: 1.0 / 30)
        #expect(detector.update(rowMeans: frame(phase: 2 * Double.pi / 3), metadata: Self.metadata(readout), frameInterval: 1.0 / 30) == 100)
    }

    @Test("Synthetic bands at 120 Hz are reported as 120 Hz, not 100 Hz")
    func syntheticBands() {
        let readout = 1e-4, rows = 300
        func frame(phase: Double) -> [Float] {
            (0..<rows).map { Float(0.4 * (1 + 0.1 * cos(2 * Double.pi * 120 * readout * Double($0) + phase))) }
        }
        var detector = FlickerDetector()
        #expect(detector.update(rowMeans: frame(phase: 0), metadata: Self.metadata(readout), frameInterval: 1.0 / 25) == nil)
        #expect(detector.update(rowMeans: frame(phase: 2), metadata: Self.metadata(readout), frameInterval: 1.0 / 25) == 120)
        // Steady rows: no flicker.
        var steady = FlickerDetector()
        _ = steady.update(rowMeans: [Float](repeating: 0.4, count: rows), metadata: Self.metadata(readout), frameInterval: 1.0 / 25)
        #expect(steady.update(rowMeans: [Float](repeating: 0.42, count: rows), metadata: Self.metadata(readout), frameInterval: 1.0 / 25) == nil)
    }

    @Test("Black, clipped or mismatched rows are not evidence")
    func unusableRows() {
        let readout = 1e-4
        let bands = (0..<300).map { Float(0.97 + 0.02 * cos(2 * Double.pi * 100 * readout * Double($0))) }
        var clipped = FlickerDetector()
        _ = clipped.update(rowMeans: [Float](repeating: 0.99, count: 300), metadata: Self.metadata(readout), frameInterval: 1.0 / 25)
        #expect(clipped.update(rowMeans: bands, metadata: Self.metadata(readout), frameInterval: 1.0 / 25) == nil)
        var mismatched = FlickerDetector()
        _ = mismatched.update(rowMeans: [Float](repeating: 0.4, count: 200), metadata: Self.metadata(readout), frameInterval: 1.0 / 25)
        #expect(mismatched.update(rowMeans: [Float](repeating: 0.5, count: 300), metadata: Self.metadata(readout), frameInterval: 1.0 / 25) == nil)
    }
}
