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
        let seed = try arguments.seed()
        let reportPath = try arguments.option("report")
        var fileScenes: [SimulatedScene] = []
        while let file = try arguments.option("scene-file") {
            guard let subject = try arguments.option("subject", expected: "x,y,w,h (normalised, top-left origin)", parseRect) else {
                throw CLIError.usage("--scene-file \(file) needs --subject x,y,w,h — the subject rectangle the exposure is judged on")
            }
            let intent = try arguments.double("intent") ?? 0
            fileScenes.append(try SourceSpec.hdrScene(file, subject: subject, intent: intent))
        }
        try arguments.finish()

        let named: [SimulatedScene] = try sceneList == "all" ? SimulatedScene.builtIn : sceneList.split(separator: ",").map { name throws(CLIError) in
            try SourceSpec.scene(String(name))
        }
        let scenes = fileScenes.isEmpty || sceneList != "all" ? named + fileScenes : fileScenes
        let algorithms = algorithmList.split(separator: ",").map(String.init)
        for name in algorithms where !algorithmNames.contains(name) {
            throw CLIError.usage("unknown algorithm '\(name)' — choose from \(algorithmNames.joined(separator: ", "))")
        }
        let evaluation = ClosedLoopEvaluation(frameCount: frames, size: PixelSize(width: width, height: height), seed: seed)
        let progress = BenchProgress(terminal: terminal, enabled: !json && terminal.stdoutIsTTY)
        var results: [ClosedLoopEvaluation.Result] = []
        for scene in scenes {
            for name in algorithms {
                progress.show("ae-eval \(scene.name) × \(name) (\(results.count + 1)/\(scenes.count * algorithms.count))")
                results.append(try await evaluation.run(scene, algorithm: makeAlgorithm(name)))
            }
        }
        progress.clear()
        if let reportPath {
            do {
                try Data(AEEvalReport.html(results).utf8).write(to: URL(fileURLWithPath: reportPath), options: .atomic)
            } catch {
                throw CLIError.runtime("cannot write the report to \(reportPath): \(error.localizedDescription) — check the directory")
            }
        }
        if json {
            try terminal.json(Report(results: results))
            return
        }
        let sceneWidth = results.map(\.scene.count).max().map { max($0 + 1, 19) } ?? 19
        terminal.print("scene".padding(toLength: sceneWidth, withPad: " ", startingAt: 0) + "algorithm   converge  subject ΔEV  clipped  oscillations")
        for result in results {
            terminal.print(result.scene.padding(toLength: sceneWidth, withPad: " ", startingAt: 0)
                + result.algorithm.padding(toLength: 12, withPad: " ", startingAt: 0)
                + String(format: "%8d  %+10.2f  %6.1f%%  %12d", result.convergeFrames, result.subjectEvError,
                         result.clippedFraction * 100, result.oscillations))
        }
    }
}

/// "x,y,w,h" as a normalised rectangle inside the frame.
private func parseRect(_ text: String) -> NormalizedRect? {
    let parts = text.split(separator: ",").compactMap { Double($0) }
    guard parts.count == 4, parts.allSatisfy({ (0...1).contains($0) }), parts[2] > 0, parts[3] > 0,
          parts[0] + parts[2] <= 1, parts[1] + parts[3] <= 1 else { return nil }
    return NormalizedRect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
}
