import CameraSimulated
import Foundation

extension ClosedLoopEvaluation {
    /// Runs each algorithm on each scene in turn; the sun AE on each view at dusk too; with `peers`,
    /// OpenCV's tone mappers on the sun AE's last frame; with `references`, also the report's
    /// reference frame of each scene.
    /// `progress` hears "ae-eval SCENE × ALGORITHM (k/n)" before each run.
    public func evaluate(_ scenes: [EvaluatedScene], algorithms: [EvaluatedAlgorithm], peers: Bool = true, references: Bool,
                         progress: (String) -> Void = { _ in }) async throws -> [AEEvalReport.Section] {
        var sections: [AEEvalReport.Section] = []
        for (index, entry) in scenes.enumerated() {
            var runs: [Result] = []
            for algorithm in algorithms {
                progress("ae-eval \(entry.scene.name) × \(algorithm.rawValue) (\(index * algorithms.count + runs.count + 1)/\(scenes.count * algorithms.count))")
                runs.append(try await run(entry.scene, algorithm: algorithm.make()))
            }
            if let sunIndex = runs.firstIndex(where: { $0.algorithm == EvaluatedAlgorithm.sun.rawValue }) {
                if let dusk = entry.dusk {
                    progress("ae-eval \(entry.scene.name) at dusk × sun")
                    runs[sunIndex].duskEV = ClosedLoopEvaluation.levelChange(from: runs[sunIndex],
                                                                              to: try await run(dusk, algorithm: EvaluatedAlgorithm.sun.make()))
                }
                if peers {
                    progress("ae-eval \(entry.scene.name) × OpenCV's tone mappers")
                    runs += try self.peers(of: runs[sunIndex], scene: entry.scene)
                }
            }
            sections.append(AEEvalReport.Section(scene: entry.scene.name, list: entry.list, why: entry.why, subject: entry.subject,
                                                 intent: entry.scene.subjectIntent,
                                                 meanOverMedian: entry.scene.subjectMeanOverMedian(viewSize: size),
                                                 reference: references ? try await referenceThumbnail(entry.scene) : nil,
                                                 results: runs))
        }
        return sections
    }
}

extension ClosedLoopEvaluation {
    /// How much darker (negative) or brighter `other`'s last output is than `run`'s on average, in
    /// EV of the frames' mean linear luminance.
    static func levelChange(from run: Result, to other: Result) -> Double? {
        guard let output = run.output, let truth = run.truth, let otherOutput = other.output, let otherTruth = other.truth else { return nil }
        let (level, otherLevel) = (GroundTruthReading(output, truth: truth).frameLinearMean,
                                   GroundTruthReading(otherOutput, truth: otherTruth).frameLinearMean)
        return log2(max(otherLevel, 1e-6) / max(level, 1e-6))
    }
}
