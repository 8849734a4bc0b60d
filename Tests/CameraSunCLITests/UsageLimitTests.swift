import CameraTestSupport
import Foundation
import Testing

/// Values a command cannot do anything sensible with are usage errors (exit 2) that name the
/// range, before a camera opens: numbers its arithmetic cannot hold, a take shorter than a frame
/// or smaller than a megabyte, a bitrate the encoder refuses, a frame too small to develop, a
/// library that is a file. And a password in an RTMP URL is never printed.
@Suite("Usage limits end to end")
struct UsageLimitTests {
    static let camera = ["--source", "sim:backlit-portrait", "--width", "160", "--height", "90"]

    @Test("Out-of-range numbers are usage errors naming the range", arguments: [
        (["record", "--min-free", "1e15"], "--min-free 1000000000000000 megabytes is outside the supported range 0…1000000000 megabytes"),
        (["record", "--max-size", "1e13"], "--max-size 10000000000000 megabytes is outside the supported range 1…1000000000 megabytes"),
        (["record", "--max-size", "0.001"], "--max-size 0.001 megabytes is outside the supported range 1…1000000000 megabytes"),
        (["record", "--duration", "1e-9"], "--duration 1e-09 seconds is outside the supported range 0.0333…1000000 seconds"),
        (["record", "--duration", "1e-9", "--framerate", "10"], "--duration 1e-09 seconds is outside the supported range 0.1…1000000 seconds"),
        (["stream", "--to", "rtmp://127.0.0.1:1/live/key", "--bitrate", "9223372036854776"],
         "--bitrate 9223372036854776 kb/s is outside the supported range 100…1000000 kb/s"),
        (["stream", "--to", "rtmp://127.0.0.1:1/live/key", "--bitrate", "50"], "--bitrate 50 kb/s is outside the supported range 100…1000000 kb/s"),
        (["stream", "--to", "rtmp://127.0.0.1:1/live/key", "--duration", "2e20"], "--duration 2e+20 seconds is outside the supported range"),
        (["meter", "--frames", "1", "--width", "1", "--height", "1"], "--width 1 pixels is outside the supported range 16…16384 pixels"),
    ])
    func outOfRange(arguments: [String], message: String) async throws {
        try await withScratchDirectory { directory in
            let library = arguments[0] == "meter" ? [] : ["--library", directory.appendingPathComponent("lib").path]
            let result = try await CameraSunBinary.run(arguments + library + (arguments.contains("--width") ? [] : Self.camera))
            #expect(result.exitCode == 2, "\(result)")
            #expect(result.stderr.contains(message), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("lib").path), "nothing was started")
        }
    }

    @Test("--library naming a file says it is a file, not a folder", arguments: ["record", "photo", "serve", "library"])
    func libraryIsAFile(command: String) async throws {
        try await withScratchDirectory { directory in
            let file = directory.appendingPathComponent("notes.txt")
            try Data("x".utf8).write(to: file)
            let arguments = command == "library" ? ["library", "list", "--library", file.path] : [command, "--library", file.path] + Self.camera
            let result = try await CameraSunBinary.run(arguments)
            #expect(result.exitCode == 2, "\(result)")
            #expect(result.stderr.contains("--library \(file.path) is a file, not a folder"), "\(result)")
        }
    }

    @Test("A password in an rtmp:// URL is masked in every message and status line", arguments: [
        ["--to", "rtmp://user:secretpw@127.0.0.1:1/live/key", "--duration", "1.5", "--json", "--audio", "none"],
        ["--to", "rtmp://user:secretpw@127.0.0.1:1/"], ["--to", "http://user:secretpw@127.0.0.1:1/live/key"],
    ])
    func passwordMasked(arguments: [String]) async throws {
        let result = try await CameraSunBinary.run(["stream"] + arguments + Self.camera)
        #expect(!result.stdout.contains("secretpw") && !result.stderr.contains("secretpw"), "\(result)")
        #expect(result.stdout.contains("user:****@") || result.stderr.contains("user:****@"), "\(result)")
        #expect(!result.stderr.contains("bad host"), "a user and password are part of an RTMP URL: \(result)")
    }
}
