import CameraCore
import CameraTestSupport
import Foundation

/// The `ffmpeg-lut3d` peer of `bench filters`: FFmpeg's `lut3d` filter (tetrahedral, one thread)
/// grading the same frame with the same `.cube`. Its time per frame is the CPU time of `ffmpeg`
/// filtering the frame `runs` times less that of passing it through `null`, over `runs`, so
/// FFmpeg's start, file reads and muxing are not counted.
struct FFmpegLUTPeer {
    let runs: Int

    func milliseconds(_ frame: PixelBuffer, cube: String, in folder: URL) async throws(BenchmarkError) -> Double {
        guard frame.format == .bgra8 else { throw BenchmarkError("ffmpeg-lut3d peer: bgra8 frames only, not \(frame.format)") }
        let input = folder.appendingPathComponent("frame.bgra").path
        do {
            try Data(frame.bytes(plane: 0)).write(to: URL(fileURLWithPath: input))
        } catch {
            throw BenchmarkError("ffmpeg-lut3d peer: cannot write the frame to \(input): \(error) — check the temporary directory")
        }
        let graded = try await cpuSeconds(input, size: PixelSize(width: frame.width, height: frame.height), filter: "lut3d=file=\(cube):interp=tetrahedral")
        let passed = try await cpuSeconds(input, size: PixelSize(width: frame.width, height: frame.height), filter: "null")
        return max(graded - passed, 0) * 1000 / Double(runs)
    }

    /// The user CPU seconds `ffmpeg -benchmark` reports for `runs` passes of the frame through `filter`.
    private func cpuSeconds(_ input: String, size: PixelSize, filter: String) async throws(BenchmarkError) -> Double {
        let arguments = ["-hide_banner", "-nostdin", "-benchmark", "-threads", "1", "-filter_threads", "1",
                         "-stream_loop", "\(runs - 1)", "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(size.width)x\(size.height)",
                         "-i", input, "-vf", filter, "-f", "null", "-"]
        let result: (status: Int32, output: Data, errors: String)
        do {
            result = try await runTool("/usr/bin/ffmpeg", arguments)
        } catch {
            throw BenchmarkError("ffmpeg-lut3d peer: cannot run /usr/bin/ffmpeg: \(error) — run make deps")
        }
        // "bench: utime=3.287s stime=0.125s rtime=4.979s"
        guard result.status == 0, let line = result.errors.split(separator: "\n").first(where: { $0.hasPrefix("bench: utime=") }),
              let seconds = Double(line.dropFirst("bench: utime=".count).prefix { $0 != "s" }) else {
            throw BenchmarkError("ffmpeg-lut3d peer failed (status \(result.status)): \(result.errors.split(separator: "\n").last ?? "") — run make deps")
        }
        return seconds
    }
}
