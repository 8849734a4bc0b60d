import Testing
@testable import CameraExposure
import CameraSimulated
import CameraCore
import CameraCapture

/// Zoom ramps: 2^(rate·t) scaling, exact ends, cancellation, range checks, and a ramp driving a
/// simulated camera by frame presentation times.
@Suite struct ZoomRampTests {
    @Test func zoomsInAtTwoStopsPerSecond() throws {
        let ramp = try ZoomRamp(from: 1, to: 4, rate: 2)
        #expect(ramp.rate == 2)
        #expect(ramp.duration == 1)
        #expect(ramp.factor(at: 0) == 1)
        #expect(abs(ramp.factor(at: 0.5) - 2) < 1e-12)
        #expect(abs(ramp.factor(at: 0.25) - 2.squareRoot()) < 1e-12)
        #expect(ramp.factor(at: 1) == 4)
        #expect(ramp.factor(at: 3) == 4)
        #expect(!ramp.isFinished(at: 0.999))
        #expect(ramp.isFinished(at: 1))
    }

    @Test func zoomsOutTheSameWayReversed() throws {
        let ramp = try ZoomRamp(from: 4, to: 1, rate: 2)
        #expect(ramp.rate == -2, "the sign comes from the direction")
        #expect(try ZoomRamp(from: 4, to: 1, rate: -2) == ramp)
        #expect(ramp.factor(at: 0) == 4)
        #expect(abs(ramp.factor(at: 0.5) - 2) < 1e-12)
        #expect(ramp.factor(at: 1) == 1)
        #expect(ramp.isFinished(at: 1))
        #expect(!ramp.isFinished(at: 0.5))
    }

    @Test func endsExactlyOnAnAwkwardTarget() throws {
        let ramp = try ZoomRamp(from: 1.3, to: 7.1, rate: 1.7, startTime: 10)
        #expect(ramp.factor(at: 9) == 1.3, "before the start")
        #expect(ramp.factor(at: ramp.endTime) == 7.1)
        var previous = 1.3
        for step in 0...200 {
            let factor = ramp.factor(at: 10 + ramp.duration * Double(step) / 200)
            #expect(factor >= previous && factor <= 7.1)
            previous = factor
        }
        #expect(previous == 7.1)
    }

    @Test func cancelHoldsTheFactorReached() throws {
        var ramp = try ZoomRamp(from: 1, to: 4, rate: 2)
        let held = ramp.cancel(at: 0.5)
        #expect(abs(held - 2) < 1e-12)
        #expect(ramp.factor(at: 0.5) == held)
        #expect(ramp.factor(at: 5) == held)
        #expect(abs(ramp.factor(at: 0.25) - 2.squareRoot()) < 1e-12, "the ramp before the cancel is unchanged")
        #expect(ramp.isFinished(at: 0.5))
        #expect(!ramp.isFinished(at: 0.4))
        #expect(ramp.cancel(at: 0.75) == held, "a second cancel keeps the first")

        var done = try ZoomRamp(from: 4, to: 1, rate: 2)
        #expect(done.cancel(at: 2) == 1)
        #expect(done.cancellation == nil)
    }

    @Test func rejectsFactorsOutsideOneToTheMaximum() throws {
        for (from, to) in [(1.0, 11.0), (1.0, 0.5), (11.0, 2.0), (0.5, 2.0)] {
            let error = #expect(throws: ValueOutOfRangeError.self) { try ZoomRamp(from: from, to: to, rate: 2, maximumFactor: 10) }
            #expect(error?.setting == "zoom factor")
            #expect(error?.range == 1...10)
            #expect(error?.description.contains("1…10") == true, "\(String(describing: error))")
        }
        #expect(throws: ValueOutOfRangeError.self) { try ZoomRamp(from: 1, to: 5, rate: 2, maximumFactor: 4) }
        #expect(try ZoomRamp(from: 1, to: 10, rate: 2, maximumFactor: 10).target == 10)
        #expect(throws: ValueOutOfRangeError.self) { try ZoomRamp(from: 1, to: 2, rate: 0) }
        #expect(throws: ValueOutOfRangeError.self) { try ZoomRamp.checkFactor(.nan, maximumFactor: 10) }
    }

    @Test func sameFactorIsFinishedAtOnce() throws {
        let ramp = try ZoomRamp(from: 3, to: 3, rate: 1)
        #expect(ramp.duration == 0)
        #expect(ramp.isFinished(at: 0))
        #expect(ramp.factor(at: 0.5) == 3)
    }

    @Test func drivesASimulatedCameraByPresentationTime() async throws {
        // 4 fps and tiny frames: five frames span the one-second ramp.
        let format = DeviceFormat(size: PixelSize(width: 64, height: 36), pixelFormat: .bgra8, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera = try SimulatedCamera(scene: .grayCard, format: format, frameRate: 4)
        try camera.startStreaming()
        let ramp = try ZoomRamp(from: 1, to: 4, rate: 2, maximumFactor: camera.capabilities.zoomFactor.upperBound)
        var time = 0.0
        var factors: [Double] = []
        while true {
            try camera.updateControls { $0.zoomFactor = ramp.factor(at: time) }
            let frame = try await camera.nextFrame()
            factors.append(frame.metadata.zoomFactor)
            if ramp.isFinished(at: frame.presentationTime.seconds) { break }
            time = frame.presentationTime.seconds + 0.25
        }
        #expect(factors.count == 5)
        #expect(factors.first == 1)
        #expect(abs(factors[2] - 2) < 1e-12)
        #expect(factors.last == 4)
    }
}
