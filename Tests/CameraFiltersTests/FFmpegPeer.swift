import Foundation

/// FFmpeg run on raw bgra frames, the peer the LUT is checked against.
enum FFmpegPeer {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `pixels` (packed bgra, `width`×`height`) through the filter `graph`, packed bgra back.
    static func filter(_ pixels: [UInt8], width: Int, height: Int, graph: String) throws -> [UInt8] {
        let directory = try TestFrames.directory()
        let input = directory.appendingPathComponent("in.bgra"), output = directory.appendingPathComponent("out.bgra")
        try Data(pixels).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(width)x\(height)",
                             "-i", input.path, "-vf", graph, "-f", "rawvideo", "-pix_fmt", "bgra", output.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "ffmpeg failed (\(process.terminationStatus)): \(message) — run make deps")
        }
        return [UInt8](try Data(contentsOf: output))
    }
}
