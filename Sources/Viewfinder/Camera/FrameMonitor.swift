import CameraCapture
import CameraCore

/// The newest preview frame and what is measured across frames: the rate they arrive at and the
/// frames of the camera's stream the preview missed (mains flicker comes with each frame's 3A
/// status). The preview pipeline records every frame; `/state`, the controls and the status line
/// read it.
final class FrameMonitor: Sendable {
    /// The newest frame with the measurements up to it.
    struct Reading: Sendable {
        let frame: PreviewFrame
        /// Whether the frame's image already shows the preview's filters (it does when a viewer was
        /// watching as it came; `/snapshot` filters a copy of one that does not).
        let isFiltered: Bool
        /// Preview frames per second over the last second of wall-clock time.
        let framesPerSecond: Double
        /// Frames of the camera's stream that never reached the preview (lost by the device, or
        /// skipped while the pipeline was busy), since the monitor started.
        let drops: Int
    }

    private struct State {
        var latest: Reading?
        var rate = FrameRateMeter()
        var drops = 0
    }

    private let state = Locked(State())

    /// The newest reading, nil before the first frame.
    var latest: Reading? { state.withLock { $0.latest } }

    /// Takes in the next preview frame, its image filtered or not.
    func record(_ frame: PreviewFrame, isFiltered: Bool = false) {
        state.withLock { state in
            let previous = state.latest?.frame.sequenceNumber
            if let previous, frame.sequenceNumber > previous {
                state.drops += Int(frame.sequenceNumber - previous - 1)
            }
            state.latest = Reading(frame: frame, isFiltered: isFiltered, framesPerSecond: state.rate.tick(), drops: state.drops)
        }
    }

    /// Returns once a frame has been recorded; throws `CancellationError` when cancelled first.
    func firstFrame() async throws {
        while latest == nil {
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
