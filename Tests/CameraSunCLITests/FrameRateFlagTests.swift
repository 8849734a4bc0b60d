import Testing

@Suite("--framerate and format selection, end to end")
struct FrameRateFlagTests {
    @Test("A frame rate the camera cannot deliver is a usage error naming its range, never a crash",
          arguments: ["2147483647", "1e7", "1e308"])
    func absurdRatesAreUsageErrors(rate: String) async throws {
        for command in [["meter", "--frames", "1"], ["photo", "--library", "/nonexistent/never-created"], ["serve"]] {
            let result = try await CameraSunBinary.run(command + ["--width", "160", "--height", "90", "--framerate", rate])
            #expect(result.exitCode == 2, "\(command[0]): \(result)")
            #expect(result.stderr.contains("--framerate") && result.stderr.contains("1…120 fps"), "\(command[0]): \(result)")
        }
    }
}
