import Testing

@Suite("The command line's own flags and messages, end to end")
struct CommandLineTests {
    @Test("--version prints the version")
    func version() async throws {
        let result = try await CameraSunBinary.run(["--version"])
        #expect(result.exitCode == 0 && result.stdout.hasPrefix("camerasun 0."), "\(result)")
    }

    @Test("COMMAND --help shows that command's help", arguments: ["meter", "photo", "serve", "scene", "library"])
    func commandHelp(command: String) async throws {
        let result = try await CameraSunBinary.run([command, "--help"])
        #expect(result.exitCode == 0 && result.stdout.hasPrefix("usage: camerasun \(command)"), "\(result)")
    }

    @Test("Bare camerasun takes serve's flags")
    func bareTakesServeFlags() async throws {
        let result = try await CameraSunBinary.run(["--listen", "127.0.0.1:99999"])
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.contains("99999") && !result.stderr.contains("unknown command"), "\(result)")
    }

    @Test("Absurd values are named as the user gave them", arguments: [
        (["--iso", "0"], "--iso 0 is outside the supported range 50…3200"),
        (["--shutter", "0.00001"], "--shutter '0.00001' is shorter than a microsecond"),
        (["--shutter", "1e300us"], "--shutter '1e300us' is longer than an hour"),
        (["--shutter", "1/250", "--gain", "1e300"], "--gain 1e+300 is outside the supported range 1…64"),
    ])
    func absurdValues(arguments: [String], message: String) async throws {
        let result = try await CameraSunBinary.run(["meter", "--frames", "1", "--width", "64", "--height", "36"] + arguments)
        #expect(result.exitCode == 2 && result.stderr.contains(message), "\(result)")
        #expect(!result.stderr.contains("inf") && !result.stderr.contains(" 0 s"), "\(result)")
    }
}

@Suite("Sizes bounded by the machine, end to end")
struct RenderSizeLimitTests {
    @Test("scene render at a size the machine cannot hold is a usage error naming the memory it would take, at once")
    func hugeRenderIsRefused() async throws {
        let result = try await CameraSunBinary.run(["scene", "render", "backlit-portrait", "--width", "16384", "--height", "16384",
                                                    "--out", "/tmp/camerasun-never-written.png"])
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.contains("--width 16384 --height 16384: rendering 16384x16384 frames takes about 18.8 GB"), "\(result)")
    }
}
