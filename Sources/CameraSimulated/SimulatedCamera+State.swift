import CameraCapture
import CameraCore

extension SimulatedCamera {
    /// Everything about the next frame decided when it is scheduled.
    struct FramePlan {
        let index: UInt64
        let presentationTime: MediaTime
        let duration: MediaTime
        /// When the frame is ready on the wall clock (realtime pacing waits for it).
        let due: ContinuousClock.Instant
        let metadata: FrameMetadata
        let torchLevel: Double
        /// The scene light's per-channel factor (see `Illuminant`).
        let illuminant: SIMD3<Float>
        /// Whether the frame carries a sync mark (on a camera made with `syncMarks`).
        let syncMark: Bool
    }

    /// A frame being read off the sensor on a thread of its own, and what it was planned with.
    struct ReadOut: Sendable {
        let plan: FramePlan
        let frame: Task<Frame, any Error>
    }

    /// What changes while the camera runs, behind its one lock: the stream, the controls asked
    /// for, the simulated world's light and availability, and the frame clock.
    struct State {
        var stream: Stream
        var isStreaming = false
        var availability = Availability.available
        /// `nextFrame()` calls waiting for their frame's time (realtime pacing).
        var framesAwaited = 0
        /// The controls last applied; exposure and gain reach the sensor through `pipeline`,
        /// the others apply from the next frame scheduled. Never holds a flash request.
        private(set) var requested: SensorControls
        private var pipeline: ControlPipeline
        /// The power of a flash requested for the next frame scheduled.
        private var pendingFlash: Double?
        var illuminant = Illuminant.neutral
        /// Whether frames starting on a whole second of stream time carry a sync mark.
        var syncMarks = false
        /// The last frame `nextFrame()` was asked for since the stream started (nil before the
        /// first): the frame controls are requested after, whatever is read out ahead of it.
        private var lastFrame: UInt64?
        /// In realtime pacing, the next frame, read out while the one before it is processed;
        /// planned when that one was delivered.
        var readAhead: ReadOut?
        private var nextFrame: UInt64 = 0
        private var nextTime = MediaTime.zero
        /// The wall-clock instant of stream time zero, set by the first frame after each start.
        private var origin: ContinuousClock.Instant?

        /// A stopped camera on `stream`, exposing half a frame at gain 1.
        init(stream: Stream) {
            let exposure = MediaTime(value: 1, timescale: Int32(max(stream.frameRate.rounded(.up), 1)) * 2)
            pipeline = ControlPipeline(exposure: exposure, gain: 1)
            requested = SensorControls(exposureDuration: exposure.seconds, analogueGain: 1)
            self.stream = stream
        }

        /// Takes validated controls: exposure and gain enter the pipeline when they change, and a
        /// flash request waits for the next frame scheduled.
        mutating func request(_ controls: SensorControls) {
            if controls.exposureDuration != requested.exposureDuration {
                pipeline.request(exposure: SimulatedCamera.exposureTime(seconds: controls.exposureDuration), lastFrame: lastFrame)
            }
            if controls.analogueGain != requested.analogueGain {
                pipeline.request(gain: controls.analogueGain, lastFrame: lastFrame)
            }
            if let power = controls.flashPower { pendingFlash = power }
            requested = controls
            requested.flashPower = nil
        }

        /// Ends the stream: pending requests settle, a flash waiting for its frame is dropped (that
        /// frame will not come), and the next start resumes stream time where it stopped — at the
        /// frame read out ahead when no one has asked for it yet.
        mutating func stop() {
            isStreaming = false
            if let plan = readAhead?.plan, lastFrame.map({ plan.index > $0 }) ?? true {
                (nextFrame, nextTime) = (plan.index, plan.presentationTime)
            }
            readAhead = nil
            pipeline.settle()
            pendingFlash = nil
            lastFrame = nil
            origin = nil
        }

        /// Records that `nextFrame()` was asked for the frame of `plan`.
        mutating func ask(_ plan: FramePlan) {
            lastFrame = plan.index
        }

        /// Schedules the next frame: applies due requests (a flash waiting fires on it) and advances
        /// the clock. An exposure longer than the frame duration stretches the frame, as on a real
        /// sensor.
        mutating func plan() -> FramePlan {
            let settings = pipeline.settings(forFrame: nextFrame)
            let duration = max(stream.frameDuration, settings.exposure)
            let origin = self.origin ?? ContinuousClock.now.advanced(by: .seconds(-nextTime.seconds))
            self.origin = origin
            let plan = FramePlan(
                index: nextFrame, presentationTime: nextTime, duration: duration,
                due: origin.advanced(by: .seconds(nextTime.seconds + duration.seconds)),
                metadata: FrameMetadata(
                    exposureDuration: settings.exposure, analogueGain: settings.gain,
                    baseISO: SimulatedCamera.standardCapabilities.baseISO, digitalGain: requested.digitalGain,
                    exposureBias: requested.exposureBias, lensPosition: requested.lensPosition,
                    whiteBalanceGains: requested.whiteBalance, zoomFactor: requested.zoomFactor, flicker: requested.flicker,
                    rowReadoutTime: stream.rowReadoutTime, fNumber: SimulatedCamera.fNumber, flashPower: pendingFlash,
                    rawCalibration: stream.rawCalibration),
                torchLevel: requested.torchLevel, illuminant: illuminant,
                syncMark: syncMarks && SimulatedCamera.holdsWholeSecond(nextTime.seconds, duration: duration.seconds))
            pendingFlash = nil
            nextFrame += 1
            nextTime = nextTime + duration
            return plan
        }
    }
}
