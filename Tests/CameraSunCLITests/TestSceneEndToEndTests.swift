import CameraTestSupport
import Foundation
import Testing

/// Test scenes (`moving-subject`) open by name wherever a scene name goes, as users name them,
/// and stay out of the eight the contract lists.
@Suite("Test scenes end to end: moving-subject through scene render, --source and scene list")
struct TestSceneEndToEndTests {
    @Test("scene render moving-subject writes its PNG and names the scene")
    func render() async throws {
        try await withScratchDirectory { directory in
            let path = directory.appendingPathComponent("ball.png").path
            let result = try await CameraSunBinary.run(["scene", "render", "moving-subject", "--shutter", "1/1000", "--gain", "1",
                                                        "--width", "160", "--height", "90", "--out", path, "--json"])
            #expect(result.exitCode == 0, "\(result)")
            #expect(try result.jsonObject()["scene"] as? String == "moving-subject")
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("meter --source sim:moving-subject runs the session on it")
    func source() async throws {
        let result = try await CameraSunBinary.run(["meter", "--source", "sim:moving-subject", "--frames", "3", "--json",
                                                    "--width", "160", "--height", "90"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdoutLines.count == 3)
    }

    @Test("scene list --json lists moving-subject under testScenes, apart from the eight built-in scenes")
    func listed() async throws {
        let result = try await CameraSunBinary.run(["scene", "list", "--json"])
        #expect(result.exitCode == 0, "\(result)")
        let json = try result.jsonObject()
        let builtIn = try #require(json["scenes"] as? [[String: Any]])
        let testScenes = try #require(json["testScenes"] as? [[String: Any]])
        #expect(builtIn.count == 8)
        #expect(testScenes.compactMap { $0["name"] as? String } == ["moving-subject"])
    }
}
