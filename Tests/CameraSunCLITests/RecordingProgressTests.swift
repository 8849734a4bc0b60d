@testable import CameraRecording
@testable import CameraSunCLI
import Testing

/// `record`'s progress line: a clock that moves in the first second and a size that says when
/// nothing has reached the file yet, instead of "00:00 · Zero KB · 29 frames".
@Suite("Record progress line")
struct RecordingProgressTests {
    static func status(duration: Double, frames: Int, bytes: Int64, dropped: Int = 0) -> MovieFileOutput.Status {
        var status = MovieFileOutput.Status()
        (status.isRecording, status.duration, status.frames, status.bytes, status.droppedFrames) = (true, duration, frames, bytes, dropped)
        return status
    }

    @Test func theFirstSecondCountsInTenths() {
        let line = RecordingProgress(status: Self.status(duration: 0.967, frames: 29, bytes: 0)).line
        #expect(line == "recording 00:00.9 · 29 frames · 0 dropped · nothing on disk yet")
    }

    @Test func oneFrameIsSingular() {
        #expect(RecordingProgress(status: Self.status(duration: 0, frames: 1, bytes: 0)).line
            == "recording 00:00.0 · 1 frame · 0 dropped · nothing on disk yet")
    }

    @Test func minutesAndSizesRead() {
        #expect(RecordingProgress(status: Self.status(duration: 754.36, frames: 22_630, bytes: 4_215_000, dropped: 3)).line
            == "recording 12:34.3 · 22630 frames · 3 dropped · 4.2 MB on disk")
        #expect(RecordingProgress.size(529_010) == "530 KB")
        #expect(RecordingProgress.size(1_300_000_000) == "1.3 GB")
    }
}
