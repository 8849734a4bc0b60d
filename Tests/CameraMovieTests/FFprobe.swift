import CameraTestSupport
import Foundation

/// FFmpeg's command-line tools (Debian's ffmpeg, installed by `make deps`) as the tests' peers.
enum FFprobe {
    /// What ffprobe reports of a file's first video stream, frames counted by decoding.
    struct VideoStream {
        let codec: String
        let pixelFormat: String
        let colorSpace: String?
        let frames: Int
        let duration: Double
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func streams(of path: String) throws -> VideoStream {
        let output = try run("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                  "-show_entries", "stream=codec_name,pix_fmt,color_space,nb_read_frames,duration",
                                                  "-of", "json", path])
        struct Report: Decodable {
            struct Stream: Decodable {
                let codec_name: String
                let pix_fmt: String
                let color_space: String?
                let nb_read_frames: String
                let duration: String?
            }
            let streams: [Stream]
        }
        guard let stream = try JSONDecoder().decode(Report.self, from: output.stdout).streams.first,
              let frames = Int(stream.nb_read_frames) else {
            throw Failure(description: "ffprobe found no video stream in \(path): \(output.stderr)")
        }
        let duration = try stream.duration.flatMap(Double.init) ?? formatDuration(of: path)
        return VideoStream(codec: stream.codec_name, pixelFormat: stream.pix_fmt, colorSpace: stream.color_space,
                           frames: frames, duration: duration)
    }

    /// What `ffmpeg -v error -i path -f null -` prints while decoding every frame ("" when all is well).
    static func decodeErrors(of path: String) throws -> String {
        try run("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"]).stderr
    }

    private static func formatDuration(of path: String) throws -> Double {
        let output = try run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        guard let duration = Double(String(decoding: output.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "ffprobe gave no duration for \(path): \(output.stderr)")
        }
        return duration
    }

    private static func run(_ tool: String, _ arguments: [String]) throws -> (stdout: Data, stderr: String) {
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw Failure(description: "\(tool) is missing — run make deps (installs ffmpeg)")
        }
        let result = try runTool(tool, arguments)
        return (result.output, result.errors)
    }
}
