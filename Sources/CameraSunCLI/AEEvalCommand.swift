import CameraCore
import CameraEvaluation
import CameraSimulated
import Foundation

/// `camerasun ae-eval`: every scene × algorithm in closed loop on the simulated camera, judged
/// against ground truth (CLI.md) — the flags read here, the evaluation in `CameraEvaluation`.
enum AEEvalCommand {
    /// The `--json` output: `{"results":[…]}`, each row a result or, with `--samples`, a result
    /// with its frames.
    struct Report<Row: Encodable>: Encodable {
        let results: [Row]
    }

    static func run(_ arguments: ArgumentList, terminal: Terminal) async throws {
        do {
            try await evaluate(arguments, terminal: terminal)
        } catch let error as EvaluationError {
            throw CLIError(error)
        }
    }

    private static func evaluate(_ arguments: ArgumentList, terminal: Terminal) async throws {
        var arguments = arguments
        let json = arguments.flag("json")
        let samples = arguments.flag("samples")
        if samples && !json {
            throw CLIError.usage("--samples adds each run's frames to the JSON — add --json")
        }
        let sceneList = try arguments.option("scenes")
        let algorithmList = try arguments.option("algorithms")
        let frames = try arguments.integer("frames", in: 1...100_000) ?? 120
        let width = try arguments.integer("width", in: CaptureFlags.sizeRange, unit: "pixels") ?? 320
        let height = try arguments.integer("height", in: CaptureFlags.sizeRange, unit: "pixels") ?? 180
        let seed = try arguments.seed()
        let reportPath = try arguments.option("report")
        let toneMapping = try arguments.hdr() ?? .local
        var fileScenes: [EvaluatedScene] = []
        while let file = try arguments.option("scene-file") {
            // Each file's --subject and --intent are those before the next --scene-file.
            guard let subject = try arguments.option("subject", expected: "x,y,w,h (normalised, top-left origin)", before: "scene-file",
                                                     EvaluatedScene.subject(parsing:)) else {
                throw CLIError.usage("--scene-file \(file) needs --subject x,y,w,h — the subject rectangle the exposure is judged on")
            }
            let intent = try arguments.double("intent", before: "scene-file") ?? 0
            fileScenes.append(try EvaluatedScene(hdrSpec: file, subject: subject, intent: intent))
        }
        while let list = try arguments.option("views") {
            fileScenes += try EvaluatedScene.views(listedIn: list)
        }
        try arguments.finish()
        if let reportPath { try WritablePath.check(reportPath, writing: "the report", flag: "--report") }

        // Built-in scenes run unless scene files or views replace them; --scenes adds them back.
        var named = SimulatedScene.builtIn
        if let sceneList, sceneList != "all" {
            named = try sceneList.split(separator: ",").map { name throws(EvaluationError) in try SceneSpec.scene(String(name)) }
        }
        let builtIn = named.map(EvaluatedScene.init(builtIn:))
        let scenes = fileScenes.isEmpty || sceneList != nil ? builtIn + fileScenes : fileScenes
        let algorithms = try algorithmList.map(EvaluatedAlgorithm.list) ?? EvaluatedAlgorithm.allCases
        let evaluation = ClosedLoopEvaluation(frameCount: frames, size: PixelSize(width: width, height: height), seed: seed,
                                              toneMapping: toneMapping)
        let progress = terminal.progress(enabled: !json)
        let sections = try await evaluation.evaluate(scenes, algorithms: algorithms, references: reportPath != nil) { progress($0) }
        progress(nil)
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
        for line in AEEvalTable.lines(sections) { terminal.print(line) }
    }
}
