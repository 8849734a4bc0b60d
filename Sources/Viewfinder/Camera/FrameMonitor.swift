import CameraCapture
import CameraCore
import CameraMetering

/// The newest preview frame and what is measured across frames: the rate they arrive at, the
/// frames of the camera's stream the preview missed, and mains flicker. The preview pipeline
/// records every frame; `/state`, the controls and the status line read it.
final class FrameMonitor: Sendable {
    /// The newest frame with the measurements up to it.
    struct Reading: Sendable {
        let frame: PreviewFrame
        /// Preview frames per second over the last second of wall-clock time.
        let framesPerSecond: Double
        /// Frames of the camera's stream that never reached the preview (lost by the device, or
        /// skipped while the pipeline was busy), since the monitor started.
        let drops: Int
        /// The flickering light's frequency (100 or 120 Hz), or nil.
        let flicker: Double?
    }

    private struct State {
        var latest: Reading?
        var arrivals: [ContinuousClock.Instant] = []
        var drops = 0
        var flicker = FlickerDetector()
    }

    private let state = Locked(State())

    /// The newest reading, nil before the first frame.
    var latest: Reading? { state.withLock { $0.latest } }

    /// Takes in the next preview frame.
    func record(_ frame: PreviewFrame) {
        let now = ContinuousClock.now
        state.withLock { state in
            let previous = state.latest?.frame.sequenceNumber
            if let previous, frame.sequenceNumber > previous {
                state.drops += Int(frame.sequenceNumber - previous - 1)
            }
            // Flicker shows between consecutive frames only: after a gap the detector starts afresh.
            if previous.map({ $0 + 1 }) != frame.sequenceNumber { state.flicker = FlickerDetector() }
            state.arrivals.append(now)
            state.arrivals.removeAll { now - $0 > .seconds(1) }
            let span = state.arrivals.first.map { now - $0 } ?? .zero
            let rate = state.arrivals.count > 1 && span > .zero ? Double(state.arrivals.count - 1) / span.seconds : 0
            let flicker = state.flicker.update(rowMeans: frame.statistics.rowMeans, rowReadoutTime: frame.metadata.rowReadoutTime)
            state.latest = Reading(frame: frame, framesPerSecond: rate, drops: state.drops, flicker: flicker)
        }
    }

    /// Returns once a frame has been recorded; throws `CancellationError` when cancelled first.
    func firstFrame() async throws {
        while latest == nil {
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
