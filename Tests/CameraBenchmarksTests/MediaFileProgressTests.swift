@testable import CameraBenchmarks
import CameraTestSupport
import Foundation
import Testing

/// `bench startup`'s readers of files being written, on files ffmpeg writes, cut where ffprobe (a
/// real peer) says their first pictures end, as a reader polling a growing file finds them.
@Suite("Media files read as they grow")
struct MediaFileProgressTests {
    /// ffmpeg's test pattern at 10 frames a second for `seconds`, a keyframe each second, in `format`.
    static func write(_ path: String, seconds: Int, _ format: [String]) async throws {
        let result = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=10",
                                                     "-t", "\(seconds)", "-c:v", "libx264", "-g", "10", "-bf", "0", "-pix_fmt", "yuv420p"]
                                                    + format + ["-y", path])
        #expect(result.status == 0, "ffmpeg: \(result.errors)")
    }

    /// Where each video packet of `path` lies in the file, as ffprobe reads it.
    static func packets(_ path: String) async throws -> [(position: Int, size: Int)] {
        let result = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pos,size",
                                                      "-of", "csv=p=0", path])
        return String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").compactMap { Int($0) }
            return fields.count == 2 ? (fields[0], fields[1]) : nil
        }
    }

    /// A copy of `path` cut to its first `count` bytes.
    static func cut(_ path: String, to count: Int) throws -> String {
        let copy = "\(path).\(count)"
        try Data(contentsOf: URL(fileURLWithPath: path)).prefix(count).write(to: URL(fileURLWithPath: copy))
        return copy
    }

    @Test("A fragmented MP4 has a whole fragment once its first second's last picture is in the file, not a byte before")
    func fragment() async throws {
        try await withScratchDirectory { folder in
            let path = folder.appendingPathComponent("take.mp4").path
            try await Self.write(path, seconds: 2, ["-movflags", "frag_keyframe+empty_moov+default_base_moof"])
            let packets = try await Self.packets(path)
            try #require(packets.count == 20, "\(packets)")
            let end = packets[9].position + packets[9].size
            #expect(!MediaFileProgress.hasWholeFragment(try Self.cut(path, to: end - 1)))
            #expect(MediaFileProgress.hasWholeFragment(try Self.cut(path, to: end)))
            #expect(!MediaFileProgress.hasWholeFragment(folder.appendingPathComponent("missing.mp4").path))
        }
    }

    @Test("An FLV file has a video frame once its first picture's tag is whole in it, not with the decoder's configuration alone")
    func flvVideo() async throws {
        try await withScratchDirectory { folder in
            let path = folder.appendingPathComponent("stream.flv").path
            try await Self.write(path, seconds: 1, ["-f", "flv"])
            let first = try #require(try await Self.packets(path).first)
            // The tag: an 11-byte header, then 5 bytes (frame type and codec, AVC packet type, composition time) before the picture.
            let end = first.position + 11 + 5 + first.size
            #expect(!MediaFileProgress.hasVideoFrame(try Self.cut(path, to: first.position)))
            #expect(!MediaFileProgress.hasVideoFrame(try Self.cut(path, to: end - 1)))
            #expect(MediaFileProgress.hasVideoFrame(try Self.cut(path, to: end)))
        }
    }
}
