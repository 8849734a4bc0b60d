import CameraCore
import CameraEvaluation
import CameraSimulated
import Foundation

/// `camerasun hdr-eval`: a bracketed photo of each built-in scene beside its single frame and the
/// fusion peers, judged on the output (`HDREvaluation`).
enum HDREvalCommand {
    /// The `--json` output: `{"results":[…]}`, a row per scene × method.
    struct Report: Encodable {
        let results: [HDREvaluation.Row]
    }

    static func run(_ arguments: ArgumentList, terminal: Terminal) async throws {
        var arguments = arguments
        let json = arguments.flag("json")
        let sceneList = try arguments.option("scenes")
        let width = try arguments.positiveInt("width") ?? 640
        let height = try arguments.positiveInt("height") ?? 360
        try arguments.finish()
        do {
            var scenes = SimulatedScene.builtIn
            if let sceneList, sceneList != "all" {
                scenes = try sceneList.split(separator: ",").map { name throws(EvaluationError) in try SceneSpec.scene(String(name)) }
            }
            let evaluation = HDREvaluation(size: PixelSize(width: width, height: height))
            let progress = terminal.progress(enabled: !json)
            var rows: [HDREvaluation.Row] = []
            for (index, scene) in scenes.enumerated() {
                progress("hdr-eval: \(scene.name) (\(index + 1) of \(scenes.count))…")
                rows += try await evaluation.run(scene)
            }
            progress(nil)
            if json { return try terminal.json(Report(results: rows)) }
            func padded(_ text: String) -> String { text.padding(toLength: 18, withPad: " ", startingAt: 0) }
            terminal.print(padded("scene") + " " + padded("method") + "  ΔEV   clip%  MEF-SSIM  TMQI   SNR dB  bound")
            for row in rows {
                terminal.print(padded(row.scene) + " " + padded(row.method) + String(format: " %+5.2f  %5.2f  %8.4f  %5.3f  %6.1f  %@",
                               row.subjectEvError, row.clippedFraction * 100, row.mefSSIM, row.tmqi, row.subjectSnrDb, row.withinBound ? "yes" : "no"))
            }
        } catch let error as EvaluationError {
            throw CLIError(error)
        }
    }
}
