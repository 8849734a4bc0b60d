import CameraCore
import CameraExposure
import CameraSimulated
import Foundation

/// `camerasun ae-eval`: every scene × algorithm in closed loop on the simulated camera, judged
/// against ground truth (CLI.md).
enum AEEvalCommand {
    struct Report: Encodable {
        let results: [ClosedLoopEvaluation.Result]
    }

    static let algorithmNames = ["naive", "centre", "libcamera", "sun"]

    static func makeAlgorithm(_ name: String) -> any ExposureAlgorithm {
        switch name {
        case "naive": SeedExposureLoop(centreCrop: false)
        case "centre": SeedExposureLoop(centreCrop: true)
        case "libcamera": LibcameraExposure()
        default: SunAwareExposure()
        }
    }

    static func run(_ arguments: ArgumentList, terminal: Terminal) async throws {
        var arguments = arguments
        let json = arguments.flag("json")
        let sceneList = try arguments.option("scenes") ?? "all"
        let algorithmList = try arguments.option("algorithms") ?? algorithmNames.joined(separator: ",")
        let frames = try arguments.positiveInt("frames") ?? 120
        let width = try arguments.positiveInt("width") ?? 320
        let height = try arguments.positiveInt("height") ?? 180
        try arguments.finish()

        let scenes: [SimulatedScene] = try sceneList == "all" ? SimulatedScene.builtIn : sceneList.split(separator: ",").map { name throws(CLIError) in
            try SourceSpec.scene(String(name))
        }
        let algorithms = algorithmList.split(separator: ",").map(String.init)
        for name in algorithms where !algorithmNames.contains(name) {
            throw CLIError.usage("unknown algorithm '\(name)' — choose from \(algorithmNames.joined(separator: ", "))")
        }
        let evaluation = ClosedLoopEvaluation(frameCount: frames, size: PixelSize(width: width, height: height))
        let progress = BenchProgress(terminal: terminal, enabled: !json && terminal.stdoutIsTTY)
        var results: [ClosedLoopEvaluation.Result] = []
        for scene in scenes {
            for name in algorithms {
                progress.show("ae-eval \(scene.name) × \(name) (\(results.count + 1)/\(scenes.count * algorithms.count))")
                results.append(try await evaluation.run(scene, algorithm: makeAlgorithm(name)))
            }
        }
        progress.clear()
        if json {
            try terminal.json(Report(results: results))
            return
        }
        terminal.print("scene              algorithm   converge  subject ΔEV  clipped  oscillations")
        for result in results {
            terminal.print(result.scene.padding(toLength: 19, withPad: " ", startingAt: 0)
                + result.algorithm.padding(toLength: 12, withPad: " ", startingAt: 0)
                + String(format: "%8d  %+10.2f  %6.1f%%  %12d", result.convergeFrames, result.subjectEvError,
                         result.clippedFraction * 100, result.oscillations))
        }
    }
}
