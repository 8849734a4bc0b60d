import CameraCapture
import CameraRecording
import Foundation

/// The line `record` keeps updated on a terminal while a take runs:
/// "recording 00:03.4 · 103 frames · 0 dropped · 529 KB on disk". The clock shows tenths, so the
/// first second's frames are seen to count; before the first fragment reaches the file the line says
/// so instead of showing an empty size.
struct RecordingProgress {
    let status: MovieFileOutput.Status

    var line: String {
        let tenths = Int((status.duration * 10).rounded(.down))
        let clock = String(format: "%02d:%02d.%d", tenths / 600, tenths / 10 % 60, tenths % 10)
        let frames = status.frames == 1 ? "1 frame" : "\(status.frames) frames"
        let onDisk = status.bytes > 0 ? "\(Self.size(status.bytes)) on disk" : "nothing on disk yet"
        return "recording \(clock) · \(frames) · \(status.droppedFrames) dropped · \(onDisk)"
    }

    /// "529 KB", "4.2 MB", "1.3 GB" (decimal units, as the disk's size is told).
    static func size(_ bytes: Int64) -> String {
        let value = Double(bytes)
        if value < 1e6 { return "\(Int((value / 1e3).rounded(.up))) KB" }
        if value < 1e9 { return String(format: "%.1f MB", value / 1e6) }
        return String(format: "%.1f GB", value / 1e9)
    }
}
