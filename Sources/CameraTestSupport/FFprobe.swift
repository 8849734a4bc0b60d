import Foundation

/// FFmpeg's command-line tools (Debian's ffmpeg, installed by `make deps`) as the tests' peers.
public enum FFprobe {
    /// What ffprobe reports of a file's first video stream, frames counted by decoding.
    public struct VideoStream {
        public let codec: String
        public let pixelFormat: String
        public let colorSpace: String?
        public let frames: Int
        /// The first frame's time.
        public let start: Double
        public let duration: Double
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func streams(of path: String) async throws -> VideoStream {
        let output = try await run("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                  "-show_entries", "stream=codec_name,pix_fmt,color_space,nb_read_frames,start_time,duration",
                                                  "-of", "json", path])
        struct Report: Decodable {
            struct Stream: Decodable {
                let codec_name: String
                let pix_fmt: String
                let color_space: String?
                let nb_read_frames: String
                let start_time: String?
                let duration: String?
            }
            let streams: [Stream]
        }
        guard let stream = try JSONDecoder().decode(Report.self, from: output.stdout).streams.first,
              let frames = Int(stream.nb_read_frames) else {
            throw Failure(description: "ffprobe found no video stream in \(path): \(output.stderr)")
        }
        let duration = if let duration = stream.duration.flatMap(Double.init) { duration } else { try await formatDuration(of: path) }
        return VideoStream(codec: stream.codec_name, pixelFormat: stream.pix_fmt, colorSpace: stream.color_space,
                           frames: frames, start: stream.start_time.flatMap(Double.init) ?? 0, duration: duration)
    }

    /// What ffprobe reports of a file's first audio stream, its start and duration from its packets' times.
    public struct AudioStream {
        public let codec: String
        public let sampleRate: Int
        public let channels: Int
        public let packets: Int
        /// The first packet's time: before 0 by the AAC encoder's priming, which the edit list hides.
        public let start: Double
        public let duration: Double
    }

    public static func audioStream(of path: String) async throws -> AudioStream {
        let output = try await run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                  "stream=codec_name,sample_rate,channels:packet=pts_time,duration_time", "-of", "json", path])
        struct Report: Decodable {
            struct Stream: Decodable {
                let codec_name: String
                let sample_rate: String
                let channels: Int
            }
            struct Packet: Decodable {
                let pts_time: String
                let duration_time: String?
            }
            let streams: [Stream]
            let packets: [Packet]?
        }
        let report = try JSONDecoder().decode(Report.self, from: output.stdout)
        guard let stream = report.streams.first, let sampleRate = Int(stream.sample_rate) else {
            throw Failure(description: "ffprobe found no audio stream in \(path): \(output.stderr)")
        }
        let spans = (report.packets ?? []).compactMap { packet -> (Double, Double)? in
            guard let start = Double(packet.pts_time) else { return nil }
            return (start, start + (packet.duration_time.flatMap(Double.init) ?? 0))
        }
        let start = spans.map(\.0).min() ?? 0
        return AudioStream(codec: stream.codec_name, sampleRate: sampleRate, channels: stream.channels, packets: spans.count, start: start,
                           duration: (spans.map(\.1).max() ?? 0) - start)
    }

    /// The file's audio decoded by ffmpeg to mono 48 kHz Float32 (`-f f32le -ac 1 -ar 48000`), from
    /// the audio stream's first packet (`AudioStream.start`) on.
    public static func decodedAudio(of path: String) async throws -> [Float] {
        let output = try await run("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-vn", "-f", "f32le", "-ac", "1", "-ar", "48000", "-"])
        return output.stdout.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// What `ffmpeg -v error -i path -f null -` prints while decoding every frame ("" when all is well).
    public static func decodeErrors(of path: String) async throws -> String {
        try await run("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"]).stderr
    }

    private static func formatDuration(of path: String) async throws -> Double {
        let output = try await run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        guard let duration = Double(String(decoding: output.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "ffprobe gave no duration for \(path): \(output.stderr)")
        }
        return duration
    }

    private static func run(_ tool: String, _ arguments: [String]) async throws -> (stdout: Data, stderr: String) {
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw Failure(description: "\(tool) is missing — run make deps (installs ffmpeg)")
        }
        let result = try await runTool(tool, arguments)
        return (result.output, result.errors)
    }
}
