import CameraCapture

extension SimulatedCamera {
    /// Whether the simulated device can be used, so tests and demos can play through the
    /// interruptions a real camera has.
    public enum Availability: Sendable, Hashable {
        case available
        /// Another client holds the camera, as V4L2 reports with EBUSY.
        case busy
        /// The camera was unplugged.
        case removed

        /// The error a stream gets in this state, or nil when available.
        func interruption(device: String) -> CaptureError? {
            switch self {
            case .available:
                nil
            case .busy:
                .interrupted(.deviceInUseByAnotherClient,
                             detail: "\(device) is in use by another client — start the stream again once it is released")
            case .removed:
                .interrupted(.deviceRemoved,
                             detail: "\(device) was disconnected — start the stream again once it is back")
            }
        }
    }

    /// Makes the camera available, busy or removed from now on. Leaving `.available` ends a
    /// running stream (frames already scheduled are lost); while unavailable, `startStreaming()`
    /// and `nextFrame()` throw `CaptureError.interrupted` naming why; once available again,
    /// `startStreaming()` resumes where the stream stopped.
    public func simulateAvailability(_ availability: Availability) {
        state.withLock { state in
            state.availability = availability
            if availability != .available { state.stop() }
        }
    }
}
