import CameraCore

/// Exposure and gain requests on their way to the sensor. Like a real sensor, a new exposure time
/// takes effect `exposureLatency` frames after the frame during which it was requested and a new
/// gain `gainLatency` frames after; before the first frame, requests apply at once.
struct ControlPipeline {
    static let exposureLatency: UInt64 = 2
    static let gainLatency: UInt64 = 1

    private(set) var exposure: MediaTime
    private(set) var gain: Double
    private var pendingExposure: [(frame: UInt64, value: MediaTime)] = []
    private var pendingGain: [(frame: UInt64, value: Double)] = []

    init(exposure: MediaTime, gain: Double) {
        self.exposure = exposure
        self.gain = gain
    }

    /// Requests an exposure time while `nextFrame` is the next frame to be captured.
    mutating func request(exposure value: MediaTime, nextFrame: UInt64) {
        guard nextFrame > 0 else { exposure = value; return }
        pendingExposure.append((nextFrame - 1 + ControlPipeline.exposureLatency, value))
    }

    /// Requests an analogue gain while `nextFrame` is the next frame to be captured.
    mutating func request(gain value: Double, nextFrame: UInt64) {
        guard nextFrame > 0 else { gain = value; return }
        pendingGain.append((nextFrame - 1 + ControlPipeline.gainLatency, value))
    }

    /// The most recent values requested, whether or not they are in effect yet.
    var requested: (exposure: MediaTime, gain: Double) {
        (pendingExposure.last?.value ?? exposure, pendingGain.last?.value ?? gain)
    }

    /// Applies the requests due by `frame` and returns the settings that frame is captured with.
    mutating func settings(forFrame frame: UInt64) -> (exposure: MediaTime, gain: Double) {
        while let first = pendingExposure.first, first.frame <= frame {
            exposure = first.value
            pendingExposure.removeFirst()
        }
        while let first = pendingGain.first, first.frame <= frame {
            gain = first.value
            pendingGain.removeFirst()
        }
        return (exposure, gain)
    }
}
