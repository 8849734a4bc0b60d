import CameraTestSupport
import Foundation
import Testing

/// `camerasun record` into a library on a small tmpfs that fills up mid-take.
@Suite(.enabled(if: Tmpfs.canMount, "mounting a tmpfs needs root; CameraMovieTests cut torn takes without one"))
struct RecordDiskFullTests {
    @Test("The library's disk fills mid-take: exit 0, stopReason diskFull, a clear message, a whole file, the catalogue consistent")
    func diskFillsMidTake() async throws {
        try await Tmpfs.with(bytes: 2 << 20) { volume in
            let library = volume.appendingPathComponent("Library")
            // The room held to catalogue the take (the 20 KB reserve of a 2 MiB volume and 256 KB)
            // and some 200 KB for the take: several seconds at 320x180.
            try Tmpfs.fill(volume, leaving: 500_000)
            let result = try await CameraSunBinary.run(["record", "--library", library.path, "--duration", "120", "--json"]
                + RecordEndToEndTests.small, timeout: 180)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stderr.contains("filled up") && result.stderr.contains("free some space"), "\(result)")
            let asset = try #require(try result.jsonObject()["asset"] as? [String: Any], "\(result)")
            #expect(asset["stopReason"] as? String == "diskFull")
            let path = try #require(asset["path"] as? String)
            let frames = try #require(asset["frames"] as? Int)
            #expect(frames >= 30, "at least the first second is kept: \(asset)")
            #expect(try await RecordEndToEndTests.streams(of: path)["h264"]?.frames == frames)
            #expect(try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"]).errors.isEmpty)

            let verify = try await CameraSunBinary.run(["library", "verify", "--library", library.path, "--json"])
            #expect(verify.exitCode == 0, "\(verify)")
            let listed = try await CameraSunBinary.run(["library", "list", "--library", library.path, "--json"])
            let assets = try #require(try listed.jsonObject()["assets"] as? [[String: Any]])
            #expect(assets.count == 1 && (assets.first?["movie"] as? [String: Any])?["stopReason"] as? String == "diskFull",
                    "\(listed)")
            #expect(RecordEndToEndTests.partialFiles(in: library).isEmpty)
        }
    }
}
