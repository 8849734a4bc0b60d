/// The driven controls' values on their way to the sensor, so that each frame is stamped with
/// the values it was taken with rather than the ones last asked for: a value set after frame n
/// reaches frame n + `latencyFrames` (`V4L2Driver.controlLatencyFrames`). An auto-exposure told
/// that a frame was taken with its new exposure when it was not corrects the same error again,
/// and oscillates.
struct V4L2ControlPipeline {
    let latencyFrames: UInt64
    /// The values last set on the device.
    private(set) var requested: [V4L2ControlID: Int32]
    /// The values the frames are taken with.
    private var inEffect: [V4L2ControlID: Int32]
    private var landing: [(frame: UInt64, id: V4L2ControlID, value: Int32)] = []

    /// The pipeline of a stream that started with `values`, which its first frame is taken with.
    init(latencyFrames: UInt64, values: [V4L2ControlID: Int32] = [:]) {
        self.latencyFrames = latencyFrames
        requested = values
        inEffect = values
    }

    /// Records that `id` was set to `value` when `nextFrame` was the next frame to be handed out.
    mutating func set(_ id: V4L2ControlID, to value: Int32, nextFrame: UInt64) {
        requested[id] = value
        landing.append((nextFrame + latencyFrames - 1, id, value))
    }

    /// The values frame `sequence` was taken with (frames come in order).
    mutating func values(forFrame sequence: UInt64) -> [V4L2ControlID: Int32] {
        while let first = landing.first, first.frame <= sequence {
            inEffect[first.id] = first.value
            landing.removeFirst()
        }
        return inEffect
    }
}
