import Testing

/// `--shadows` on every command that takes `--ev`, end to end: a value outside −2…2 or not a
/// number is a usage error (exit 2) naming the value and the range, as `--ev`'s is.
@Suite("The shadows flag, end to end")
struct ShadowsFlagTests {
    @Test("A bad --shadows is a usage error naming the value and the range", arguments: [
        (["meter", "--frames", "1", "--width", "64", "--height", "36", "--shadows", "3"],
         "--shadows 3 is outside the supported range -2…2"),
        (["photo", "--width", "64", "--height", "36", "--shadows", "-2.5"], "--shadows -2.5 is outside the supported range -2…2"),
        (["scene", "render", "backlit-portrait", "--out", "/tmp/camerasun-never-written.png", "--shadows", "lots"],
         "--shadows 'lots' is not a number"),
        (["scene", "render", "backlit-portrait", "--out", "/tmp/camerasun-never-written.png", "--shadows", "2.01"],
         "--shadows 2.01 is outside the supported range -2…2"),
        (["photo", "--shadows", "1", "--shutter", "1/250"], "give --shadows or --shutter, not both"),
        (["scene", "render", "backlit-portrait", "--out", "/tmp/camerasun-never-written.png", "--shadows", "1", "--shutter", "1/250"],
         "--shadows shapes the AE's picture"),
    ])
    func badValue(arguments: [String], message: String) async throws {
        let result = try await CameraSunBinary.run(arguments)
        #expect(result.exitCode == 2 && result.stderr.contains(message), "\(result)")
    }

    @Test("Each command that takes --ev says what --shadows does in its help", arguments: ["meter", "photo", "scene"])
    func help(command: String) async throws {
        let result = try await CameraSunBinary.run(["help", command])
        #expect(result.exitCode == 0 && result.stdout.contains("[--shadows N]"), "\(result)")
    }

    @Test("scene render --shadows reports the value it rendered with")
    func sceneRender() async throws {
        let result = try await CameraSunBinary.run(["scene", "render", "backlit-portrait", "--width", "160", "--height", "90",
                                                    "--out", "/tmp/camerasun-shadows-test.png", "--shadows", "1.5", "--json"])
        #expect(result.exitCode == 0 && result.stdout.contains(#""shadows":1.5"#), "\(result)")
    }
}
