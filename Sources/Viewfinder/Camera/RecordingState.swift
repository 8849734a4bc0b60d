import CameraCapture
import CameraRecording

/// A take's progress as `/state`'s `recording` and `POST /api/record`'s start answer show it.
/// While no take runs, `isRecording` is false and the figures are the last take's.
struct RecordingState: Encodable, Sendable, Equatable {
    let isRecording: Bool
    /// Seconds recorded.
    let elapsed: Double
    /// Bytes written to the file so far.
    let bytes: Int64
    let frames: Int
    /// Frames the encoder was too far behind to take.
    let droppedFrames: Int

    init(_ status: MovieFileOutput.Status) {
        isRecording = status.isRecording
        elapsed = status.duration
        bytes = status.bytes
        frames = status.frames
        droppedFrames = status.droppedFrames
    }
}
