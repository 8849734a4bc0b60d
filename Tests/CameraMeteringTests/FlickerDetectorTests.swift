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
            results.append(detector.update(rowMeans: rowMeans, rowReadoutTime: frame.metadata.rowReadoutTime))
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

    @Test("Synthetic bands at 120 Hz are reported as 120 Hz, not 100 Hz")
    func syntheticBands() {
        let readout = 1e-4, rows = 300
        func frame(phase: Double) -> [Float] {
            (0..<rows).map { Float(0.4 * (1 + 0.1 * cos(2 * Double.pi * 120 * readout * Double($0) + phase))) }
        }
        var detector = FlickerDetector()
        #expect(detector.update(rowMeans: frame(phase: 0), rowReadoutTime: readout) == nil)
        #expect(detector.update(rowMeans: frame(phase: 2), rowReadoutTime: readout) == 120)
        // Steady rows: no flicker.
        var steady = FlickerDetector()
        _ = steady.update(rowMeans: [Float](repeating: 0.4, count: rows), rowReadoutTime: readout)
        #expect(steady.update(rowMeans: [Float](repeating: 0.42, count: rows), rowReadoutTime: readout) == nil)
    }

    @Test("Black, clipped or mismatched rows are not evidence")
    func unusableRows() {
        let readout = 1e-4
        let bands = (0..<300).map { Float(0.97 + 0.02 * cos(2 * Double.pi * 100 * readout * Double($0))) }
        var clipped = FlickerDetector()
        _ = clipped.update(rowMeans: [Float](repeating: 0.99, count: 300), rowReadoutTime: readout)
        #expect(clipped.update(rowMeans: bands, rowReadoutTime: readout) == nil)
        var mismatched = FlickerDetector()
        _ = mismatched.update(rowMeans: [Float](repeating: 0.4, count: 200), rowReadoutTime: readout)
        #expect(mismatched.update(rowMeans: [Float](repeating: 0.5, count: 300), rowReadoutTime: readout) == nil)
    }
}
