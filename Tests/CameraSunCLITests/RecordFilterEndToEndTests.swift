import CameraTestSupport
import Foundation
import Testing

/// `camerasun record` with filters end to end: a take with a watermark and a LUT, and bad filter
/// flags refused before the library is touched.
@Suite("camerasun record with filters end to end")
struct RecordFilterEndToEndTests {
    /// Every file and folder under `directory` (none when it does not exist).
    static func contents(of directory: URL) -> [String] {
        (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? []).sorted()
    }

    /// `text` as a file `name` in `directory`.
    static func file(_ name: String, _ text: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test("--watermark (no text, before another flag) and an identity --lut: a take in the library that ffmpeg decodes")
    func filteredTake() async throws {
        try await withScratchDirectory { directory in
            let library = directory.appendingPathComponent("Library").path
            var cube = "LUT_3D_SIZE 2\n"
            for blue in 0...1 { for green in 0...1 { for red in 0...1 { cube += "\(red) \(green) \(blue)\n" } } }
            let lut = try Self.file("identity.cube", cube, in: directory)
            let result = try await CameraSunBinary.run(["record", "--watermark", "--lut", lut, "--duration", "1", "--library", library,
                                                        "--json"] + RecordEndToEndTests.small, timeout: 120)
            #expect(result.exitCode == 0, "\(result)")
            let asset = try #require(try result.jsonObject()["asset"] as? [String: Any], "\(result)")
            let path = try #require(asset["path"] as? String)
            #expect(try await RecordEndToEndTests.streams(of: path)["h264"]?.frames == asset["frames"] as? Int)
            #expect(try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"]).errors.isEmpty)
        }
    }

    @Test("bad filter flags: a usage error naming the value and what to do, and nothing in the library", arguments: [
        "missing", "malformed", "beauty",
    ])
    func badFlags(kind: String) async throws {
        try await withScratchDirectory { directory in
            let library = directory.appendingPathComponent("Library")
            let broken = try Self.file("broken.cube", "LUT_3D_SIZE 2\n0 0 0\n1 0 zero\n", in: directory)
            let (flags, expected): ([String], String) = switch kind {
            case "missing": (["--lut", directory.appendingPathComponent("none.cube").path],
                             "cannot read the LUT \(directory.appendingPathComponent("none.cube").path): no such file — give the path of a readable .cube file")
            case "malformed": (["--lut", broken], "\(broken), line 3: \"zero\" is not a number — write the value as a decimal number such as 0.5")
            default: (["--beauty", "2"], "--beauty '2' is not a strength from 0 (off) to 1 (strongest) — see 'camerasun help record'")
            }
            let result = try await CameraSunBinary.run(["record", "--duration", "1", "--library", library.path] + flags
                + RecordEndToEndTests.small)
            #expect(result.exitCode == 2, "\(result)")
            #expect(result.stderrLines == ["camerasun: error: \(expected)"], "\(result)")
            #expect(Self.contents(of: library).isEmpty, "nothing left in the library: \(Self.contents(of: library))")
        }
    }

    @Test("--watermark into a read-only library: refused with the reason, the library left empty",
          .enabled(if: geteuid() == 0, "a read-only bind mount needs root"))
    func readOnlyLibrary() async throws {
        try await withScratchDirectory { directory in
            let library = directory.appendingPathComponent("Library", isDirectory: true)
            let view = directory.appendingPathComponent("view", isDirectory: true)
            try FileManager.default.createDirectory(at: library, withIntermediateDirectories: false)
            try FileManager.default.createDirectory(at: view, withIntermediateDirectories: false)
            try await withMount(["--bind", "-o", "ro", library.path], at: view) {
                let result = try await CameraSunBinary.run(["record", "--watermark", "Trip", "--duration", "1", "--library", view.path]
                    + RecordEndToEndTests.small)
                #expect(result.exitCode == 1, "\(result)")
                #expect(result.stderrLines.first?.contains("it is read-only") == true, "\(result)")
            }
            #expect(Self.contents(of: library).isEmpty, "nothing left in the library: \(Self.contents(of: library))")
        }
    }
}
