import CameraCore

/// Exposure and gain requests on their way to the sensor. Like a real sensor, a new exposure time
/// takes effect `exposureLatency` frames after the frame during which it was requested and a new
/// gain `gainLatency` frames after; while no frame is in flight (before a stream's first frame),
/// requests apply at once.
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

    /// Requests an exposure time while `lastFrame` is the last frame scheduled (nil: none in flight).
    mutating func request(exposure value: MediaTime, lastFrame: UInt64?) {
        guard let lastFrame else { exposure = value; return }
        pendingExposure.append((lastFrame + ControlPipeline.exposureLatency, value))
    }

    /// Requests an analogue gain while `lastFrame` is the last frame scheduled (nil: none in flight).
    mutating func request(gain value: Double, lastFrame: UInt64?) {
        guard let lastFrame else { gain = value; return }
        pendingGain.append((lastFrame + ControlPipeline.gainLatency, value))
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

    /// Applies every pending request: the stream stopped, so the sensor has caught up.
    mutating func settle() {
        exposure = pendingExposure.last?.value ?? exposure
        gain = pendingGain.last?.value ?? gain
        pendingExposure.removeAll()
        pendingGain.removeAll()
    }
}
