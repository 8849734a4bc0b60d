import CameraCore
import CameraEvaluation
import CameraSimulated
import Foundation

/// `camerasun hdr-eval`: a bracketed photo of each built-in scene and listed view beside its single
/// frame and the fusion peers, judged on the output (`HDREvaluation`), then each list summed up
/// against the HDR photo issue's acceptance (`HDRListSummary`).
enum HDREvalCommand {
    /// The `--json` output: `{"results":[…],"summaries":[…]}`, a row per scene × method and a summary per list.
    struct Report: Encodable {
        let results: [HDREvaluation.Row]
        let summaries: [HDRListSummary]
    }

    static func run(_ arguments: ArgumentList, terminal: Terminal) async throws {
        var arguments = arguments
        let json = arguments.flag("json")
        let sceneList = try arguments.option("scenes")
        let width = try arguments.integer("width", in: CaptureFlags.sizeRange, unit: "pixels") ?? 640
        let height = try arguments.integer("height", in: CaptureFlags.sizeRange, unit: "pixels") ?? 360
        let offsets = try arguments.bracket() ?? [-2, 0, 2]
        do {
            var lists: [(name: String, scenes: [SimulatedScene])] = []
            while let path = try arguments.option("views") {
                lists.append((path, try EvaluatedScene.views(listedIn: path).map(\.scene)))
            }
            try arguments.finish()
            // Built-in scenes run unless views replace them; --scenes adds them back.
            if lists.isEmpty || sceneList != nil {
                var scenes = SimulatedScene.builtIn
                if let sceneList, sceneList != "all" {
                    scenes = try sceneList.split(separator: ",").map { name throws(EvaluationError) in try SceneSpec.scene(String(name)) }
                }
                lists.insert(("built-in", scenes), at: 0)
            }
            let evaluation = HDREvaluation(size: PixelSize(width: width, height: height), offsets: offsets)
            let progress = terminal.progress(enabled: !json)
            let total = lists.reduce(0) { $0 + $1.scenes.count }
            var rows: [HDREvaluation.Row] = []
            for (list, scenes) in lists {
                for scene in scenes {
                    progress("hdr-eval: \(scene.name) (\(rows.count / HDREvaluation.methods.count + 1) of \(total))…")
                    rows += try await evaluation.run(scene, list: list)
                }
            }
            progress(nil)
            let summaries = HDRListSummary.summaries(of: rows, longestOffset: evaluation.offsets.max() ?? 0)
            if json { return try terminal.json(Report(results: rows, summaries: summaries)) }
            printTable(rows, terminal: terminal)
            for summary in summaries { printSummary(summary, terminal: terminal) }
        } catch let error as EvaluationError {
            throw CLIError(error)
        }
    }

    private static func printTable(_ rows: [HDREvaluation.Row], terminal: Terminal) {
        let width = rows.map(\.scene.count).max() ?? 0
        terminal.print(padded("scene", width) + " " + padded("method", 18) + "  lift  ΔEV   clip%  MEF-SSIM  TMQI   SNR dB  bound")
        for row in rows {
            terminal.print(padded(row.scene, width) + " " + padded(row.method, 18) + String(format: " %4.1f %+5.2f  %5.2f  %8.4f  %5.3f  %6.1f  %@",
                           row.renderGainEV, row.subjectEvError, row.clippedFraction * 100, row.mefSSIM, row.tmqi, row.subjectSnrDb,
                           row.withinBound ? "yes" : "no"))
        }
    }

    private static func printSummary(_ summary: HDRListSummary, terminal: Terminal) {
        terminal.print("\n\(summary.list): bracket within the output bound on \(summary.bracketWithinBound) of \(summary.scenes)")
        for medians in summary.medians {
            terminal.print("  median " + padded(medians.method, 18) + String(format: " MEF-SSIM %.4f  TMQI %.3f", medians.mefSSIM, medians.tmqi))
        }
        let (mef, tmqi) = summary.bracketAtLeastPeers
        terminal.print("  bracket's medians ≥ every peer's: MEF-SSIM \(mef ? "yes" : "no"), TMQI \(tmqi ? "yes" : "no")")
        if summary.darkestSubjects.isEmpty {
            terminal.print("  no scene lifts its subject by the bracket's longest offset or more")
        }
        for (scene, gain) in summary.darkestSubjects.sorted(by: { $0.key < $1.key }) {
            terminal.print(String(format: "  darkest subject %@: SNR %+.1f dB over the single frame", scene, gain))
        }
    }

    private static func padded(_ text: String, _ length: Int) -> String {
        text.padding(toLength: length, withPad: " ", startingAt: 0)
    }
}
