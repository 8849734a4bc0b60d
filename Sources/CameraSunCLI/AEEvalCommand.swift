import CameraCore
import CameraExposure
import CameraSimulated
import Foundation

/// `camerasun ae-eval`: every scene × algorithm in closed loop on the simulated camera, judged
/// against ground truth (CLI.md).
enum AEEvalCommand {
    /// The `--json` output: `{"results":[…]}`, each row a result or, with `--samples`, a result
    /// with its frames.
    struct Report<Row: Encodable>: Encodable {
        let results: [Row]
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

    /// A scene to evaluate, with what the report says about its subject.
    struct EvaluatedScene {
        let scene: SimulatedScene
        let why: String
        let subject: NormalizedRect?
    }

    static func run(_ arguments: ArgumentList, terminal: Terminal) async throws {
        var arguments = arguments
        let json = arguments.flag("json")
        let samples = arguments.flag("samples")
        if samples && !json {
            throw CLIError.usage("--samples adds each run's frames to the JSON — add --json")
        }
        let sceneList = try arguments.option("scenes")
        let algorithmList = try arguments.option("algorithms") ?? algorithmNames.joined(separator: ",")
        let frames = try arguments.positiveInt("frames") ?? 120
        let width = try arguments.positiveInt("width") ?? 320
        let height = try arguments.positiveInt("height") ?? 180
        let seed = try arguments.seed()
        let reportPath = try arguments.option("report")
        var fileScenes: [EvaluatedScene] = []
        while let file = try arguments.option("scene-file") {
            // Each file's --subject and --intent are those before the next --scene-file.
            guard let subject = try arguments.option("subject", expected: "x,y,w,h (normalised, top-left origin)", before: "scene-file",
                                                     parseSubjectRect) else {
                throw CLIError.usage("--scene-file \(file) needs --subject x,y,w,h — the subject rectangle the exposure is judged on")
            }
            let intent = try arguments.double("intent", before: "scene-file") ?? 0
            fileScenes.append(EvaluatedScene(scene: try SourceSpec.hdrScene(file, subject: subject, intent: intent),
                                             why: "given on the command line.", subject: subject))
        }
        while let list = try arguments.option("views") {
            for view in try EvaluationView.load(list) {
                fileScenes.append(EvaluatedScene(scene: try view.scene(), why: view.why, subject: view.subject))
            }
        }
        try arguments.finish()
        if let reportPath { try checkWritable(reportPath) }

        // Built-in scenes run unless scene files or views replace them; --scenes adds them back.
        var named = SimulatedScene.builtIn
        if let sceneList, sceneList != "all" {
            named = try sceneList.split(separator: ",").map { name throws(CLIError) in try SourceSpec.scene(String(name)) }
        }
        let builtIn = named.map { EvaluatedScene(scene: $0, why: $0.summary, subject: nil) }
        let scenes = fileScenes.isEmpty || sceneList != nil ? builtIn + fileScenes : fileScenes
        let algorithms = algorithmList.split(separator: ",").map(String.init)
        for name in algorithms where !algorithmNames.contains(name) {
            throw CLIError.usage("unknown algorithm '\(name)' — choose from \(algorithmNames.joined(separator: ", "))")
        }
        let size = PixelSize(width: width, height: height)
        let evaluation = ClosedLoopEvaluation(frameCount: frames, size: size, seed: seed)
        let progress = BenchProgress(terminal: terminal, enabled: !json && terminal.stdoutIsTTY)
        var sections: [AEEvalReport.Section] = []
        for (index, entry) in scenes.enumerated() {
            var runs: [ClosedLoopEvaluation.Result] = []
            for name in algorithms {
                progress.show("ae-eval \(entry.scene.name) × \(name) (\(index * algorithms.count + runs.count + 1)/\(scenes.count * algorithms.count))")
                runs.append(try await evaluation.run(entry.scene, algorithm: makeAlgorithm(name)))
            }
            let budgetCost = try await evaluation.highlightBudgetCost(entry.scene, at: runs.first?.samples.last?.time ?? 0)
            for run in runs.indices { runs[run].highlightBudgetCost = budgetCost }
            sections.append(AEEvalReport.Section(scene: entry.scene.name, why: entry.why, subject: entry.subject,
                                                 intent: entry.scene.subjectIntent,
                                                 meanOverMedian: entry.scene.subjectMeanOverMedian(viewSize: size),
                                                 reference: reportPath == nil ? nil : try await evaluation.referenceThumbnail(entry.scene),
                                                 results: runs))
        }
        progress.clear()
        let results = sections.flatMap(\.results)
        if let reportPath {
            let html = try AEEvalReport.html(sections)
            do {
                try Data(html.utf8).write(to: URL(fileURLWithPath: reportPath), options: .atomic)
            } catch {
                throw CLIError.runtime("cannot write the report to \(reportPath): \(error.localizedDescription) — check the directory")
            }
        }
        if json {
            if samples {
                try terminal.json(Report(results: results.map(ClosedLoopEvaluation.SampledResult.init)))
            } else {
                try terminal.json(Report(results: results))
            }
            return
        }
        let sceneWidth = results.map(\.scene.count).max().map { max($0 + 1, 19) } ?? 19
        terminal.print("scene".padding(toLength: sceneWidth, withPad: " ", startingAt: 0)
            + "algorithm   converge  subject ΔEV  clipped  oscillations  budget cost  verdict")
        for result in results {
            let cost = describeBudgetCost(result.highlightBudgetCost)
            terminal.print(result.scene.padding(toLength: sceneWidth, withPad: " ", startingAt: 0)
                + result.algorithm.padding(toLength: 12, withPad: " ", startingAt: 0)
                + String(format: "%8d  %+10.2f  %6.1f%%  %12d  ", result.convergeFrames, result.subjectEvError,
                         result.clippedFraction * 100, result.oscillations)
                + String(repeating: " ", count: max(11 - cost.count, 0)) + cost + "  " + (result.verdict?.label ?? "—"))
        }
        terminal.print("")
        for line in ExposureVerdict.summaries(of: results) { terminal.print(line) }
    }

    /// A `highlightBudgetCost` for the table: EV, "≥8" at the search's depth, "—" when not measured.
    static func describeBudgetCost(_ cost: Double?) -> String {
        guard let cost else { return "—" }
        return cost >= ClosedLoopEvaluation.budgetSearchDepth ? "≥\(Int(ClosedLoopEvaluation.budgetSearchDepth))" : String(format: "%.2f", cost)
    }

    /// Fails before a long run when the report could not be written at its end.
    private static func checkWritable(_ path: String) throws(CLIError) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw .runtime("cannot write the report to \(path): \(directory) is not a writable directory — choose another --report path")
        }
    }
}
