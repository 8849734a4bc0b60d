import Foundation

/// The simulated camera's flash frames and the simulated microphone's clicks, read back from a
/// movie or a stream's recording with ffmpeg and ffprobe: the two halves of each sync mark, by
/// their times in the file, so a test can measure the A/V offset the way a viewer would see it.
public struct SyncMarkReading: Sendable {
    /// Times of the flash frames (each lit a stop above both neighbours), and of the clicks, seconds.
    public let flashes: [Double]
    public let clicks: [Double]
    /// Frames decoded.
    public let frames: Int

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(path: String) async throws {
        // Each decoded frame's mean level, shrunk to 32x18 grey, every frame once (passthrough:
        // no frame repeated to fill a constant rate); the marked frames are lit a stop brighter.
        let video = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-fps_mode", "passthrough",
                                                    "-vf", "scale=32:18", "-pix_fmt", "gray", "-f", "rawvideo", "-"]).output
        let pixels = 32 * 18
        let levels = stride(from: 0, to: video.count / pixels * pixels, by: pixels).map { start in
            Double(video[start..<start + pixels].reduce(0) { $0 + Int($1) }) / Double(pixels)
        }
        // Each frame's own time from the file: a frame the encoder could not keep up with is missing,
        // so a frame's index is not its time.
        let times = try await videoFrameTimes(of: path)
        guard times.count == levels.count else { throw Failure(description: "\(times.count) frame times for \(levels.count) frames in \(path)") }
        // The tone curve squeezes the stop into a few levels of a bright picture: a flash frame
        // stands above both its neighbours, where the AE's own moves are gradual.
        flashes = levels.indices.dropFirst().dropLast().filter { levels[$0] - max(levels[$0 - 1], levels[$0 + 1]) > 5 }.map { times[$0] }
        frames = levels.count
        // The decoded sound, with the time of its first sample; a click is full scale, the tone a tenth of it.
        let audio = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "f32le", "-ac", "1", "-ar", "48000", "-"]).output
        let samples = audio.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let start = String(decoding: try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=start_time",
                                                                      "-of", "csv=p=0", path]).output, as: UTF8.self)
        guard let audioStart = Double(start.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "no audio start time in \(path): \(start)")
        }
        var clicks: [Double] = []
        for (index, sample) in samples.enumerated() where abs(sample) > 0.5 {
            let time = audioStart + Double(index) / 48_000
            if clicks.last.map({ time - $0 > 0.5 }) ?? true { clicks.append(time) }
        }
        self.clicks = clicks
    }

    /// Each flash's distance to its nearest click, seconds (infinity for a flash with no click).
    public var offsets: [(flash: Double, offset: Double)] {
        flashes.map { flash in (flash, clicks.map { abs($0 - flash) }.min() ?? .infinity) }
    }
}
